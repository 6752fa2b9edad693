//! The state directory: `$AGTERM_BACKUP_HOME`, else `~/.agterm-backup`. Mode 0700, files 0600.
//!
//! Layout: `live/<PANE-KEY>.json` (current record), `live/<PANE-KEY>.history.jsonl` (journal),
//! `snapshots/<stamp>.json` + `snapshot.json` (written by `snap`), `hook.log` (capped error log).
//! Every whole-file write is atomic (temp file in the same folder, fsync, rename, fsync the folder), so a
//! reader never sees a torn record and a power cut never leaves an empty one.

use crate::pane::PaneKey;
use crate::record::{parse_journal, LiveRecord};
use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Write};
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

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
            let meta = fs::metadata(&dir)?;
            if meta.permissions().mode() & 0o777 != 0o700 {
                fs::set_permissions(&dir, fs::Permissions::from_mode(0o700))?;
            }
        }
        Ok(())
    }

    /// Reads a pane's current record; `None` when absent or unreadable.
    pub fn read_record(&self, key: &PaneKey) -> Option<LiveRecord> {
        let bytes = fs::read(self.record_path(key)).ok()?;
        serde_json::from_slice(&bytes).ok()
    }

    /// Reads a pane's journal, oldest first.
    pub fn read_journal(&self, key: &PaneKey) -> Vec<LiveRecord> {
        fs::read_to_string(self.journal_path(key))
            .map(|t| parse_journal(&t))
            .unwrap_or_default()
    }

    /// Every pane key that has a record or a journal in `live/`.
    pub fn pane_keys(&self) -> Vec<PaneKey> {
        let mut keys: Vec<PaneKey> = fs::read_dir(self.live_dir())
            .into_iter()
            .flatten()
            .flatten()
            .filter_map(|e| {
                let name = e.file_name().into_string().ok()?;
                let stem = name
                    .strip_suffix(".history.jsonl")
                    .or_else(|| name.strip_suffix(".json"))?;
                PaneKey::parse(stem)
            })
            .collect();
        keys.sort();
        keys.dedup();
        keys
    }

    /// Writes the pane's record atomically (0600).
    pub fn write_record(&self, record: &LiveRecord) -> io::Result<()> {
        let key = record.pane_key().ok_or_else(|| {
            io::Error::new(io::ErrorKind::InvalidInput, "record has no valid pane key")
        })?;
        let mut bytes = serde_json::to_vec_pretty(record)?;
        bytes.push(b'\n');
        write_atomic(&self.record_path(&key), &bytes, 0o600)
    }

    /// Appends one record to the pane's journal as a single `write` of one line, then fsyncs.
    pub fn append_journal(&self, record: &LiveRecord) -> io::Result<()> {
        let key = record.pane_key().ok_or_else(|| {
            io::Error::new(io::ErrorKind::InvalidInput, "record has no valid pane key")
        })?;
        let mut line = record.to_json_line();
        line.push('\n');
        append_line(&self.journal_path(&key), line.as_bytes())
    }

    /// Appends a line to the capped error log. Never fails loudly: the log is the last resort.
    pub fn log(&self, message: &str) {
        let path = self.log_path();
        if fs::metadata(&path)
            .map(|m| m.len() > LOG_CAP_BYTES)
            .unwrap_or(false)
        {
            if let Ok(text) = fs::read(&path) {
                let keep = &text[text.len() / 2..];
                let start = keep.iter().position(|&b| b == b'\n').map_or(0, |i| i + 1);
                let _ = write_atomic(&path, &keep[start..], 0o600);
            }
        }
        let stamp = chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true);
        let line = format!("{stamp} {}\n", message.replace('\n', " "));
        // No fsync: the log is a diagnosis aid, and the hook's budget is better spent on the record.
        let _ = OpenOptions::new()
            .append(true)
            .create(true)
            .mode(0o600)
            .open(&path)
            .and_then(|mut f| f.write_all(line.as_bytes()));
    }
}

/// Atomically replaces `path` with `bytes`: temp file in the same folder, fsync, rename, fsync the folder.
pub fn write_atomic(path: &Path, bytes: &[u8], mode: u32) -> io::Result<()> {
    write_atomic_inner(path, bytes, mode, None::<fn(&Path) -> io::Result<()>>)
}

/// [`write_atomic`] that replaces `path` only while it is still what the caller read: `still_expected` is
/// given the path of the file being replaced and errs when it is not (another identity or other bytes;
/// for a `path` that did not exist, when something is there now). The check is made as late as the
/// platform allows: on Linux and macOS the new file is swapped in atomically (`renameat2`
/// `RENAME_EXCHANGE`, `renamex_np` `RENAME_SWAP`), the file swapped out is checked, and swapped back when it
/// is not the expected one, so a save that races ours is never lost; elsewhere the check runs right
/// before the rename. An error leaves `path` as it was. The temp file gets exactly `mode`, whatever the
/// umask.
pub fn write_atomic_with<E: From<io::Error>>(
    path: &Path,
    bytes: &[u8],
    mode: u32,
    still_expected: impl Fn(&Path) -> Result<(), E>,
) -> Result<(), E> {
    write_atomic_inner(path, bytes, mode, Some(still_expected))
}

fn write_atomic_inner<E: From<io::Error>>(
    path: &Path,
    bytes: &[u8],
    mode: u32,
    still_expected: Option<impl Fn(&Path) -> Result<(), E>>,
) -> Result<(), E> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("file");
    let tmp = dir.join(format!(".{name}.{}.{}.tmp", std::process::id(), nanos()));
    let result = (|| {
        let mut f = OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(&tmp)?;
        f.write_all(bytes)?;
        f.set_permissions(fs::Permissions::from_mode(mode))?;
        f.sync_all()?;
        drop(f);
        match &still_expected {
            None => fs::rename(&tmp, path)?,
            Some(check) => replace_checked(&tmp, path, check)?,
        }
        if let Ok(d) = File::open(dir) {
            let _ = d.sync_all();
        }
        Ok(())
    })();
    let _ = fs::remove_file(&tmp);
    result
}

/// Moves `tmp` over `path` if `check` passes for the file it replaces; `tmp` is left holding whatever is
/// not at `path` in the end (for the caller to delete).
fn replace_checked<E: From<io::Error>>(
    tmp: &Path,
    path: &Path,
    check: &impl Fn(&Path) -> Result<(), E>,
) -> Result<(), E> {
    if fs::symlink_metadata(path).is_err() {
        // Nothing there to swap with: create it, unless something appeared meanwhile.
        check(path)?;
        return match rename_no_replace(tmp, path) {
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
                check(path)?;
                Err(e.into())
            }
            other => Ok(other?),
        };
    }
    match swap(tmp, path) {
        Ok(()) => match check(tmp) {
            Ok(()) => Ok(()),
            Err(e) => {
                swap(tmp, path)?;
                Err(e)
            }
        },
        Err(_) => {
            // The file system cannot swap: check, then rename, as close together as we can.
            check(path)?;
            Ok(fs::rename(tmp, path)?)
        }
    }
}

fn c_path(p: &Path) -> io::Result<std::ffi::CString> {
    use std::os::unix::ffi::OsStrExt;
    std::ffi::CString::new(p.as_os_str().as_bytes())
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "path holds a NUL byte"))
}

/// Exchanges the files at `a` and `b` in one step.
#[cfg(any(target_os = "linux", target_os = "macos"))]
fn swap(a: &Path, b: &Path) -> io::Result<()> {
    let (a, b) = (c_path(a)?, c_path(b)?);
    // SAFETY: both are valid NUL-terminated paths that outlive the call.
    #[cfg(target_os = "linux")]
    let rc = unsafe {
        libc::renameat2(
            libc::AT_FDCWD,
            a.as_ptr(),
            libc::AT_FDCWD,
            b.as_ptr(),
            libc::RENAME_EXCHANGE,
        )
    };
    // SAFETY: as above.
    #[cfg(target_os = "macos")]
    let rc = unsafe { libc::renamex_np(a.as_ptr(), b.as_ptr(), libc::RENAME_SWAP) };
    if rc == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

#[cfg(not(any(target_os = "linux", target_os = "macos")))]
fn swap(_: &Path, _: &Path) -> io::Result<()> {
    Err(io::Error::from(io::ErrorKind::Unsupported))
}

/// Renames `from` to `to` unless `to` exists (`AlreadyExists` then); a plain rename where the platform
/// has no such flag.
fn rename_no_replace(from: &Path, to: &Path) -> io::Result<()> {
    #[cfg(any(target_os = "linux", target_os = "macos"))]
    {
        let (f, t) = (c_path(from)?, c_path(to)?);
        // SAFETY: both are valid NUL-terminated paths that outlive the call.
        #[cfg(target_os = "linux")]
        let rc = unsafe {
            libc::renameat2(
                libc::AT_FDCWD,
                f.as_ptr(),
                libc::AT_FDCWD,
                t.as_ptr(),
                libc::RENAME_NOREPLACE,
            )
        };
        // SAFETY: as above.
        #[cfg(target_os = "macos")]
        let rc = unsafe { libc::renamex_np(f.as_ptr(), t.as_ptr(), libc::RENAME_EXCL) };
        if rc == 0 {
            return Ok(());
        }
        let e = io::Error::last_os_error();
        if e.kind() == io::ErrorKind::AlreadyExists {
            return Err(e);
        }
    }
    fs::rename(from, to)
}

/// Appends `line` with one `write(2)` on an `O_APPEND` descriptor (0600 when created), then fsyncs.
pub fn append_line(path: &Path, line: &[u8]) -> io::Result<()> {
    let mut f = OpenOptions::new()
        .append(true)
        .create(true)
        .mode(0o600)
        .open(path)?;
    f.write_all(line)?;
    f.sync_data()
}

/// Reads at most `cap` bytes of a file (for inputs that may be huge).
pub fn read_capped(path: &Path, cap: u64) -> io::Result<Vec<u8>> {
    let mut buf = Vec::new();
    File::open(path)?.take(cap).read_to_end(&mut buf)?;
    Ok(buf)
}

fn nanos() -> u32 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::tests::sample;

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
        s.write_record(&r).unwrap();
        s.append_journal(&r).unwrap();
        s.append_journal(&r).unwrap();
        let key = r.pane_key().unwrap();
        assert_eq!(s.read_record(&key), Some(r.clone()));
        assert_eq!(s.read_journal(&key).len(), 2);
        assert_eq!(s.pane_keys(), vec![key.clone()]);
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

#[cfg(test)]
mod atomic_tests {
    use super::*;

    /// A save by rename, as editors do it: a new file renamed over the old one.
    fn save_by_rename(path: &Path, bytes: &[u8]) {
        let tmp = path.with_extension("editor-tmp");
        fs::write(&tmp, bytes).unwrap();
        fs::rename(&tmp, path).unwrap();
    }

    #[test]
    fn a_save_landing_right_after_the_check_is_not_overwritten() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("settings.json");
        fs::write(&path, b"old").unwrap();
        // The check passes, and the user's editor saves at the very moment after it: whatever the
        // order, the user's save is what the path holds afterwards.
        let result = write_atomic_with(&path, b"ours", 0o600, |at: &Path| {
            let unchanged = fs::read(at).map(|b| b == b"old").unwrap_or(false);
            save_by_rename(&path, b"theirs");
            if unchanged {
                Ok(())
            } else {
                Err(io::Error::other("changed"))
            }
        });
        let _ = result;
        assert_eq!(fs::read(&path).unwrap(), b"theirs");
        let left: Vec<_> = fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(left.len(), 1, "no temp file left behind");
    }

    #[test]
    fn a_failed_check_after_the_swap_puts_the_file_back() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config.toml");
        fs::write(&path, b"theirs").unwrap();
        let err = write_atomic_with(&path, b"ours", 0o600, |_: &Path| {
            Err(io::Error::other("changed"))
        });
        assert!(err.is_err());
        assert_eq!(fs::read(&path).unwrap(), b"theirs");
        // Creating a file that someone else created meanwhile fails too.
        let fresh = dir.path().join("hooks.json");
        let err = write_atomic_with(&fresh, b"ours", 0o600, |_: &Path| {
            fs::write(&fresh, b"theirs").unwrap();
            Ok::<(), io::Error>(())
        });
        let _ = err;
        assert_eq!(fs::read(&fresh).unwrap(), b"theirs");
    }
}
