//! A terminal in the reports (its row's [`Report`]): what `status`, restore's plan and `snap` say of it
//! beyond what every terminal has. The reports iterate the rows and place what each one gives; the
//! words are its crate's. A terminal with nothing of its own is [`PLAIN`].

use crate::{record_row, row_named, view_row};
use agterm_backup_core::pane::{PaneKey, PaneRole};
use agterm_backup_core::record::{LiveRecord, PinOutcome};
use agterm_backup_core::terminal::{PaneView, RestoreMode};

/// What one terminal says in the reports.
pub struct Report {
    /// Whether `status --json` repeats its first instance under its name, before `terminals` (its
    /// running, version, mode, restart and error; "not asked" when no instance was): the scripts written
    /// before the other terminals read it there.
    pub status_section: bool,
    /// Its line in `status` for an instance that answered, up to ` · launched …`; `place` is
    /// ` (<place>)` for a terminal of many instances, else empty.
    pub running_line: fn(answered: &Answered<'_>, place: &str) -> String,
    /// What `status` adds to `<terminal> is not running`: where else it may be (a leading space).
    pub not_running_hint: &'static str,
    /// Its warnings in `status`, after every terminal's own.
    pub warnings: fn(facts: &Facts<'_>) -> Vec<String>,
    /// The session and role one of its keys names, for a terminal whose panes are a session's roles
    /// (named `api · left`); `None` for one whose panes have names of their own (a multiplexer's pane
    /// by its place, a session by its name: named `<terminal> <name>`).
    pub session_role: fn(key: &PaneKey) -> Option<SessionRole>,
    /// Where a record of its keeps its pane, as a person reads it (`<terminal> <place>`): how `status`
    /// names a pane that is gone. `None`: the record keeps no place of its own.
    pub record_place: fn(rec: &LiveRecord) -> Option<String>,
    /// How `status` says restore restarts one of its panes (a terminal that can restart a pane).
    pub restart_words: RestartWords,
    /// A record of one of its panes holding only the pane's own fields (the agent's are empty), for the
    /// conversations `snap --harvest` finds in the scrollback of its panes; `None`: its panes' scrollback
    /// is not harvested. The record's `None`: a pane no record of this terminal can name.
    pub harvest: Option<fn(view: &PaneView) -> Option<LiveRecord>>,
}

/// What an instance answered, as `status` keeps it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Answered<'a> {
    pub version: Option<&'a str>,
    /// Its active restore mode, when it says.
    pub mode: Option<RestoreMode>,
    /// It can restart a pane (replace a replayed agent in a pane kept alive across its quit).
    pub restart: bool,
}

/// What a terminal's warnings in `status` are decided from.
#[derive(Debug, Clone, Copy)]
pub struct Facts<'a> {
    /// What its first instance answered; `None` when none did (not running, or not asked).
    pub first: Option<Answered<'a>>,
    /// The installer's check that a terminal's restore denylist lists the agents that must not be
    /// replayed bare (`Some(false)`: it does not; `None`: unknown).
    pub denylist_ok: Option<bool>,
    /// The outcomes of the pins of every record shown (only a terminal that pins has any).
    pub pin_outcomes: &'a [Option<PinOutcome>],
}

/// A pane by its session and its role in it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionRole {
    pub session: String,
    pub role: PaneRole,
}

/// `restore would restart the pane (<how>) running the resume line: <why>`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RestartWords {
    /// The terminal's own means of restarting a pane.
    pub how: &'static str,
    /// Why the pane needs it: what the terminal brought back in it.
    pub why: &'static str,
}

/// A terminal with nothing of its own in the reports.
pub const PLAIN: Report = Report {
    status_section: false,
    running_line: plain_line,
    not_running_hint: "",
    warnings: |_| Vec::new(),
    session_role: |_| None,
    record_place: |_| None,
    restart_words: RestartWords {
        how: "its terminal's restart",
        why: "a bare agent was replayed, a new conversation",
    },
    harvest: None,
};

/// Its version (its answer says which program it is) and its place.
fn plain_line(answered: &Answered<'_>, place: &str) -> String {
    format!("{}{place}", answered.version.unwrap_or("(version unknown)"))
}

/// The report of the terminal called `name` ([`PLAIN`] for a name no row has).
pub fn of(name: &str) -> &'static Report {
    row_named(name).map_or(&PLAIN, |r| &r.report)
}

/// The session and role `key` names, by its terminal's row (see [`Report::session_role`]).
pub fn session_role(key: &PaneKey) -> Option<SessionRole> {
    (of(key.terminal().as_str()).session_role)(key)
}

/// Where `rec` keeps its pane, by its terminal's row (see [`Report::record_place`]).
pub fn record_place(rec: &LiveRecord) -> Option<String> {
    (record_row(rec).report.record_place)(rec)
}

/// Whether `snap --harvest` reads the scrollback of the panes of the terminal called `name`.
pub fn harvests(name: &str) -> bool {
    of(name).harvest.is_some()
}

/// A record of pane `view` holding only the pane's own fields, by its terminal's row (see
/// [`Report::harvest`]); `None` when its terminal harvests nothing or no record can name it.
pub fn harvest_record(view: &PaneView) -> Option<LiveRecord> {
    view_row(view).report.harvest.and_then(|h| h(view))
}
