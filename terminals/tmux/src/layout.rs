//! Learning a server's whole layout with one `list-panes -a`, and keeping it in the state directory
//! ([`crate::layout_file`]): the hook does it whenever it asks tmux anyway (the same one
//! question), and the tmux hooks of the installer's block do it whenever tmux moves, closes or renumbers
//! a pane (`agterm-backup tmux-layout`).
//!
//! Two layout hooks of one server can run at once (one change fires several hooks): the question and the
//! write happen under an exclusive `flock` on that server's lock (`<state>/tmux/layout-<socket hash>.lock`),
//! so the layout written last is the one tmux gave last; each job marks its server dirty first and asks
//! tmux only while the mark is still there once it holds the lock ([`keep_coalesced`]). Lock and mark are
//! per socket: a job of another server (even a wedged one) never holds this server's moves up, and a
//! holder only ever serves its own server's mark.

use crate::command::{TmuxError, TmuxServer};
use crate::layout_file::{
    dirty_path, layout_path, lock_path, read_layout, with_positions, write_layout, LaidOutPane,
    SavedLayout, ServerLayout,
};
use agterm_backup_core::state::{guard, StateDir};
use std::fs;
use std::os::unix::io::AsRawFd;
use std::path::Path;
use std::time::Duration;

/// The `list-panes -a -F` format [`parse_layout`] reads: the server's pid and start on every line, the
/// session name (free-form) last, fields split by the unit separator.
pub const LAYOUT_FORMAT: &str =
    "#{pid}\u{1f}#{start_time}\u{1f}#{pane_id}\u{1f}#{window_index}\u{1f}#{pane_index}\u{1f}#{pane_current_path}\u{1f}#{session_name}";

/// The layout in `out` (the answer to [`LAYOUT_FORMAT`]) of the server on `socket`. `None` when no line
/// parses (a server with no pane has no layout worth keeping).
pub fn parse_layout(socket: &str, out: &str) -> Option<ServerLayout> {
    let mut server = None;
    let mut panes = Vec::new();
    for line in out.lines() {
        let f: Vec<&str> = line.splitn(7, '\u{1f}').collect();
        let [pid, started, id, w, p, cwd, session] = f[..] else {
            continue;
        };
        let (Ok(pid), Ok(started), Ok(window), Ok(pane)) = (
            pid.parse::<u32>(),
            started.parse::<i64>(),
            w.parse(),
            p.parse(),
        ) else {
            continue;
        };
        if !crate::env::is_pane_id(id) {
            continue;
        }
        server = Some((pid, started));
        panes.push(LaidOutPane {
            pane_id: id.to_string(),
            session: session.to_string(),
            window,
            pane,
            position: 0,
            cwd: (!cwd.is_empty()).then(|| cwd.to_string()),
        });
    }
    let (server_pid, server_started) = server?;
    Some(ServerLayout {
        socket: socket.to_string(),
        server_pid,
        server_started,
        listed_at: chrono::Utc::now(),
        panes: with_positions(panes),
        rebuilt: None,
        saved: None,
    })
}

/// Asks the server for its layout and keeps it under `state_root` (the question and the write under the
/// layout lock). The layout is returned even when it could not be kept. The hook never waits for the
/// lock: when a layout job holds it, the hook's answer is not written (the dirty mark makes the holder ask
/// again). A layout job that marked the server meanwhile is served once after.
pub fn learn_and_keep(server: &TmuxServer, state_root: &Path) -> Result<ServerLayout, TmuxError> {
    let mark = dirty_mark(server, state_root);
    let Some(lock) = LayoutLock::take(server, state_root) else {
        let _ = touch(state_root, &mark);
        return list(server);
    };
    let _ = fs::remove_file(&mark);
    let layout = list(server);
    if let Ok(l) = &layout {
        // A failed write costs restore this move only; the record's own place is still there.
        let _ = write_layout(state_root, l);
    }
    serve_marks(server, state_root, &mark, 1);
    drop(lock);
    layout
}

/// How long a layout job waits for its server's lock. The holder asks tmux once per round, each bounded
/// by the caller's budget; a job still waiting after this leaves its mark to the holder.
const JOB_WAIT: Duration = Duration::from_secs(3);

/// What a layout hook runs: marks its server dirty, then waits for the server's lock; once it holds it,
/// asks tmux only when the mark is still there (no job took the layout since this one's change), at
/// most `rounds` times while the hook without a wait (the agents' hook) marks it again. So a burst of
/// hooks (one change fires several) costs one question to tmux at a time, and the last change is never
/// lost: the job it fired either finds its mark served by a question asked after it, or asks itself.
pub fn keep_coalesced(server: &TmuxServer, state_root: &Path, rounds: usize) {
    let mark = dirty_mark(server, state_root);
    let _ = guard::own_dir(state_root, &state_root.join("tmux"));
    let marked = touch(state_root, &mark).is_ok();
    if let Some(_lock) = LayoutLock::wait_up_to(server, state_root, JOB_WAIT) {
        // Without its mark (refused, logged) the job cannot tell whether it was served: it asks.
        if !marked {
            keep(server, state_root);
        }
        serve_marks(server, state_root, &mark, rounds);
    }
}

/// Asks the server for its layout and keeps it (a failed write costs restore this move only).
fn keep(server: &TmuxServer, state_root: &Path) {
    if let Ok(l) = list(server) {
        let _ = write_layout(state_root, &l);
    }
}

/// Under the server's lock: while its mark is there (at most `rounds` times), takes the mark and keeps
/// the layout tmux gives after it.
fn serve_marks(server: &TmuxServer, state_root: &Path, mark: &Path, rounds: usize) {
    for _ in 0..rounds {
        if !mark.exists() {
            return;
        }
        let _ = fs::remove_file(mark);
        keep(server, state_root);
    }
}

/// What the post-restore hook runs before restore: the panes there are now are the ones the layout
/// restorer rebuilt (added to those of an earlier restore of this server).
pub fn mark_rebuilt(server: &TmuxServer, state_root: &Path) -> Result<(), TmuxError> {
    let _lock = LayoutLock::wait(server, state_root);
    let mut layout = list(server)?;
    let path = layout_path(
        state_root,
        &layout.socket,
        layout.server_pid,
        layout.server_started,
    );
    let mut ids = read_layout(&path)
        .and_then(|l| l.rebuilt)
        .unwrap_or_default();
    ids.extend(layout.panes.iter().map(|p| p.pane_id.clone()));
    ids.sort();
    ids.dedup();
    layout.rebuilt = Some(ids);
    write_layout(state_root, &layout).map_err(|e| TmuxError::Refused(e.to_string()))
}

/// What tmux-resurrect's post-save hook runs: the layout now is the one its save holds (`saved`), so a
/// restore from that save rebuilds each of these panes at its place here, whatever tmux moved later.
pub fn mark_saved(server: &TmuxServer, state_root: &Path) -> Result<(), TmuxError> {
    let _lock = LayoutLock::wait(server, state_root);
    let mut layout = list(server)?;
    layout.saved = Some(SavedLayout {
        listed_at: layout.listed_at,
        panes: layout.panes.clone(),
    });
    write_layout(state_root, &layout).map_err(|e| TmuxError::Refused(e.to_string()))
}

/// Leaves the dirty mark, never through a symlink (a refusal is logged).
fn touch(state_root: &Path, mark: &Path) -> std::io::Result<()> {
    guard::touch(mark).map_err(|e| StateDir::at(state_root).logged("tmux layout mark", e))
}

/// The dirty mark of `server`'s socket.
fn dirty_mark(server: &TmuxServer, state_root: &Path) -> std::path::PathBuf {
    dirty_path(state_root, &server.socket().display().to_string())
}

fn list(server: &TmuxServer) -> Result<ServerLayout, TmuxError> {
    let socket = server.socket().display().to_string();
    let out = server.run(&["list-panes", "-a", "-F", LAYOUT_FORMAT])?;
    parse_layout(&socket, &out)
        .ok_or_else(|| TmuxError::Refused(format!("no pane in the answer {out:?}")))
}

/// An exclusive `flock` on the lock of one server's socket ([`lock_path`]), released on drop; `None`
/// while another process holds it. Without a lock file (an unwritable state directory) the write is
/// merely unordered.
struct LayoutLock(Option<fs::File>);

impl LayoutLock {
    fn take(server: &TmuxServer, state_root: &Path) -> Option<LayoutLock> {
        let dir = state_root.join("tmux");
        let path = lock_path(state_root, &server.socket().display().to_string());
        // Never through a symlink planted at the lock's path or the folder's: refused, logged.
        let file = guard::own_dir(state_root, &dir)
            .and_then(|()| guard::open_lock(&path))
            .map_err(|e| StateDir::at(state_root).logged("tmux layout lock", e))
            .ok();
        if let Some(f) = &file {
            // SAFETY: a valid open descriptor; flock has no other precondition.
            if unsafe { libc::flock(f.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } != 0 {
                return None;
            }
        }
        Some(LayoutLock(file))
    }

    /// The lock, waiting a moment for a layout job that holds it (they are quick); after that, none: a
    /// marking must not be lost, and an unordered write loses less than none.
    fn wait(server: &TmuxServer, state_root: &Path) -> LayoutLock {
        LayoutLock::wait_up_to(server, state_root, Duration::from_millis(500))
            .unwrap_or(LayoutLock(None))
    }

    /// The lock, once the process that holds it lets go; `None` after `limit`.
    fn wait_up_to(server: &TmuxServer, state_root: &Path, limit: Duration) -> Option<LayoutLock> {
        let deadline = std::time::Instant::now() + limit;
        loop {
            if let Some(lock) = LayoutLock::take(server, state_root) {
                return Some(lock);
            }
            if std::time::Instant::now() > deadline {
                return None;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}

impl Drop for LayoutLock {
    fn drop(&mut self) {
        if let Some(f) = &self.0 {
            // SAFETY: as in take.
            unsafe { libc::flock(f.as_raw_fd(), libc::LOCK_UN) };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_pane_with_its_position() {
        let out = "77\u{1f}1796126424\u{1f}%3\u{1f}0\u{1f}1\u{1f}/w/a\u{1f}Wé ird\n\
                   77\u{1f}1796126424\u{1f}%1\u{1f}0\u{1f}0\u{1f}/w/b\u{1f}Wé ird\n\
                   77\u{1f}1796126424\u{1f}%5\u{1f}2\u{1f}1\u{1f}\u{1f}side\n\
                   junk\n\
                   77\u{1f}1796126424\u{1f}nope\u{1f}2\u{1f}1\u{1f}/\u{1f}side\n";
        let l = parse_layout("/tmp/s", out).unwrap();
        assert_eq!((l.server_pid, l.server_started), (77, 1796126424));
        let got: Vec<(&str, &str, u32, u32, u32)> = l
            .panes
            .iter()
            .map(|p| {
                let id = p.pane_id.as_str();
                (id, p.session.as_str(), p.window, p.pane, p.position)
            })
            .collect();
        assert_eq!(
            got,
            [
                ("%3", "Wé ird", 0, 1, 1),
                ("%1", "Wé ird", 0, 0, 0),
                ("%5", "side", 2, 1, 0)
            ]
        );
        assert_eq!(l.panes[0].cwd.as_deref(), Some("/w/a"));
        assert_eq!(l.panes[2].cwd, None);
        assert!(parse_layout("/tmp/s", "junk\n").is_none());
    }
}
