//! Which zmx session a zmx record belongs to, and whether a session that is gone comes back.
//!
//! A session is the same session when its socket directory and name are: that is what `zmx attach
//! <name>` brings back, in any of its lives. Each session is its own terminal for the journal rule: its
//! cutoff is its daemon's start (`zmx list`'s `created`) — a record written before it belongs to the
//! session's previous life, one written after it to this one — and for a session that is gone, the
//! machine's boot (the terminal's `launched_at`). A gone session whose current record is older than the
//! boot was taken by the reboot and is recreated (plan row 3d); one with a record written after the
//! boot lived on after it and was closed since (by the user, or its shell exited), and stays closed (row
//! 3c). With the boot time unknown the two cannot be told apart, and nothing is recreated.

use crate::session::{ZmxPart, ZmxSession, NAME as ZMX};
use agterm_backup_core::join::{CapturedPane, Join, JoinInput, JoinedBy, NotJoined, PaneLaunch};
use agterm_backup_core::pane::PaneRole;
use agterm_backup_core::record::LiveRecord;
use agterm_backup_core::terminal::{PaneRef, PaneView};
use chrono::{DateTime, Utc};

/// How a zmx record found its session: socket directory + session name.
pub const ZMX_SESSION: JoinedBy = JoinedBy("zmx-session");

/// The registry row's join: a zmx record's session ([`join`]); a record that names none joins nothing.
pub fn join_record(input: &JoinInput<'_>) -> Join {
    let Some(session) = input.record.zmx() else {
        return Join::Not(NotJoined::PaneGone);
    };
    join(input.panes, &session, input.pane.record.as_ref(), input.cut)
}

/// For a zmx captured pane, its launch: `Some(start)` of its session now listed (`Some(None)` when the
/// session is gone, or its start unknown: the terminal's launch, the boot, then stands). `None` for
/// another terminal's pane.
pub fn launch_of(c: &CapturedPane, panes: &[PaneView]) -> Option<PaneLaunch> {
    if c.key.terminal() != ZMX {
        return None;
    }
    let key = c.key.as_str();
    let started = panes
        .iter()
        .filter_map(|p| p.zmx())
        .find(|z| z.key_name() == key)
        .and_then(|z| z.started)
        .and_then(|t| DateTime::from_timestamp(t, 0));
    Some(started)
}

/// The session `recorded` names among `panes` (listed now), or what to do without it (create it, or
/// why not). `current` is the pane's current record, `cut` its cutoff (the boot, for a gone session).
pub fn join(
    panes: &[PaneView],
    recorded: &ZmxSession,
    current: Option<&LiveRecord>,
    cut: Option<DateTime<Utc>>,
) -> Join {
    let listed = panes
        .iter()
        .position(|p| p.zmx().is_some_and(|now| now.same_session(recorded)));
    if let Some(i) = listed {
        return Join::Pane(i, ZMX_SESSION);
    }
    let Some(cut) = cut else {
        return Join::Not(NotJoined::PaneGone);
    };
    if let Some(at) = current
        .and_then(LiveRecord::written_at)
        .filter(|&t| t > cut)
    {
        return Join::Not(NotJoined::SessionClosed {
            last_seen: at.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
        });
    }
    Join::Create(PaneRef {
        session_id: recorded.name.clone(),
        role: PaneRole::Left,
        pane_id: Some(recorded.key_name()),
    })
}
