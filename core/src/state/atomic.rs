//! Replacing a file atomically, and only while it is still the one the caller read.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::path::Path;

/// Atomically replaces `path` with `bytes`: temp file in the same folder, fsync, rename, fsync the folder.
/// Temp files of this path's writers that died before their rename are swept afterwards.
pub fn write_atomic(path: &Path, bytes: &[u8], mode: u32) -> io::Result<()> {
    let result = write_atomic_inner(path, bytes, mode, None::<fn(&Path) -> io::Result<()>>);
    sweep_after(path);
    result
}

/// The next writer of a file sweeps the temp files its dead writers left (`.<name>.<pid>.<nanos>.tmp`).
fn sweep_after(path: &Path) {
    let dir = path.parent().unwrap_or(Path::new("."));
    if let Some(name) = path.file_name().and_then(|n| n.to_str()) {
        super::guard::sweep_dead_temps(dir, Some(name));
    }
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
    let result = write_atomic_inner(path, bytes, mode, Some(still_expected));
    sweep_after(path);
    result
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

#[cfg(any(target_os = "linux", target_os = "macos"))]
fn c_path(p: &Path) -> io::Result<std::ffi::CString> {
    use std::os::unix::ffi::OsStrExt;
    std::ffi::CString::new(p.as_os_str().as_bytes())
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "path holds a NUL byte"))
}

/// The two atomic renames the platform may offer besides a plain one.
#[derive(Clone, Copy)]
enum Rename {
    /// Exchange the two files in one step.
    Swap,
    /// Rename only when the target does not exist (`AlreadyExists` otherwise).
    NoReplace,
}

/// `rename(2)` with `how`: the `renameat2` system call on Linux, `renamex_np` on macOS; `Unsupported` elsewhere.
#[cfg(any(target_os = "linux", target_os = "macos"))]
fn rename_atomically(from: &Path, to: &Path, how: Rename) -> io::Result<()> {
    let (f, t) = (c_path(from)?, c_path(to)?);
    #[cfg(target_os = "linux")]
    let flags = match how {
        Rename::Swap => libc::RENAME_EXCHANGE,
        Rename::NoReplace => libc::RENAME_NOREPLACE,
    };
    // SAFETY: both are valid NUL-terminated paths that outlive the call. The system call itself, not
    // libc's wrapper: musl has no `renameat2` symbol (the link fails), and the kernel has had the call
    // since 3.15, whatever the libc.
    #[cfg(target_os = "linux")]
    let rc = unsafe {
        libc::syscall(
            libc::SYS_renameat2,
            libc::AT_FDCWD,
            f.as_ptr(),
            libc::AT_FDCWD,
            t.as_ptr(),
            flags,
        )
    };
    #[cfg(target_os = "macos")]
    let flags = match how {
        Rename::Swap => libc::RENAME_SWAP,
        Rename::NoReplace => libc::RENAME_EXCL,
    };
    // SAFETY: as above.
    #[cfg(target_os = "macos")]
    let rc = unsafe { libc::renamex_np(f.as_ptr(), t.as_ptr(), flags) };
    if rc == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

#[cfg(not(any(target_os = "linux", target_os = "macos")))]
fn rename_atomically(_: &Path, _: &Path, _: Rename) -> io::Result<()> {
    Err(io::Error::from(io::ErrorKind::Unsupported))
}

/// Exchanges the files at `a` and `b` in one step.
fn swap(a: &Path, b: &Path) -> io::Result<()> {
    rename_atomically(a, b, Rename::Swap)
}

/// Renames `from` to `to` unless `to` exists (`AlreadyExists` then); a plain rename where the platform
/// or file system has no such flag.
fn rename_no_replace(from: &Path, to: &Path) -> io::Result<()> {
    match rename_atomically(from, to, Rename::NoReplace) {
        Err(e) if e.kind() != io::ErrorKind::AlreadyExists => fs::rename(from, to),
        other => other,
    }
}

fn nanos() -> u32 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0)
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
