//! Which record and journal files of the state folder cannot be used, and why — so `status` and
//! `restore --dry-run` name each one instead of planning around it in silence.

use super::{guard, StateDir};
use crate::pane::{PaneKey, ParseKey};
use crate::record::LiveRecord;
use serde::Serialize;
use std::fs;
use std::path::{Path, PathBuf};

/// What a state file is to the planner.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum FileKind {
    /// `live/<pane>.json`, the pane's current record.
    Record,
    /// `live/<pane>.history.jsonl`, the pane's journal.
    Journal,
}

/// A record or journal file the planner could not use (wholly, or some of its lines).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BrokenFile {
    pub path: PathBuf,
    pub pane: String,
    pub kind: FileKind,
    pub reason: String,
}

/// Why the file at `path` is no file of ours to read, before its bytes: a link, a folder, empty.
fn shape_problem(path: &Path) -> Option<Result<(), String>> {
    let meta = match fs::symlink_metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return None,
        Err(e) => return Some(Err(format!("unreadable: {e}"))),
    };
    let t = meta.file_type();
    Some(if t.is_symlink() {
        Err("a symbolic link (never followed in the state folder)".into())
    } else if t.is_dir() {
        Err("a directory, not a file".into())
    } else if !t.is_file() {
        Err("not a regular file".into())
    } else if meta.len() == 0 {
        Err("empty".into())
    } else {
        Ok(())
    })
}

/// Why a record's bytes are not a record.
pub fn record_problem(bytes: &[u8]) -> Result<LiveRecord, String> {
    serde_json::from_slice::<LiveRecord>(bytes).map_err(|e| {
        if e.is_eof() {
            format!("truncated ({} bytes, the JSON stops short)", bytes.len())
        } else if e.is_syntax() {
            format!("not JSON ({e})")
        } else {
            format!("not a record ({e})")
        }
    })
}

/// Why some of a journal's lines are unusable: how many, and the first one's reason.
pub fn journal_problem(text: &str) -> Option<String> {
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let bad: Vec<(usize, String)> = lines
        .iter()
        .enumerate()
        .filter_map(|(i, l)| record_problem(l.as_bytes()).err().map(|why| (i + 1, why)))
        .collect();
    let (line, why) = bad.first()?;
    Some(format!(
        "{} of {} lines unusable (line {line}: {why})",
        bad.len(),
        lines.len()
    ))
}

impl StateDir {
    /// The pane's current record, or why it cannot be used (`Ok(None)`: there is none).
    pub fn check_record(&self, key: &PaneKey) -> Result<Option<LiveRecord>, String> {
        let path = self.record_path(key);
        match shape_problem(&path) {
            None => return Ok(None),
            Some(Err(why)) => return Err(why),
            Some(Ok(())) => {}
        }
        let bytes = guard::read(&path).map_err(|e| format!("unreadable: {e}"))?;
        record_problem(&bytes).map(Some)
    }

    /// Why the pane's journal (or some of its lines) cannot be used; `None` when it is whole or absent.
    pub fn check_journal(&self, key: &PaneKey) -> Option<String> {
        let path = self.journal_path(key);
        if let Err(why) = shape_problem(&path)? {
            return Some(why);
        }
        match guard::read(&path) {
            Ok(bytes) => journal_problem(&String::from_utf8_lossy(&bytes)),
            Err(e) => Some(format!("unreadable: {e}")),
        }
    }

    /// Every record or journal file in `live/` the planner cannot use, with the reason, by pane (the
    /// file stems read by `parse`, the registry's).
    pub fn broken_files(&self, parse: ParseKey) -> Vec<BrokenFile> {
        let mut out = Vec::new();
        for key in self.pane_keys(parse) {
            let journal = self.check_journal(&key);
            if let Err(reason) = self.check_record(&key) {
                // What the pane is planned from instead: its journal's last usable entry, or nothing.
                let fallback = match self.read_journal(&key).is_empty() {
                    false => "the pane is planned from its journal",
                    true => "nothing else is captured for the pane",
                };
                out.push(BrokenFile {
                    path: self.record_path(&key),
                    pane: key.to_string(),
                    kind: FileKind::Record,
                    reason: format!("{reason}; {fallback}"),
                });
            }
            if let Some(reason) = journal {
                out.push(BrokenFile {
                    path: self.journal_path(&key),
                    pane: key.to_string(),
                    kind: FileKind::Journal,
                    reason,
                });
            }
        }
        out
    }
}
