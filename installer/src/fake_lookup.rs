//! A [`Lookup`] over plain data, for unit tests: an environment, files by path, a password database entry.

use crate::paths::Lookup;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

pub struct Fake {
    pub env: HashMap<&'static str, &'static str>,
    pub files: HashMap<PathBuf, String>,
    /// The login shell the password database gives.
    pub passwd: Option<&'static str>,
    /// Files someone other than root can change.
    pub not_roots: Vec<PathBuf>,
    /// What the user's zsh says its ZDOTDIR is (`None`: zsh cannot be asked).
    pub zsh: Option<Option<&'static str>>,
    /// The system configuration folder.
    pub etc: &'static str,
}

impl Lookup for Fake {
    fn env(&self, key: &str) -> Option<String> {
        self.env.get(key).map(|v| v.to_string())
    }
    fn read(&self, path: &Path) -> Option<String> {
        self.files.get(path).cloned()
    }
    fn exists(&self, path: &Path) -> bool {
        self.files.contains_key(path)
    }
    fn list(&self, dir: &Path) -> Vec<String> {
        self.files
            .keys()
            .filter(|p| p.parent() == Some(dir))
            .filter_map(|p| p.file_name()?.to_str().map(String::from))
            .collect()
    }
    fn only_root_writes(&self, path: &Path) -> bool {
        !self.not_roots.iter().any(|p| p == path)
    }
    fn login_shell(&self) -> Option<String> {
        self.passwd.map(String::from)
    }
    fn zsh_zdotdir(&self, _zsh: &str, _start: Option<&str>) -> Result<Option<String>, String> {
        match self.zsh {
            Some(answer) => Ok(answer.map(String::from)),
            None => Err("no zsh to ask".into()),
        }
    }
    fn etc(&self) -> PathBuf {
        PathBuf::from(self.etc)
    }
}

/// A fake with `env` and `files` (path, text), and no password database entry.
pub fn fake(env: &[(&'static str, &'static str)], files: &[(&str, &str)]) -> Fake {
    Fake {
        env: env.iter().cloned().collect(),
        files: files
            .iter()
            .map(|(p, t)| (PathBuf::from(p), t.to_string()))
            .collect(),
        passwd: None,
        not_roots: Vec::new(),
        zsh: None,
        etc: "/etc",
    }
}
