//! Reading and replacing a config file safely: follow symlinks to the real file (dotfile managers keep the
//! link), write a temp file in the real file's folder, fsync, give it the old mode, check the file did not
//! change since we read it, rename over it, fsync the folder. The pre-change bytes go to
//! `<path>.agterm-backup.bak` beside the path the user knows.

use std::fs;
use std::io;
use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
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
    let (bytes, mode) = match fs::read(&real) {
        Ok(bytes) => (
            Some(bytes),
            Some(fs::metadata(&real)?.permissions().mode() & 0o7777),
        ),
        Err(e) if e.kind() == io::ErrorKind::NotFound => (None, None),
        Err(e) => return Err(e),
    };
    Ok(FileState {
        addressed: path.to_path_buf(),
        real,
        bytes,
        mode,
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

fn unchanged_since_read(state: &FileState) -> Result<(), CommitError> {
    let now = match fs::read(&state.real) {
        Ok(b) => Some(b),
        Err(e) if e.kind() == io::ErrorKind::NotFound => None,
        Err(e) => return Err(e.into()),
    };
    if now != state.bytes {
        return Err(CommitError::Changed);
    }
    Ok(())
}

/// Replaces the file read as `state` with `new` (`None` deletes it), keeping a backup of the old bytes.
/// `new_mode` is used only when the file did not exist.
pub fn commit(state: &FileState, new: Option<&[u8]>, new_mode: u32) -> Result<(), CommitError> {
    unchanged_since_read(state)?;
    if let (Some(old), Some(mode)) = (&state.bytes, state.mode) {
        write_atomic(&state.backup_path(), old, mode | 0o600, None)?;
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
            write_atomic(
                &state.real,
                bytes,
                state.mode.unwrap_or(new_mode),
                Some(state),
            )
        }
        None => {
            unchanged_since_read(state)?;
            fs::remove_file(&state.real).or_else(|e| {
                if e.kind() == io::ErrorKind::NotFound {
                    Ok(())
                } else {
                    Err(e.into())
                }
            })
        }
    }
}

/// [`agterm_backup_core::state::write_atomic_with`], re-checking the original (`guard`) right before the
/// rename.
fn write_atomic(
    path: &Path,
    bytes: &[u8],
    mode: u32,
    guard: Option<&FileState>,
) -> Result<(), CommitError> {
    agterm_backup_core::state::write_atomic_with(path, bytes, mode, || match guard {
        Some(state) => unchanged_since_read(state),
        None => Ok(()),
    })
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
        commit(&state, Some(b"new"), 0o600).unwrap();
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
            commit(&state, Some(b"x"), 0o600),
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
        commit(&state, Some(b"{}"), 0o600).unwrap();
        assert_eq!(
            fs::metadata(&path).unwrap().permissions().mode() & 0o777,
            0o600
        );
        let state = read(&path).unwrap();
        commit(&state, None, 0o600).unwrap();
        assert!(!path.exists());
    }
}
