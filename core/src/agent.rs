//! The agent table. Each supported agent is one [`AgentSpec`] row: adding an agent to the hook is a data
//! change here (plus its hook file as a row in the installer). Gemini CLI, Copilot CLI and Qwen Code are in
//! [`more`].
//!
//! The flag lists for `claude` and `codex` are taken from the real `claude --help` / `codex --help`; a test
//! checks them against the installed CLIs whenever they are present.

mod more;
pub use more::{COPILOT, GEMINI, OPENCODE, QWEN};

/// How an agent is told to re-enter a conversation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ResumeGrammar {
    /// `<agent> <flag> <id> <flags…>`, e.g. `claude --resume <id>`, `kimi -r <id>`.
    FlagThenId(&'static str),
    /// `<agent> <flag>=<id> <flags…>`, e.g. `copilot --resume=<id>`.
    FlagEqualsId(&'static str),
    /// `<agent> <subcommand> <id> <flags…>`, e.g. `codex resume <id>`.
    Subcommand(&'static str),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AgentSpec {
    /// The name used in records, on the CLI (`hook <agent>`) and as the executable to run on resume.
    pub name: &'static str,
    /// Executable basenames that are this agent.
    pub binaries: &'static [&'static str],
    /// npm packages whose script, run by `node`/`bun`, is this agent (matched as `node_modules/<pkg>/`).
    pub npm_packages: &'static [&'static str],
    pub resume: ResumeGrammar,
    /// Flags that take exactly one value (as the next word, or `--flag=value`).
    pub value_flags: &'static [&'static str],
    /// Flags that take one or more values, up to the next word starting with `-`.
    pub variadic_flags: &'static [&'static str],
    /// Flags whose value is optional: the next word is their value only when it does not start with `-`.
    pub optional_value_flags: &'static [&'static str],
    /// Session-entering flags without a value, dropped (`--continue`, `--fork-session`, `--last`).
    pub session_flags: &'static [&'static str],
    /// Session-entering flags with a value, dropped with it (`--session-id <id>`).
    pub session_value_flags: &'static [&'static str],
    /// Session-entering flags with an optional value, dropped with it (`--resume [id]`).
    pub session_optional_value_flags: &'static [&'static str],
    /// Subcommands that re-enter or fork a session (`codex resume`, `codex fork`), dropped.
    pub session_subcommands: &'static [&'static str],
    /// Flags that make the run headless: nothing is recorded for it.
    pub headless_flags: &'static [&'static str],
    /// Subcommands that make the run headless (`codex exec`) or are not a conversation at all.
    pub headless_subcommands: &'static [&'static str],
    /// A positional prompt makes the run one-shot (`qwen "fix it"`): a first positional word that is not a
    /// subcommand is headless, not only dropped.
    pub positional_prompt_headless: bool,
    /// Environment variable that carries the agent's own pid into its hooks, if any.
    pub pid_env: Option<&'static str>,
    /// `(variable, value)`: when the variable is set in the hook's environment to anything but `value`,
    /// the run is headless (Claude's `CLAUDE_CODE_ENTRYPOINT` is `cli` only for the interactive TUI).
    pub interactive_entrypoint: Option<(&'static str, &'static str)>,
}

/// Every agent agterm-backup knows.
pub const AGENTS: &[AgentSpec] = &[CLAUDE, CODEX, GEMINI, OPENCODE, COPILOT, QWEN, GROK, KIMI];

pub const CLAUDE: AgentSpec = AgentSpec {
    name: "claude",
    binaries: &["claude"],
    npm_packages: &["@anthropic-ai/claude-code"],
    resume: ResumeGrammar::FlagThenId("--resume"),
    // From `claude --help` (2.1.328): options written `<value>`.
    value_flags: &[
        "--agent",
        "--agents",
        "--append-system-prompt",
        "--autocompact",
        "--debug-file",
        "--effort",
        "--environment",
        "--fallback-model",
        "--input-format",
        "--json-schema",
        "--max-budget-usd",
        "--model",
        "--name",
        "-n",
        "--output-format",
        "--permission-mode",
        "--permission-prompts",
        "--plugin-dir",
        "--plugin-url",
        "--remote-control-session-name-prefix",
        "--setting-sources",
        "--settings",
        "--system-prompt",
        "--system-prompt-snapshot",
    ],
    // Options written `<values...>`: commander takes every following word up to the next option.
    variadic_flags: &[
        "--add-dir",
        "--allowedTools",
        "--allowed-tools",
        "--betas",
        "--disallowedTools",
        "--disallowed-tools",
        "--file",
        "--mcp-config",
        "--tools",
    ],
    // Options written `[value]`.
    optional_value_flags: &[
        "--debug",
        "-d",
        "--prompt-suggestions",
        "--remote-control",
        "--worktree",
        "-w",
    ],
    session_flags: &["--continue", "-c", "--fork-session"],
    session_value_flags: &["--session-id"],
    // `--teleport` and `--from-pr` re-enter an existing session too.
    session_optional_value_flags: &["--resume", "-r", "--teleport", "--from-pr"],
    session_subcommands: &[],
    // `--bg` runs the session detached from the pane, `--desktop` in another app, `--cloud` remotely:
    // none of them is the conversation living in this pane.
    headless_flags: &[
        "-p",
        "--print",
        "--bg",
        "--background",
        "--desktop",
        "--cloud",
    ],
    // Every command in `claude --help`: none of them is an interactive conversation in the pane.
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
    positional_prompt_headless: false,
    pid_env: Some("CLAUDE_PID"),
    interactive_entrypoint: Some(("CLAUDE_CODE_ENTRYPOINT", "cli")),
};

pub const CODEX: AgentSpec = AgentSpec {
    name: "codex",
    binaries: &["codex"],
    npm_packages: &["@openai/codex"],
    resume: ResumeGrammar::Subcommand("resume"),
    // From `codex --help` and `codex resume --help` (0.169.0): options written `<VALUE>`.
    value_flags: &[
        "--config",
        "-c",
        "--enable",
        "--disable",
        "--remote",
        "--remote-auth-token-env",
        "--model",
        "-m",
        "--local-provider",
        "--profile",
        "-p",
        "--sandbox",
        "-s",
        "--cd",
        "-C",
        "--add-dir",
        "--ask-for-approval",
        "-a",
    ],
    // Options written `<VALUE>...` (clap `num_args(1..)`).
    variadic_flags: &["--image", "-i"],
    optional_value_flags: &[],
    session_flags: &["--last", "--all", "--include-non-interactive"],
    session_value_flags: &[],
    session_optional_value_flags: &[],
    session_subcommands: &["resume", "fork"],
    headless_flags: &[],
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
    positional_prompt_headless: false,
    pid_env: None,
    interactive_entrypoint: None,
};

pub const GROK: AgentSpec = AgentSpec {
    name: "grok",
    binaries: &["grok"],
    npm_packages: &[],
    resume: ResumeGrammar::FlagThenId("--resume"),
    value_flags: &["--model", "-m"],
    variadic_flags: &[],
    optional_value_flags: &[],
    session_flags: &["--continue", "-c", "--fork-session"],
    session_value_flags: &["--session-id", "-s"],
    session_optional_value_flags: &["--resume", "-r"],
    session_subcommands: &[],
    headless_flags: &["-p", "--print"],
    headless_subcommands: &[],
    positional_prompt_headless: false,
    pid_env: None,
    interactive_entrypoint: None,
};

pub const KIMI: AgentSpec = AgentSpec {
    name: "kimi",
    binaries: &["kimi"],
    npm_packages: &[],
    resume: ResumeGrammar::FlagThenId("-r"),
    value_flags: &["--model", "-m", "--work-dir", "-w"],
    variadic_flags: &[],
    optional_value_flags: &[],
    session_flags: &["--continue", "-c"],
    session_value_flags: &["--session", "-S", "--resume", "-r"],
    session_optional_value_flags: &[],
    session_subcommands: &[],
    headless_flags: &["--print"],
    headless_subcommands: &[],
    positional_prompt_headless: false,
    pid_env: None,
    interactive_entrypoint: None,
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
    fn no_flag_is_in_two_lists() {
        for a in AGENTS {
            let lists = [
                a.value_flags,
                a.variadic_flags,
                a.optional_value_flags,
                a.session_flags,
                a.session_value_flags,
                a.session_optional_value_flags,
                a.headless_flags,
            ];
            let mut all: Vec<&str> = lists.iter().flat_map(|l| l.iter().copied()).collect();
            let n = all.len();
            all.sort();
            all.dedup();
            assert_eq!(all.len(), n, "{} lists a flag twice", a.name);
        }
    }
}
