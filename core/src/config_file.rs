//! A terminal's own config file that the installer edits: a marked block of ours in a file the
//! terminal reads (a restore hook, a list of programs not to re-run after its restart), described as
//! plain strings and functions over the file's text. Each terminal's crate that has one defines it (its
//! `config_file`), its registry row hands it on, and the installer iterates the rows: it names no
//! terminal.

use crate::refusal::Refusal;
use std::path::{Path, PathBuf};

/// One terminal's config file, as the installer edits and reports it. Every function is pure over the
/// file's text, but [`path`](Self::path) (the lookups it is given) and [`warnings`](Self::warnings)
/// (this process's environment and disk).
pub struct TerminalConfigFile {
    /// Its target's name: `installer status`'s first column and `target` key, the installer's messages.
    pub target: &'static str,
    /// Its `file` in `installer status --json`.
    pub file: &'static str,
    /// What it is, in a sentence (`the … is left alone`).
    pub what: &'static str,
    /// `installer apply`'s flag that leaves it alone (without the leading `--`), and that flag's help.
    pub flag: &'static str,
    pub flag_help: &'static str,
    /// What `installer apply` wires there, one phrase of its help.
    pub apply_help: &'static str,
    /// What `installer remove`'s `--agents` help says of it, if anything.
    pub remove_help: Option<&'static str>,
    /// Whether our entries name this binary (its path is the target's command); else the command is
    /// empty.
    pub names_binary: bool,
    /// The mode of the file when we create it.
    pub mode: u32,
    /// The file from the environment (`env`) and the disk (`read`, `exists`): `Ok(None)` when the
    /// terminal is not set up here; an error that says what to set.
    pub path: FindPath,
    /// The text with our block for `binary` in place (`None`: no file yet), or why not.
    pub apply: fn(original: Option<&str>, binary: &str) -> Result<String, Refusal>,
    /// The text without our block, every other byte kept.
    pub remove: fn(text: &str) -> String,
    /// Whether the text holds a block of ours (any binary).
    pub has_ours: fn(text: &str) -> bool,
    /// What `apply` keeps of the user's that looks like ours, for the user to hear about.
    pub notes: fn(text: &str) -> Vec<String>,
    /// `installer status`'s word for the text and `binary` (`present`, `outdated`, `absent`).
    pub state: fn(text: &str, binary: &str) -> &'static str,
    /// `installer status`'s (and `status`'s) warnings about the text for `binary`.
    pub warnings: fn(text: &str, binary: &str) -> Vec<String>,
    /// Whether the terminal, reading the text, leaves each of our entries out of what it re-runs (its
    /// `installer status` line `denied by <terminal>`); `None`: a file that lists no programs.
    pub denies: Option<Denies>,
}

/// Where a terminal's config file is, from the environment (`env`) and the disk (`read`, `exists`).
pub type FindPath = fn(
    env: &dyn Fn(&str) -> Option<String>,
    read: &dyn Fn(&Path) -> Option<String>,
    exists: &dyn Fn(&Path) -> bool,
) -> Result<Option<PathBuf>, String>;

/// Each of our entries in a terminal's list of programs, with whether the terminal (reading the text)
/// leaves it out of what it re-runs.
pub type Denies = fn(text: &str) -> Vec<(&'static str, bool)>;

impl std::fmt::Debug for TerminalConfigFile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TerminalConfigFile")
            .field("target", &self.target)
            .finish_non_exhaustive()
    }
}

/// One file per target name, so the name is its identity.
impl PartialEq for TerminalConfigFile {
    fn eq(&self, other: &Self) -> bool {
        self.target == other.target
    }
}

impl Eq for TerminalConfigFile {}
