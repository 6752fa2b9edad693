//! `agterm-backup completions <shell>` and `agterm-backup man`, both generated from the one clap definition.

use crate::cli::{Cli, CompletionsArgs};
use crate::{CliError, CliResult};
use clap::CommandFactory;

pub fn run(args: CompletionsArgs) -> CliResult {
    let mut cmd = Cli::command();
    clap_complete::generate(
        args.shell,
        &mut cmd,
        "agterm-backup",
        &mut std::io::stdout(),
    );
    Ok(())
}

pub fn man() -> CliResult {
    let page = clap_mangen::Man::new(Cli::command());
    page.render(&mut std::io::stdout())
        .map_err(|e| CliError::failure(format!("could not write the man page: {e}")))
}
