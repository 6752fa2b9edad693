//! The agents as `--help`, the man page and the completions name them, built from the agent rows
//! (`agterm_backup_core::agent::listed`), so a new row shows up everywhere with nothing to edit here.
//! `tests/cli/agent_lists.rs` checks the places that cannot be generated (Cargo.toml, the README, the
//! Homebrew formula) against the same rows. The terminals in the same texts come from theirs
//! (`terminals_help`).

use crate::terminals_help;
use agterm_backup_core::agent::{listed, listed_names, listed_titles, Support};

/// The one-line description (also Cargo.toml's `description`, which the test compares).
pub fn about() -> String {
    format!(
        "Brings AI coding agents ({}) back, resumed, in the panes of {} after a restart",
        listed_titles(),
        terminals_help::names_and()
    )
}

pub fn long_about() -> String {
    format!(
        "{}.\n\nA hook records which conversation runs in which pane; after the terminal restarts ({}), \
         each pane gets the same conversation back, in the directory the agent worked in, with its \
         launch flags.",
        about(),
        terminals_help::restarted_by()
    )
}

pub fn installer_about() -> String {
    let agents = format!("the agents ({})", listed_titles());
    let targets: Vec<&str> = std::iter::once(agents.as_str())
        .chain(terminals_help::installer_wires())
        .chain(["your shell"])
        .collect();
    format!(
        "Wire the capture hook into {}, or take it out",
        terminals_help::list(&targets, "and")
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
