//! Why an agent runs without a record: our hook is written but will not run (a policy, a project's own
//! file, Codex not trusting it), or it is not there. The installer's gate decides "will the hook run"
//! (`agterm_backup_installer::gate`); this file only carries its answer into `status`: the hook rows, the
//! warnings, and the reason on each pane that is not captured.

use super::{HookState, PaneStatus, StatusReport};
use serde::Serialize;

/// Our hook is there but the agent will not run it: the file and key that decide it, and what to do.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct HookOff {
    pub file: String,
    pub key: String,
    /// `remove-key` | `ask-administrator` | `install-plugin`.
    pub way_out: String,
    /// Only in one project (a project's own file decided it).
    pub project_only: bool,
    /// The sentence `status` shows: the key, the file, and the way out.
    pub says: String,
}

/// The warnings for hooks the agents will not run.
pub fn hook_warnings(hooks: &[HookState]) -> Vec<String> {
    hooks
        .iter()
        .filter_map(|h| h.switched_off.as_ref())
        .map(|off| off.says.clone())
        .collect()
}

/// Why `agent` runs without a record, when we know: `gate` is the gate's answer for the pane's
/// project (every layer the agent reads there), then our hook's own state.
pub fn reason(agent: &str, hooks: &[HookState], gate: Option<String>) -> Option<String> {
    if gate.is_some() {
        return gate;
    }
    let hook = hooks.iter().find(|h| h.agent == agent)?;
    if let Some(off) = &hook.switched_off {
        return Some(off.says.clone());
    }
    match hook.state.as_str() {
        "absent" | "partial" => Some(format!(
            "our {agent} hook is {} in {}: run `agterm-backup installer apply`",
            hook.state, hook.path
        )),
        "unreadable" => Some(format!(
            "the {agent} hook file {} cannot be parsed, so the agent runs no hook from it",
            hook.path
        )),
        _ if hook.trusted == Some(false) => Some(
            "Codex has not trusted our hooks, so it does not run them: open codex and choose \"Trust all \
             and continue\", or run `agterm-backup installer apply --trust`"
                .into(),
        ),
        _ => None,
    }
}

/// Gives each pane whose agent runs uncaptured its reason; `gate(agent, pane)` asks the installer's gate
/// (the agent's launch flags, then every layer it reads in the pane's directory).
pub fn explain(report: &mut StatusReport, gate: impl Fn(&str, &PaneStatus) -> Option<String>) {
    let hooks = report.hooks.clone();
    for pane in report.panes.iter_mut().filter(|p| !p.captured) {
        let Some(agent) = pane.agent.clone() else {
            continue;
        };
        let Some(why) = reason(&agent, &hooks, gate(&agent, pane)) else {
            continue;
        };
        if pane.restore == "not captured" {
            pane.restore = format!("not captured: {why}");
        }
        pane.not_captured_because = Some(why);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hook(agent: &str, state: &str, trusted: Option<bool>, off: Option<&str>) -> HookState {
        HookState {
            agent: agent.into(),
            state: state.into(),
            path: format!("/h/{agent}.json"),
            trusted,
            switched_off: off.map(|says| HookOff {
                file: "/etc/x.json".into(),
                key: "disableAllHooks".into(),
                way_out: "ask-administrator".into(),
                project_only: false,
                says: says.into(),
            }),
        }
    }

    #[test]
    fn the_projects_answer_first_then_the_hooks_own_state() {
        let hooks = [
            hook(
                "claude",
                "present",
                None,
                Some("`disableAllHooks: true` in /etc/x.json …"),
            ),
            hook("codex", "present", Some(false), None),
            hook("qwen", "absent", None, None),
            hook("gemini", "present", None, None),
        ];
        let project = Some("`disableAllHooks: true` in /p/.claude/settings.json …".to_string());
        assert_eq!(reason("claude", &hooks, project.clone()), project);
        assert!(reason("claude", &hooks, None)
            .unwrap()
            .contains("/etc/x.json"));
        assert!(reason("codex", &hooks, None)
            .unwrap()
            .contains("not trusted"));
        assert!(reason("qwen", &hooks, None)
            .unwrap()
            .contains("hook is absent in /h/qwen.json"));
        assert_eq!(reason("gemini", &hooks, None), None);
        assert_eq!(reason("kimi", &hooks, None), None);
        assert_eq!(hook_warnings(&hooks).len(), 1);
    }
}
