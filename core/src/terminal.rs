//! The seam between agterm-backup and the terminal it restores into.
//!
//! Each terminal of the registry (`terminals/registry`) implements [`Terminal`] in
//! its own folder under `terminals/`. Planning code consumes only the plain data here
//! ([`TerminalInfo`], [`PaneView`]), so it is tested without any socket.

use crate::pane::{PaneRole, TerminalPane};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// How the running terminal brings panes back after a restart.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RestoreMode {
    /// Fresh shells.
    None,
    /// Re-run the captured commands; pins fire.
    Rerun,
    /// Daemons keep processes alive across a quit; pins never fire.
    Live,
}

/// What the running terminal is and can do, found by probing (never by version string alone).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct TerminalInfo {
    /// The terminal's `version` answer, else `None`.
    pub version: Option<String>,
    /// The active restore mode; `None` when the terminal cannot say.
    pub restore_mode: Option<RestoreMode>,
    /// The terminal keeps pins (a line it types into a pane at its next launch).
    pub supports_pin: bool,
    /// The terminal lists the daemons behind its Live panes.
    pub supports_live: bool,
    /// The terminal can replace a Live pane's shell with one running a line.
    #[serde(default)]
    pub supports_restart: bool,
    /// When the running terminal process started (from the socket peer's pid).
    pub launched_at: Option<DateTime<Utc>>,
    /// The launch's start in whole seconds as every process reads it alike, where `launched_at` is an
    /// estimate that differs between readers (one read from the boot's fraction of a second).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub launch_stamp: Option<i64>,
}

impl TerminalInfo {
    /// The launch's name in whole seconds: `launch_stamp`, else `launched_at`'s seconds.
    pub fn launch_secs(&self) -> Option<i64> {
        self.launch_stamp
            .or_else(|| self.launched_at.map(|t| t.timestamp()))
    }
}

/// A Live daemon backing a pane, as the terminal reports it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LiveDaemon {
    pub daemon: String,
    /// `observation == "running"`.
    pub running: bool,
    pub clients: Option<u32>,
    /// The daemon's shell (its leader).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub leader_pid: Option<u32>,
    /// When the daemon's shell (`leaderPID`) started: after the terminal's launch, the daemon was
    /// created in this launch (a reboot's replay), so nothing in it ran before.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub started_at: Option<DateTime<Utc>>,
}

/// One pane as the terminal shows it now.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PaneView {
    /// The terminal session (its id, upper-case).
    pub session_id: String,
    pub role: PaneRole,
    /// Persistent pane token where the terminal exposes it.
    pub pane_id: Option<String>,
    pub window_id: Option<String>,
    pub session_name: Option<String>,
    /// The pane's cwd where known.
    pub cwd: Option<String>,
    /// The live foreground argv; `None` at a shell prompt, and also when the terminal cannot read the
    /// foreground program (a terminal may leave setuid programs such as `sudo` out).
    pub foreground: Option<Vec<String>>,
    /// Whether the terminal *sees* a shell holding the foreground;
    /// `None` when this terminal does not say. `foreground` absent and this `Some(false)`: a program
    /// the terminal cannot read holds the pane — it is not an idle shell.
    #[serde(default)]
    pub shell_in_front: Option<bool>,
    /// The pane lives on another machine (a remote session): never typed into.
    #[serde(default)]
    pub remote: bool,
    /// `Some(false)` when the pane's terminal is not up yet (typing would fail).
    pub realized: Option<bool>,
    /// The persisted pin: `None` = none, `Some("")` = plain shell, `Some(line)`.
    pub pin: Option<String>,
    pub live: Option<LiveDaemon>,
    /// The pane's identity in its own terminal's words, under the terminal's name (a multiplexer's
    /// pane or session: what its records join on; the terminal's crate reads its typed view). Empty for
    /// a terminal whose panes the fields above name.
    #[serde(flatten)]
    pub own: Map<String, Value>,
}

impl PaneView {
    /// The pane by its session's name and role (`api · right`, else the session id's first 8
    /// characters). A terminal with panes of its own words labels them itself (the registry's
    /// `pane_label` asks it first).
    pub fn session_label(&self) -> String {
        match self.session_name.as_deref().filter(|n| !n.is_empty()) {
            Some(name) => format!("{name} · {}", self.role),
            None => format!(
                "{}… · {}",
                self.session_id.get(..8).unwrap_or(&self.session_id),
                self.role
            ),
        }
    }

    /// The identity this pane has in terminal `terminal`'s words, if it is that terminal's.
    pub fn terminal_pane(&self, terminal: &str) -> Option<&Value> {
        self.own.get(terminal)
    }

    /// Whether the pane has an identity in its own terminal's words (see [`PaneView::own`]).
    pub fn has_terminal_pane(&self) -> bool {
        !self.own.is_empty()
    }

    /// Gives the pane its identity in its own terminal's words.
    pub fn set_terminal_pane(&mut self, pane: TerminalPane) {
        self.own
            .insert(pane.terminal.as_str().into(), pane.identity);
    }

    /// Whether `target` (a row's pane, or a pane being answered) addresses this pane: by the pane id
    /// where both have one (a multiplexer's pane id, a session's key, a persistent token), else by
    /// session and role.
    pub fn is(&self, target: &PaneRef) -> bool {
        match (&self.pane_id, &target.pane_id) {
            (Some(mine), Some(theirs)) => mine.eq_ignore_ascii_case(theirs),
            _ => {
                self.session_id.eq_ignore_ascii_case(&target.session_id) && self.role == target.role
            }
        }
    }
}

/// Addresses one pane for typing, reading or pinning.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PaneRef {
    pub session_id: String,
    pub role: PaneRole,
    pub pane_id: Option<String>,
}

/// How much of a pane's screen to read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScreenRange {
    Visible,
    LastLines(u32),
    All,
}

#[derive(Debug, thiserror::Error)]
pub enum TerminalError {
    /// The terminal could not be reached (no socket, connection refused, timeout).
    #[error("{0}")]
    Unreachable(String),
    /// The terminal answered with an error (its own text).
    #[error("{0}")]
    Refused(String),
    /// The terminal does not have this feature.
    #[error("{0}")]
    Unsupported(String),
}

/// What a terminal's restart of a pane did: its shell `old_pid` ended, `new_pid` runs the line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Restarted {
    pub old_pid: Option<u32>,
    pub new_pid: Option<u32>,
}

/// Who created a session restore asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Created {
    /// Restore did: it runs the command restore gave.
    Ours,
    /// It existed already when the terminal came to create it (a user's own attach won the race): the
    /// command was ignored, the session runs whatever its creator started.
    Theirs,
}

/// The operations restore, status and the hook need from a terminal.
pub trait Terminal {
    fn info(&mut self) -> Result<TerminalInfo, TerminalError>;
    /// Every pane of every open window.
    fn panes(&mut self) -> Result<Vec<PaneView>, TerminalError>;
    /// Types `text` into the pane; `\n` presses Return.
    fn type_text(&mut self, pane: &PaneRef, text: &str) -> Result<(), TerminalError>;
    fn screen(&mut self, pane: &PaneRef, range: ScreenRange) -> Result<String, TerminalError>;
    /// Pins `line` to be typed into the pane on the terminal's next launch.
    /// `Ok(None)` = stored and will fire; `Ok(Some(note))` = stored, but the terminal says it will not run.
    fn pin(&mut self, pane: &PaneRef, line: &str) -> Result<Option<String>, TerminalError>;
    /// Creates the pane `pane` names, detached, in `dir`, running the shell line `line` and a login
    /// shell after it. Only a terminal whose panes are named sessions can.
    fn create(&mut self, pane: &PaneRef, dir: &str, line: &str) -> Result<Created, TerminalError> {
        let _ = (pane, dir, line);
        Err(TerminalError::Unsupported(
            "this terminal cannot create a pane; its own restorer brings panes back".into(),
        ))
    }
    /// Replaces the pane's shell (and whatever runs in it) with a new login shell running `line`,
    /// keeping the pane's identity (Live panes only).
    fn restart(&mut self, pane: &PaneRef, line: &str) -> Result<Restarted, TerminalError> {
        let _ = (pane, line);
        Err(TerminalError::Unsupported(
            "this terminal cannot restart a pane with a command".into(),
        ))
    }
}
