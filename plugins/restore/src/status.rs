//! `status`: is the hook installed, which terminal instances run (those the registry finds
//! `everywhere`: the ones always looked at, those with records or that the environment names), and
//! what is captured for each pane — built as plain data from the installer's report, each terminal's
//! answers and its restore plan. What one terminal says of its own (a section, its line, its warnings,
//! how a gone pane is named) comes from its registry row's `report`.
//!
//! `status --json`, version 1: `{"v":1,"hooks":[{"agent","state","path","trusted","switched_off"}],
//! "<terminal>":{"running":bool,"version","mode","restart","error"},"terminals":[{"terminal","place",
//! "running","version","mode","restart","launched_at","error"}],"panes":[{"terminal","pane","session",
//! "role","agent","captured","session_id","agent_cwd","pane_cwd","pin","pin_outcome","restore","cutoff",
//! "not_captured_because"}],
//! "warnings":[string],"broken_files":[{"path","pane","kind","reason"}]}`, where `"<terminal>"` is the
//! section of each terminal whose row repeats its first instance (README, "JSON output", names it).
//! `agent_cwd` is given only when it differs from the pane's cwd; `restore` is what `restore` would do,
//! `cutoff` the journal rule's cutoff it used (a pane that is its own session with a daemon: its own
//! start). `broken_files` names each record or journal file that could not be used, with why (also one
//! warning each).

use crate::gather::Scope;
use crate::plan::{foreground_agent_args, Action, PlanRow};
use agterm_backup_core::agent::AGENTS;
use agterm_backup_core::record::{LiveRecord, PinOutcome};
use agterm_backup_core::terminal::{PaneView, RestoreMode, TerminalInfo};
use agterm_backup_terminals::report::session_role;
use serde::Serialize;

/// One agent's hook, as the installer sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct HookState {
    pub agent: String,
    /// `present` | `outdated` | `partial` | `duplicate` | `absent` | `unreadable` (the Claude Code plugin
    /// route counts as `present`).
    pub state: String,
    pub path: String,
    /// Codex: every hook has a trust record; `None` for agents without trust.
    pub trusted: Option<bool>,
    /// The agent will not run our hook (a policy, a setting): the file and key, and the way out.
    pub switched_off: Option<HookOff>,
}

/// One terminal instance: running (its version, its restore mode when it has one, its launch) or why
/// not.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TerminalState {
    /// Its terminal's name (a registry row's).
    pub terminal: String,
    /// Its place, for a terminal of many instances (a server's socket, a socket directory); `None` for
    /// a terminal of one.
    pub place: Option<String>,
    pub running: bool,
    pub version: Option<String>,
    pub mode: Option<RestoreMode>,
    /// The terminal can restart a pane (replaces a replayed agent in a pane kept across its quit).
    pub restart: bool,
    pub launched_at: Option<String>,
    pub error: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PaneStatus {
    /// Its terminal's name (a registry row's).
    pub terminal: String,
    pub pane: String,
    pub session: String,
    pub role: String,
    pub agent: Option<String>,
    pub captured: bool,
    pub session_id: Option<String>,
    pub agent_cwd: Option<String>,
    pub pane_cwd: Option<String>,
    /// The pin its terminal stores for it: `none`, `plain shell` or the line.
    pub pin: String,
    pub pin_outcome: Option<PinOutcome>,
    pub restore: String,
    /// The journal rule's cutoff `restore` would use for this pane (RFC 3339), if any.
    pub cutoff: Option<String>,
    /// Why the agent runs without a record, when known (`why_not`).
    pub not_captured_because: Option<String>,
    /// The agent's argv, when it runs in the pane (for `why_not`; not in the JSON).
    #[serde(skip)]
    pub agent_args: Option<Vec<String>>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StatusReport {
    pub v: u32,
    pub hooks: Vec<HookState>,
    /// The terminals' own sections (see [`OwnSections`]), in place between `hooks` and `terminals`.
    #[serde(flatten)]
    pub own: OwnSections,
    pub terminals: Vec<TerminalState>,
    pub panes: Vec<PaneStatus>,
    pub warnings: Vec<String>,
    /// The record and journal files `restore` could not use, with why (`kind`: record | journal).
    pub broken_files: Vec<agterm_backup_core::state::BrokenFile>,
}

/// Everything `status` looks at, for one terminal.
pub struct StatusInput<'a> {
    pub hooks: Vec<HookState>,
    /// `Some(false)`: the denylist lacks claude or codex; `None`: unknown.
    pub denylist_ok: Option<bool>,
    pub terminal: Result<&'a TerminalInfo, String>,
    pub panes: &'a [PaneView],
    pub rows: &'a [PlanRow],
    /// The pin outcome of each row's current record.
    pub pin_outcomes: &'a [Option<PinOutcome>],
    /// Each row's current record, before the journal rule: what the hook captured in this launch.
    pub current: &'a [Option<LiveRecord>],
}

/// One terminal instance's part of the report: what it answered (or why not), its panes and its plan.
pub struct Section<'a> {
    pub scope: Scope,
    pub terminal: Result<&'a TerminalInfo, String>,
    pub panes: &'a [PaneView],
    pub rows: &'a [PlanRow],
    pub pin_outcomes: &'a [Option<PinOutcome>],
    pub current: &'a [Option<LiveRecord>],
}

/// The report of the first row's instance alone (as before the other terminals).
pub fn build(input: StatusInput<'_>) -> StatusReport {
    let section = Section {
        scope: agterm_backup_terminals::first(),
        terminal: input.terminal,
        panes: input.panes,
        rows: input.rows,
        pin_outcomes: input.pin_outcomes,
        current: input.current,
    };
    build_all(input.hooks, input.denylist_ok, &[section])
}

/// The report over every terminal instance, in the order given.
pub fn build_all(
    hooks: Vec<HookState>,
    denylist_ok: Option<bool>,
    sections: &[Section<'_>],
) -> StatusReport {
    let terminals: Vec<TerminalState> = sections.iter().map(terminal_state).collect();
    let own = sections::own_sections(sections, &terminals);
    let panes = sections.iter().flat_map(section_panes).collect();
    let pin_outcomes: Vec<Option<PinOutcome>> = sections
        .iter()
        .flat_map(|s| s.pin_outcomes.iter().copied())
        .collect();
    let mut warnings = warnings(&hooks);
    warnings.extend(sections::row_warnings(
        sections,
        &terminals,
        denylist_ok,
        &pin_outcomes,
    ));
    StatusReport {
        v: 1,
        hooks,
        own,
        terminals,
        panes,
        warnings,
        broken_files: Vec::new(),
    }
}

fn terminal_state(s: &Section<'_>) -> TerminalState {
    let (info, error) = match &s.terminal {
        Ok(i) => (Some(*i), None),
        Err(e) => (None, Some(e.clone())),
    };
    TerminalState {
        terminal: s.scope.kind().to_string(),
        place: s.scope.place().map(str::to_string),
        running: info.is_some(),
        version: info.and_then(|i| i.version.clone()),
        mode: info.and_then(|i| i.restore_mode),
        restart: info.is_some_and(|i| i.supports_restart),
        launched_at: info.and_then(|i| i.launched_at).map(stamp),
        error,
    }
}

fn stamp(t: chrono::DateTime<chrono::Utc>) -> String {
    t.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

/// The row that joined pane `p`, else the row of `p`'s own record file (a record the journal rule set
/// aside joins nothing, but it is still this pane's): a key naming a session's role names its pane for
/// good, where a place a pane may leave does not.
fn row_of(s: &Section<'_>, p: &PaneView) -> Option<usize> {
    s.rows
        .iter()
        .position(|r| r.target.as_ref().is_some_and(|t| p.is(t)))
        .or_else(|| {
            s.rows.iter().position(|r| {
                r.target.is_none()
                    && session_role(&r.key).is_some_and(|k| {
                        !p.has_terminal_pane()
                            && k.session.eq_ignore_ascii_case(&p.session_id)
                            && k.role == p.role
                    })
            })
        })
}

/// The panes of one terminal that run an agent or have a row, then its rows that joined no pane.
fn section_panes(s: &Section<'_>) -> Vec<PaneStatus> {
    let terminal = s.scope.kind().to_string();
    let mut panes = Vec::new();
    let mut used = vec![false; s.rows.len()];
    for p in s.panes {
        let row = row_of(s, p);
        let fg_agent = p.foreground.as_ref().and_then(|fg| {
            AGENTS
                .iter()
                .find(|a| foreground_agent_args(a, fg).is_some())
                .map(|a| a.name.to_string())
        });
        if row.is_none() && fg_agent.is_none() {
            continue;
        }
        if let Some(i) = row {
            used[i] = true;
        }
        let r = row.map(|i| &s.rows[i]);
        // The agent running now, captured by its current record — before any restart the journal rule
        // sets that record aside (it was written in this launch), but it is what the hook captured.
        let running = fg_agent.as_ref().and_then(|a| {
            row.and_then(|i| s.current.get(i).cloned().flatten())
                .filter(|c| &c.agent == a)
        });
        let agent_cwd = running
            .as_ref()
            .map(|c| c.agent_cwd.clone())
            .or_else(|| r.and_then(|r| r.agent_cwd.clone()))
            .filter(|c| p.cwd.as_deref() != Some(c.as_str()));
        // A pane with no identity in its terminal's own words is a session's role: named by both.
        let sessions_role = !p.has_terminal_pane();
        panes.push(PaneStatus {
            terminal: terminal.clone(),
            pane: match sessions_role {
                true => format!("{}-{}", p.session_id, p.role),
                false => agterm_backup_terminals::pane_label(p),
            },
            session: match sessions_role {
                true => p.session_name.clone().unwrap_or_default(),
                false => agterm_backup_terminals::pane_label(p),
            },
            role: if sessions_role {
                p.role.to_string()
            } else {
                String::new()
            },
            agent: fg_agent.or_else(|| r.and_then(|r| r.agent.clone())),
            captured: running.is_some() || r.and_then(|r| r.session_id.as_ref()).is_some(),
            session_id: running
                .as_ref()
                .map(|c| c.session_id.clone())
                .or_else(|| r.and_then(|r| r.session_id.clone())),
            agent_cwd,
            pane_cwd: p.cwd.clone(),
            pin: match p.pin.as_deref() {
                None => "none".into(),
                Some("") => "plain shell".into(),
                Some(line) => line.to_string(),
            },
            pin_outcome: row.and_then(|i| s.pin_outcomes.get(i).copied().flatten()),
            restore: match (r, &running) {
                (Some(r), Some(_)) if r.session_id.is_none() => {
                    "nothing to do: the agent runs, captured in this launch".into()
                }
                (Some(r), _) => describe(r),
                (None, _) => "not captured".into(),
            },
            cutoff: r.and_then(|r| r.cutoff).map(stamp),
            not_captured_because: None,
            agent_args: p.foreground.clone(),
        });
    }
    for (i, r) in s.rows.iter().enumerate().filter(|(i, _)| !used[*i]) {
        let current = s.current.get(i).cloned().flatten();
        // A pane that is gone: named by the place its record holds (a multiplexer's pane, a session).
        let place = current
            .as_ref()
            .and_then(agterm_backup_terminals::report::record_place);
        panes.push(PaneStatus {
            terminal: terminal.clone(),
            pane: r.key.to_string(),
            session: place.unwrap_or_default(),
            role: session_role(&r.key)
                .map(|k| k.role.to_string())
                .unwrap_or_default(),
            agent: r.agent.clone(),
            captured: r.session_id.is_some(),
            session_id: r.session_id.clone(),
            agent_cwd: r.agent_cwd.clone(),
            pane_cwd: None,
            pin: "none".into(),
            pin_outcome: s.pin_outcomes.get(i).copied().flatten(),
            restore: describe(r),
            cutoff: r.cutoff.map(stamp),
            not_captured_because: None,
            agent_args: None,
        });
    }
    panes
}

fn describe(r: &PlanRow) -> String {
    let j = if r.from_journal { " [journal]" } else { "" };
    match &r.action {
        Action::Type { .. } => format!("would type the resume line{j}"),
        Action::Create { .. } => format!("would recreate the session running the resume line{j}"),
        Action::Restart { .. } => {
            let words =
                agterm_backup_terminals::report::of(r.key.terminal().as_str()).restart_words;
            format!(
                "restore would restart the pane ({}) running the resume line{j}: {}",
                words.how, words.why
            )
        }
        Action::Skip { reason } => format!("{}{j}", reason.describe()),
    }
}

/// The warnings about our hooks (each terminal's own follow them).
fn warnings(hooks: &[HookState]) -> Vec<String> {
    let mut w = Vec::new();
    for h in hooks.iter().filter(|h| h.state != "present") {
        w.push(match h.state.as_str() {
            // `apply` refuses a file it cannot parse: the user fixes it first.
            "unreadable" => format!(
                "the {} hook file {} cannot be parsed: fix it (`agterm-backup installer status` says where), then run `agterm-backup installer apply`",
                h.agent, h.path
            ),
            "duplicate" => format!(
                "the {} hook runs more than once per event from {}: run `agterm-backup installer apply` to keep one",
                h.agent, h.path
            ),
            _ => format!(
                "the {} hook is {} in {}: run `agterm-backup installer apply`",
                h.agent, h.state, h.path
            ),
        });
    }
    if hooks
        .iter()
        .any(|h| h.trusted == Some(false) && h.state != "absent")
    {
        w.push("Codex has not trusted our hooks, so they do not run: open codex and choose \"Trust all and continue\", or run `agterm-backup installer apply --trust`".into());
    }
    w.extend(why_not::hook_warnings(hooks));
    w
}

mod render_text;
pub use render_text::render;
mod sections;
pub use sections::{OwnSections, SectionState};
mod why_not;
pub use why_not::{explain, HookOff};

#[cfg(test)]
#[path = "status_tests.rs"]
mod tests;
