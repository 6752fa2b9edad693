//! `installer apply`'s `--no-<file>` flags: one per terminal config file the registry's rows give
//! (`agterm_backup_terminals::config_file`), each with the row's name and help. clap's derive cannot
//! make flags from a list, so these two traits are written out; the flags read and print as derived ones
//! (a `bool` flag: `--no-<file>`, `SetTrue`, in the rows' order).

use agterm_backup_terminals::config_file::{self, TerminalConfigFile};
use clap::{Arg, ArgAction, ArgMatches, Command};

/// The terminals' config files `installer apply` is told to leave alone.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LeftAlone(Vec<&'static str>);

impl LeftAlone {
    /// Whether `--no-<file>` was given for `file`.
    pub fn contains(&self, file: &TerminalConfigFile) -> bool {
        self.0.contains(&file.target)
    }
}

impl clap::FromArgMatches for LeftAlone {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        Ok(LeftAlone(
            config_file::all()
                .filter(|f| matches.get_flag(f.flag))
                .map(|f| f.target)
                .collect(),
        ))
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(matches)?;
        Ok(())
    }
}

impl clap::Args for LeftAlone {
    fn augment_args(cmd: Command) -> Command {
        config_file::all().fold(cmd, |cmd, f| {
            cmd.arg(
                Arg::new(f.flag)
                    .long(f.flag)
                    .action(ArgAction::SetTrue)
                    .help(f.flag_help),
            )
        })
    }

    fn augment_args_for_update(cmd: Command) -> Command {
        Self::augment_args(cmd)
    }
}

/// `installer apply`'s one-line help: what it wires, each terminal's file's phrase in the rows' order.
pub fn apply_about() -> String {
    let files: Vec<&str> = config_file::all().map(|f| f.apply_help).collect();
    let files = match files.is_empty() {
        true => String::new(),
        false => format!(", {}", files.join(", ")),
    };
    format!("Add the hook to each agent's config{files} and (asked) the shell line")
}

/// `installer remove --agents`'s help: what goes besides the agents' hooks, as the rows say.
pub fn remove_agents_help() -> String {
    let mut help = "Which agents to unwire (comma-separated)".to_string();
    for also in config_file::all().filter_map(|f| f.remove_help) {
        help.push_str("; ");
        help.push_str(also);
    }
    help
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::{Args as _, FromArgMatches as _};

    #[test]
    fn each_files_flag_is_read_back_as_that_file() {
        let cmd = LeftAlone::augment_args(Command::new("apply"));
        for file in config_file::all() {
            let m = cmd
                .clone()
                .try_get_matches_from(["apply", &format!("--{}", file.flag)])
                .unwrap();
            let left = LeftAlone::from_arg_matches(&m).unwrap();
            assert_eq!(left, LeftAlone(vec![file.target]));
            assert!(config_file::all().all(|f| left.contains(f) == (f == file)));
        }
        let none = cmd.try_get_matches_from(["apply"]).unwrap();
        assert_eq!(
            LeftAlone::from_arg_matches(&none).unwrap(),
            LeftAlone::default()
        );
    }
}
