//! What a target is: one file to wire and its kind, as plain data. Below the editors' dispatch
//! ([`crate::engine`], which says how each kind is applied and removed) and the finders that build
//! targets ([`crate::paths`], [`crate::shell_rc`]), so the finders never import the engine.

use crate::agent_hooks::HookFile;
use crate::rc_file::RcFile;
use agterm_backup_terminals::config_file::TerminalConfigFile;
use std::path::PathBuf;

/// What kind of file a target is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TargetKind {
    /// Claude Code's `settings.json`.
    ClaudeSettings,
    /// Codex's `config.toml`.
    CodexConfig,
    /// Codex's `hooks.json`.
    CodexHooksJson,
    /// A terminal's own config file, given by its registry row (a restore hook, a restore denylist).
    ConfigFile(&'static TerminalConfigFile),
    /// The hook file of another agent, given by its row (Gemini, Copilot, Qwen).
    AgentHooks(&'static HookFile),
    /// opencode's `plugins/agterm-backup.js`: a whole file of ours.
    OpencodePlugin,
    /// Kimi Code's `config.toml` (`[[hooks]]` tables).
    KimiConfig,
    /// An rc file of the user's login shell (the `eval "$(agterm-backup init …)"` block).
    ShellRc(RcFile),
}

impl TargetKind {
    /// The name used in messages and `status --json` (`claude`, `codex`, a terminal's file's own).
    pub fn target_name(self) -> &'static str {
        match self {
            TargetKind::ClaudeSettings => "claude",
            TargetKind::CodexConfig | TargetKind::CodexHooksJson => "codex",
            TargetKind::ConfigFile(file) => file.target,
            TargetKind::AgentHooks(row) => row.agent,
            TargetKind::OpencodePlugin => "opencode",
            TargetKind::KimiConfig => "kimi",
            TargetKind::ShellRc(_) => "shell",
        }
    }

    /// Mode of a file we create: agent configs may hold secrets, a terminal's file says its own.
    pub(crate) fn new_file_mode(self) -> u32 {
        match self {
            TargetKind::ConfigFile(file) => file.mode,
            TargetKind::ShellRc(_) => 0o644,
            _ => 0o600,
        }
    }
}

/// One file to wire, with the hook command that goes into it (the binary's path for a terminal's file
/// whose entries name it and the shell rc files; empty for one whose entries do not).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    pub kind: TargetKind,
    pub path: PathBuf,
    pub command: String,
}
