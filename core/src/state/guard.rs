//! Opening files in the state folder without ever following a symlink planted there, and sweeping the
//! temp files of writers that died.
//!
//! Every open for writing, appending or locking under the state folder goes through here: `O_NOFOLLOW`
//! on the last component (one flag, no extra system call), so a link at a record's, journal's, lock's or
//! marker's path is refused with a [`SymlinkRefused`] error naming it, and its target is never written.
//! Whole-file writes go through [`super::write_atomic`], whose temp file is created `O_EXCL` and whose
//! rename replaces a link at the path rather than writing through it.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Read};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// A temp file older than this is swept even when its writer's pid is alive again (a reused pid): a
/// whole-file write takes milliseconds.
pub const STALE_TEMP: Duration = Duration::from_secs(600);

/// The error of an open that met a symlink where the state folder keeps a file of its own.
#[derive(Debug)]
pub struct SymlinkRefused {
    pub path: PathBuf,
}

impl std::fmt::Display for SymlinkRefused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} is a symbolic link; agterm-backup never follows a link in its state folder (remove the \
             link, and the next write recreates the file)",
            self.path.display()
        )
    }
}

impl std::error::Error for SymlinkRefused {}

/// Whether `e` is an open refused because the path is a symlink.
pub fn is_symlink_refusal(e: &io::Error) -> bool {
    e.get_ref().is_some_and(|i| i.is::<SymlinkRefused>())
}

/// `O_NOFOLLOW` fails with `ELOOP` on a symlink (`EMLINK` on the BSDs): name it.
fn named(path: &Path, e: io::Error) -> io::Error {
    match e.raw_os_error() {
        Some(libc::ELOOP) | Some(libc::EMLINK) => io::Error::other(SymlinkRefused {
            path: path.to_path_buf(),
        }),
        _ => e,
    }
}

fn nofollow(opts: &mut OpenOptions, path: &Path) -> io::Result<File> {
    opts.custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC)
        .open(path)
        .map_err(|e| named(path, e))
}

/// Opens `path` for appending (created 0600), never through a symlink.
pub fn open_append(path: &Path) -> io::Result<File> {
    nofollow(
        OpenOptions::new().append(true).create(true).mode(0o600),
        path,
    )
}

/// Opens (or creates, 0600) a lock file read-write, never through a symlink.
pub fn open_lock(path: &Path) -> io::Result<File> {
    nofollow(
        OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .mode(0o600),
        path,
    )
}

/// Opens an existing file for writing (to cut it back), never through a symlink.
pub fn open_existing(path: &Path) -> io::Result<File> {
    nofollow(OpenOptions::new().write(true), path)
}

/// Creates `path` new (`O_EXCL`, which never follows a link: a link there is `AlreadyExists`).
pub fn create_new(path: &Path, mode: u32) -> io::Result<File> {
    nofollow(
        OpenOptions::new().write(true).create_new(true).mode(mode),
        path,
    )
}

/// Creates an empty marker file, or leaves the one there; never through a symlink.
pub fn touch(path: &Path) -> io::Result<()> {
    nofollow(
        OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(false)
            .mode(0o600),
        path,
    )
    .map(drop)
}

/// Creates a folder of the state folder `root` (0700, with the folders between) or keeps the one there,
/// refusing any of them that is a symlink: files written into it would land wherever the link points.
/// `root` itself may be a link the user made. A `path` outside `root` is only created.
pub fn own_dir(root: &Path, path: &Path) -> io::Result<()> {
    use std::os::unix::fs::DirBuilderExt;
    let Ok(rel) = path.strip_prefix(root) else {
        return fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(path);
    };
    fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(root)?;
    let mut at = root.to_path_buf();
    for part in rel.components() {
        at.push(part);
        match fs::DirBuilder::new().mode(0o700).create(&at) {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err(e),
        }
        let t = fs::symlink_metadata(&at)?.file_type();
        if t.is_symlink() {
            return Err(io::Error::other(SymlinkRefused { path: at }));
        }
        if !t.is_dir() {
            return Err(io::Error::new(
                io::ErrorKind::AlreadyExists,
                format!("{} is not a folder", at.display()),
            ));
        }
    }
    Ok(())
}

/// Opens `path` for reading, never through a symlink (a linked record is broken, not read).
pub fn open_read(path: &Path) -> io::Result<File> {
    nofollow(OpenOptions::new().read(true), path)
}

/// Reads a whole file of the state folder, never through a symlink. Plain `read`s into a buffer a record
/// fits: no `statx` for a size hint and no `lseek` (what `File::read_to_end` adds), since the hook's hot
/// path reads one record per event.
pub fn read(path: &Path) -> io::Result<Vec<u8>> {
    let mut f = open_read(path)?;
    let mut buf = vec![0u8; 4096];
    let mut len = 0;
    loop {
        if len == buf.len() {
            buf.resize(len * 2, 0);
        }
        match f.read(&mut buf[len..]) {
            Ok(0) => break,
            Ok(n) => len += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    buf.truncate(len);
    Ok(buf)
}

/// The writer's pid of a temp file we name: `.<name>.<pid>.<nanos>.tmp` (`write_atomic`), or
/// `<stem>.tmp<pid>` (a terminal's caches before they used `write_atomic`).
pub fn temp_writer(file_name: &str) -> Option<(&str, u32)> {
    if let Some(inner) = file_name
        .strip_prefix('.')
        .and_then(|n| n.strip_suffix(".tmp"))
    {
        let (rest, nanos) = inner.rsplit_once('.')?;
        let (name, pid) = rest.rsplit_once('.')?;
        nanos.parse::<u32>().ok()?;
        return Some((name, pid.parse().ok()?));
    }
    let (stem, pid) = file_name.rsplit_once(".tmp")?;
    if pid.is_empty() || !pid.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((stem, pid.parse().ok()?))
}

/// Whether process `pid` exists (a signal-0 probe; `EPERM` means it does, under another user).
fn alive(pid: u32) -> bool {
    let Ok(pid) = i32::try_from(pid) else {
        return false;
    };
    // SAFETY: signal 0 only checks that the process exists.
    let found = unsafe { libc::kill(pid, 0) } == 0;
    found || io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
}

/// Removes the temp files in `dir` whose writer died (or that are older than [`STALE_TEMP`]), only
/// those of the file named `only` when given. Returns how many went. Never removes a live writer's
/// temp file, nor anything but a regular file or a link (unlinking a link never touches its target).
pub fn sweep_dead_temps(dir: &Path, only: Option<&str>) -> usize {
    let Ok(entries) = fs::read_dir(dir) else {
        return 0;
    };
    let me = std::process::id();
    let now = SystemTime::now();
    let mut swept = 0;
    for e in entries.flatten() {
        let file_name = e.file_name();
        let Some((name, pid)) = file_name.to_str().and_then(temp_writer) else {
            continue;
        };
        // Beside a named file (maybe a user's config) only `write_atomic`'s own dot-names are swept.
        let dotted = file_name.to_str().is_some_and(|n| n.starts_with('.'));
        if only.is_some_and(|o| o != name || !dotted) || pid == me {
            continue;
        }
        let Ok(meta) = e.metadata() else { continue };
        if meta.is_dir() {
            continue;
        }
        let old = meta
            .modified()
            .ok()
            .and_then(|m| now.duration_since(m).ok())
            .is_some_and(|age| age > STALE_TEMP);
        if (old || !alive(pid)) && fs::remove_file(e.path()).is_ok() {
            swept += 1;
        }
    }
    swept
}

#[cfg(test)]
#[path = "guard_tests.rs"]
mod tests;
