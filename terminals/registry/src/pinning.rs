//! A terminal that keeps a pane's resume line itself and types it after its own restart (a pin): what
//! the hook asks of its row. A multiplexer pins nothing; its layout restorer runs restore through its
//! own hook.

use crate::{record_row, row};
use agterm_backup_core::pane::PaneKey;
use agterm_backup_core::record::LiveRecord;
use chrono::{DateTime, Utc};
use std::collections::HashMap;
use std::time::Instant;

/// A row's pin: the hook's step after deciding a pane's record and before writing it.
pub struct Pinning {
    /// Pins `record`'s resume line with the terminal when it differs from the one `previous` says is
    /// pinned, and writes the outcome into `record` (`pin`, `pinned_line`, the retry state). `env` is
    /// the environment the hook found its pane in. Gives up at `deadline`; never prints.
    pub pin: fn(
        env: &HashMap<String, String>,
        previous: Option<&LiveRecord>,
        record: &mut LiveRecord,
        deadline: Instant,
    ),
    /// Whether a failed pin in `previous` may be tried again at `now` (its backoff step is over).
    pub retry_due: fn(previous: &LiveRecord, now: DateTime<Utc>) -> bool,
}

/// The pin of the terminal whose pane `key` is, if it pins.
pub fn of_pane(key: &PaneKey) -> Option<&'static Pinning> {
    row(key.terminal()).pin.as_ref()
}

/// Whether `previous`'s failed pin is due for a retry at `now`, by its terminal's rule; `false` for a
/// record of a terminal that does not pin.
pub fn retry_due(previous: &LiveRecord, now: DateTime<Utc>) -> bool {
    record_row(previous)
        .pin
        .as_ref()
        .is_some_and(|p| (p.retry_due)(previous, now))
}
