//! The installer: wires `agterm-backup hook <agent>` into Claude Code's `settings.json`, Codex's
//! `config.toml` (or `hooks.json`), the other agents' configs and each terminal's own config file (its
//! registry row's `config_file`), and takes it out again, without losing a byte of the user's files.
//!
//! Shape: the editors are pure functions from the file's text to the new text
//! ([`json_hooks`] for Claude's `settings.json` and Codex's `hooks.json`, [`codex_toml`] for
//! `config.toml`, [`kimi_toml`] for Kimi Code's `config.toml`, a terminal's row's `config_file` for the
//! marked block in that terminal's file, [`shell_rc`] for the one in the login shell's rc files). [`engine`] plans a change per target (what
//! to write, or nothing) and commits it through [`fsio`]: atomic, mode-keeping, symlink-following, with a
//! `.agterm-backup.bak` and a check that nobody changed the file while we worked. [`paths`] finds the
//! targets from the environment, [`status`] reports them, [`trust`] asks Codex's app-server to trust our
//! hooks.

pub mod agent_hooks;
pub mod claude_plugin;
pub mod codex_toml;
pub mod command;
pub mod engine;
#[cfg(test)]
mod fake_lookup;
pub mod fsio;
pub mod gate;
pub mod json_hooks;
pub mod kimi_toml;
pub mod lookup;
pub mod opencode_plugin;
pub mod paths;
pub mod rc_file;
pub mod refusal;
pub mod shell_rc;
pub mod status;
pub mod target;
pub mod target_report;
pub mod trust;
pub mod unapply;

pub use agterm_backup_terminals::config_file::{self, TerminalConfigFile};
pub use engine::{Change, Problem};
pub use refusal::{FileRefusal, Refusal};
pub use target::{Target, TargetKind};

/// Every agent the installer wires, in the order it lists them (the default of `--agents`). The agents
/// after Claude and Codex are wired only where they are installed or set up ([`paths::absent_agents`]).
pub const ALL_AGENTS: [&str; 8] = [
    "claude", "codex", "gemini", "copilot", "qwen", "opencode", "kimi", "agy",
];

/// The hook events we wire, in the order we write them. Only long-standing names: Claude Code drops a
/// whole settings file that names an event it does not know. `SessionEnd` (its `reason` tells a user's
/// `/exit` from a dying terminal) is in every Claude Code this suite supports and in Codex 0.169.0's hook
/// schema (where it fires on a user's quit only).
pub const OUR_EVENTS: [&str; 5] = [
    "SessionStart",
    "UserPromptSubmit",
    "PreToolUse",
    "Stop",
    "SessionEnd",
];

/// Codex's snake_case label of an event, as used in its trust keys (`…:session_start:0:0`).
pub fn codex_event_label(event: &str) -> String {
    let mut out = String::new();
    for (i, c) in event.chars().enumerate() {
        if c.is_ascii_uppercase() {
            if i > 0 {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// Where one of our handlers sits in a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HookPlace {
    /// Index of the matcher group within the event (Codex trust keys count these).
    pub group: usize,
    /// Index of the handler within the group.
    pub handler: usize,
    /// The binary path the command names.
    pub binary: String,
    /// Whether the command is exactly the one this binary would write.
    pub current: bool,
}

/// One of our events in a file: where our handler is, if anywhere.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EventState {
    pub event: &'static str,
    pub place: Option<HookPlace>,
    /// How many times the agent would run our hook on this event (more than 1: a duplicate).
    pub runs: usize,
}

#[cfg(test)]
mod tests {
    #[test]
    fn codex_labels_are_snake_case() {
        assert_eq!(super::codex_event_label("SessionStart"), "session_start");
        assert_eq!(
            super::codex_event_label("UserPromptSubmit"),
            "user_prompt_submit"
        );
        assert_eq!(super::codex_event_label("PreToolUse"), "pre_tool_use");
        assert_eq!(super::codex_event_label("Stop"), "stop");
    }
}
