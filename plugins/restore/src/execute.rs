//! Typing the plan: re-check each pane right before typing, type the line and Return, confirm the agent
//! came up, then watch the typed Claude panes for the "resume from summary?" question and answer it.
//!
//! Everything goes through the [`Terminal`] seam, so the same code drives agterm, the fake agterm of the
//! tests and the in-memory [`crate::mock::MockTerminal`].

use crate::dialog::{answer_keys, choice_label, claude_ready, find_dialog};
use crate::plan::{foreground_agent_args, Action, PlanRow};
use crate::render::pane_label;
use agterm_backup_core::agent::agent;
use agterm_backup_core::state::StateDir;
use agterm_backup_core::terminal::{PaneRef, PaneView, ScreenRange, Terminal};
use std::time::{Duration, Instant};

/// Environment variable: seconds to wait for Claude's dialog after typing (default 90).
pub const DIALOG_TIMEOUT_ENV: &str = "AGTERM_BACKUP_DIALOG_TIMEOUT_SECS";
/// Environment variable: seconds to wait for a typed agent to reach the foreground (default 20).
pub const CONFIRM_TIMEOUT_ENV: &str = "AGTERM_BACKUP_CONFIRM_TIMEOUT_SECS";

/// How long to wait, and which dialog option to pick (`None`: leave the dialog to the user).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExecOptions {
    pub confirm_timeout: Duration,
    pub dialog_timeout: Duration,
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
            dialog_timeout: Duration::from_secs_f64(secs(DIALOG_TIMEOUT_ENV, 90.0)),
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
            Outcome::NotIdle(why) => format!("not-idle: {why}"),
            Outcome::Failed(why) => format!("failed: {why}"),
        }
    }
    pub fn is_failure(&self) -> bool {
        matches!(self, Outcome::TypedUnconfirmed | Outcome::Failed(_))
    }
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
    let mut typed: Vec<usize> = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        let (Action::Type { resume, .. }, Some(target)) = (&row.action, row.target.as_ref()) else {
            continue;
        };
        let label = pane_label(row);
        // Re-check right before typing: the plan may be seconds old.
        let now = match term.panes() {
            Ok(p) => p,
            Err(e) => {
                outcomes[i] = Some(Outcome::Failed(format!("could not list panes: {e}")));
                continue;
            }
        };
        match find_pane(&now, target) {
            None => {
                outcomes[i] = Some(Outcome::NotIdle("the pane is gone".into()));
                progress.line(&format!("{label}: not typed, the pane is gone"));
                continue;
            }
            Some(p) if p.foreground.as_ref().is_some_and(|f| !f.is_empty()) => {
                let fg = p.foreground.clone().unwrap_or_default().join(" ");
                outcomes[i] = Some(Outcome::NotIdle(format!("`{fg}` is in the foreground")));
                progress.line(&format!("{label}: not typed, `{fg}` is in the foreground"));
                continue;
            }
            Some(_) => {}
        }
        let line = match resume.clone().into_typable(state, &row.key.to_string()) {
            Ok(l) => l,
            Err(e) => {
                outcomes[i] = Some(Outcome::Failed(format!(
                    "could not write the resume script: {e}"
                )));
                continue;
            }
        };
        match term.type_text(target, &format!("{line}\n")) {
            Ok(()) => {
                progress.line(&format!(
                    "{label}: typed {}",
                    row.agent.as_deref().unwrap_or("agent")
                ));
                typed.push(i);
            }
            Err(e) => {
                progress.line(&format!("{label}: typing failed: {e}"));
                outcomes[i] = Some(Outcome::Failed(e.to_string()));
            }
        }
    }
    let confirmed = confirm(term, rows, &typed, opts, &mut outcomes, progress);
    if let Some(choice) = opts.answer {
        let claude: Vec<usize> = confirmed
            .into_iter()
            .filter(|&i| rows[i].agent.as_deref() == Some("claude"))
            .collect();
        watch_dialogs(term, rows, &claude, choice, opts, &mut outcomes, progress);
    }
    outcomes
}

/// Polls until each typed pane's foreground is its agent, or the timeout. Returns the confirmed rows.
fn confirm(
    term: &mut dyn Terminal,
    rows: &[PlanRow],
    typed: &[usize],
    opts: &ExecOptions,
    outcomes: &mut [Option<Outcome>],
    progress: &mut dyn Progress,
) -> Vec<usize> {
    let started = Instant::now();
    let deadline = started + opts.confirm_timeout;
    let mut waiting: Vec<usize> = typed.to_vec();
    let mut done = Vec::new();
    loop {
        if let Ok(panes) = term.panes() {
            waiting.retain(|&i| {
                let row = &rows[i];
                let spec = row.agent.as_deref().and_then(agent);
                let up = row
                    .target
                    .as_ref()
                    .and_then(|t| find_pane(&panes, t))
                    .and_then(|p| p.foreground.as_ref())
                    .zip(spec)
                    .is_some_and(|(fg, spec)| foreground_agent_args(spec, fg).is_some());
                if up {
                    outcomes[i] = Some(Outcome::Resumed { answered: None });
                    progress.line(&format!(
                        "{}: {} is running",
                        pane_label(row),
                        spec.unwrap().name
                    ));
                    done.push(i);
                }
                !up
            });
        }
        if waiting.is_empty() || Instant::now() >= deadline {
            break;
        }
        let labels: Vec<String> = waiting.iter().map(|&i| pane_label(&rows[i])).collect();
        progress.waiting("agents to come up", &labels, started.elapsed());
        std::thread::sleep(opts.poll);
    }
    for i in waiting {
        outcomes[i] = Some(Outcome::TypedUnconfirmed);
        progress.line(&format!(
            "{}: typed, but the agent did not reach the foreground within {}s",
            pane_label(&rows[i]),
            opts.confirm_timeout.as_secs()
        ));
    }
    done
}

/// Watches the screens of `watch` rows for Claude's dialog and answers `choice`; stops per pane once
/// answered or once Claude's prompt shows without the dialog, and overall at the dialog timeout.
fn watch_dialogs(
    term: &mut dyn Terminal,
    rows: &[PlanRow],
    watch: &[usize],
    choice: u8,
    opts: &ExecOptions,
    outcomes: &mut [Option<Outcome>],
    progress: &mut dyn Progress,
) {
    let Ok(keys) = answer_keys(choice) else {
        return;
    };
    let started = Instant::now();
    let deadline = started + opts.dialog_timeout;
    let mut waiting: Vec<usize> = watch.to_vec();
    while !waiting.is_empty() {
        waiting.retain(|&i| {
            let target = rows[i].target.as_ref().expect("typed rows have a target");
            let Ok(screen) = term.screen(target, ScreenRange::Visible) else {
                return true;
            };
            if find_dialog(&screen).is_some() {
                if term.type_text(target, &keys).is_ok() {
                    outcomes[i] = Some(Outcome::Resumed {
                        answered: Some(choice),
                    });
                    progress.line(&format!(
                        "{}: answered the resume question: {choice} ({})",
                        pane_label(&rows[i]),
                        choice_label(choice)
                    ));
                }
                return false;
            }
            !claude_ready(&screen)
        });
        if waiting.is_empty() || Instant::now() >= deadline {
            break;
        }
        let labels: Vec<String> = waiting.iter().map(|&i| pane_label(&rows[i])).collect();
        progress.waiting(
            "Claude to boot (resume question?)",
            &labels,
            started.elapsed(),
        );
        std::thread::sleep(opts.poll);
    }
}

/// A pane where Claude is waiting on the dialog now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Waiting {
    pub pane: PaneRef,
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
        .map_err(|e| format!("could not list agterm's panes: {e}"))?;
    let mut out = Vec::new();
    for p in panes {
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
            pane,
            title: dialog.title,
            answered,
        });
    }
    Ok(out)
}

#[cfg(test)]
#[path = "execute_tests.rs"]
mod tests;
