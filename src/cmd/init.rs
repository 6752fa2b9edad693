//! `agterm-backup init zsh|bash|fish`: prints the shell integration for the user's rc file
//! ([`crate::shell_init`]), calling this binary by its absolute path.

use crate::cli::{InitArgs, InitShell};
use crate::shell_init::{snippet, Shell};
use crate::{CliError, CliResult};

pub fn run(args: InitArgs) -> CliResult {
    let exe = std::env::current_exe()
        .map_err(|e| CliError::failure(format!("cannot tell where this binary is: {e}")))?;
    let bin = exe.to_str().ok_or_else(|| {
        CliError::failure(format!(
            "this binary's path is not UTF-8 ({}): move it to a plain path",
            exe.display()
        ))
    })?;
    print!("{}", snippet(args.shell.into(), bin));
    Ok(())
}

impl From<InitShell> for Shell {
    fn from(shell: InitShell) -> Shell {
        match shell {
            InitShell::Zsh => Shell::Zsh,
            InitShell::Bash => Shell::Bash,
            InitShell::Fish => Shell::Fish,
        }
    }
}
