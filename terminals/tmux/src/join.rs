//! Which pane of the running tmux server a tmux record belongs to.
//!
//! Layout restorers (tmux-resurrect, tmuxp, tmuxinator) rebuild sessions by name and windows by index on
//! the same socket, and a window's panes by splitting it once per saved pane, in order; `%N` ids start
//! again at `%0`. So a record joins by server + session + window + the pane's *position* (its rank in the
//! window: tmux-resurrect's restored index is the new `pane-base-index` plus that rank), and only when
//! the pane's directory confirms it (the pane's directory when the record was written, the agent's, or
//! the hook's). A record from before this rule's layouts (no position known) compares pane indexes.
//!
//! **Following the pane.** tmux moves panes without an agent event (a closed pane renumbers the ones
//! after it; `renumber-windows`, `swap-pane`, `move-window`, `break-pane`, `join-pane` move them), so the
//! place a record names may hold another pane by the time of the reboot. The hook and the installer's
//! tmux hooks keep each server's last layout (`agterm_backup_tmux::layout_file`); [`follow_layouts`] moves each record
//! to the place its `%N` had in its server's last layout listed after it, or marks it closed when that
//! layout no longer has the pane (the pane was closed: pane gone, not the pane now at its old place).
//!
//! **The save a restore rebuilt.** tmux-resurrect rebuilds the layout of its last save, not the last
//! layout: its post-save hook (the installer's block) keeps the layout at each save (`saved`). When a
//! later server on the same socket noted the panes its restorer rebuilt and this server's save is the last
//! one before it, a record goes to its pane's place in that save: the pane is rebuilt there. A pane
//! closed after the save is rebuilt too, but its conversation ended with it (pane gone: the rebuilt pane
//! gets nothing rather than a neighbour's); a pane opened after the save was not rebuilt at all (pane
//! gone). tmux-resurrect keeps one last save for every server, so the restorer may have rebuilt another
//! server's save (another socket's, or an earlier life's): then the panes there are that server's, and a
//! record of this one is skipped (`other-save`), never joined by its place. Without a save or a rebuild
//! noted (tmuxp, an older install) the last layout is followed.
//!
//! **Never a guess.** An uncertain join is skipped with the reason: a directory that does not confirm, a
//! pane that wrote a newer record elsewhere (it moved), two records of different panes claiming the same
//! pane. A record of the running server itself joins its `%N`, exactly.

use crate::layout_file::{read_layouts, ServerLayout};
use crate::pane::{TmuxPane, TmuxPart};
use agterm_backup_core::join::{CapturedPane, Join, JoinInput, JoinedBy, NotJoined};
use agterm_backup_core::own_pane::OwnPane;
use agterm_backup_core::pane::PaneKey;
use agterm_backup_core::record::LiveRecord;
use agterm_backup_core::terminal::PaneView;
use chrono::{DateTime, Utc};
use rebuild::{rebuilt_from, Rebuild};
use serde::{Deserialize, Serialize};
use std::path::Path;

#[path = "join_rebuild.rs"]
mod rebuild;

/// How a tmux record found its pane: server + session name + window index + pane index, confirmed by
/// the directory.
pub const TMUX_PLACE: JoinedBy = JoinedBy("tmux-place");

/// The key of [`Followed`] in a record's `extra`: set in memory by [`follow_layouts`], never written.
const FOLLOWED_KEY: &str = "tmux_followed";

/// What the server's last layout says of a record's pane.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct Followed {
    /// The pane's rank in its window.
    position: Option<u32>,
    /// The layout (listed after the record) in which the pane was no more.
    closed_by: Option<DateTime<Utc>>,
    /// The place the record named (its file's key) before it was followed.
    written_at_place: TmuxPane,
    /// The other server's save the running server's restorer rebuilt (described for a person).
    #[serde(default)]
    other_save: Option<String>,
}

/// The key of the servers' rebuilt panes in a record's `extra` (in memory only, like [`FOLLOWED_KEY`]).
const REBUILT_KEY: &str = "tmux_rebuilt";

/// The panes a layout restorer rebuilt on one server (its post-restore hook said so).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct Rebuilt {
    socket: String,
    pid: u32,
    started: i64,
    panes: Vec<String>,
}

/// The registry row's step before any join: every tmux record of `captured` follows its pane through
/// the layouts kept in the state directory at `state_root` ([`follow_layouts`]).
pub fn follow(captured: &mut [CapturedPane], state_root: &Path) {
    follow_layouts(captured, &read_layouts(state_root));
}

/// The registry row's join: a tmux record's pane by its place ([`join`]); a record that names none
/// joins nothing.
pub fn join_record(input: &JoinInput<'_>) -> Join {
    let Some(recorded) = input.record.tmux() else {
        return Join::Not(NotJoined::PaneGone);
    };
    match join(input.panes, &recorded, input.record, input.captured) {
        Ok(i) => Join::Pane(i, TMUX_PLACE),
        Err(why) => Join::Not(why),
    }
}

/// Moves every tmux record (current and journal) of `captured` to its pane's place in its server's last
/// layout, and notes the pane's position, or that it was closed, and which panes each server's layout
/// restorer rebuilt.
pub fn follow_layouts(captured: &mut [CapturedPane], layouts: &[ServerLayout]) {
    let rebuilt: Vec<Rebuilt> = layouts
        .iter()
        .filter_map(|l| {
            Some(Rebuilt {
                socket: l.socket.clone(),
                pid: l.server_pid,
                started: l.server_started,
                panes: l.rebuilt.clone()?,
            })
        })
        .collect();
    let rebuilt = serde_json::to_value(&rebuilt).ok();
    for c in captured.iter_mut() {
        for rec in c.record.iter_mut().chain(c.journal.iter_mut()) {
            follow_record(rec, layouts);
            if let (Some(v), Some(_)) = (&rebuilt, rec.tmux()) {
                rec.extra.insert(REBUILT_KEY.into(), v.clone());
            }
        }
    }
}

/// Whether `pane` (a pane of a running server) was opened after its server's layout restorer was done:
/// then it is a new pane, which no record of an earlier server joins.
fn opened_after_rebuild(rec: &LiveRecord, pane: &TmuxPane) -> bool {
    let Some(all) = rec
        .extra
        .get(REBUILT_KEY)
        .and_then(|v| serde_json::from_value::<Vec<Rebuilt>>(v.clone()).ok())
    else {
        return false;
    };
    all.iter().any(|r| {
        r.socket == pane.socket
            && Some(r.pid) == pane.server_pid
            && Some(r.started) == pane.server_started
            && pane
                .pane_id
                .as_ref()
                .is_some_and(|id| !r.panes.contains(id))
    })
}

fn follow_record(rec: &mut LiveRecord, layouts: &[ServerLayout]) {
    let Some(mut place) = rec.tmux() else { return };
    let Some(id) = place.pane_id.clone() else {
        return;
    };
    let Some(layout) = layouts
        .iter()
        .find(|l| l.is_server(&place.socket, place.server_pid, place.server_started))
    else {
        return;
    };
    let after_record = rec.written_at().is_some_and(|w| layout.listed_at >= w);
    let mut followed = Followed {
        position: None,
        closed_by: None,
        written_at_place: place.clone(),
        other_save: None,
    };
    let source = rebuilt_from(layouts, layout);
    if let Rebuild::OtherSave(from) = source {
        followed.other_save = Some(from);
    } else if let Rebuild::OwnSave(saved) = source {
        match saved.pane(&id) {
            // Rebuilt, but closed after the save: its conversation ended with the pane.
            Some(_) if layout.pane(&id).is_none() && layout.listed_at >= saved.listed_at => {
                followed.closed_by = Some(layout.listed_at)
            }
            Some(then) => {
                (place.session, place.window, place.pane) =
                    (then.session.clone(), then.window, then.pane);
                followed.position = Some(then.position);
                rec.set_tmux(&place);
            }
            // Opened after the save (or closed before it): nothing was rebuilt for it.
            None => followed.closed_by = Some(saved.listed_at),
        }
    } else {
        match layout.pane(&id) {
            Some(now) if after_record => {
                (place.session, place.window, place.pane) =
                    (now.session.clone(), now.window, now.pane);
                followed.position = Some(now.position);
                rec.set_tmux(&place);
            }
            // A layout from before the record: it confirms the position only where the record still
            // stood.
            Some(then)
                if (then.session.as_str(), then.window, then.pane)
                    == (&*place.session, place.window, place.pane) =>
            {
                followed.position = Some(then.position);
            }
            Some(_) => return,
            None if after_record => followed.closed_by = Some(layout.listed_at),
            None => return,
        }
    }
    if let Ok(v) = serde_json::to_value(&followed) {
        rec.extra.insert(FOLLOWED_KEY.into(), v);
    }
}

fn followed(rec: &LiveRecord) -> Option<Followed> {
    serde_json::from_value(rec.extra.get(FOLLOWED_KEY)?.clone()).ok()
}

/// The key of the captured pane `rec` was read from (its place before it was followed).
fn own_key(rec: &LiveRecord) -> Option<PaneKey> {
    match followed(rec) {
        Some(f) => Some(f.written_at_place.key()),
        None => TmuxPane::record_key(rec),
    }
}

/// The index in `panes` of the pane `recorded` (the record `rec`'s tmux pane) joins, or why none does.
pub fn join(
    panes: &[PaneView],
    recorded: &TmuxPane,
    rec: &LiveRecord,
    captured: &[CapturedPane],
) -> Result<usize, NotJoined> {
    if let Some(i) = live_server(panes, recorded) {
        return i;
    }
    if let Some(now_at) = moved_to(recorded, rec, captured) {
        return Err(NotJoined::JoinUncertain {
            why: format!(
                "the pane moved to {} later (its newer record is there)",
                now_at.target()
            ),
        });
    }
    let index = place_of(panes, recorded, rec)?;
    let now = panes[index].tmux().expect("place_of finds tmux panes");
    if let Some(other) = other_claim(panes, index, recorded, rec, captured) {
        return Err(NotJoined::JoinUncertain {
            why: format!(
                "two records claim {}: this one ({}) and {} ({} {})",
                now.target(),
                describe(recorded, rec),
                other
                    .tmux()
                    .map(|t| describe(&t, other))
                    .unwrap_or_default(),
                other.agent,
                other.session_id
            ),
        });
    }
    let confirming = [
        recorded.cwd.as_deref(),
        Some(rec.agent_cwd.as_str()),
        Some(rec.hook_cwd.as_str()),
    ];
    match panes[index].cwd.as_deref() {
        Some(cwd) if confirming.contains(&Some(cwd)) => Ok(index),
        cwd => Err(NotJoined::JoinUncertain {
            why: format!(
                "{} is in {}, but the pane recorded there was in {}: the layout changed since",
                now.target(),
                cwd.unwrap_or("an unknown directory"),
                recorded.cwd.as_deref().unwrap_or(&rec.agent_cwd)
            ),
        }),
    }
}

/// A record of the running server joins its `%N` (exact while the server runs), or nothing.
fn live_server(panes: &[PaneView], recorded: &TmuxPane) -> Option<Result<usize, NotJoined>> {
    let same_server = |t: &TmuxPane| {
        t.socket == recorded.socket
            && t.server_pid.is_some()
            && t.server_pid == recorded.server_pid
            && t.server_started == recorded.server_started
    };
    panes
        .iter()
        .filter_map(|p| p.tmux())
        .find(|t| same_server(t))?;
    Some(
        panes
            .iter()
            .position(|p| {
                p.tmux()
                    .is_some_and(|t| same_server(&t) && t.pane_id == recorded.pane_id)
            })
            .ok_or(NotJoined::PaneGone),
    )
}

/// The pane at the record's place: its server, session and window, and its position there (its pane
/// index when the position is unknown). A pane closed since the record is gone, whatever is there now;
/// a pane opened after the layout restorer was done is a new pane, not the record's.
fn place_of(panes: &[PaneView], recorded: &TmuxPane, rec: &LiveRecord) -> Result<usize, NotJoined> {
    let followed = followed(rec);
    if let Some(from) = followed.as_ref().and_then(|f| f.other_save.clone()) {
        return Err(NotJoined::OtherSave { from });
    }
    if followed.as_ref().is_some_and(|f| f.closed_by.is_some()) {
        return Err(NotJoined::PaneGone);
    }
    let position = followed.and_then(|f| f.position);
    panes
        .iter()
        .enumerate()
        .find_map(|(i, p)| {
            let now = p.tmux()?;
            let same_window = now.socket == recorded.socket
                && now.session == recorded.session
                && now.window == recorded.window;
            let same_pane = match position {
                Some(rank) => rank_in_window(panes, &now) == rank,
                None => now.pane == recorded.pane,
            };
            (same_window && same_pane).then_some(i)
        })
        .filter(|&i| {
            !panes[i]
                .tmux()
                .is_some_and(|t| opened_after_rebuild(rec, &t))
        })
        .ok_or(NotJoined::PaneGone)
}

/// The rank of `pane` among the listed panes of its window, by pane index.
fn rank_in_window(panes: &[PaneView], pane: &TmuxPane) -> u32 {
    panes
        .iter()
        .filter_map(|p| p.tmux())
        .filter(|t| {
            t.socket == pane.socket
                && t.session == pane.session
                && t.window == pane.window
                && t.pane < pane.pane
        })
        .count() as u32
}

/// Another pane's current record (not the same pane, not of the running server) that joins the same
/// pane: then neither is certain.
fn other_claim<'a>(
    panes: &[PaneView],
    index: usize,
    recorded: &TmuxPane,
    rec: &LiveRecord,
    captured: &'a [CapturedPane],
) -> Option<&'a LiveRecord> {
    let own = own_key(rec);
    captured
        .iter()
        .filter(|c| Some(&c.key) != own.as_ref())
        .filter_map(|c| c.record.as_ref())
        .find(|other| {
            let Some(t) = other.tmux() else { return false };
            !same_pane(&t, recorded)
                && live_server(panes, &t).is_none()
                && moved_to(&t, other, captured).is_none()
                && place_of(panes, &t, other) == Ok(index)
        })
}

fn describe(t: &TmuxPane, rec: &LiveRecord) -> String {
    format!(
        "pane {} written {}",
        t.pane_id.as_deref().unwrap_or("?"),
        rec.ts
    )
}

/// Same server (socket, pid and start) and the same `%N`.
fn same_pane(a: &TmuxPane, b: &TmuxPane) -> bool {
    a.pane_id.is_some()
        && a.pane_id == b.pane_id
        && a.server_pid == b.server_pid
        && a.server_started == b.server_started
        && a.socket == b.socket
}

/// Where the same pane wrote a newer current record under another key (it had moved then).
fn moved_to(recorded: &TmuxPane, rec: &LiveRecord, captured: &[CapturedPane]) -> Option<TmuxPane> {
    let own = own_key(rec);
    captured
        .iter()
        .filter(|c| Some(&c.key) != own.as_ref())
        .filter_map(|c| c.record.as_ref())
        .filter(|r| r.written_at() > rec.written_at())
        .filter_map(LiveRecord::tmux)
        .find(|t| same_pane(t, recorded))
}

#[cfg(test)]
#[path = "join_tests.rs"]
mod tests;
