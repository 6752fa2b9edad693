//! The agent table. Each supported agent is one [`AgentSpec`] row: adding an agent to the hook is a data
//! change here (plus its hook file as a row in the installer, its name in the installer's `ALL_AGENTS`
//! and its line in the README's agent table, which `tests/cli/agent_lists.rs` checks against [`listed`]). Gemini CLI, Copilot CLI, Qwen Code and
//! opencode are in `agent/more.rs`, their options in `agent/{gemini,copilot,qwen,opencode}.rs`; Kimi Code
//! is `agent/kimi.rs`, Antigravity CLI `agent/agy.rs` (from its documentation, unverified).
//!
//! Every launch option is one [`FlagSpec`] row: its names (aliases and short forms), how many words it
//! takes, and what a resume does with it. The rows for `claude` and `codex` come from the option
//! definitions in the shipped CLIs, hidden ones included (`agent/claude.rs`, `agent/codex.rs`);
//! `tests/hook/hook_flags_help.rs` checks them against the installed CLIs and `tests/hook/resume_flags_real.rs`
//! makes the real CLIs parse every kept flag.

mod agy;
mod claude;
mod codex;
mod copilot;
mod gemini;
mod kimi;
mod more;
mod opencode;
mod qwen;

pub use agy::AGY;
pub use kimi::KIMI;
pub use more::{COPILOT, GEMINI, OPENCODE, QWEN};

/// How an agent is told to re-enter a conversation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ResumeGrammar {
    /// `<agent> <flag> <id> <flags…>`, e.g. `claude --resume <id>`, `kimi --session <id>`.
    FlagThenId(&'static str),
    /// `<agent> <flag>=<id> <flags…>`, e.g. `copilot --resume=<id>`.
    FlagEqualsId(&'static str),
    /// `<agent> <subcommand> <id> <flags…>`, e.g. `codex resume <id>`.
    Subcommand(&'static str),
}

/// How many words an option takes after it (`--flag=value` and `-xVALUE` carry it in the same word).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Takes {
    /// A switch.
    Nothing,
    /// Exactly one word, whatever it looks like (`<value>`).
    One,
    /// The next word when it does not start with `-` (`[value]`).
    Optional,
    /// One word, then every following word up to the next one starting with `-` (`<values...>`).
    Many,
}

/// What a resume does with an option.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FlagRole {
    /// Replayed, with its value.
    Keep,
    /// Names or enters a conversation; the resume grammar supplies that. Dropped with its value.
    Session,
    /// The run is not a conversation living in the pane: nothing is recorded for it.
    Headless,
    /// Meaningful once, at the first launch (a prompt attachment, a worktree to create, a directory the
    /// `cd` already enters). Dropped with its value.
    Drop,
}

/// One launch option of an agent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FlagSpec {
    /// Every name it answers to: long, short, aliases.
    pub names: &'static [&'static str],
    pub takes: Takes,
    pub role: FlagRole,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AgentSpec {
    /// The name used in records, on the CLI (`hook <agent>`) and as the executable to run on resume.
    pub name: &'static str,
    /// What people call it (`Claude Code`): the name `--help`, the man page, the README and the package
    /// descriptions list ([`listed`]).
    pub title: &'static str,
    /// How far agterm-backup supports it.
    pub support: Support,
    /// Executable basenames that are this agent.
    pub binaries: &'static [&'static str],
    /// npm packages whose script, run by `node`/`bun`, is this agent (matched as `node_modules/<pkg>/`).
    pub npm_packages: &'static [&'static str],
    pub resume: ResumeGrammar,
    /// Every launch option the agent accepts. An option not listed is dropped on resume, with what
    /// follows it when that is not an option (it may be its value), and reported.
    pub flags: &'static [FlagSpec],
    /// Subcommands that re-enter or fork a session (`codex resume`, `codex fork`), dropped.
    pub session_subcommands: &'static [&'static str],
    /// Subcommands that make the run headless (`codex exec`) or are not a conversation at all.
    pub headless_subcommands: &'static [&'static str],
    /// The agent's own hook event names mapped onto ours (`SessionStart`, `UserPromptSubmit`,
    /// `PreToolUse`, `Stop`, `SessionEnd`): Gemini's `BeforeAgent` is a prompt. A name not listed is ours.
    pub moments: &'static [(&'static str, &'static str)],
    /// A positional prompt makes the run one-shot (`qwen "fix it"`): a first positional word that is not a
    /// subcommand is headless, not only dropped.
    pub positional_prompt_headless: bool,
    /// Environment variable that carries the agent's own pid into its hooks, if any.
    pub pid_env: Option<&'static str>,
    /// `(variable, value)`: when the variable is set in the hook's environment to anything but `value`,
    /// the run is headless (Claude's `CLAUDE_CODE_ENTRYPOINT` is `cli` only for the interactive TUI).
    pub interactive_entrypoint: Option<(&'static str, &'static str)>,
    /// The agent's argv cannot be read (it renames its process: Kimi Code), so its headless mode cannot
    /// be told from its flags: only its TUI holds its terminal in raw mode, and a run whose stdin is not
    /// a raw terminal is headless.
    pub tui_raw_terminal: bool,
}

impl AgentSpec {
    /// Which of our moments the agent's hook event `event` is (see [`AgentSpec::moments`]).
    pub fn moment<'a>(&self, event: &'a str) -> &'a str {
        self.moments
            .iter()
            .find(|(theirs, _)| *theirs == event)
            .map_or(event, |(_, ours)| ours)
    }

    /// The row of the option named `name` (exactly as written, without `=value`).
    pub fn flag(&self, name: &str) -> Option<&'static FlagSpec> {
        self.flags.iter().find(|f| f.names.contains(&name))
    }
}

/// How far agterm-backup supports an agent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Support {
    /// The installer wires its hook; tested end to end against the pinned CLI.
    Tested,
    /// The installer wires its hook, built from the agent's documentation: no package registry carries
    /// the CLI, so nothing here ran it (agy).
    Unverified,
    /// Only its resume line is known: the installer wires no hook into it, so nothing records it.
    ResumeOnly,
}

/// Every agent agterm-backup knows, in the order it lists them (`--help`, the installer's `--agents`).
pub const AGENTS: &[AgentSpec] = &[
    CLAUDE, CODEX, GEMINI, COPILOT, QWEN, OPENCODE, KIMI, AGY, GROK,
];

/// The agents whose hook the installer wires, in [`AGENTS`]' order: the ones every list for people names.
pub fn listed() -> impl Iterator<Item = &'static AgentSpec> {
    AGENTS.iter().filter(|a| a.support != Support::ResumeOnly)
}

/// The [`listed`] agents' titles, as a sentence's list: `Claude Code, Codex, …, Antigravity CLI`.
pub fn listed_titles() -> String {
    listed().map(|a| a.title).collect::<Vec<_>>().join(", ")
}

/// The [`listed`] agents' names (`claude, codex, …, agy`), as `hook <agent>` takes them.
pub fn listed_names() -> String {
    listed().map(|a| a.name).collect::<Vec<_>>().join(", ")
}

/// A [`FlagSpec`] row, short enough for a table.
const fn f(names: &'static [&'static str], takes: Takes, role: FlagRole) -> FlagSpec {
    FlagSpec { names, takes, role }
}

use FlagRole::{Headless, Keep, Session};
use Takes::{Nothing, One, Optional};

pub const CLAUDE: AgentSpec = AgentSpec {
    name: "claude",
    title: "Claude Code",
    support: Support::Tested,
    binaries: &["claude"],
    npm_packages: &["@anthropic-ai/claude-code"],
    resume: ResumeGrammar::FlagThenId("--resume"),
    flags: claude::FLAGS,
    session_subcommands: &[],
    // Every command of `claude --help`: none of them is an interactive conversation in the pane.
    headless_subcommands: &[
        "agents",
        "attach",
        "auth",
        "auto-mode",
        "doctor",
        "gateway",
        "import",
        "install",
        "logs",
        "mcp",
        "plugin",
        "plugins",
        "purge",
        "respawn",
        "rm",
        "setup-token",
        "stop",
        "kill",
        "ultrareview",
        "update",
        "upgrade",
        "config",
        "migrate-installer",
    ],
    moments: &[],
    positional_prompt_headless: false,
    pid_env: Some("CLAUDE_PID"),
    interactive_entrypoint: Some(("CLAUDE_CODE_ENTRYPOINT", "cli")),
    tui_raw_terminal: false,
};

pub const CODEX: AgentSpec = AgentSpec {
    name: "codex",
    title: "Codex",
    support: Support::Tested,
    binaries: &["codex"],
    npm_packages: &["@openai/codex"],
    resume: ResumeGrammar::Subcommand("resume"),
    flags: codex::FLAGS,
    session_subcommands: &["resume", "fork"],
    // Every command in `codex --help` but `resume`/`fork` (and aliases): none is a conversation in the
    // pane. `app-server` also covers the shared daemon that runs hooks with another pane's environment.
    headless_subcommands: &[
        "agents",
        "exec",
        "e",
        "review",
        "login",
        "logout",
        "mcp",
        "mcp-server",
        "plugin",
        "app-server",
        "app",
        "remote-control",
        "completion",
        "update",
        "doctor",
        "sandbox",
        "debug",
        "apply",
        "a",
        "queue",
        "archive",
        "delete",
        "migrate-rollouts",
        "migrate-nfs-db",
        "unarchive",
        "cloud",
        "exec-server",
        "features",
        "help",
    ],
    moments: &[],
    positional_prompt_headless: false,
    pid_env: None,
    interactive_entrypoint: None,
    tui_raw_terminal: false,
};

// Grok is not pinned and installed for the tests yet: its row is from its documentation, and an option
// it does not list is dropped (and reported), never replayed blind.

pub const GROK: AgentSpec = AgentSpec {
    name: "grok",
    title: "Grok CLI",
    support: Support::ResumeOnly,
    binaries: &["grok"],
    npm_packages: &[],
    resume: ResumeGrammar::FlagThenId("--resume"),
    flags: &[
        f(&["--model", "-m"], One, Keep),
        f(&["--continue", "-c"], Nothing, Session),
        f(&["--fork-session"], Nothing, Session),
        f(&["--session-id", "-s"], One, Session),
        f(&["--resume", "-r"], Optional, Session),
        f(&["-p", "--print"], Nothing, Headless),
    ],
    session_subcommands: &[],
    headless_subcommands: &[],
    moments: &[],
    positional_prompt_headless: false,
    pid_env: None,
    interactive_entrypoint: None,
    tui_raw_terminal: false,
};

/// Looks an agent up by name.
pub fn agent(name: &str) -> Option<&'static AgentSpec> {
    AGENTS.iter().find(|a| a.name == name)
}

/// The names of every known agent, for error messages.
pub fn agent_names() -> Vec<&'static str> {
    AGENTS.iter().map(|a| a.name).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_found() {
        let mut names = agent_names();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), AGENTS.len());
        assert_eq!(
            agent("codex").unwrap().resume,
            ResumeGrammar::Subcommand("resume")
        );
        assert!(agent("vim").is_none());
    }

    #[test]
    fn no_flag_name_is_in_two_rows_and_every_name_is_a_flag() {
        for a in AGENTS {
            let mut all: Vec<&str> = a
                .flags
                .iter()
                .flat_map(|f| f.names.iter().copied())
                .collect();
            assert!(
                all.iter()
                    .all(|n| n.starts_with('-') && n.len() > 1 && !n.contains('=')),
                "{}: {all:?}",
                a.name
            );
            let n = all.len();
            all.sort();
            all.dedup();
            assert_eq!(all.len(), n, "{} lists a flag twice", a.name);
        }
    }
}
