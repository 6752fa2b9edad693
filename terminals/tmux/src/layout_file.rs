//! The last known layout of a tmux server: where each pane (`%N`) sits, kept in the state directory.
//!
//! tmux moves panes without any agent event: closing a pane renumbers the panes after it,
//! `renumber-windows` renumbers windows, `swap-pane`, `move-window`, `break-pane` and `join-pane` move
//! them. A record names the place its pane had when the hook last wrote, so after a reboot that place may
//! hold another pane. The hook (whenever it asks tmux) and the tmux hooks the installer sets (whenever the
//! layout changes) write the whole layout of the server here, one file per server life; restore follows
//! each record's `%N` through its server's last layout to the place the pane had at the end, or learns
//! that the pane was closed.
//!
//! A pane's *position* is its rank among its window's panes: tmux-resurrect rebuilds a window by splitting
//! it once per saved pane in order, so a restored pane's index is the restoring server's
//! `pane-base-index` plus that rank, whatever the base was when the layout was saved.
//!
//! Everything here is per socket (one tmux server at a time): the layouts, and the lock and dirty mark
//! of the jobs that write them ([`lock_path`], [`dirty_path`]).

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

/// How many server lives of one socket keep their layout (the newest first).
const KEEP_PER_SOCKET: usize = 4;

/// One pane of a layout.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LaidOutPane {
    /// `%N`.
    pub pane_id: String,
    pub session: String,
    pub window: u32,
    pub pane: u32,
    /// Its rank among the panes of its window, by index (0 for the first).
    pub position: u32,
    /// The pane's current path then.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cwd: Option<String>,
}

/// Every pane of one server life at one moment.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ServerLayout {
    pub socket: String,
    pub server_pid: u32,
    /// The server's start time, Unix seconds (`#{start_time}`).
    pub server_started: i64,
    /// When tmux was asked.
    pub listed_at: DateTime<Utc>,
    pub panes: Vec<LaidOutPane>,
    /// The `%N`s a layout restorer rebuilt, when its post-restore hook said so: a pane of this server not
    /// among them was opened later by the user, and is a new pane, never a restored one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rebuilt: Option<Vec<String>>,
    /// The layout at tmux-resurrect's last save on this server (its post-save hook said so): a restore
    /// from that save rebuilds these panes at these places, whatever tmux moved since.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub saved: Option<SavedLayout>,
}

/// The panes of a server when tmux-resurrect saved it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SavedLayout {
    pub listed_at: DateTime<Utc>,
    pub panes: Vec<LaidOutPane>,
}

impl SavedLayout {
    /// The pane `%N`, if the server had it at the save.
    pub fn pane(&self, pane_id: &str) -> Option<&LaidOutPane> {
        self.panes.iter().find(|p| p.pane_id == pane_id)
    }
}

impl ServerLayout {
    /// The pane `%N`, if the server had it.
    pub fn pane(&self, pane_id: &str) -> Option<&LaidOutPane> {
        self.panes.iter().find(|p| p.pane_id == pane_id)
    }

    /// Whether this is the layout of the server `socket` + `pid` + `started`.
    pub fn is_server(&self, socket: &str, pid: Option<u32>, started: Option<i64>) -> bool {
        self.socket == socket
            && Some(self.server_pid) == pid
            && Some(self.server_started) == started
    }
}

/// Gives each pane its position: its rank by pane index among the panes of the same session and window.
pub fn with_positions(mut panes: Vec<LaidOutPane>) -> Vec<LaidOutPane> {
    let ranks: Vec<u32> = panes
        .iter()
        .map(|p| {
            panes
                .iter()
                .filter(|o| o.session == p.session && o.window == p.window && o.pane < p.pane)
                .count() as u32
        })
        .collect();
    for (p, rank) in panes.iter_mut().zip(ranks) {
        p.position = rank;
    }
    panes
}

/// `<state>/tmux/layout-<socket hash>-<server pid>-<server start>.json`.
pub fn layout_path(state_root: &Path, socket: &str, pid: u32, started: i64) -> PathBuf {
    state_root
        .join("tmux")
        .join(format!("{}{pid}-{started}.json", socket_prefix(socket)))
}

/// `<state>/tmux/layout-<socket hash>.lock`: the lock one server's layout jobs take, one per socket, so a
/// job of another server never holds up (and never swallows) this server's. Today's release took one
/// `layout.lock` for every server; a file of that name left behind is never read.
pub fn lock_path(state_root: &Path, socket: &str) -> PathBuf {
    state_root
        .join("tmux")
        .join(format!("{}.lock", socket_stem(socket)))
}

/// `<state>/tmux/layout-<socket hash>.dirty`: "this server moved while its lock was held", one per socket
/// like [`lock_path`], so the holder asks its own server again, never another's.
pub fn dirty_path(state_root: &Path, socket: &str) -> PathBuf {
    state_root
        .join("tmux")
        .join(format!("{}.dirty", socket_stem(socket)))
}

fn socket_stem(socket: &str) -> String {
    format!(
        "layout-{:08x}",
        agterm_backup_core::pane::encode::fnv1a(socket)
    )
}

fn socket_prefix(socket: &str) -> String {
    format!("{}-", socket_stem(socket))
}

/// Every layout in the state directory (unreadable files are left out).
pub fn read_layouts(state_root: &Path) -> Vec<ServerLayout> {
    let Ok(entries) = fs::read_dir(state_root.join("tmux")) else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            name.starts_with("layout-") && name.ends_with(".json")
        })
        .filter_map(|e| serde_json::from_slice(&fs::read(e.path()).ok()?).ok())
        .collect()
}

/// Writes `layout` atomically (a private temp file renamed over the old one) and drops the layouts of
/// all but the newest [`KEEP_PER_SOCKET`] server lives on the same socket. A layout without `rebuilt`
/// (or `saved`) keeps the one the file had.
pub fn write_layout(state_root: &Path, layout: &ServerLayout) -> io::Result<()> {
    let path = layout_path(
        state_root,
        &layout.socket,
        layout.server_pid,
        layout.server_started,
    );
    let mut layout = layout.clone();
    if layout.rebuilt.is_none() || layout.saved.is_none() {
        let old = read_layout(&path);
        let old = old.as_ref();
        layout.rebuilt = layout.rebuilt.or_else(|| old?.rebuilt.clone());
        layout.saved = layout.saved.or_else(|| old?.saved.clone());
    }
    let dir = path.parent().expect("a file in <state>/tmux");
    agterm_backup_core::state::guard::own_dir(state_root, dir)?;
    // Atomic, and never through a symlink planted at the path (the rename replaces a link).
    let bytes = serde_json::to_vec(&layout).map_err(io::Error::other)?;
    agterm_backup_core::state::write_atomic(&path, &bytes, 0o600)?;
    prune(dir, &layout.socket);
    Ok(())
}

/// The layout kept at `path`, if readable.
pub fn read_layout(path: &Path) -> Option<ServerLayout> {
    serde_json::from_slice(&fs::read(path).ok()?).ok()
}

fn prune(dir: &Path, socket: &str) {
    let prefix = socket_prefix(socket);
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let mut lives: Vec<(std::time::SystemTime, PathBuf)> = entries
        .flatten()
        .filter(|e| {
            let n = e.file_name().to_string_lossy().into_owned();
            n.starts_with(&prefix) && n.ends_with(".json")
        })
        .filter_map(|e| Some((e.metadata().ok()?.modified().ok()?, e.path())))
        .collect();
    lives.sort_by_key(|l| std::cmp::Reverse(l.0));
    for (_, old) in lives.into_iter().skip(KEEP_PER_SOCKET) {
        let _ = fs::remove_file(old);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pane(id: &str, session: &str, window: u32, pane: u32) -> LaidOutPane {
        LaidOutPane {
            pane_id: id.into(),
            session: session.into(),
            window,
            pane,
            position: 99,
            cwd: None,
        }
    }

    #[test]
    fn positions_rank_panes_within_their_window() {
        let panes = with_positions(vec![
            pane("%4", "w", 1, 3),
            pane("%1", "w", 1, 1),
            pane("%2", "w", 2, 1),
            pane("%3", "x", 1, 2),
        ]);
        let got: Vec<u32> = panes.iter().map(|p| p.position).collect();
        assert_eq!(got, [1, 0, 0, 0]);
    }

    #[test]
    fn layouts_round_trip_and_old_server_lives_are_pruned() {
        let tmp = tempfile::tempdir().unwrap();
        let mut layout = ServerLayout {
            socket: "/tmp/tmux-1/default".into(),
            server_pid: 10,
            server_started: 1_700_000_000,
            listed_at: Utc::now(),
            panes: with_positions(vec![pane("%0", "w", 0, 0)]),
            rebuilt: Some(vec!["%0".into()]),
            saved: Some(SavedLayout {
                listed_at: Utc::now(),
                panes: vec![pane("%0", "w", 0, 0)],
            }),
        };
        write_layout(tmp.path(), &layout).unwrap();
        assert_eq!(read_layouts(tmp.path()), vec![layout.clone()]);
        // A later layout of the same server keeps what was rebuilt and what was saved.
        let later = ServerLayout {
            rebuilt: None,
            saved: None,
            ..layout.clone()
        };
        write_layout(tmp.path(), &later).unwrap();
        assert_eq!(read_layouts(tmp.path()), vec![layout.clone()]);
        assert!(layout.is_server("/tmp/tmux-1/default", Some(10), Some(1_700_000_000)));
        assert!(!layout.is_server("/tmp/tmux-1/default", Some(11), Some(1_700_000_000)));
        for pid in 11..20 {
            layout.server_pid = pid;
            std::thread::sleep(std::time::Duration::from_millis(5));
            write_layout(tmp.path(), &layout).unwrap();
        }
        let pids: Vec<u32> = read_layouts(tmp.path())
            .iter()
            .map(|l| l.server_pid)
            .collect();
        assert_eq!(pids.len(), KEEP_PER_SOCKET, "{pids:?}");
        assert!(pids.contains(&19));
    }
}
