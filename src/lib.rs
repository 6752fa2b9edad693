//! The `agterm-backup` binary: argument parsing and one small `run` per subcommand (`cmd/`). The decisions
//! live in the crates: `agterm-backup-core` (model), `agterm-backup-hook`, `agterm-backup-restore`,
//! `agterm-backup-installer` and `agterm-backup-denylist`.

mod agents_help;
pub mod cli;
mod cmd;
pub mod hook_call;
pub mod shell_init;
mod terminal_commands;
mod terminals_help;

use clap::Parser;
pub use hook_call::{hook_call, HookCall};

/// A failed command: exit code 1 (the operation failed) or 2 (bad usage or refused input), and one line
/// for stderr that names the file or value at fault.
#[derive(Debug)]
pub struct CliError {
    pub code: u8,
    pub message: String,
}

impl CliError {
    pub fn failure(message: impl Into<String>) -> CliError {
        CliError {
            code: 1,
            message: message.into(),
        }
    }
    pub fn refused(message: impl Into<String>) -> CliError {
        CliError {
            code: 2,
            message: message.into(),
        }
    }
}

pub type CliResult = Result<(), CliError>;

/// Entry point of the binary (`main.rs`): the process's exit code.
pub fn main() -> u8 {
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    // The hook bypasses clap entirely: it must never print (not even a usage error: Claude Code takes
    // exit 2 for "block") and always exit 0, whatever words surround it.
    match hook_call(&args, std::io::IsTerminal::is_terminal(&std::io::stdout())) {
        HookCall::Hook(agent) => {
            agterm_backup_hook::run_from_env(&agent);
            return 0;
        }
        HookCall::Help | HookCall::Other => {}
    }
    // `--version` alone needs no parser either: building the whole command line (every subcommand,
    // flag and help text) cost more than the rest of the binary's start (ARCHITECTURE.md, "The hook's
    // cost"). The line is clap's own (`cli::VERSION_LINE` is checked against it in the tests).
    if args.len() == 2 && matches!(args[1].to_str(), Some("--version" | "-V")) {
        use std::io::Write;
        let _ = std::io::stdout().write_all(cli::VERSION_LINE.as_bytes());
        return 0;
    }
    let cli = cli::Cli::parse_from(args);
    match cmd::run(cli) {
        Ok(()) => 0,
        Err(e) => {
            // Messages name files and values from outside: nothing raw reaches the terminal.
            let message = agterm_backup_core::printable::printable_lines(&e.message);
            eprintln!("agterm-backup: {message}");
            e.code
        }
    }
}

// The library's unit tests, like every test binary, run in a sandbox of their own (never the machine's
// HOME, terminals or their sockets): agterm_backup_testkit::hermetic.
#[cfg(test)]
agterm_backup_testkit::hermetic_test_binary!();
