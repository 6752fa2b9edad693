//! The state directory: `$AGTERM_BACKUP_HOME`, else `~/.agterm-backup`. Mode 0700, files 0600.
//!
//! Layout: `live/<PANE-KEY>.json` (current record), `live/<PANE-KEY>.history.jsonl` (journal),
//! `snapshots/<stamp>.json` + `snapshot.json` (written by `snap`), `hook.log` (capped error log).
//! Every whole-file write is atomic (temp file in the same folder, fsync, rename, fsync the folder), so a
//! reader never sees a torn record and a power cut never leaves an empty one. Nothing in the folder is
//! followed ([`guard`]: `O_NOFOLLOW` on every open, a link is an error naming it), temp files of writers
//! that died are swept, and a record or journal that cannot be used is named with why ([`broken`]).

use crate::pane::{PaneKey, ParseKey};
use crate::record::{parse_journal, LiveRecord};
use std::fs;
use std::io::{self, Read, Write};
use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
use std::path::{Path, PathBuf};

mod atomic;
pub mod broken;
pub mod guard;
pub use atomic::{write_atomic, write_atomic_with};
pub use broken::{BrokenFile, FileKind};

/// Environment variable that moves the state directory.
pub const HOME_ENV: &str = "AGTERM_BACKUP_HOME";
/// The error log is cut back to its newest half when it grows past this.
pub const LOG_CAP_BYTES: u64 = 256 * 1024;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StateDir {
    root: PathBuf,
}

impl StateDir {
    pub fn at(root: impl Into<PathBuf>) -> StateDir {
        StateDir { root: root.into() }
    }

    /// Resolves from an environment lookup (`$AGTERM_BACKUP_HOME`, else `$HOME/.agterm-backup`).
    pub fn resolve(env: impl Fn(&str) -> Option<String>) -> Option<StateDir> {
        if let Some(p) = env(HOME_ENV).filter(|p| !p.is_empty()) {
            return Some(StateDir::at(p));
        }
        let home = env("HOME").filter(|h| !h.is_empty())?;
        Some(StateDir::at(Path::new(&home).join(".agterm-backup")))
    }

    /// Resolves from the process environment.
    pub fn from_env() -> Option<StateDir> {
        StateDir::resolve(|k| std::env::var(k).ok())
    }

    pub fn root(&self) -> &Path {
        &self.root
    }
    pub fn live_dir(&self) -> PathBuf {
        self.root.join("live")
    }
    pub fn snapshots_dir(&self) -> PathBuf {
        self.root.join("snapshots")
    }
    pub fn latest_snapshot(&self) -> PathBuf {
        self.root.join("snapshot.json")
    }
    pub fn log_path(&self) -> PathBuf {
        self.root.join("hook.log")
    }
    pub fn record_path(&self, key: &PaneKey) -> PathBuf {
        self.live_dir().join(format!("{key}.json"))
    }
    pub fn journal_path(&self, key: &PaneKey) -> PathBuf {
        self.live_dir().join(format!("{key}.history.jsonl"))
    }
    pub fn lock_path(&self, key: &PaneKey) -> PathBuf {
        self.live_dir().join(format!("{key}.lock"))
    }

    /// Creates the root and `live/` with mode 0700 (and tightens an existing root to 0700).
    pub fn ensure(&self) -> io::Result<()> {
        for dir in [self.root.clone(), self.live_dir()] {
            match fs::DirBuilder::new()
                .recursive(true)
                .mode(0o700)
                .create(&dir)
            {
                Ok(()) => {}
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
                Err(e) => return Err(e),
            }
            // The root may be a link the user made; inside it nothing is followed.
            let meta = if dir == self.root {
                fs::metadata(&dir)?
            } else {
                fs::symlink_metadata(&dir)?
            };
            if meta.file_type().is_symlink() {
                return Err(io::Error::other(guard::SymlinkRefused { path: dir }));
            }
            if meta.permissions().mode() & 0o777 != 0o700 {
                fs::set_permissions(&dir, fs::Permissions::from_mode(0o700))?;
            }
        }
        Ok(())
    }

    /// Reads a pane's current record; `None` when absent or unreadable (a symlink is never followed:
    /// see [`StateDir::check_record`] for why a record is unusable).
    pub fn read_record(&self, key: &PaneKey) -> Option<LiveRecord> {
        let bytes = guard::read(&self.record_path(key)).ok()?;
        serde_json::from_slice(&bytes).ok()
    }

    /// Reads a pane's journal, oldest first (never through a symlink).
    pub fn read_journal(&self, key: &PaneKey) -> Vec<LiveRecord> {
        guard::read(&self.journal_path(key))
            .map(|t| parse_journal(&String::from_utf8_lossy(&t)))
            .unwrap_or_default()
    }

    /// Every pane key that has a record or a journal in `live/`, as `parse` (the registry's, asking
    /// each terminal) reads the file stems.
    pub fn pane_keys(&self, parse: ParseKey) -> Vec<PaneKey> {
        let mut keys: Vec<PaneKey> = fs::read_dir(self.live_dir())
            .into_iter()
            .flatten()
            .flatten()
            .filter_map(|e| {
                let name = e.file_name().into_string().ok()?;
                let stem = name
                    .strip_suffix(".history.jsonl")
                    .or_else(|| name.strip_suffix(".json"))?;
                parse(stem)
            })
            .collect();
        keys.sort();
        keys.dedup();
        keys
    }

    /// Writes the record of pane `key` atomically (0600).
    pub fn write_record(&self, key: &PaneKey, record: &LiveRecord) -> io::Result<()> {
        let mut bytes = serde_json::to_vec_pretty(record)?;
        bytes.push(b'\n');
        write_atomic(&self.record_path(key), &bytes, 0o600)
    }

    /// Appends one record to the pane's journal as a single `write` of one line, then fsyncs.
    pub fn append_journal(&self, key: &PaneKey, record: &LiveRecord) -> io::Result<()> {
        let mut line = record.to_json_line();
        line.push('\n');
        append_line(&self.journal_path(key), line.as_bytes())
    }

    /// Appends a line to the capped error log. Never fails loudly: the log is the last resort.
    pub fn log(&self, message: &str) {
        let path = self.log_path();
        if fs::symlink_metadata(&path)
            .map(|m| m.len() > LOG_CAP_BYTES)
            .unwrap_or(false)
        {
            if let Ok(text) = guard::read(&path) {
                let keep = &text[text.len() / 2..];
                let start = keep.iter().position(|&b| b == b'\n').map_or(0, |i| i + 1);
                let _ = write_atomic(&path, &keep[start..], 0o600);
            }
        }
        let stamp = chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true);
        let line = format!("{stamp} {}\n", message.replace('\n', " "));
        // No fsync: the log is a diagnosis aid, and the hook's budget is better spent on the record.
        let mut line = line;
        let opened = match guard::open_append(&path) {
            // A link in the log's place: ours to remove (unlinking never touches its target), said in
            // the log it is replaced by.
            Err(e) if guard::is_symlink_refusal(&e) && fs::remove_file(&path).is_ok() => {
                line = format!(
                    "{stamp} removed the symbolic link at {}\n{line}",
                    path.display()
                );
                guard::open_append(&path)
            }
            other => other,
        };
        let _ = opened.and_then(|mut f| f.write_all(line.as_bytes()));
    }

    /// Logs an open the guard refused (a symlink in the state folder) or any other failure `what` met;
    /// returns the error for the caller to pass on.
    pub fn logged(&self, what: &str, e: io::Error) -> io::Error {
        self.log(&format!("{what}: {e}"));
        e
    }

    /// Sweeps the temp files dead writers left in every folder of the state folder (`status` runs it).
    pub fn sweep_litter(&self) -> usize {
        let mut dirs = vec![self.root.clone()];
        if let Ok(entries) = fs::read_dir(&self.root) {
            dirs.extend(
                entries
                    .flatten()
                    .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
                    .map(|e| e.path()),
            );
        }
        dirs.iter().map(|d| guard::sweep_dead_temps(d, None)).sum()
    }
}

/// Appends `line` with one `write(2)` on an `O_APPEND` descriptor (0600 when created), then fsyncs;
/// a symlink at `path` is refused ([`guard::SymlinkRefused`]), its target never written.
pub fn append_line(path: &Path, line: &[u8]) -> io::Result<()> {
    let mut f = guard::open_append(path)?;
    f.write_all(line)?;
    f.sync_data()
}

/// Reads at most `cap` bytes of a file (for inputs that may be huge).
pub fn read_capped(path: &Path, cap: u64) -> io::Result<Vec<u8>> {
    let mut buf = Vec::new();
    fs::File::open(path)?.take(cap).read_to_end(&mut buf)?;
    Ok(buf)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::tests::{parse_sample_key, sample, sample_key};

    #[test]
    fn resolve_prefers_the_env_override() {
        let s = StateDir::resolve(|k| match k {
            "AGTERM_BACKUP_HOME" => Some("/x/state".into()),
            "HOME" => Some("/h".into()),
            _ => None,
        });
        assert_eq!(s, Some(StateDir::at("/x/state")));
        let s = StateDir::resolve(|k| (k == "HOME").then(|| "/h".to_string()));
        assert_eq!(s, Some(StateDir::at("/h/.agterm-backup")));
        assert_eq!(StateDir::resolve(|_| None), None);
    }

    #[test]
    fn records_and_journal_round_trip_with_modes() {
        let tmp = tempfile::tempdir().unwrap();
        let s = StateDir::at(tmp.path().join("st"));
        s.ensure().unwrap();
        let r = sample();
        let key = sample_key();
        s.write_record(&key, &r).unwrap();
        s.append_journal(&key, &r).unwrap();
        s.append_journal(&key, &r).unwrap();
        assert_eq!(s.read_record(&key), Some(r.clone()));
        assert_eq!(s.read_journal(&key).len(), 2);
        assert_eq!(s.pane_keys(&parse_sample_key), vec![key.clone()]);
        let mode = |p: &Path| fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(s.root()), 0o700);
        assert_eq!(mode(&s.record_path(&key)), 0o600);
        assert_eq!(mode(&s.journal_path(&key)), 0o600);
    }

    #[test]
    fn log_is_capped() {
        let tmp = tempfile::tempdir().unwrap();
        let s = StateDir::at(tmp.path());
        let big = "x".repeat(1000);
        for _ in 0..600 {
            s.log(&big);
        }
        assert!(fs::metadata(s.log_path()).unwrap().len() <= LOG_CAP_BYTES + 2048);
    }
}
