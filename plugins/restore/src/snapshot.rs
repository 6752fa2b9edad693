//! `snap`: freeze the live records and the pane trees of every terminal instance it is given (the
//! registry's `everywhere`) into `snapshots/<UTC stamp>.json` and `snapshot.json` (atomic, 0600),
//! keeping the newest [`KEEP`].
//!
//! `snap --harvest` recovers conversations that ran before the hook existed: a `Session ID: <uuid>` line
//! in the scrollback of a pane of a terminal whose row harvests (its `report.harvest`, which makes the
//! record of the pane) counts only when Claude has a transcript with that id
//! (`<claude config>/projects/*/<id>.jsonl`), and only for panes without a live record — a harvested id
//! never overrides a live one. Harvested entries are full [`LiveRecord`]s (`event: "harvest"`) in the
//! snapshot's `harvested` array; `restore` uses them for panes that have nothing else.
//!
//! Snapshot document, version 1: `{"v":1,"taken_at":RFC3339,"terminal":TerminalInfo|null,
//! "error":string|null,"terminals":[{"terminal","place","info":TerminalInfo|null,"error"}],
//! "panes":[PaneView],"records":[LiveRecord],"harvested":[LiveRecord]}`. `terminal` and `error` are the
//! first registry row's instance's (as before the other terminals); `panes` holds every terminal's, a
//! pane with an identity in its terminal's own words carrying it under the terminal's name
//! ([`PaneView::own`]). A harvested record is the record of its pane's terminal.

use crate::gather::Scope;
use agterm_backup_core::pane::PaneKey;
use agterm_backup_core::record::{LiveRecord, RECORD_VERSION};
use agterm_backup_core::state::{write_atomic, StateDir};
use agterm_backup_core::terminal::{PaneRef, PaneView, ScreenRange, Terminal, TerminalInfo};
use chrono::{DateTime, SecondsFormat, Utc};
use serde::{Deserialize, Serialize};
use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// How many timestamped snapshots are kept.
pub const KEEP: usize = 50;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Snapshot {
    pub v: u32,
    pub taken_at: String,
    pub terminal: Option<TerminalInfo>,
    /// Why the first row's pane tree is missing (its terminal not running), if it is.
    pub error: Option<String>,
    /// Every terminal instance asked, the first row's included.
    #[serde(default)]
    pub terminals: Vec<SnapTerminal>,
    pub panes: Vec<PaneView>,
    pub records: Vec<LiveRecord>,
    pub harvested: Vec<LiveRecord>,
}

/// One terminal instance in a snapshot: what it answered, or why it did not.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SnapTerminal {
    /// Its terminal's name (a registry row's).
    pub terminal: String,
    /// Its place, for a terminal of many instances (a server's socket, a socket directory); `None` for
    /// a terminal of one.
    pub place: Option<String>,
    pub info: Option<TerminalInfo>,
    pub error: Option<String>,
}

/// `20261201T090000.123Z.json`: sorts by time as text.
pub fn file_name(at: DateTime<Utc>) -> String {
    format!("{}.json", at.format("%Y%m%dT%H%M%S%.3fZ"))
}

/// Writes `snapshots/<stamp>.json` and `snapshot.json`, then prunes to the newest `keep`. Returns the
/// timestamped path.
pub fn write(
    state: &StateDir,
    snap: &Snapshot,
    at: DateTime<Utc>,
    keep: usize,
) -> std::io::Result<PathBuf> {
    state.ensure()?;
    let dir = state.snapshots_dir();
    agterm_backup_core::state::guard::own_dir(state.root(), &dir)?;
    let mut bytes = serde_json::to_vec_pretty(snap)?;
    bytes.push(b'\n');
    let path = dir.join(file_name(at));
    write_atomic(&path, &bytes, 0o600)?;
    write_atomic(&state.latest_snapshot(), &bytes, 0o600)?;
    prune(&dir, keep)?;
    Ok(path)
}

/// Removes all but the newest `keep` snapshot files (by name, which sorts by time).
pub fn prune(dir: &Path, keep: usize) -> std::io::Result<()> {
    let mut names: Vec<String> = std::fs::read_dir(dir)?
        .flatten()
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(|n| n.ends_with(".json") && n.as_bytes().first().is_some_and(u8::is_ascii_digit))
        .collect();
    names.sort();
    let excess = names.len().saturating_sub(keep);
    for n in &names[..excess] {
        std::fs::remove_file(dir.join(n))?;
    }
    Ok(())
}

/// The session ids a pane's scrollback shows as `Session ID: <id>`, newest last.
pub fn scrollback_ids(text: &str) -> Vec<String> {
    let re = regex::Regex::new(r"Session ID:\s*([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})")
        .expect("static regex");
    re.captures_iter(text)
        .map(|c| c[1].to_ascii_lowercase())
        .collect()
}

/// Claude's transcript for `id` under `<claude config>/projects/*/`, if any.
pub fn find_claude_transcript(claude_dir: &Path, id: &str) -> Option<PathBuf> {
    let file = format!("{id}.jsonl");
    std::fs::read_dir(claude_dir.join("projects"))
        .ok()?
        .flatten()
        .map(|e| e.path().join(&file))
        .find(|p| p.is_file())
}

/// The `cwd` a Claude transcript records (its first line that has one).
pub fn transcript_cwd(path: &Path) -> Option<String> {
    let bytes = agterm_backup_core::state::read_capped(path, 4 << 20).ok()?;
    String::from_utf8_lossy(&bytes).lines().find_map(|l| {
        let v: serde_json::Value = serde_json::from_str(l).ok()?;
        v.get("cwd")?.as_str().map(str::to_string)
    })
}

/// A harvested record for `pane` from its scrollback: the newest id with a transcript, unless the pane has
/// a live record (`live_keys`) or its terminal harvests nothing (the pane's part of the record is its
/// terminal row's `report.harvest`).
pub fn harvest_pane(
    pane: &PaneView,
    scrollback: &str,
    live_keys: &HashSet<PaneKey>,
    claude_dir: &Path,
    at: DateTime<Utc>,
) -> Option<LiveRecord> {
    let blank = agterm_backup_terminals::report::harvest_record(pane)?;
    let key = agterm_backup_terminals::record_key(&blank)?;
    if live_keys.contains(&key) {
        return None;
    }
    let (id, transcript) = scrollback_ids(scrollback)
        .into_iter()
        .rev()
        .find_map(|id| find_claude_transcript(claude_dir, &id).map(|t| (id, t)))?;
    let cwd = transcript_cwd(&transcript).or_else(|| pane.cwd.clone())?;
    Some(LiveRecord {
        v: RECORD_VERSION,
        agent: "claude".into(),
        session_id: id,
        transcript_path: Some(transcript.to_string_lossy().into_owned()),
        agent_cwd: cwd.clone(),
        hook_cwd: cwd,
        flags: Vec::new(),
        agent_pid: None,
        event: "harvest".into(),
        ts: at.to_rfc3339_opts(SecondsFormat::Secs, true),
        source: Some("harvest".into()),
        ..blank
    })
}

/// `$CLAUDE_CONFIG_DIR`, else `~/.claude`.
pub fn claude_dir(env: &dyn Fn(&str) -> Option<String>) -> Option<PathBuf> {
    if let Some(d) = env("CLAUDE_CONFIG_DIR").filter(|d| !d.is_empty()) {
        return Some(PathBuf::from(d));
    }
    env("HOME")
        .filter(|h| !h.is_empty())
        .map(|h| Path::new(&h).join(".claude"))
}

/// One terminal instance to freeze: its scope, and the terminal (or why it cannot be reached).
pub type Reached = (Scope, Result<Box<dyn Terminal>, String>);

/// Takes a snapshot now: every live record, and each reachable terminal's info and panes (plus, with
/// `harvest`, ids harvested from the scrollback of the panes of each terminal that harvests). A
/// terminal not reached is recorded with its error, never fatal.
pub fn take(
    state: &StateDir,
    terms: Vec<Reached>,
    harvest: bool,
    env: &dyn Fn(&str) -> Option<String>,
) -> (Snapshot, DateTime<Utc>) {
    let now = Utc::now();
    let records: Vec<LiveRecord> = state
        .pane_keys(&agterm_backup_terminals::parse_key)
        .iter()
        .filter_map(|k| state.read_record(k))
        .collect();
    let live_keys: HashSet<PaneKey> = records
        .iter()
        .filter_map(agterm_backup_terminals::record_key)
        .collect();
    // The first row's instance also fills the fields from before the other terminals.
    let first = agterm_backup_terminals::first();
    let mut snap = Snapshot {
        v: 1,
        taken_at: now.to_rfc3339_opts(SecondsFormat::Millis, true),
        terminal: None,
        error: None,
        terminals: Vec::new(),
        panes: Vec::new(),
        records,
        harvested: Vec::new(),
    };
    for (scope, term) in terms {
        let mut entry = SnapTerminal {
            terminal: scope.kind().to_string(),
            place: scope.place().map(str::to_string),
            info: None,
            error: None,
        };
        let read = term.and_then(|mut t| {
            let got = t
                .info()
                .and_then(|i| Ok((i, t.panes()?)))
                .map_err(|e| format!("{} did not answer: {e}", scope.kind()))?;
            Ok((t, got))
        });
        match read {
            Err(e) => entry.error = Some(e),
            Ok((mut t, (info, panes))) => {
                if harvest && agterm_backup_terminals::report::harvests(scope.kind().as_str()) {
                    snap.harvested
                        .extend(harvested(&mut *t, &panes, &live_keys, env, now));
                }
                entry.info = Some(info);
                snap.panes.extend(panes);
            }
        }
        if scope == first {
            snap.terminal = entry.info.clone();
            snap.error = entry.error.clone();
        }
        snap.terminals.push(entry);
    }
    (snap, now)
}

/// Records harvested from the scrollback of `panes`, one terminal's (see the module's doc).
fn harvested(
    term: &mut dyn Terminal,
    panes: &[PaneView],
    live_keys: &HashSet<PaneKey>,
    env: &dyn Fn(&str) -> Option<String>,
    now: DateTime<Utc>,
) -> Vec<LiveRecord> {
    let Some(claude) = claude_dir(env) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for p in panes {
        let pane = PaneRef {
            session_id: p.session_id.clone(),
            role: p.role,
            pane_id: p.pane_id.clone(),
        };
        let Ok(text) = term.screen(&pane, ScreenRange::All) else {
            continue;
        };
        out.extend(harvest_pane(p, &text, live_keys, &claude, now));
    }
    out
}

#[cfg(test)]
#[path = "snapshot_tests.rs"]
mod tests;
