//! A record's pane after a restart: the plain data every terminal's join reads and returns. Each
//! terminal's crate owns its own join (how its records find their pane), reached through its row in the
//! registry; restore's plan decides from what the join says (its precedence table), naming no terminal.

use crate::pane::PaneKey;
use crate::record::LiveRecord;
use crate::terminal::{PaneRef, PaneView};
use chrono::{DateTime, Utc};
use serde::Serialize;

/// Everything captured for one pane: its current record and its journal (oldest first).
#[derive(Debug, Clone, PartialEq)]
pub struct CapturedPane {
    pub key: PaneKey,
    pub record: Option<LiveRecord>,
    pub journal: Vec<LiveRecord>,
}

/// What a terminal's join looks at for one record.
#[derive(Debug, Clone, Copy)]
pub struct JoinInput<'a> {
    /// The panes the terminal shows now.
    pub panes: &'a [PaneView],
    /// Every captured pane (a join may weigh other panes' records against this one).
    pub captured: &'a [CapturedPane],
    /// The captured pane the record was read from.
    pub pane: &'a CapturedPane,
    /// The record to join: the one in force at the cutoff, or the one the pane holds now.
    pub record: &'a LiveRecord,
    /// The pane's cutoff (the journal rule's).
    pub cut: Option<DateTime<Utc>>,
}

/// The start of a pane that is its own terminal for the journal rule (a daemon per pane, as a session multiplexer has); `None`:
/// gone, or unknown (its terminal's launch then stands).
pub type PaneLaunch = Option<DateTime<Utc>>;

/// How a record found its pane: a stable code in `--json` (`pane-id`, `session-role`, each terminal's
/// own), chosen by the terminal's join.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct JoinedBy(pub &'static str);

impl JoinedBy {
    /// By the pane's persistent id.
    pub const PANE_ID: JoinedBy = JoinedBy("pane-id");
    /// By the terminal session and the pane's role in it.
    pub const SESSION_ROLE: JoinedBy = JoinedBy("session-role");
}

/// Why a record joins no pane now (rows 3, 3b, 3c and 3e of restore's precedence table).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotJoined {
    PaneGone,
    /// The record's place holds a pane its directory does not confirm, or the pane moved since.
    JoinUncertain {
        why: String,
    },
    /// The server now at the record's place rebuilt another server's save: its panes are that
    /// server's, so the record's place says nothing.
    OtherSave {
        from: String,
    },
    /// A session that lived after the boot is gone now: the user closed it (or its shell exited).
    SessionClosed {
        /// When its last record was written (after the boot).
        last_seen: String,
    },
}

impl NotJoined {
    /// The stable code in `--json`.
    pub fn code(&self) -> &'static str {
        match self {
            NotJoined::PaneGone => "pane-gone",
            NotJoined::JoinUncertain { .. } => "join-uncertain",
            NotJoined::OtherSave { .. } => "other-save",
            NotJoined::SessionClosed { .. } => "session-closed",
        }
    }
}

/// What a terminal's join found for one record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Join {
    /// The index in the panes, and how.
    Pane(usize, JoinedBy),
    /// Gone with the reboot, and to be created here (a terminal whose panes are named sessions).
    Create(PaneRef),
    /// No pane, and why.
    Not(NotJoined),
}
