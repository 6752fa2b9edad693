//! Reading and replacing a config file safely: follow symlinks to the real file (dotfile managers keep the
//! link), write a temp file in the real file's folder, fsync, give it the old mode, check the file did not
//! change since we read it, rename over it, fsync the folder. The pre-change bytes go to
//! `<path>.agterm-backup.bak` beside the path the user knows.

use std::fs;
use std::io;
use std::os::unix::fs::{DirBuilderExt, MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};

/// Suffix of the backup file.
pub const BACKUP_SUFFIX: &str = ".agterm-backup.bak";

/// A file as we read it.
#[derive(Debug, Clone)]
pub struct FileState {
    /// The path as configured (may be a symlink).
    pub addressed: PathBuf,
    /// The file we really read and write (the symlink's final target).
    pub real: PathBuf,
    /// Its bytes, `None` when it does not exist.
    pub bytes: Option<Vec<u8>>,
    /// Its permission bits, when it exists.
    pub mode: Option<u32>,
    /// Its device and inode, when it exists: an editor that saves by rename gives the path a new one.
    pub identity: Option<(u64, u64)>,
}

impl FileState {
    pub fn backup_path(&self) -> PathBuf {
        backup_path(&self.addressed)
    }

    /// No write permission bit at all: the user (or a tool such as home-manager) froze the file.
    pub fn is_read_only(&self) -> bool {
        self.mode.is_some_and(|m| m & 0o222 == 0)
    }
}

pub fn backup_path(addressed: &Path) -> PathBuf {
    let mut name = addressed.as_os_str().to_os_string();
    name.push(BACKUP_SUFFIX);
    PathBuf::from(name)
}

/// The final target of `path` through any chain of symlinks (the path itself when it is not a link).
/// A dangling link resolves to the path it points at, so a write creates the target and keeps the link.
pub fn resolve(path: &Path) -> io::Result<PathBuf> {
    let mut current = path.to_path_buf();
    for _ in 0..40 {
        match fs::symlink_metadata(&current) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let target = fs::read_link(&current)?;
                current = if target.is_absolute() {
                    target
                } else {
                    current.parent().unwrap_or(Path::new("/")).join(target)
                };
            }
            _ => return Ok(current),
        }
    }
    Err(io::Error::other(format!(
        "{}: too many levels of symbolic links",
        path.display()
    )))
}

/// Reads `path` (through symlinks).
pub fn read(path: &Path) -> io::Result<FileState> {
    let real = resolve(path)?;
    let (bytes, meta) = match fs::File::open(&real) {
        Ok(mut f) => {
            // Identity and bytes from the one open file, so that they belong together.
            let meta = f.metadata()?;
            let mut bytes = Vec::new();
            io::Read::read_to_end(&mut f, &mut bytes)?;
            (Some(bytes), Some(meta))
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => (None, None),
        Err(e) => return Err(e),
    };
    Ok(FileState {
        addressed: path.to_path_buf(),
        real,
        bytes,
        mode: meta.as_ref().map(|m| m.permissions().mode() & 0o7777),
        identity: meta.as_ref().map(|m| (m.dev(), m.ino())),
    })
}

/// Why a commit did not happen.
#[derive(Debug)]
pub enum CommitError {
    /// The file's bytes are no longer those we read.
    Changed,
    Io(io::Error),
}

impl From<io::Error> for CommitError {
    fn from(e: io::Error) -> Self {
        CommitError::Io(e)
    }
}

/// Whether the file at `at` is still the one read as `state`: the same file (device and inode) with the
/// same bytes, or still nothing when there was nothing.
fn still_as_read(state: &FileState, at: &Path) -> Result<(), CommitError> {
    let meta = match fs::symlink_metadata(at) {
        Ok(m) => Some(m),
        Err(e) if e.kind() == io::ErrorKind::NotFound => None,
        Err(e) => return Err(e.into()),
    };
    let identity = meta.as_ref().map(|m| (m.dev(), m.ino()));
    if identity != state.identity {
        return Err(CommitError::Changed);
    }
    if identity.is_some() && fs::read(at).ok() != state.bytes {
        return Err(CommitError::Changed);
    }
    Ok(())
}

/// Replaces the file read as `state` with `new` (`None` deletes it), keeping a backup of the old bytes
/// unless `keep_backup` (the backup there is older and still wanted). `new_mode` is used only when the
/// file did not exist. Whatever changed the file since it was read
/// (another program's save, even one that lands a moment before ours) makes this `Changed`, with the
/// file left as that program wrote it.
pub fn commit(
    state: &FileState,
    new: Option<&[u8]>,
    new_mode: u32,
    keep_backup: bool,
) -> Result<(), CommitError> {
    still_as_read(state, &state.real)?;
    if let (Some(old), Some(mode), false) = (&state.bytes, state.mode, keep_backup) {
        agterm_backup_core::state::write_atomic(&state.backup_path(), old, mode | 0o600)?;
    }
    match new {
        Some(bytes) => {
            if let Some(dir) = state.real.parent() {
                if !dir.exists() {
                    fs::DirBuilder::new()
                        .recursive(true)
                        .mode(0o700)
                        .create(dir)?;
                }
            }
            agterm_backup_core::state::write_atomic_with(
                &state.real,
                bytes,
                state.mode.unwrap_or(new_mode),
                |at| still_as_read(state, at),
            )
        }
        None => delete_checked(state),
    }
}

/// Deletes the file read as `state`: moved aside first, checked there, and put back when it is not the
/// one we read.
fn delete_checked(state: &FileState) -> Result<(), CommitError> {
    let aside = PathBuf::from(format!(
        "{}.agterm-backup-deleting.{}",
        state.real.display(),
        std::process::id()
    ));
    match fs::rename(&state.real, &aside) {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::NotFound => return still_as_read(state, &state.real),
        Err(e) => return Err(e.into()),
    }
    match still_as_read(state, &aside) {
        Ok(()) => Ok(fs::remove_file(&aside)?),
        Err(e) => {
            fs::rename(&aside, &state.real)?;
            Err(e)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    #[test]
    fn writes_through_a_symlink_and_keeps_link_and_mode() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("dots/settings.json");
        fs::create_dir_all(real.parent().unwrap()).unwrap();
        fs::write(&real, "old").unwrap();
        fs::set_permissions(&real, fs::Permissions::from_mode(0o640)).unwrap();
        let link = dir.path().join("settings.json");
        symlink("dots/settings.json", &link).unwrap();

        let state = read(&link).unwrap();
        assert_eq!(state.real, real);
        commit(&state, Some(b"new"), 0o600, false).unwrap();
        assert!(fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(fs::read(&real).unwrap(), b"new");
        assert_eq!(
            fs::metadata(&real).unwrap().permissions().mode() & 0o777,
            0o640
        );
        assert_eq!(fs::read(backup_path(&link)).unwrap(), b"old");
    }

    #[test]
    fn refuses_when_the_file_changed_after_reading() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config.toml");
        fs::write(&path, "a = 1\n").unwrap();
        let state = read(&path).unwrap();
        fs::write(&path, "a = 2\n").unwrap();
        assert!(matches!(
            commit(&state, Some(b"x"), 0o600, false),
            Err(CommitError::Changed)
        ));
        assert_eq!(fs::read(&path).unwrap(), b"a = 2\n");
        let leftovers: Vec<_> = fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(leftovers.len(), 1, "no temp or backup left behind");
    }

    #[test]
    fn creates_missing_file_with_given_mode_and_deletes() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("new/hooks.json");
        let state = read(&path).unwrap();
        assert!(state.bytes.is_none());
        commit(&state, Some(b"{}"), 0o600, false).unwrap();
        assert_eq!(
            fs::metadata(&path).unwrap().permissions().mode() & 0o777,
            0o600
        );
        let state = read(&path).unwrap();
        commit(&state, None, 0o600, false).unwrap();
        assert!(!path.exists());
    }
}

#[cfg(test)]
mod race_tests {
    use super::*;

    /// An editor saving by rename at a random moment while we commit: its save is never lost. Either we
    /// saw it (Changed, or ours built on it) or it landed after ours; the file never ends up holding our
    /// bytes built from the text it replaced.
    #[test]
    fn a_save_by_rename_racing_a_commit_is_never_lost() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("settings.json");
        let mut changed = 0;
        for round in 0..200u64 {
            fs::write(&path, b"{\"v\": 0}").unwrap();
            let state = read(&path).unwrap();
            let target = path.clone();
            let editor = std::thread::spawn(move || {
                // Spread the save over the length of a commit (temp file, fsyncs, rename).
                std::thread::sleep(std::time::Duration::from_micros((round * 37) % 3000));
                let tmp = target.with_extension("swp");
                fs::write(&tmp, b"{\"v\": 1}").unwrap();
                fs::rename(&tmp, &target).unwrap();
            });
            let result = commit(&state, Some(b"{\"v\": 0, \"ours\": 1}"), 0o600, false);
            editor.join().unwrap();
            if matches!(result, Err(CommitError::Changed)) {
                changed += 1;
            }
            assert_eq!(
                fs::read(&path).unwrap(),
                b"{\"v\": 1}",
                "round {round}: the editor's save was overwritten ({result:?})"
            );
        }
        eprintln!("{changed} of 200 commits saw the save and stopped");
    }
}
