//! Pinning the pane's resume line with agterm at SessionStart (and whenever the id or directory changes),
//! so agterm itself types it after its next restart (rerun mode).

use agterm_backup_core::record::LiveRecord;
use std::time::Instant;

/// Where to pin: the pane's identity from its environment.
#[derive(Debug, Clone)]
pub struct PinTarget {
    /// `$AGTERM_SOCKET`.
    pub socket: Option<String>,
    /// `$AGTERM_SESSION_ID`, upper-case.
    pub agterm_session: String,
    /// `$AGTERM_PANE` (`left`/`right`), sent as the fallback when the token is unknown.
    pub pane: String,
    /// `$AGTERM_PANE_ID`.
    pub pane_id: Option<String>,
}

/// Pins `record`'s resume line when it differs from the last pinned one (`previous.pinned_line`), and
/// writes the outcome into `record.pin` / `record.pinned_line`. Gives up at `deadline`. Never prints.
pub fn pin_if_changed(
    target: &PinTarget,
    previous: Option<&LiveRecord>,
    record: &mut LiveRecord,
    deadline: Instant,
) {
    let _ = (target, previous, record, deadline);
}
