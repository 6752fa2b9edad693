//! Rows 7–9 of the plan: what the program in a pane's foreground says — our agent running a new
//! conversation, our agent (already running), or anything else (busy).

use super::{CapturedPane, PlanInput, SkipReason};
use agterm_backup_core::agent::AgentSpec;
use agterm_backup_core::process::agent_args;
use agterm_backup_core::record::LiveRecord;
use agterm_backup_core::terminal::{PaneView, RestoreMode};

pub(super) fn foreground_reason(
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
