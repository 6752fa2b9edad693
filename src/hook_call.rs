//! Whether a command line is an agent's hook call, decided from `argv` alone (before clap builds
//! anything). The hook must never print and always exit 0: an agent runs it on every tool call, and
//! Claude Code takes exit 2 from `PreToolUse` or `UserPromptSubmit` as "block". So the words around
//! `hook` never turn a hook call into a usage error: an older release's line, a newer release's flags
//! on this binary, mangled or non-UTF-8 words all still run the hook.

use std::ffi::OsString;

/// What `argv` asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HookCall {
    /// Run the hook for this agent (`""` when no word names one: the hook logs it and exits 0).
    Hook(String),
    /// `hook --help` from a person at a terminal: clap prints the help.
    Help,
    /// Not the hook: clap parses the command line.
    Other,
}

/// The subcommand names (`cli::Command`'s, with `help`; the terminals' hidden ones are their rows',
/// [`is_subcommand`]; a unit test checks them against clap's): the first of these words in `argv` is
/// the command. Words before it are global flags and their values.
pub const SUBCOMMANDS: [&str; 16] = [
    "installer",
    "install",
    "uninstall",
    "hook",
    "status",
    "restore",
    "restart",
    "answer",
    "snap",
    "timer",
    "init",
    "shell-start",
    "shell-answer",
    "completions",
    "man",
    "help",
];

/// Whether `word` is a subcommand's name: one of [`SUBCOMMANDS`] or a terminal's hidden one (three
/// rows looked at, nothing allocated: the hook's path).
pub fn is_subcommand(word: &str) -> bool {
    SUBCOMMANDS.contains(&word)
        || agterm_backup_terminals::command_line::hidden_command(word).is_some()
}

/// The decision, over `argv` (program name first) and whether stdout is a terminal:
///
/// | first subcommand word | after it | stdout | call |
/// |---|---|---|---|
/// | `hook` | `--help` or `-h` first | a terminal | `Help` |
/// | `hook` | a known agent's name (first such word) | any | `Hook(that agent)` |
/// | `hook` | else the first word not starting with `-` (or none: `""`) | any | `Hook(it)` |
/// | another, or none | | | `Other` |
///
/// A `--version` or `--help` before `hook` counts as a flag: the hook runs. Agents run hooks with
/// stdout on a pipe, so a hook line never gets help printed.
pub fn hook_call(argv: &[OsString], stdout_is_terminal: bool) -> HookCall {
    let words = argv.get(1..).unwrap_or_default();
    let Some(at) = words
        .iter()
        .position(|w| w.to_str().is_some_and(is_subcommand))
    else {
        return HookCall::Other;
    };
    if words[at] != "hook" {
        return HookCall::Other;
    }
    let after: Vec<&str> = words[at + 1..].iter().filter_map(|w| w.to_str()).collect();
    if stdout_is_terminal
        && matches!(
            words.get(at + 1).and_then(|w| w.to_str()),
            Some("--help" | "-h")
        )
    {
        return HookCall::Help;
    }
    let known = after
        .iter()
        .find(|w| agterm_backup_core::agent::agent(w).is_some());
    let agent = known.or_else(|| after.iter().find(|w| !w.starts_with('-')));
    HookCall::Hook(agent.map(|a| a.to_string()).unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    fn call(words: &[&str], terminal: bool) -> HookCall {
        let argv: Vec<OsString> = std::iter::once("agterm-backup")
            .chain(words.iter().copied())
            .map(OsString::from)
            .collect();
        hook_call(&argv, terminal)
    }

    #[test]
    fn the_subcommand_names_are_clap_s() {
        let mut clap: Vec<String> = crate::cli::Cli::command()
            .get_subcommands()
            .map(|c| c.get_name().to_string())
            .chain(["help".to_string()])
            .collect();
        let mut ours: Vec<String> = SUBCOMMANDS
            .iter()
            .copied()
            .chain(agterm_backup_terminals::command_line::hidden_commands().map(|c| c.name))
            .map(String::from)
            .collect();
        assert!(ours.iter().all(|w| is_subcommand(w)));
        clap.sort();
        ours.sort();
        assert_eq!(ours, clap);
    }

    #[test]
    fn each_row_of_the_table() {
        let hook = |a: &str| HookCall::Hook(a.to_string());
        assert_eq!(call(&["hook", "claude"], false), hook("claude"));
        assert_eq!(call(&["hook", "--help"], true), HookCall::Help);
        assert_eq!(call(&["hook", "--help"], false), hook(""));
        assert_eq!(call(&["hook", "claude", "--help"], true), hook("claude"));
        assert_eq!(
            call(&["hook", "--event", "Stop", "codex"], false),
            hook("codex")
        );
        assert_eq!(call(&["hook", "--x", "future"], false), hook("future"));
        assert_eq!(call(&["hook"], false), hook(""));
        assert_eq!(
            call(&["--quiet", "--socket", "/s", "hook", "qwen"], false),
            hook("qwen")
        );
        assert_eq!(call(&["--version", "hook", "kimi"], false), hook("kimi"));
        assert_eq!(call(&["status", "hook"], false), HookCall::Other);
        assert_eq!(
            call(&["restore", "--as-of", "hook"], false),
            HookCall::Other
        );
        assert_eq!(call(&[], false), HookCall::Other);
        assert_eq!(hook_call(&[], false), HookCall::Other);
    }
}
