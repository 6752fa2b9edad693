//! Antigravity CLI (`agy`), Google's successor to Gemini CLI. No package registry carries it (npm `agy` and
//! `@google/antigravity-cli` are 404, PyPI's `agy` is another project), so this row is built from its
//! documentation and from the public tools that wire it, and is UNVERIFIED against the real CLI:
//! - `agy --help` as quoted by integrators: `--conversation <id>` "Resume a previous conversation by ID",
//!   `--continue` the newest of the directory (not ours), `-p <prompt>` a headless run; no `--version`.
//! - Hooks (`~/.gemini/config/hooks.json`): a named entry maps events to command handlers; the payload is
//!   protojson (`conversationId`, `workspacePaths`, `transcriptPath`). `SessionStart` fires at every model
//!   invocation, not once per conversation, so it is a per-call moment here: the hook writes the record
//!   when the conversation is new to the pane and otherwise answers from the record it has (cheap, no
//!   rewrite), like a tool-call storm.
//! - Conversations live under `~/.gemini/antigravity-cli/brain/<conversationId>/`. A resume is
//!   `agy --conversation <id>` in the conversation's directory (the resume line `cd`s there).

use super::{f, AgentSpec, FlagRole::*, FlagSpec, ResumeGrammar, Support, Takes::*};

/// Our moment for an `agy` event that fires at every model call: not one of the once-per-turn moments,
/// so a record already written for this conversation is left as it is.
pub const PER_CALL: &str = "ModelCall";

const FLAGS: &[FlagSpec] = &[
    f(&["--dangerously-skip-permissions"], Nothing, Keep),
    f(&["--conversation"], One, Session),
    f(&["-c", "--continue"], Nothing, Session),
    f(&["-p", "--print", "--prompt"], One, Headless),
    f(&["-h", "--help"], Nothing, Headless),
];

pub const AGY: AgentSpec = AgentSpec {
    name: "agy",
    title: "Antigravity CLI",
    support: Support::Unverified,
    binaries: &["agy"],
    npm_packages: &[],
    resume: ResumeGrammar::FlagThenId("--conversation"),
    flags: FLAGS,
    session_subcommands: &[],
    headless_subcommands: &["changelog", "install", "plugin", "update", "help"],
    moments: &[
        ("SessionStart", PER_CALL),
        ("PreInvocation", PER_CALL),
        ("PostInvocation", PER_CALL),
        ("PostToolUse", "PreToolUse"),
    ],
    positional_prompt_headless: false,
    pid_env: None,
    interactive_entrypoint: None,
    tui_raw_terminal: false,
};
