//! Why the plan types nothing into a pane: one variant per row of the precedence table in
//! [`crate::plan`], each with a stable `--json` code and one sentence for a person.

use agterm_backup_core::join::NotJoined;
use agterm_backup_core::pane::{PaneKey, TerminalName};
use agterm_backup_core::resume::ResumeError;

/// Why a new conversation in the pane stays (row 7), and so what the person can do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NewHint {
    /// Someone typed into it: it is theirs now.
    Prompted,
    /// The pane's terminal replayed it, but cannot restart the pane to replace it.
    NoRestart { terminal: TerminalName },
    /// Not known to be the terminal's replay (started by hand, or the terminal keeps no daemons).
    QuitIt,
}

/// Why nothing is typed into a pane.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SkipReason {
    NoRecord {
        why: String,
    },
    /// A shell start without the terminal's launch time: neither the journal rule nor the
    /// once-per-launch marker can work, so the shell stands aside.
    NoLaunchTime,
    /// The record names an agent this release does not know (written by a newer one, or damaged).
    UnknownAgent {
        agent: String,
    },
    InvalidId {
        why: String,
    },
    /// The record's time is no time it could have been written at: not a date, before
    /// [`crate::plan::EARLIEST_RECORD`], or more than [`crate::plan::FUTURE_TOLERANCE_SECS`] after the
    /// run (a clock that was wrong, or a file not written by the hook).
    BadTime {
        ts: String,
        why: String,
    },
    /// No pane joins the record (rows 3, 3b, 3c, 3e): its terminal's join says why.
    NotJoined {
        why: NotJoined,
        terminal: TerminalName,
    },
    /// The user ended the conversation (the agent's SessionEnd `reason`, see `record::ended_by_user`).
    Ended {
        reason: String,
    },
    /// Another pane held the same conversation later; only that pane's row may resume it.
    Duplicate {
        winner: PaneKey,
        winner_name: Option<String>,
    },
    /// The pane lives on another machine (a terminal's remote session).
    Remote,
    AlreadyRunning {
        live: bool,
    },
    /// A new conversation of the record's agent, started in this launch, holds the pane.
    NewConversation {
        agent: String,
        hint: NewHint,
    },
    Busy {
        foreground: Vec<String>,
    },
    /// The pane's terminal sees neither a program nor a shell in front: something it cannot read
    /// (setuid `sudo`).
    HiddenForeground {
        terminal: TerminalName,
    },
    /// The conversation or the pane already got its resume in this launch (`once.rs`).
    Resumed {
        why: String,
    },
    /// The pane's terminal is still to type this pane's pin itself (right after its launch).
    Pinned {
        line: String,
        terminal: TerminalName,
    },
    /// The pane's terminal did not come up within the wait.
    NotRealized,
    TranscriptGone {
        what: String,
    },
    /// The record's directory is gone, or is not a directory: a `cd` into it would fail in the pane.
    DirGone {
        dir: String,
        why: String,
    },
    /// Row 7b without proof that the replayed agent's hooks run: it left no record at all since the
    /// launch, so a prompt the user typed into it would not show either. Not restarted on our own.
    HooksUnproven {
        agent: String,
        line: String,
        terminal: TerminalName,
    },
    /// A directory or flag that no shell line can carry (a control character, a relative directory,
    /// or whatever else [`ResumeError`] refuses besides the id).
    Unquotable {
        why: String,
    },
}

impl SkipReason {
    /// The row for a resume line that could not be built: an invalid id keeps its own code; every
    /// other refusal (directory, flag, bytes no line can carry) is `unquotable`.
    pub fn from_resume_error(e: &ResumeError) -> SkipReason {
        match e {
            ResumeError::InvalidId(_) => SkipReason::InvalidId { why: e.to_string() },
            _ => SkipReason::Unquotable { why: e.to_string() },
        }
    }

    /// The stable code in `--json`.
    pub fn code(&self) -> &'static str {
        match self {
            SkipReason::NoRecord { .. } => "no-record",
            SkipReason::NoLaunchTime => "no-launch-time",
            SkipReason::UnknownAgent { .. } => "unknown-agent",
            SkipReason::InvalidId { .. } => "invalid-id",
            SkipReason::BadTime { .. } => "bad-time",
            SkipReason::NotJoined { why, .. } => why.code(),
            SkipReason::Ended { .. } => "ended",
            SkipReason::Duplicate { .. } => "duplicate",
            SkipReason::Remote => "remote",
            SkipReason::AlreadyRunning { .. } => "already-running",
            SkipReason::NewConversation { .. } => "new-conversation",
            SkipReason::Busy { .. } => "busy",
            SkipReason::HiddenForeground { .. } => "hidden-foreground",
            SkipReason::Resumed { .. } => "resumed",
            SkipReason::Pinned { .. } => "pinned",
            SkipReason::NotRealized => "not-realized",
            SkipReason::TranscriptGone { .. } => "transcript-gone",
            SkipReason::Unquotable { .. } => "unquotable",
            SkipReason::DirGone { .. } => "dir-gone",
            SkipReason::HooksUnproven { .. } => "hooks-unproven",
        }
    }

    /// One line for a person.
    pub fn describe(&self) -> String {
        match self {
            SkipReason::NoRecord { why } => format!("no record: {why}"),
            SkipReason::NoLaunchTime => "no launch time: the terminal's start is unknown, so a shell does not resume on its own; run restore".into(),
            SkipReason::UnknownAgent { agent } => format!(
                "unknown agent {agent:?}: this agterm-backup cannot resume it; a newer release may"
            ),
            SkipReason::InvalidId { why } => format!("invalid id: {why}"),
            SkipReason::BadTime { ts, why } => format!(
                "bad time: the record says it was written at {ts:?}, {why}; not trusted to choose a \
                 conversation (check the clock, then run restore again)"
            ),
            SkipReason::NotJoined { why, terminal } => not_joined(why, *terminal),
            SkipReason::Ended { reason } => format!(
                "ended: the user quit this conversation (SessionEnd reason {reason:?}); not resuming it"
            ),
            SkipReason::Duplicate {
                winner,
                winner_name,
            } => {
                let who = match winner_name {
                    Some(name) => match agterm_backup_terminals::restore_facts::key_role(winner) {
                        Some(role) => format!("{name} · {role}"),
                        None => name.clone(),
                    },
                    None => winner.to_string(),
                };
                format!(
                    "duplicate: pane {who} held this conversation last; only that pane's row may resume it"
                )
            }
            SkipReason::Remote => {
                "remote: the pane lives on another machine; restore types only into local panes"
                    .into()
            }
            SkipReason::AlreadyRunning { live: true } => {
                "already running (its Live daemon kept the agent alive)".into()
            }
            SkipReason::AlreadyRunning { live: false } => "already running".into(),
            SkipReason::NewConversation { agent, hint: NewHint::QuitIt } => format!(
                "busy: a new {agent} conversation started in this launch holds the pane; quit it, then run restore again"
            ),
            SkipReason::NewConversation { agent, hint: NewHint::Prompted } => format!(
                "busy: someone typed into the new {agent} conversation this pane runs since the launch; left alone \
                 (quit it, then run restore again, to get the pane's own conversation back)"
            ),
            SkipReason::NewConversation { agent, hint: NewHint::NoRestart { terminal } } => {
                let t = terminal.as_str();
                format!(
                    "busy: {t} replayed a bare {agent} (a new conversation) here, and this {t} has no \
                     `session restart` to replace it; update {t}, or quit {agent}, then run restore again"
                )
            }
            SkipReason::Busy { foreground } => {
                format!("busy: `{}` is in the foreground", foreground.join(" "))
            }
            SkipReason::HiddenForeground { terminal } => format!(
                "busy: {} sees no shell at the prompt (a program it cannot read, such as sudo, holds the pane)",
                terminal.as_str()
            ),
            SkipReason::Resumed { why } => format!(
                "resumed: this conversation or pane was already brought back since the terminal's launch ({why}); not twice"
            ),
            SkipReason::Pinned { line, terminal } => format!(
                "pinned: {} types this pane's pin itself (`{line}`); if it does not bring the agent back, run restore again in a minute",
                terminal.as_str()
            ),
            SkipReason::NotRealized => format!(
                "not realized: its terminal has not brought this pane up yet{}; run restore again once it shows",
                agterm_backup_terminals::restore_facts::unrealized()
            ),
            SkipReason::TranscriptGone { what } => {
                format!("transcript gone ({what}); not starting a blank conversation")
            }
            SkipReason::Unquotable { why } => format!("cannot go into a resume line: {why}"),
            SkipReason::DirGone { dir, why } => format!(
                "directory gone: {dir} {why}; the conversation cannot be resumed there (restore the \
                 directory, then run restore again)"
            ),
            SkipReason::HooksUnproven {
                agent,
                line,
                terminal,
            } => format!(
                "busy: {} replayed a bare {agent} here, but it left no record since the launch, so its \
                 hooks are not proven to run and a prompt typed into it would not show; left alone. To get \
                 the pane's own conversation back, quit {agent} and run: {line}",
                terminal.as_str()
            ),
        }
    }
}

/// One line for a person on why no pane joins the record of a pane of `terminal`.
fn not_joined(why: &NotJoined, terminal: TerminalName) -> String {
    match why {
        NotJoined::PaneGone => "pane gone: no open pane has this id or session".into(),
        NotJoined::JoinUncertain { why } => format!("not joined: {why}; not guessing"),
        NotJoined::OtherSave { from } => format!(
            "not joined: {from}; the panes there are that server's, not guessing"
        ),
        NotJoined::SessionClosed { last_seen } => format!(
            "session closed: this {} session was still in use after the boot ({last_seen}) and is gone \
             now (closed, or its shell exited); not recreating it",
            terminal.as_str()
        ),
    }
}

#[cfg(test)]
#[path = "skip_tests.rs"]
mod tests;
