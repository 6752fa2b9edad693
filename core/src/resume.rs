//! The resume line: `cd <agent_cwd> && <agent> <resume grammar with id> <kept flags>`.
//!
//! Every token is POSIX single-quoted, so the shell that receives the line (typed by us, or by the terminal from
//! a pin) gives the agent exactly these words whatever they hold. The line is refused — never built —
//! for an invalid session id or any word with a control character: a typed newline would press Return
//! half-way, and a terminal refuses pins with control characters anyway.
//!
//! A line longer than [`MAX_LINE_BYTES`] (the terminal's pin limit, and the tty's `MAX_CANON`) is moved into a
//! 0700 script under `<state>/scripts/`, and the line becomes `sh '<script>'`.

use crate::agent::{AgentSpec, ResumeGrammar};
use crate::id::is_valid_session_id;
use crate::quote::{quote, quote_words};
use crate::state::{write_atomic, StateDir};
use std::fmt;
use std::io;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

/// The longest line we type or pin (a terminal refuses a longer pin: `command too long (max 1024
/// bytes)`; the tty's canonical line buffer is 1024 bytes on macOS too).
pub const MAX_LINE_BYTES: usize = 1024;

/// Why no resume line can be built.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ResumeError {
    /// The session id does not match `^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$`.
    InvalidId(String),
    /// A word holds a control character (newline, tab, escape, …).
    ControlCharacter { what: &'static str, value: String },
    /// The directory to resume from is empty or relative.
    BadDirectory(String),
    /// A word holds U+FFFD, the replacement character: bytes that were not UTF-8 were replaced on the
    /// way into the record (our own `/proc` and `ps` reads, Node's path decoding in Claude, Codex), so
    /// the line would name a directory or a value that does not exist. Refused, never guessed.
    NotUtf8 { what: &'static str, value: String },
}

impl fmt::Display for ResumeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ResumeError::InvalidId(id) => write!(
                f,
                "refusing session id {id:?}: an id must match ^[A-Za-z0-9][A-Za-z0-9._-]{{0,127}}$"
            ),
            ResumeError::ControlCharacter { what, value } => write!(
                f,
                "refusing {what} {value:?}: it contains a control character, which a typed line cannot carry"
            ),
            ResumeError::BadDirectory(d) => write!(
                f,
                "refusing resume directory {d:?}: it must be an absolute path"
            ),
            ResumeError::NotUtf8 { what, value } => write!(
                f,
                "refusing {what} {value:?}: its name is not UTF-8, so its bytes were lost before they \
                 reached a line; rename it to UTF-8 to have it restored"
            ),
        }
    }
}

impl std::error::Error for ResumeError {}

/// A checked resume command: the directory and the agent's argv, plus the line that runs them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResumeLine {
    /// The directory the agent resumes in.
    pub cwd: String,
    /// The agent's argv: its name, the resume grammar with the id, then the kept flags.
    pub argv: Vec<String>,
    /// Whether the line starts with `cd <cwd> &&` (the pane's shell is elsewhere, or a pin).
    pub with_cd: bool,
    /// The line itself, without a trailing newline. May exceed [`MAX_LINE_BYTES`]; see [`ResumeLine::fits`].
    pub line: String,
}

impl ResumeLine {
    /// Builds the line for `spec` resuming `id` with `flags` in `agent_cwd`. `shell_cwd` is where the
    /// target pane's shell is; `None` (unknown, or a pin) always adds `cd`.
    pub fn build(
        spec: &AgentSpec,
        id: &str,
        flags: &[String],
        agent_cwd: &str,
        shell_cwd: Option<&str>,
    ) -> Result<ResumeLine, ResumeError> {
        if !is_valid_session_id(id) {
            return Err(ResumeError::InvalidId(id.to_string()));
        }
        check_word("directory", agent_cwd)?;
        if !agent_cwd.starts_with('/') {
            return Err(ResumeError::BadDirectory(agent_cwd.to_string()));
        }
        // Every recorded word is checked, also one the replay filter would leave out: a record holding
        // a control character or lost bytes is refused whole, never quietly trimmed.
        for f in flags {
            check_word("flag", f)?;
        }
        // Records from an older filter may hold flags today's does not replay.
        let flags = crate::flags::replayable(spec, flags);
        let mut argv = vec![spec.name.to_string()];
        match spec.resume {
            ResumeGrammar::FlagThenId(flag) | ResumeGrammar::Subcommand(flag) => {
                argv.push(flag.to_string());
                argv.push(id.to_string());
            }
            ResumeGrammar::FlagEqualsId(flag) => argv.push(format!("{flag}={id}")),
        }
        argv.extend(flags);
        let with_cd = shell_cwd.is_none_or(|s| Path::new(s) != Path::new(agent_cwd));
        let command = quote_words(&argv);
        let line = if with_cd {
            format!("cd {} && {command}", quote(agent_cwd))
        } else {
            command
        };
        Ok(ResumeLine {
            cwd: agent_cwd.to_string(),
            argv,
            with_cd,
            line,
        })
    }

    /// True when the line can be typed or pinned as it is.
    pub fn fits(&self) -> bool {
        self.line.len() <= MAX_LINE_BYTES
    }

    /// The script that replaces an over-long line: always `cd`, then `exec` the agent.
    pub fn script(&self) -> String {
        format!(
            "#!/bin/sh\n# written by agterm-backup: resumes {} in {}\ncd {} && exec {}\n",
            self.argv[0],
            self.cwd.escape_debug(),
            quote(&self.cwd),
            quote_words(&self.argv)
        )
    }

    /// The line to type or pin: the line itself when it fits, else `sh '<script>'` after writing the
    /// script atomically (0700, in a 0700 `<state>/scripts/`). `name` names the script (a pane key or
    /// the session id; anything but `[A-Za-z0-9._-]` is replaced).
    pub fn into_typable(self, state: &StateDir, name: &str) -> io::Result<String> {
        if self.fits() {
            return Ok(self.line);
        }
        let path = script_path(state, name);
        // A lossy path would make the line name a script that does not exist.
        let Some(shown) = path.to_str() else {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!(
                    "the state directory's path is not UTF-8, so no line can name the resume script                      in it: {}; set AGTERM_BACKUP_HOME to a UTF-8 path",
                    path.display()
                ),
            ));
        };
        let dir = path.parent().expect("scripts live in a folder");
        crate::state::guard::own_dir(state.root(), dir)?;
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))?;
        write_atomic(&path, self.script().as_bytes(), 0o700)?;
        let line = format!("sh {}", quote(shown));
        if line.len() > MAX_LINE_BYTES {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!(
                    "the state directory path is too long for a {MAX_LINE_BYTES}-byte line: {}",
                    path.display()
                ),
            ));
        }
        Ok(line)
    }
}

/// Where the script for `name` goes: `<state>/scripts/<name>.sh`.
pub fn script_path(state: &StateDir, name: &str) -> PathBuf {
    let safe: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
                c
            } else {
                '_'
            }
        })
        .collect();
    let safe = safe.trim_start_matches('.');
    let safe = if safe.is_empty() { "resume" } else { safe };
    state.root().join("scripts").join(format!("{safe}.sh"))
}

fn check_word(what: &'static str, value: &str) -> Result<(), ResumeError> {
    if value.chars().any(char::is_control) {
        return Err(ResumeError::ControlCharacter {
            what,
            value: value.to_string(),
        });
    }
    if value.contains(char::REPLACEMENT_CHARACTER) {
        return Err(ResumeError::NotUtf8 {
            what,
            value: value.to_string(),
        });
    }
    Ok(())
}

impl ResumeError {
    /// A short stable code for the error, for a skip reason of its own (`invalid-id` is only ever an
    /// id).
    pub fn code(&self) -> &'static str {
        match self {
            ResumeError::InvalidId(_) => "invalid-id",
            ResumeError::ControlCharacter { .. } => "control-character",
            ResumeError::BadDirectory(_) => "bad-directory",
            ResumeError::NotUtf8 { .. } => "not-utf8",
        }
    }
}

#[cfg(test)]
mod tests;
