//! Rows 7–9 of the plan: what the program in a pane's foreground says — our agent running a new
//! conversation (7), one the terminal replayed after a reboot that its restart replaces (7b), our agent
//! (already running, 8), or anything else (busy, 9).

use super::{CapturedPane, NewHint, PlanInput, SkipReason};
use crate::once::ran_since;
use agterm_backup_core::agent::AgentSpec;
use agterm_backup_core::process::agent_args;
use agterm_backup_core::record::LiveRecord;
use agterm_backup_core::terminal::{PaneView, RestoreMode};

/// What the foreground says: leave the pane (`Err`, with why), or replace the replayed agent with the
/// pane's own conversation (`Ok`, row 7b).
pub(super) fn foreground_reason(
    input: &PlanInput<'_>,
    spec: &AgentSpec,
    rec: &LiveRecord,
    c: &CapturedPane,
    from_journal: bool,
    pane: &PaneView,
    fg: &[String],
) -> Result<(), SkipReason> {
    let Some(args) = foreground_agent_args(spec, fg) else {
        return Err(SkipReason::Busy {
            foreground: fg.to_vec(),
        });
    };
    let live =
        input.mode == Some(RestoreMode::Live) && pane.live.as_ref().is_some_and(|d| d.running);
    let running = Err(SkipReason::AlreadyRunning { live });
    if args.iter().any(|a| a.contains(rec.session_id.as_str())) {
        return running;
    }
    // The current record names another conversation, written in this launch: the agent in the pane is
    // that new one (a replayed bare agent, or one started by hand), not ours.
    let newer_other = from_journal
        && c.record
            .as_ref()
            .is_some_and(|r| r.session_id != rec.session_id);
    let replayed = replayed_in_this_launch(input, rec, c, pane);
    if !newer_other && !replayed {
        return running;
    }
    let new_conversation = |hint| {
        Err(SkipReason::NewConversation {
            agent: rec.agent.clone(),
            hint,
        })
    };
    if prompted_since_launch(input, spec, rec, c) {
        return new_conversation(NewHint::Prompted);
    }
    if !replayed {
        return new_conversation(NewHint::QuitIt);
    }
    if !input.restart {
        return new_conversation(NewHint::NoRestart {
            terminal: c.key.terminal(),
        });
    }
    Ok(())
}

/// Proof that the agent in `pane` is not the pane's own conversation but one the terminal started in
/// this launch: it runs Live, the pane's daemon was created after its launch (a reboot's replay —
/// a daemon the clean quit kept is older), and no record of this pane since the launch names the pane's
/// conversation (the user did not resume it there by hand). A Copilot replay fires no hook before its
/// first prompt, so the daemon's age is the proof, never the absence of a record.
fn replayed_in_this_launch(
    input: &PlanInput<'_>,
    rec: &LiveRecord,
    c: &CapturedPane,
    pane: &PaneView,
) -> bool {
    let (Some(launch), Some(daemon)) = (input.launched_at, pane.live.as_ref()) else {
        return false;
    };
    let created_in_launch = daemon.running && daemon.started_at.is_some_and(|t| t >= launch);
    input.mode == Some(RestoreMode::Live)
        && created_in_launch
        && !ran_since(c.record.iter().chain(&c.journal), rec, launch)
}

/// Row 7c: whether the replayed agent's hooks are proven to run — a record of this pane written since the
/// launch by the replay itself (another conversation than `rec`'s: its start, a prompt, any event; the
/// `SessionEnd` of the agent the reboot killed, written late, is not the replay's). Without one, a prompt
/// the user typed into it would not show either, so the absence of a prompt proves nothing.
pub(super) fn hooks_proven(input: &PlanInput<'_>, rec: &LiveRecord, c: &CapturedPane) -> bool {
    let Some(launch) = input.launched_at else {
        return false;
    };
    c.record
        .iter()
        .chain(&c.journal)
        .filter(|r| r.session_id != rec.session_id)
        .any(|r| r.written_at().is_some_and(|t| t >= launch))
}

/// Whether this pane's records since the launch show a prompt to another conversation than `rec`'s
/// (any event but the agent's start and end: a prompt, a tool call, a turn's end): someone typed into
/// the agent, so it is theirs now.
fn prompted_since_launch(
    input: &PlanInput<'_>,
    spec: &AgentSpec,
    rec: &LiveRecord,
    c: &CapturedPane,
) -> bool {
    let Some(launch) = input.launched_at.or(input.as_of) else {
        return false;
    };
    c.record
        .iter()
        .chain(&c.journal)
        .filter(|r| r.session_id != rec.session_id)
        .filter(|r| r.written_at().is_some_and(|t| t > launch))
        .any(|r| !matches!(spec.moment(&r.event), "SessionStart" | "SessionEnd"))
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
