//! The rows of the agents wired after Claude Code and Codex: Gemini CLI, GitHub Copilot CLI, Qwen Code and
//! opencode, at the versions the tests install (`tests/install-deps.sh`). Their options are in
//! `gemini.rs`, `copilot.rs`, `qwen.rs`, `opencode.rs`, read from each CLI's own option definitions. What
//! their hooks send and how each resumes is in `research/agents-offline-more.md`.

use super::{copilot, gemini, opencode, qwen, AgentSpec, ResumeGrammar, Support};

/// `@google/gemini-cli` 0.61.0. `gemini [query..]` is interactive (the query is dropped, never replayed);
/// `-p/--prompt` is headless. `--resume <id>` works only in the session's own directory.
pub const GEMINI: AgentSpec = AgentSpec {
    name: "gemini",
    title: "Gemini CLI",
    support: Support::Tested,
    binaries: &["gemini"],
    npm_packages: &["@google/gemini-cli"],
    resume: ResumeGrammar::FlagThenId("--resume"),
    flags: gemini::FLAGS,
    session_subcommands: &[],
    headless_subcommands: &[
        "mcp",
        "extensions",
        "extension",
        "skills",
        "skill",
        "hooks",
        "hook",
        "gemma",
    ],
    moments: &[
        ("BeforeAgent", "UserPromptSubmit"),
        ("BeforeTool", "PreToolUse"),
        ("AfterAgent", "Stop"),
    ],
    positional_prompt_headless: false,
    pid_env: None,
    interactive_entrypoint: None,
    tui_raw_terminal: false,
};

/// `@github/copilot` 1.0.102. `--resume=<id>` re-enters a session from any directory (Copilot switches
/// to the session's own); `-p/--prompt` is headless.
pub const COPILOT: AgentSpec = AgentSpec {
    name: "copilot",
    title: "Copilot CLI",
    support: Support::Tested,
    binaries: &["copilot"],
    npm_packages: &["@github/copilot"],
    resume: ResumeGrammar::FlagEqualsId("--resume"),
    flags: copilot::FLAGS,
    session_subcommands: &[],
    headless_subcommands: &[
        "app",
        "login",
        "help",
        "init",
        "config",
        "update",
        "version",
        "workflow",
        "sessions",
        "memories",
        "plugin",
        "mcp",
        "skill",
        "instruction",
        "lsp",
        "sandbox",
        "completion",
    ],
    moments: &[],
    positional_prompt_headless: false,
    pid_env: None,
    interactive_entrypoint: None,
    tui_raw_terminal: false,
};

/// `@qwen-code/qwen-code` 0.24.4. A positional query is one-shot (headless), as are `-p` and the
/// stream-json modes; `-i <prompt>` is interactive (its prompt is dropped). `--resume <id>` works only in
/// the session's own directory.
pub const QWEN: AgentSpec = AgentSpec {
    name: "qwen",
    title: "Qwen Code",
    support: Support::Tested,
    binaries: &["qwen"],
    npm_packages: &["@qwen-code/qwen-code"],
    resume: ResumeGrammar::FlagThenId("--resume"),
    flags: qwen::FLAGS,
    session_subcommands: &[],
    headless_subcommands: &[
        "auth",
        "board",
        "channel",
        "extensions",
        "hooks",
        "mcp",
        "review",
        "sandbox",
        "serve",
        "sessions",
        "update",
    ],
    moments: &[],
    positional_prompt_headless: true,
    pid_env: None,
    interactive_entrypoint: None,
    tui_raw_terminal: false,
};

/// `opencode-ai` 1.18.33 (a native Bun binary). `opencode [project]` is the TUI (the project path is
/// dropped: the resume line `cd`s there); `opencode run …` and the servers are headless. `--session <id>`
/// resumes from any directory (opencode uses the session's own).
pub const OPENCODE: AgentSpec = AgentSpec {
    name: "opencode",
    title: "opencode",
    support: Support::Tested,
    binaries: &["opencode"],
    npm_packages: &["opencode-ai"],
    resume: ResumeGrammar::FlagThenId("--session"),
    flags: opencode::FLAGS,
    session_subcommands: &[],
    headless_subcommands: &[
        "completion",
        "acp",
        "mcp",
        "attach",
        "run",
        "debug",
        "providers",
        "auth",
        "agent",
        "upgrade",
        "uninstall",
        "serve",
        "web",
        "models",
        "stats",
        "export",
        "import",
        "github",
        "pr",
        "session",
        "plugin",
        "plug",
        "db",
    ],
    moments: &[],
    positional_prompt_headless: false,
    pid_env: None,
    interactive_entrypoint: None,
    tui_raw_terminal: false,
};
