//! Typing the plan: re-check each pane right before typing (still an idle local shell, realized, its
//! prompt line empty, the `cd` rebuilt for where the shell is now), type the line and Return, confirm the
//! agent came up *and stayed up*, then watch the typed Claude panes for the "resume from summary?"
//! question and answer it.
//!
//! Everything goes through the [`Terminal`] seam, so the same code drives every terminal of the registry,
//! the fake terminals of the tests and the in-memory [`crate::mock::MockTerminal`].

use crate::dialog::{answer_keys, find_dialog};
use crate::once::{NotTaken, Trigger};
use crate::plan::{foreground_agent_args, not_idle, PlanRow};
use crate::prompt::{root_prompt, typed_on_prompt};
use crate::render::pane_label;
use agterm_backup_core::agent::agent;
use agterm_backup_core::printable::printable;
use agterm_backup_core::resume::ResumeLine;
use agterm_backup_core::state::StateDir;
use agterm_backup_core::terminal::{PaneRef, PaneView, ScreenRange, Terminal};
use std::time::Duration;

/// Environment variable: seconds to wait for Claude's dialog after typing (default 90).
pub const DIALOG_TIMEOUT_ENV: &str = "AGTERM_BACKUP_DIALOG_TIMEOUT_SECS";
/// Environment variable: seconds to wait for a typed agent to reach the foreground (default 20).
pub const CONFIRM_TIMEOUT_ENV: &str = "AGTERM_BACKUP_CONFIRM_TIMEOUT_SECS";
/// Environment variable: seconds a typed agent must stay in the foreground to count as running
/// (default 2; an agent refusing its arguments exits well within that).
pub const SETTLE_ENV: &str = "AGTERM_BACKUP_SETTLE_SECS";
/// Environment variable: seconds to wait for unrealized panes before planning (default 10).
pub const REALIZE_TIMEOUT_ENV: &str = "AGTERM_BACKUP_REALIZE_TIMEOUT_SECS";

/// How long to wait, and which dialog option to pick (`None`: leave the dialog to the user).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExecOptions {
    pub confirm_timeout: Duration,
    /// How long a typed agent must stay in the foreground once seen.
    pub settle: Duration,
    pub dialog_timeout: Duration,
    /// How long to wait for panes their terminal has not realized yet, before planning.
    pub realize_timeout: Duration,
    pub poll: Duration,
    pub answer: Option<u8>,
}

impl ExecOptions {
    /// Defaults, with the two timeouts overridable from the environment (tests shorten them).
    pub fn from_env(answer: Option<u8>, env: impl Fn(&str) -> Option<String>) -> ExecOptions {
        let secs = |k: &str, d: f64| {
            env(k)
                .and_then(|v| v.trim().parse::<f64>().ok())
                .filter(|s| *s >= 0.0)
                .unwrap_or(d)
        };
        ExecOptions {
            confirm_timeout: Duration::from_secs_f64(secs(CONFIRM_TIMEOUT_ENV, 20.0)),
            settle: Duration::from_secs_f64(secs(SETTLE_ENV, 2.0)),
            dialog_timeout: Duration::from_secs_f64(secs(DIALOG_TIMEOUT_ENV, 90.0)),
            realize_timeout: Duration::from_secs_f64(secs(REALIZE_TIMEOUT_ENV, 10.0)),
            poll: Duration::from_millis(250),
            answer,
        }
    }
}

/// Where restore reports what it does: a finished step per pane as a line, and — for a live display on
/// a terminal — which panes it is still waiting on. A plain `FnMut(&str)` takes the lines only.
pub trait Progress {
    fn line(&mut self, text: &str);
    /// Still waiting for `what` (agents to come up, Claude's resume question) in `panes`.
    fn waiting(&mut self, _what: &str, _panes: &[String], _elapsed: Duration) {}
}

impl<F: FnMut(&str)> Progress for F {
    fn line(&mut self, text: &str) {
        self(text)
    }
}

/// What happened to one typed row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// The agent is in the pane's foreground.
    Resumed { answered: Option<u8> },
    /// Typed, but the agent did not reach the foreground in time.
    TypedUnconfirmed,
    /// Typed; the agent came up and exited at once (e.g. it refused an argument). Holds the screen's
    /// last line.
    Exited(String),
    /// Not typed: at the moment of typing the pane was gone or busy.
    NotIdle(String),
    /// Not typed: the terminal refused, or the script could not be written.
    Failed(String),
}

impl Outcome {
    pub fn word(&self) -> String {
        match self {
            Outcome::Resumed { answered: None } => "resumed".into(),
            Outcome::Resumed { answered: Some(n) } => format!("resumed+answered {n}"),
            Outcome::TypedUnconfirmed => "typed-unconfirmed".into(),
            Outcome::Exited(why) => format!("exited: {why}"),
            Outcome::NotIdle(why) => format!("not-idle: {why}"),
            Outcome::Failed(why) => format!("failed: {why}"),
        }
    }
    pub fn is_failure(&self) -> bool {
        matches!(
            self,
            Outcome::TypedUnconfirmed | Outcome::Exited(_) | Outcome::Failed(_)
        )
    }
}

/// The pane `target` names as the terminal lists it now: a row is re-checked right before it is acted
/// on (the plan may be seconds old).
pub(crate) fn pane_now(term: &mut dyn Terminal, target: &PaneRef) -> Result<PaneView, Outcome> {
    let now = term
        .panes()
        .map_err(|e| Outcome::Failed(format!("could not list panes: {e}")))?;
    find_pane(&now, target)
        .cloned()
        .ok_or_else(|| Outcome::NotIdle("the pane is gone".into()))
}

/// Finds the pane `target` names in a fresh pane list: by pane id when both have one, else session + role.
pub fn find_pane<'a>(panes: &'a [PaneView], target: &PaneRef) -> Option<&'a PaneView> {
    let same_session = |p: &&PaneView| {
        p.session_id.eq_ignore_ascii_case(&target.session_id) && p.role == target.role
    };
    target
        .pane_id
        .as_ref()
        .and_then(|id| {
            panes.iter().find(|p| {
                p.pane_id
                    .as_ref()
                    .is_some_and(|t| t.eq_ignore_ascii_case(id))
            })
        })
        .or_else(|| panes.iter().find(same_session))
}

/// Types every `type` row and returns one outcome per row (`None` for skipped rows).
pub fn type_plan(
    term: &mut dyn Terminal,
    rows: &[PlanRow],
    state: &StateDir,
    opts: &ExecOptions,
    progress: &mut dyn Progress,
) -> Vec<Option<Outcome>> {
    let mut outcomes: Vec<Option<Outcome>> = vec![None; rows.len()];
    // Each typed row with its screen from right before the typing.
    let mut typed: Vec<(usize, String)> = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        if row.line().is_none() {
            continue;
        }
        let label = pane_label(row);
        let done = if row.creates() {
            create_one(term, row, state)
        } else if row.restarts() {
            restart_one(term, row, state)
        } else {
            type_one(term, row, state).map(|before| (before, "typed"))
        };
        match done {
            Ok((before, verb)) => {
                let agent = row.agent.as_deref().unwrap_or("agent");
                progress.line(&format!("{label}: {verb} {agent}"));
                typed.push((i, before));
            }
            Err(outcome) => {
                let why = match &outcome {
                    Outcome::NotIdle(why) => format!("not typed, {why}"),
                    other => other.word(),
                };
                progress.line(&format!("{label}: {why}"));
                outcomes[i] = Some(outcome);
            }
        }
    }
    let confirmed = confirm(term, rows, &typed, opts, &mut outcomes, progress);
    // An agent that came up and exited at once is not back: a later restore may try again.
    for (row, outcome) in rows.iter().zip(&outcomes) {
        if matches!(outcome, Some(Outcome::Exited(_))) {
            release(row, state);
        }
    }
    if let Some(choice) = opts.answer {
        let claude: Vec<usize> = confirmed
            .into_iter()
            .filter(|&i| rows[i].agent.as_deref() == Some("claude"))
            .collect();
        watch_dialogs(term, rows, &claude, choice, opts, &mut outcomes, progress);
    }
    outcomes
}

/// Re-checks one `type` row's pane right before typing — the plan may be seconds old — and types its
/// line, rebuilt for where the pane's shell is now (the `cd` is added or dropped accordingly). Returns
/// the pane's screen from before the typing.
fn type_one(term: &mut dyn Terminal, row: &PlanRow, state: &StateDir) -> Result<String, Outcome> {
    let (Some(target), Some(spec), Some(id), Some(cwd)) = (
        row.target.as_ref(),
        row.agent.as_deref().and_then(agent),
        row.session_id.as_deref(),
        row.agent_cwd.as_deref(),
    ) else {
        return Err(Outcome::Failed("the row has no pane or record".into()));
    };
    let pane = pane_now(term, target)?;
    if let Some(reason) = not_idle(&pane) {
        return Err(Outcome::NotIdle(reason.describe()));
    }
    let screen = term
        .screen(target, ScreenRange::Visible)
        .map_err(|e| Outcome::NotIdle(format!("its screen cannot be read ({e})")))?;
    if let Some(text) = typed_on_prompt(&screen, pane.cwd.as_deref()) {
        return Err(Outcome::NotIdle(format!(
            "the prompt already holds `{}`; clear it and run restore again",
            printable(&text)
        )));
    }
    if root_prompt(&screen) && !nix::unistd::geteuid().is_root() {
        return Err(Outcome::NotIdle(
            "its prompt ends in `#`: a root shell (sudo -i, su) seems to hold the pane, and restore \
             does not start agents as root; exit it and run restore again"
                .into(),
        ));
    }
    let resume = ResumeLine::build(spec, id, &row.flags, cwd, pane.cwd.as_deref())
        .map_err(|e| Outcome::Failed(e.to_string()))?;
    let line = resume
        .into_typable(state, &row.key.to_string())
        .map_err(|e| Outcome::Failed(format!("could not write the resume script: {e}")))?;
    // Once per launch: a shell's start-up trigger (or another restore) that brought the conversation
    // back first holds its marker, and then nothing is typed.
    take_claim(row, state)?;
    term.type_text(target, &format!("{line}\n")).map_err(|e| {
        release(row, state);
        Outcome::Failed(format!("typing failed: {e}"))
    })?;
    Ok(screen)
}

/// Takes the row's once-per-launch markers (none to take without a launch identity). Taken already: the
/// pane is not ours to start the conversation in.
fn take_claim(row: &PlanRow, state: &StateDir) -> Result<(), Outcome> {
    let Some(claim) = &row.claim else {
        return Ok(());
    };
    claim.take(state, Trigger::Restore).map_err(|e| match e {
        NotTaken::Taken(_) => Outcome::NotIdle(e.to_string()),
        NotTaken::Io(_) => Outcome::Failed(e.to_string()),
    })
}

/// Gives back the row's once-per-launch markers.
fn release(row: &PlanRow, state: &StateDir) {
    if let Some(claim) = &row.claim {
        claim.release(state);
    }
}

/// A pane where Claude is waiting on the dialog now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Waiting {
    pub pane: PaneRef,
    /// How a person recognises the pane (the registry's `pane_label`, from its terminal's row).
    pub label: String,
    pub title: String,
    pub answered: bool,
}

/// `answer`: finds every pane whose foreground is Claude and whose screen shows the dialog, and (unless
/// `dry_run`) types `choice` into each.
pub fn answer_waiting(
    term: &mut dyn Terminal,
    choice: u8,
    dry_run: bool,
) -> Result<Vec<Waiting>, String> {
    let keys = answer_keys(choice)?;
    let claude = agent("claude").expect("claude is in the agent table");
    let panes = term
        .panes()
        .map_err(|e| format!("could not list the panes: {e}"))?;
    let mut out = Vec::new();
    // Never into a pane on another machine, even to answer.
    for p in panes.into_iter().filter(|p| !p.remote) {
        let is_claude = p
            .foreground
            .as_ref()
            .is_some_and(|fg| foreground_agent_args(claude, fg).is_some());
        if !is_claude {
            continue;
        }
        let pane = PaneRef {
            session_id: p.session_id.clone(),
            role: p.role,
            pane_id: p.pane_id.clone(),
        };
        let Ok(screen) = term.screen(&pane, ScreenRange::Visible) else {
            continue;
        };
        let Some(dialog) = find_dialog(&screen) else {
            continue;
        };
        let answered = !dry_run && term.type_text(&pane, &keys).is_ok();
        out.push(Waiting {
            label: agterm_backup_terminals::pane_label(&p),
            pane,
            title: dialog.title,
            answered,
        });
    }
    Ok(out)
}

#[path = "confirm.rs"]
mod confirm;
use confirm::confirm;

#[path = "watch.rs"]
mod watch;
pub use watch::answer_when_asked;
use watch::watch_dialogs;
#[path = "create.rs"]
mod create;
use create::create_one;
#[path = "restart.rs"]
mod restart;
use restart::restart_one;

#[cfg(test)]
#[path = "execute_tests.rs"]
mod tests;
