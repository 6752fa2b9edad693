//! `live/unattributed-codex.jsonl`: the Codex threads a daemon-run hook saw but could not give to a pane,
//! one JSON object per line (`ts`, `session_id`, `cwd`, `event`, `reason`), so that `status` can say
//! which conversations are not captured and why. Capped like the hook log: past the cap the older half
//! goes.

use agterm_backup_core::state::{append_line, write_atomic, StateDir};
use serde::{Deserialize, Serialize};
use std::fs;
use std::io;
use std::path::PathBuf;

/// The file keeps at most about this many bytes.
pub const CAP_BYTES: u64 = 64 * 1024;

/// One hook run that recorded nothing because its pane was not certain.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Unattributed {
    /// UTC RFC 3339.
    pub ts: String,
    pub session_id: String,
    pub cwd: String,
    pub event: String,
    pub reason: String,
}

pub fn path(state: &StateDir) -> PathBuf {
    state.live_dir().join("unattributed-codex.jsonl")
}

/// Appends `entry` (the state directory must exist).
pub fn append(state: &StateDir, entry: &Unattributed) -> io::Result<()> {
    let file = path(state);
    if fs::metadata(&file)
        .map(|m| m.len() > CAP_BYTES)
        .unwrap_or(false)
    {
        let text = fs::read(&file)?;
        let keep = &text[text.len() / 2..];
        let start = keep.iter().position(|&b| b == b'\n').map_or(0, |i| i + 1);
        write_atomic(&file, &keep[start..], 0o600)?;
    }
    let mut line = serde_json::to_string(entry)?;
    line.push('\n');
    append_line(&file, line.as_bytes())
}

/// Every entry, oldest first (unreadable lines are skipped); empty when there is no file.
pub fn read(state: &StateDir) -> Vec<Unattributed> {
    fs::read_to_string(path(state))
        .unwrap_or_default()
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect()
}

/// The latest entry per thread, for threads no pane's record names (`recorded` says whether one does):
/// what `status` should list as "Codex conversation not captured".
pub fn outstanding(entries: &[Unattributed], recorded: impl Fn(&str) -> bool) -> Vec<Unattributed> {
    let mut latest: Vec<Unattributed> = Vec::new();
    for e in entries {
        match latest.iter_mut().find(|l| l.session_id == e.session_id) {
            Some(slot) => *slot = e.clone(),
            None => latest.push(e.clone()),
        }
    }
    latest.retain(|e| !recorded(&e.session_id));
    latest
}
