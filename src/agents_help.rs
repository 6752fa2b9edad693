//! The agents as `--help`, the man page and the completions name them, built from the agent rows
//! (`agterm_backup_core::agent::listed`), so a new row shows up everywhere with nothing to edit here.
//! `tests/cli/agent_lists.rs` checks the places that cannot be generated (Cargo.toml, the README, the
//! Homebrew formula) against the same rows.

use agterm_backup_core::agent::{listed, listed_names, listed_titles, Support};

/// The one-line description (also Cargo.toml's `description`, which the test compares).
pub fn about() -> String {
    format!(
        "Brings AI coding agents ({}) back, resumed, in the panes of agterm, tmux and zmx after a restart",
        listed_titles()
    )
}

pub fn long_about() -> String {
    format!(
        "{}.\n\nA hook records which conversation runs in which pane; after the terminal restarts (agterm, a \
         tmux server rebuilt by tmux-resurrect, zmx sessions after a reboot), each pane gets the same \
         conversation back, in the directory the agent worked in, with its launch flags.",
        about()
    )
}

pub fn installer_about() -> String {
    format!(
        "Wire the capture hook into the agents ({}), agterm's denylist, tmux-resurrect and your shell, or \
         take it out",
        listed_titles()
    )
}

/// `hook <agent>`'s help: every name the installer writes into an agent's hook.
pub fn hook_agent_help() -> String {
    let unverified: Vec<&str> = listed()
        .filter(|a| a.support == Support::Unverified)
        .map(|a| a.name)
        .collect();
    let note = match unverified.as_slice() {
        [] => String::new(),
        names => format!(
            "; {} built from its documentation, unverified",
            names.join(", ")
        ),
    };
    format!("The agent whose hook this is ({}{note})", listed_names())
}
