//! The restore plan: one pure function from plain data to one row per captured pane.
//!
//! Precedence, first match wins (the style of agterm's `CommandRestore.restorePlan`):
//!
//! | # | condition                                                                  | row                     |
//! |---|----------------------------------------------------------------------------|-------------------------|
//! | 1 | no record, or every record was written after the cutoff                    | skip `no-record`        |
//! | 2 | the chosen record's agent is unknown or its session id is invalid          | skip `invalid-id`       |
//! | 3 | no open pane joins the record (pane id, else session id + role)            | skip `pane-gone`        |
//! | 3b| the user ended the chosen conversation (its newest record, `ended_by_user`) | skip `ended`            |
//! | 4 | the agent in the foreground runs a conversation started in this launch     | skip `new-conversation` |
//! | 5 | the pane's foreground is the agent (a Live daemon kept it, a pin fired, …) | skip `already-running`  |
//! | 6 | anything else in the foreground (vim, a build, …)                          | skip `busy`             |
//! | 7 | the conversation's transcript / rollout is gone                            | skip `transcript-gone`  |
//! | 8 | otherwise                                                                  | `type <resume line>`    |
//!
//! **The journal rule.** The cutoff is `--as-of` when given, else the running agterm's launch time. A live
//! record written after the cutoff belongs to a session started in this launch (a replayed bare `claude`,
//! or one the user started and closed) — never the one the pane held before. The plan steps back to the
//! newest journal entry written at or before the cutoff and marks the row `[journal]`.
//!
//! Live (zmx) panes: the terminal client joins `zmx.list` rows into [`PaneView::live`], and agterm's
//! `tree.foreground` sees through a surviving daemon (`ZmxForegroundResolver`), so an agent that a Live
//! daemon kept alive shows as the pane's foreground (row 5, marked as kept by Live). A daemon recreated
//! after a reboot runs a fresh shell (or a replayed argv), which rows 4, 6 and 8 handle like any pane.
//!
//! Row 4 is what keeps a replayed bare agent from winning (Live after a reboot without the denylist): the
//! pane is busy with a *new* conversation, so nothing is typed and the row says how to get the old one back.

use crate::transcripts::Transcripts;
use agterm_backup_core::agent::{agent, AgentSpec};
use agterm_backup_core::id::is_valid_session_id;
use agterm_backup_core::pane::{PaneKey, PaneRole};
use agterm_backup_core::process::agent_args;
use agterm_backup_core::record::LiveRecord;
use agterm_backup_core::resume::ResumeLine;
use agterm_backup_core::terminal::{PaneRef, PaneView, RestoreMode};
use chrono::{DateTime, Utc};
use serde::Serialize;
use std::collections::HashMap;

/// Everything captured for one pane: its current record and its journal (oldest first).
#[derive(Debug, Clone, PartialEq)]
pub struct CapturedPane {
    pub key: PaneKey,
    pub record: Option<LiveRecord>,
    pub journal: Vec<LiveRecord>,
}

/// The planner's whole input. `panes` are the panes of every open window, with `zmx.list` rows already
/// joined into [`PaneView::live`] by the terminal client.
#[derive(Debug, Clone, Copy)]
pub struct PlanInput<'a> {
    pub captured: &'a [CapturedPane],
    pub panes: &'a [PaneView],
    pub mode: Option<RestoreMode>,
    /// When the running agterm started.
    pub launched_at: Option<DateTime<Utc>>,
    /// `--as-of`: overrides `launched_at` as the cutoff.
    pub as_of: Option<DateTime<Utc>>,
    pub transcripts: &'a Transcripts,
}

/// How a record found its pane.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum JoinedBy {
    PaneId,
    SessionRole,
}

/// Why nothing is typed into a pane.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SkipReason {
    NoRecord {
        why: String,
    },
    InvalidId {
        why: String,
    },
    PaneGone,
    AlreadyRunning {
        live: bool,
    },
    NewConversation {
        agent: String,
    },
    Busy {
        foreground: Vec<String>,
    },
    TranscriptGone {
        what: String,
    },
    /// The user ended the conversation (the agent's SessionEnd `reason`, see `record::ended_by_user`).
    Ended {
        reason: String,
    },
}

impl SkipReason {
    /// The stable code in `--json`.
    pub fn code(&self) -> &'static str {
        match self {
            SkipReason::NoRecord { .. } => "no-record",
            SkipReason::InvalidId { .. } => "invalid-id",
            SkipReason::PaneGone => "pane-gone",
            SkipReason::AlreadyRunning { .. } => "already-running",
            SkipReason::NewConversation { .. } => "new-conversation",
            SkipReason::Busy { .. } => "busy",
            SkipReason::TranscriptGone { .. } => "transcript-gone",
            SkipReason::Ended { .. } => "ended",
        }
    }

    /// One line for a person.
    pub fn describe(&self) -> String {
        match self {
            SkipReason::NoRecord { why } => format!("no record: {why}"),
            SkipReason::InvalidId { why } => format!("invalid id: {why}"),
            SkipReason::PaneGone => "pane gone: no open pane has this id or session".into(),
            SkipReason::AlreadyRunning { live: true } => {
                "already running (its Live daemon kept the agent alive)".into()
            }
            SkipReason::AlreadyRunning { live: false } => "already running".into(),
            SkipReason::NewConversation { agent } => format!(
                "busy: a new {agent} conversation started in this launch holds the pane; quit it, then run restore again"
            ),
            SkipReason::Busy { foreground } => {
                format!("busy: `{}` is in the foreground", foreground.join(" "))
            }
            SkipReason::TranscriptGone { what } => {
                format!("transcript gone ({what}); not starting a blank conversation")
            }
            SkipReason::Ended { reason } => format!(
                "ended: the user quit this conversation (SessionEnd reason {reason:?}); not resuming it"
            ),
        }
    }
}

/// What to do with one pane.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    /// Type `line` (then Return); `resume` holds the checked argv (for over-long lines, a script).
    Type {
        line: String,
        resume: ResumeLine,
    },
    Skip {
        reason: SkipReason,
    },
}

/// One row of the plan.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlanRow {
    pub key: PaneKey,
    /// Where to type, when a pane joined.
    pub target: Option<PaneRef>,
    pub joined_by: Option<JoinedBy>,
    /// The joined pane's session name in agterm's sidebar, for people reading the plan.
    pub pane_name: Option<String>,
    pub agent: Option<String>,
    pub session_id: Option<String>,
    pub agent_cwd: Option<String>,
    pub pane_cwd: Option<String>,
    /// The record came from the journal (the current one was written after the cutoff).
    pub from_journal: bool,
    pub action: Action,
}

impl PlanRow {
    pub fn line(&self) -> Option<&str> {
        match &self.action {
            Action::Type { line, .. } => Some(line),
            Action::Skip { .. } => None,
        }
    }
}

/// The cutoff in force: `--as-of`, else agterm's launch time, else none.
pub fn cutoff(input: &PlanInput<'_>) -> Option<DateTime<Utc>> {
    input.as_of.or(input.launched_at)
}

/// Plans every captured pane, in the order given.
pub fn plan(input: &PlanInput<'_>) -> Vec<PlanRow> {
    let cut = cutoff(input);
    let by_id: HashMap<String, usize> = input
        .panes
        .iter()
        .enumerate()
        .filter_map(|(i, p)| p.pane_id.as_ref().map(|id| (id.to_ascii_uppercase(), i)))
        .collect();
    let by_session: HashMap<(String, PaneRole), usize> = input
        .panes
        .iter()
        .enumerate()
        .map(|(i, p)| ((p.session_id.to_ascii_uppercase(), p.role), i))
        .collect();
    input
        .captured
        .iter()
        .map(|c| plan_one(input, c, cut, &by_id, &by_session))
        .collect()
}

/// The record in force at `cut`: the current one when written at or before it, else the newest journal
/// entry that was. The flag says whether the journal supplied it.
pub fn record_at(c: &CapturedPane, cut: Option<DateTime<Utc>>) -> Option<(&LiveRecord, bool)> {
    let Some(cut) = cut else {
        return c.record.as_ref().or(c.journal.last()).map(|r| (r, false));
    };
    let before = |r: &LiveRecord| r.written_at().is_some_and(|t| t <= cut);
    if let Some(r) = c.record.as_ref().filter(|r| before(r)) {
        return Some((r, false));
    }
    // The journal is append-only, so the newest qualifying entry is the last one.
    c.journal
        .iter()
        .rev()
        .find(|r| before(r))
        .map(|r| (r, true))
}

fn plan_one(
    input: &PlanInput<'_>,
    c: &CapturedPane,
    cut: Option<DateTime<Utc>>,
    by_id: &HashMap<String, usize>,
    by_session: &HashMap<(String, PaneRole), usize>,
) -> PlanRow {
    let mut row = PlanRow {
        key: c.key.clone(),
        target: None,
        joined_by: None,
        pane_name: None,
        agent: None,
        session_id: None,
        agent_cwd: None,
        pane_cwd: None,
        from_journal: false,
        action: Action::Skip {
            reason: SkipReason::PaneGone,
        },
    };
    let skip = |mut row: PlanRow, reason: SkipReason| {
        row.action = Action::Skip { reason };
        row
    };
    // 1. A record in force at the cutoff.
    let Some((rec, from_journal)) = record_at(c, cut) else {
        let why = match (&c.record, cut) {
            (None, _) if c.journal.is_empty() => "nothing captured for this pane".to_string(),
            (_, Some(t)) => format!("every record was written after {}", t.to_rfc3339()),
            _ => "the record is unreadable".to_string(),
        };
        return skip(row, SkipReason::NoRecord { why });
    };
    row.from_journal = from_journal;
    row.agent = Some(rec.agent.clone());
    row.session_id = Some(rec.session_id.clone());
    row.agent_cwd = Some(rec.agent_cwd.clone());
    // 2. A known agent and a valid id.
    let Some(spec) = agent(&rec.agent) else {
        let why = format!("unknown agent {:?}", rec.agent);
        return skip(row, SkipReason::InvalidId { why });
    };
    if !is_valid_session_id(&rec.session_id) {
        let why = format!("{:?} is not a session id", rec.session_id);
        return skip(row, SkipReason::InvalidId { why });
    }
    // 3. The pane, by persistent pane id where both sides have one, else by session + role.
    let joined = rec
        .pane_id
        .as_ref()
        .and_then(|id| by_id.get(&id.to_ascii_uppercase()))
        .map(|&i| (i, JoinedBy::PaneId))
        .or_else(|| {
            by_session
                .get(&(c.key.session.clone(), c.key.role))
                .map(|&i| (i, JoinedBy::SessionRole))
        });
    let Some((index, joined_by)) = joined else {
        return skip(row, SkipReason::PaneGone);
    };
    let pane = &input.panes[index];
    row.joined_by = Some(joined_by);
    row.pane_name = pane.session_name.clone().filter(|n| !n.is_empty());
    row.pane_cwd = pane.cwd.clone();
    row.target = Some(PaneRef {
        session_id: pane.session_id.clone(),
        role: pane.role,
        pane_id: pane.pane_id.clone(),
    });
    // 3b. A conversation the user ended stays ended. The newest word on the chosen conversation counts:
    // the current record when it names the same one (ended after the cutoff, or resumed again since).
    let latest = c
        .record
        .as_ref()
        .filter(|r| r.agent == rec.agent && r.session_id == rec.session_id)
        .unwrap_or(rec);
    if latest.ended_by_user() {
        let reason = latest.end_reason().unwrap_or_default().to_string();
        return skip(row, SkipReason::Ended { reason });
    }
    // 4–6. Only an idle shell is typed into.
    if let Some(fg) = pane.foreground.as_ref().filter(|fg| !fg.is_empty()) {
        let reason = foreground_reason(input, spec, rec, c, from_journal, pane, fg);
        return skip(row, reason);
    }
    // 7. Never resume into a blank conversation.
    if let Some(what) = input.transcripts.missing(rec) {
        return skip(row, SkipReason::TranscriptGone { what });
    }
    // 8. Type.
    match ResumeLine::build(
        spec,
        &rec.session_id,
        &rec.flags,
        &rec.agent_cwd,
        pane.cwd.as_deref(),
    ) {
        Ok(resume) => {
            row.action = Action::Type {
                line: resume.line.clone(),
                resume,
            };
            row
        }
        Err(e) => skip(row, SkipReason::InvalidId { why: e.to_string() }),
    }
}

fn foreground_reason(
    input: &PlanInput<'_>,
    spec: &AgentSpec,
    rec: &LiveRecord,
    c: &CapturedPane,
    from_journal: bool,
    pane: &PaneView,
    fg: &[String],
) -> SkipReason {
    let Some(args) = foreground_agent_args(spec, fg) else {
        return SkipReason::Busy {
            foreground: fg.to_vec(),
        };
    };
    let runs_our_id = args.iter().any(|a| a.contains(rec.session_id.as_str()));
    // The current record names another conversation, written in this launch: the agent in the pane is
    // that new one (a replayed bare agent), not ours.
    let newer_other = from_journal
        && c.record
            .as_ref()
            .is_some_and(|r| r.session_id != rec.session_id);
    if newer_other && !runs_our_id {
        return SkipReason::NewConversation {
            agent: rec.agent.clone(),
        };
    }
    let live =
        input.mode == Some(RestoreMode::Live) && pane.live.as_ref().is_some_and(|d| d.running);
    SkipReason::AlreadyRunning { live }
}

/// The agent's own arguments when `argv` runs `spec`: natively, under node/bun, or as a script run by a
/// shell (`sh /path/claude …`, how a wrapper script shows in the foreground).
pub fn foreground_agent_args<'a>(spec: &AgentSpec, argv: &'a [String]) -> Option<&'a [String]> {
    if let Some(args) = agent_args(spec, argv) {
        return Some(args);
    }
    let program = argv.first()?.rsplit('/').next()?;
    if ["sh", "bash", "zsh", "dash", "fish", "ksh"].contains(&program) {
        let script = argv.iter().skip(1).position(|a| !a.starts_with('-'))? + 1;
        let name = argv[script].rsplit('/').next()?;
        if spec.binaries.contains(&name) {
            return Some(&argv[script + 1..]);
        }
    }
    None
}

#[cfg(test)]
#[path = "plan_tests.rs"]
mod tests;
