//! Kimi Code 2.x (`@moonshot-ai/kimi-code` 2.1.0, a Node ≥ 22.19 bundle `dist/main.mjs`): the commander
//! program of its `createProgram`, hidden options (`-r`, `-C`, `--yes`, `--auto-approve`) included;
//! `tests/hook_flags_help.rs` reads them from the installed bundle.
//!
//! Facts the row rests on (read in the bundle, then seen running it offline):
//! - Resume is `kimi --session <id>` (`-S`; `-r/--resume` is a hidden alias), from the session's own
//!   directory: from another one Kimi refuses ("was created under a different directory", with a `cd`
//!   hint). `-c/--continue` (and hidden `-C`) takes the newest session of the directory: not ours.
//! - `kimi -p <prompt>` is headless, and so is every subcommand (`web`, `acp`, `fork`, `export`, …). A
//!   positional word is an error ("unknown command"), never a prompt.
//! - `--agent` and `--agent-file` pick the profile of a NEW session ("Cannot be combined with
//!   --session/--continue"): dropped. `--model`, `--add-dir`, the permission modes and `--plan` are
//!   applied to a resumed session as well: kept.
//! - Hooks: `[[hooks]]` tables in `$KIMI_CODE_HOME/config.toml` (default `~/.kimi-code`), keys `event`,
//!   `matcher`, `command`, `timeout` only. Payload: `hook_event_name`, `session_id`, `cwd`,
//!   `client_type`, plus `source` (SessionStart), `reason` (SessionEnd). A fresh TUI creates its session
//!   at the first message, so SessionStart comes with the first prompt. SessionEnd's `reason` is `exit`
//!   both for `/quit` and for a SIGTERM (a machine shutdown), so it does not tell the user's quit apart.

use super::{f, AgentSpec, FlagRole::*, FlagSpec, ResumeGrammar, Support, Takes::*};

const FLAGS: &[FlagSpec] = &[
    f(&["-y", "--yolo"], Nothing, Keep),
    f(&["--auto"], Nothing, Keep),
    f(&["--yes"], Nothing, Keep),
    f(&["--auto-approve"], Nothing, Keep),
    f(&["--plan"], Nothing, Keep),
    f(&["-m", "--model"], One, Keep),
    f(&["--output-format"], One, Keep),
    f(&["--skills-dir"], One, Keep),
    f(&["--add-dir"], One, Keep),
    f(&["-S", "--session"], Optional, Session),
    f(&["-r", "--resume"], Optional, Session),
    f(&["-c", "--continue"], Nothing, Session),
    f(&["-C"], Nothing, Session),
    f(&["-p", "--prompt"], One, Headless),
    f(&["-h", "--help"], Nothing, Headless),
    f(&["-V", "--version"], Nothing, Headless),
    f(&["--agent"], One, Drop),
    f(&["--agent-file"], One, Drop),
];

pub const KIMI: AgentSpec = AgentSpec {
    name: "kimi",
    title: "Kimi Code",
    support: Support::Tested,
    // `kimi-code` is the process title Kimi sets at start (`process.title`), which overwrites its argv:
    // the hook sees neither `node` nor the script nor the flags, only that name. Kimi keeps the
    // permission mode and model of a session in the session itself (`permission.set_mode`,
    // `profile.bind` in its wire log), so a resume without the flags comes back in the same modes.
    binaries: &["kimi", "kimi-code"],
    npm_packages: &["@moonshot-ai/kimi-code"],
    resume: ResumeGrammar::FlagThenId("--session"),
    flags: FLAGS,
    session_subcommands: &[],
    headless_subcommands: &[
        "export",
        "fork",
        "provider",
        "session",
        "acp",
        "web",
        "server",
        "rc",
        "remote",
        "login",
        "doctor",
        "vis",
        "install-desktop",
        "migrate",
        "upgrade",
        "update",
        "__plugin_run_node",
        "__update_download",
    ],
    moments: &[],
    positional_prompt_headless: false,
    pid_env: None,
    interactive_entrypoint: None,
    tui_raw_terminal: true,
};
