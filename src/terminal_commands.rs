//! The terminals' own hidden subcommands (`agterm_backup_core::command_line::HiddenCommand`, declared
//! by their registry rows), added to the clap command where `cli::Command` flattens them and run from
//! there: the binary names none of them.

use agterm_backup_core::command_line::HiddenCommand;
use agterm_backup_terminals::command_line::{hidden_command, hidden_commands};
use clap::{ArgMatches, FromArgMatches, Subcommand};

/// One of the terminals' hidden subcommands as given: which, and the names of its flags given.
#[derive(Debug, Clone)]
pub struct TerminalCommand {
    pub command: &'static HiddenCommand,
    pub flags: Vec<&'static str>,
}

impl TerminalCommand {
    /// Runs it: like the agents' hook it prints nothing and always succeeds.
    pub fn run(&self) {
        (self.command.run)(&self.flags);
    }
}

/// The clap subcommand of `command`: hidden, each flag a boolean `--<name>`.
fn clap_command(command: &'static HiddenCommand) -> clap::Command {
    let args = command.flags.iter().map(|f| {
        let arg = clap::Arg::new(f.name)
            .long(f.name)
            .action(clap::ArgAction::SetTrue)
            .help(f.help);
        match f.conflicts_with {
            Some(other) => arg.conflicts_with(other),
            None => arg,
        }
    });
    clap::Command::new(command.name)
        .about(command.about)
        .hide(true)
        .args(args)
}

impl FromArgMatches for TerminalCommand {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        let missing = || clap::Error::new(clap::error::ErrorKind::InvalidSubcommand);
        let (name, sub) = matches.subcommand().ok_or_else(missing)?;
        let command = hidden_command(name).ok_or_else(missing)?;
        let flags = command
            .flags
            .iter()
            .filter(|f| sub.get_flag(f.name))
            .map(|f| f.name)
            .collect();
        Ok(TerminalCommand { command, flags })
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(matches)?;
        Ok(())
    }
}

impl Subcommand for TerminalCommand {
    fn augment_subcommands(cmd: clap::Command) -> clap::Command {
        cmd.subcommands(hidden_commands().map(clap_command))
    }

    fn augment_subcommands_for_update(cmd: clap::Command) -> clap::Command {
        Self::augment_subcommands(cmd)
    }

    fn has_subcommand(name: &str) -> bool {
        hidden_command(name).is_some()
    }
}
