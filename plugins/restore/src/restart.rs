//! Restarting a pane whose replayed agent the plan replaces (row 7b, the terminal's [`Terminal::restart`]):
//! re-checked right before, like typing — the pane is still there, still local, and still runs an agent
//! of the row's kind that is not the row's conversation (someone may have quit it, or resumed it by hand,
//! since the plan), and nobody is at work in it: the pane's records and the agent's own transcript are
//! read again (`at_work.rs`) — then the once-per-launch markers are taken and the terminal replaces the
//! pane's shell.

use super::{pane_now, release, take_claim, Outcome};
use crate::plan::{foreground_agent_args, Action, PlanRow};
use agterm_backup_core::agent::agent;
use agterm_backup_core::state::StateDir;
use agterm_backup_core::terminal::Terminal;

/// Restarts row `row`'s pane running its resume line; returns the (empty) screen before and what was
/// done, for the progress line.
pub(super) fn restart_one(
    term: &mut dyn Terminal,
    row: &PlanRow,
    state: &StateDir,
) -> Result<(String, &'static str), Outcome> {
    let (Some(target), Some(spec), Some(id), Action::Restart { resume, .. }) = (
        row.target.as_ref(),
        row.agent.as_deref().and_then(agent),
        row.session_id.as_deref(),
        &row.action,
    ) else {
        return Err(Outcome::Failed("the row has no pane or record".into()));
    };
    let pane = pane_now(term, target)?;
    if pane.remote {
        return Err(Outcome::NotIdle("the pane lives on another machine".into()));
    }
    let replayed = pane
        .foreground
        .as_deref()
        .and_then(|fg| foreground_agent_args(spec, fg))
        .is_some_and(|args| !args.iter().any(|a| a.contains(id)));
    if !replayed {
        return Err(Outcome::NotIdle(
            "the replayed agent is no longer in the foreground; run restore again".into(),
        ));
    }
    // Minutes may have passed since the plan: what the records and the agent's transcript say now.
    let Some(launch) = row.cutoff else {
        return Err(Outcome::NotIdle(
            "the terminal's launch time is unknown, so new work in the replayed agent cannot be ruled out"
                .into(),
        ));
    };
    crate::at_work::idle_since(state, &row.key, spec, id, launch).map_err(Outcome::NotIdle)?;
    let line = resume
        .clone()
        .into_typable(state, &row.key.to_string())
        .map_err(|e| Outcome::Failed(format!("could not write the resume script: {e}")))?;
    take_claim(row, state)?;
    term.restart(target, &line).map_err(|e| {
        release(row, state);
        Outcome::Failed(format!(
            "{} could not restart the pane: {e}",
            row.key.terminal().as_str()
        ))
    })?;
    Ok((String::new(), "restarted the pane running"))
}
