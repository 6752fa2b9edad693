//! What a target is: one file to wire and its kind, as plain data. Below the editors' dispatch
//! ([`crate::engine`], which says how each kind is applied and removed) and the finders that build
//! targets ([`crate::paths`], [`crate::shell_rc`]), so the finders never import the engine.

use crate::agent_hooks::HookFile;
use crate::rc_file::RcFile;
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
    /// agterm's `restore-denylist.conf`.
    Denylist,
    /// The user's tmux config (tmux-resurrect's post-restore hook).
    TmuxConf,
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
    /// The name used in messages and `status --json` (`claude`, `codex`, `denylist`).
    pub fn target_name(self) -> &'static str {
        match self {
            TargetKind::ClaudeSettings => "claude",
            TargetKind::CodexConfig | TargetKind::CodexHooksJson => "codex",
            TargetKind::Denylist => "denylist",
            TargetKind::TmuxConf => "tmux",
            TargetKind::AgentHooks(row) => row.agent,
            TargetKind::OpencodePlugin => "opencode",
            TargetKind::KimiConfig => "kimi",
            TargetKind::ShellRc(_) => "shell",
        }
    }

    /// Mode of a file we create: agent configs may hold secrets, the denylist does not.
    pub(crate) fn new_file_mode(self) -> u32 {
        match self {
            TargetKind::Denylist | TargetKind::TmuxConf | TargetKind::ShellRc(_) => 0o644,
            _ => 0o600,
        }
    }
}

/// One file to wire, with the hook command that goes into it (empty for the denylist; the binary's path
/// for the tmux config and the shell rc files).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    pub kind: TargetKind,
    pub path: PathBuf,
    pub command: String,
}
