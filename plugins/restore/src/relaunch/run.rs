//! `restart` in one terminal: look at every pane (its record, marker, foreground and screen), decide,
//! and for each pane to restart: write the marker, quit the agent the way its user would, wait for the
//! shell's prompt, then type the resume line with restore's own `type_plan` (the same re-checks,
//! confirmation and answer to Claude's question), and remove the marker once the agent is back.

use super::decide::{decide, PaneFacts, SkipWhy, Verdict, WaitReason};
use super::version;
use crate::execute::{type_plan, ExecOptions, Outcome, Progress};
use crate::plan::{Action, PlanRow};
use crate::prompt::typed_on_prompt;
use agterm_backup_core::agent::agent;
use agterm_backup_core::pane::PaneKey;
use agterm_backup_core::record::LiveRecord;
use agterm_backup_core::restarting::{self, RestartMarker};
use agterm_backup_core::resume::ResumeLine;
use agterm_backup_core::state::StateDir;
use agterm_backup_core::terminal::{PaneRef, PaneView, ScreenRange, Terminal};
use serde::Serialize;
use std::collections::HashMap;
use std::time::{Duration, Instant};

/// Which panes to look at: `--agent`, `--pane`.
#[derive(Debug, Clone, Default)]
pub struct Filter {
    pub agents: Vec<String>,
    /// A pane's label, pane id or record key, or another name its terminal gives it (a place, a
    /// session's name: the row's `restore.names_pane`).
    pub pane: Option<String>,
}

/// One pane as seen now, with its verdict.
#[derive(Debug, Clone)]
pub struct Seen {
    pub pane: PaneView,
    pub key: PaneKey,
    pub record: Option<LiveRecord>,
    pub verdict: Verdict,
}

/// One row of the report (`--json`'s `panes[]`).
#[derive(Debug, Clone, Serialize)]
pub struct Row {
    pub pane: String,
    pub key: String,
    pub agent: Option<String>,
    pub session_id: Option<String>,
    /// `restart`, `finish`, `wait` or `skip` (the plan); after the run `restarted`, `failed`, `waiting`.
    pub status: String,
    pub reason: Option<String>,
    pub version_before: Option<String>,
    pub version_after: Option<String>,
    /// `2.1.300 → 2.1.332`, `same version (2.1.332)`, `version unknown`.
    pub version_change: Option<String>,
    /// How long the pane was without its agent (quit typed → agent confirmed back), in seconds.
    pub away_secs: Option<f64>,
}

/// The pane's record key, by its terminal's rule (a place, a session, a session and role).
fn key_of(p: &PaneView) -> Option<PaneKey> {
    agterm_backup_terminals::view_key(p)
}

fn pane_ref(p: &PaneView) -> PaneRef {
    PaneRef {
        session_id: p.session_id.clone(),
        role: p.role,
        pane_id: p.pane_id.clone(),
    }
}

fn selected(filter: &Filter, p: &PaneView, key: &PaneKey, rec: Option<&LiveRecord>) -> bool {
    let agent_ok =
        filter.agents.is_empty() || rec.is_some_and(|r| filter.agents.contains(&r.agent));
    let pane_ok = filter.pane.as_deref().is_none_or(|s| {
        agterm_backup_terminals::pane_label(p) == s
            || key.to_string() == s
            || p.pane_id.as_deref() == Some(s)
            || agterm_backup_terminals::restore_facts::names_pane(p, s)
    });
    agent_ok && pane_ok
}

/// Every pane of `term` that passes `filter` and has a record, with its verdict now.
pub fn look(
    term: &mut dyn Terminal,
    state: &StateDir,
    filter: &Filter,
) -> Result<Vec<Seen>, String> {
    let panes = term.panes().map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    for pane in panes {
        let Some(key) = key_of(&pane) else { continue };
        let record = state.read_record(&key);
        if record.is_none() || !selected(filter, &pane, &key, record.as_ref()) {
            continue;
        }
        let marker = restarting::read(state, &key);
        let screen = term.screen(&pane_ref(&pane), ScreenRange::Visible).ok();
        let verdict = decide(&PaneFacts {
            remote: pane.remote,
            record: record.as_ref(),
            foreground: pane.foreground.as_deref(),
            shell_in_front: pane.shell_in_front,
            screen: screen.as_deref(),
            marker: marker.as_ref(),
        });
        out.push(Seen {
            pane,
            key,
            record,
            verdict,
        });
    }
    Ok(out)
}

/// The installed version of each agent, asked once per run.
#[derive(Default)]
pub struct Versions(HashMap<String, Option<String>>);

impl Versions {
    pub fn installed(&mut self, agent_name: &str) -> Option<String> {
        self.0
            .entry(agent_name.to_string())
            .or_insert_with(|| {
                let spec = agent(agent_name)?;
                version::installed(spec.binaries.first().copied().unwrap_or(spec.name))
            })
            .clone()
    }
}

/// The report row of `seen` before anything is done.
pub fn planned_row(seen: &Seen, versions: &mut Versions) -> Row {
    let rec = seen.record.as_ref();
    let (status, reason) = match &seen.verdict {
        Verdict::Restart { .. } => ("restart", None),
        Verdict::Finish => (
            "finish",
            Some("a restart quit it and did not bring it back".to_string()),
        ),
        Verdict::Wait(w) => ("wait", Some(w.describe())),
        Verdict::Skip(s) => ("skip", Some(s.describe())),
    };
    let acting = matches!(seen.verdict, Verdict::Restart { .. } | Verdict::Finish);
    let before = rec.and_then(|r| version::before(&r.agent, r.transcript_path.as_deref()));
    let after = rec
        .filter(|_| acting || matches!(seen.verdict, Verdict::Wait(_)))
        .and_then(|r| versions.installed(&r.agent));
    Row {
        pane: agterm_backup_terminals::pane_label(&seen.pane),
        key: seen.key.to_string(),
        agent: rec.map(|r| r.agent.clone()),
        session_id: rec.map(|r| r.session_id.clone()),
        status: status.into(),
        reason,
        version_change: Some(version::change(before.as_deref(), after.as_deref())),
        version_before: before,
        version_after: after,
        away_secs: None,
    }
}

/// Whether the verdict is one `--wait` keeps asking about.
pub fn waiting(v: &Verdict) -> bool {
    matches!(v, Verdict::Wait(_))
}

/// Restarts (or finishes) one pane; updates `row` with what happened. `true` when the agent is back.
pub fn restart_one(
    term: &mut dyn Terminal,
    state: &StateDir,
    seen: &Seen,
    row: &mut Row,
    opts: &ExecOptions,
    progress: &mut dyn Progress,
) -> bool {
    let Some(rec) = seen.record.as_ref() else {
        return false;
    };
    let target = pane_ref(&seen.pane);
    let started = Instant::now();
    if let Verdict::Restart { quit } = seen.verdict {
        let mut marker = RestartMarker::new(&rec.agent, &rec.session_id, chrono::Utc::now());
        marker.version_before = row.version_before.clone();
        if let Err(e) = restarting::write(state, &seen.key, &marker) {
            return failed(row, format!("could not write the restart marker: {e}"));
        }
        die_here("marker");
        if let Err(why) = quit_agent(term, &target, quit, opts) {
            // The agent is still there: the marker must not speak for a later quit of the user's.
            restarting::remove(state, &seen.key);
            return failed(row, why);
        }
        die_here("quit");
    }
    let row_to_type = match resume_row(seen, rec, &target) {
        Ok(r) => r,
        Err(why) => return failed(row, why),
    };
    let outcome = type_plan(term, &[row_to_type], state, opts, progress)
        .into_iter()
        .next()
        .flatten();
    row.away_secs = Some((started.elapsed().as_secs_f64() * 10.0).round() / 10.0);
    match outcome {
        Some(Outcome::Resumed { .. }) => {
            die_here("resume");
            restarting::remove(state, &seen.key);
            row.status = "restarted".into();
            row.reason = None;
            true
        }
        // The marker stays: the conversation is not ended, and the next run finishes it.
        Some(other) => failed(row, other.word()),
        None => failed(row, "nothing was typed".into()),
    }
}

/// Test seam: `AGTERM_BACKUP_TEST_RESTART_DIE_AFTER=<step>` kills this process right after `step`
/// (`marker` written, `quit` done, `resume` confirmed), as a crash or a kill there would.
const DIE_AFTER_ENV: &str = "AGTERM_BACKUP_TEST_RESTART_DIE_AFTER";

fn die_here(step: &str) {
    if std::env::var(DIE_AFTER_ENV).is_ok_and(|s| s == step) {
        std::process::abort();
    }
}

fn failed(row: &mut Row, why: String) -> bool {
    row.status = "failed".into();
    row.reason = Some(why);
    false
}

/// A `type` row for restore's `type_plan`: the record's conversation, directory and flags.
fn resume_row(seen: &Seen, rec: &LiveRecord, target: &PaneRef) -> Result<PlanRow, String> {
    let spec =
        agent(&rec.agent).ok_or_else(|| SkipWhy::UnknownAgent(rec.agent.clone()).describe())?;
    let resume = ResumeLine::build(spec, &rec.session_id, &rec.flags, &rec.agent_cwd, None)
        .map_err(|e| e.to_string())?;
    Ok(PlanRow {
        key: seen.key.clone(),
        target: Some(target.clone()),
        joined_by: None,
        pane_name: seen.pane.session_name.clone(),
        agent: Some(rec.agent.clone()),
        session_id: Some(rec.session_id.clone()),
        agent_cwd: Some(rec.agent_cwd.clone()),
        pane_cwd: seen.pane.cwd.clone(),
        flags: rec.flags.clone(),
        from_journal: false,
        cutoff: None,
        action: Action::Type {
            line: resume.line.clone(),
            resume,
        },
        claim: None,
    })
}

/// The least time between the quit's last key and its Return.
const ENTER_AFTER_KEYS: Duration = Duration::from_millis(300);

/// Types `quit` into the agent (Return once the input box shows it), then waits until the pane's
/// shell holds the foreground again with an empty prompt line.
fn quit_agent(
    term: &mut dyn Terminal,
    target: &PaneRef,
    quit: &str,
    opts: &ExecOptions,
) -> Result<(), String> {
    let shown = |term: &mut dyn Terminal| {
        term.screen(target, ScreenRange::Visible)
            .map_or(0, |s| s.matches(quit).count())
    };
    let before = shown(term);
    term.type_text(target, quit)
        .map_err(|e| format!("typing the quit failed: {e}"))?;
    wait_until(opts, Duration::from_secs(5), || shown(term) > before);
    // Codex takes keys that arrive close together for a paste, and an Enter within 120 ms of them for a
    // newline (its `PASTE_ENTER_SUPPRESS_WINDOW`).
    std::thread::sleep(ENTER_AFTER_KEYS);
    term.type_text(target, "\n")
        .map_err(|e| format!("typing the quit failed: {e}"))?;
    let back = wait_until(opts, opts.confirm_timeout, || {
        let Ok(panes) = term.panes() else {
            return false;
        };
        let Some(p) = panes.iter().find(|p| p.is(target)) else {
            return false;
        };
        let shell = p.foreground.is_none() && p.shell_in_front != Some(false);
        shell
            && term.screen(target, ScreenRange::Visible).is_ok_and(|s| {
                !s.trim().is_empty() && typed_on_prompt(&s, p.cwd.as_deref()).is_none()
            })
    });
    match back {
        true => Ok(()),
        false => Err(format!(
            "the agent did not quit within {}s of `{quit}`; left as it is",
            opts.confirm_timeout.as_secs()
        )),
    }
}

/// Polls `done` every `opts.poll` until it holds or `limit` passes.
fn wait_until(opts: &ExecOptions, limit: Duration, mut done: impl FnMut() -> bool) -> bool {
    let start = Instant::now();
    loop {
        if done() {
            return true;
        }
        if start.elapsed() >= limit {
            return false;
        }
        std::thread::sleep(opts.poll);
    }
}

/// `WaitReason` is shown as it is in the summary.
pub fn wait_reason(v: &Verdict) -> Option<&WaitReason> {
    match v {
        Verdict::Wait(w) => Some(w),
        _ => None,
    }
}

#[cfg(test)]
#[path = "run_tests.rs"]
mod tests;
