//! Where the installer reads the world: the environment and the files that decide where things go. The
//! lowest layer of the installer's file finding ([`crate::paths`], [`crate::shell_rc`], [`crate::gate`]
//! read through it), so a fake stands in for the machine in tests.

use std::path::{Path, PathBuf};

/// Reads the environment and the files that decide where things go.
pub trait Lookup {
    fn env(&self, key: &str) -> Option<String>;
    fn read(&self, path: &Path) -> Option<String>;
    fn exists(&self, path: &Path) -> bool;
    /// The names in a folder (none when it is absent or unreadable).
    fn list(&self, _dir: &Path) -> Vec<String> {
        Vec::new()
    }
    /// Only root can change the file: it and every folder above it are root's and writable by no group
    /// or other (an absent path is fine). Gemini CLI reads its system settings only then.
    fn only_root_writes(&self, _path: &Path) -> bool {
        true
    }
    /// The login shell the password database gives this user (`None` when it has no entry).
    fn login_shell(&self) -> Option<String> {
        None
    }
    /// zsh's ZDOTDIR after its `zshenv` files, `zsh` started with `start` as ZDOTDIR (`Ok(None)`: unset),
    /// or why zsh could not be asked ([`crate::shell_rc::zdotdir`]).
    fn zsh_zdotdir(&self, zsh: &str, start: Option<&str>) -> Result<Option<String>, String> {
        let _ = (zsh, start);
        Err("no zsh to ask".into())
    }
    /// The system configuration folder (`/etc`), where zsh's system `zshenv` is.
    fn etc(&self) -> PathBuf {
        system_root(self).join("etc")
    }
}

/// The file system's root for machine-wide files: `/`, or `$AGTERM_BACKUP_SYSTEM_ROOT` (the tests', which
/// must never read the machine's own `/etc`).
pub fn system_root(lookup: &(impl Lookup + ?Sized)) -> PathBuf {
    lookup
        .env("AGTERM_BACKUP_SYSTEM_ROOT")
        .filter(|r| !r.is_empty())
        .map_or_else(|| PathBuf::from("/"), PathBuf::from)
}
