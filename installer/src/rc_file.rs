//! The login shells we wire and their rc files, as plain data: below [`crate::target`] (a shell rc
//! target names its file) and [`crate::shell_rc`] (which edits them), so neither imports the other.
//! What our line in each file is ([`RcFile::line`]) lives with the editor.

/// A login shell we wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shell {
    Zsh,
    Bash,
    Fish,
}

impl Shell {
    /// Its name, as `init` takes it.
    pub fn name(self) -> &'static str {
        match self {
            Shell::Zsh => "zsh",
            Shell::Bash => "bash",
            Shell::Fish => "fish",
        }
    }

    /// The shell a login-shell path names (by its basename), or why it is not one we wire.
    pub fn of_login(path: &str) -> Result<Shell, String> {
        let name = path.rsplit('/').next().unwrap_or(path);
        match name.trim_start_matches('-') {
            "zsh" => Ok(Shell::Zsh),
            "bash" => Ok(Shell::Bash),
            "fish" => Ok(Shell::Fish),
            _ => Err(format!(
                "your login shell {path} is not one agterm-backup starts from (zsh, bash, fish); nothing written \
                 to its files: run `agterm-backup restore` after a restart instead"
            )),
        }
    }
}

/// One rc file we write, by the shell that reads it and its file name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RcFile {
    pub shell: Shell,
    /// The file's name (`.zshrc`, `.bashrc`, `.bash_profile`, `config.fish`, …).
    pub name: &'static str,
    /// `sh` and `dash` read it too (bash's `~/.profile`): our line runs under bash only.
    pub read_by_sh: bool,
}
