//! The rows' part of the command line ([`Row::command_line`](crate::Row::command_line)), asked by the
//! binary: each terminal's hidden subcommands, and the variables that locate its instance.

use crate::ROWS;
use agterm_backup_core::command_line::HiddenCommand;

/// Every terminal's hidden subcommands, in the registry's order.
pub fn hidden_commands() -> impl Iterator<Item = &'static HiddenCommand> {
    ROWS.iter().flat_map(|r| r.command_line.hidden.iter())
}

/// The hidden subcommand called `name`, of whichever terminal. Cheap: the hook's `argv` check asks it.
pub fn hidden_command(name: &str) -> Option<&'static HiddenCommand> {
    hidden_commands().find(|c| c.name == name)
}

/// The variables that locate every terminal's instance for a command run away from it (the timer's
/// units), each once.
pub fn instance_vars() -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    for v in ROWS.iter().flat_map(|r| r.command_line.instance_vars) {
        if !out.contains(v) {
            out.push(v);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hidden_command_names_are_unique_and_found() {
        let names: Vec<&str> = hidden_commands().map(|c| c.name).collect();
        for n in &names {
            assert_eq!(names.iter().filter(|m| *m == n).count(), 1, "{n}");
            assert_eq!(hidden_command(n).map(|c| c.name), Some(*n));
        }
        assert!(hidden_command("status").is_none());
    }

    #[test]
    fn a_hidden_command_conflicts_only_with_its_own_flags() {
        for c in hidden_commands() {
            for f in c.flags {
                if let Some(other) = f.conflicts_with {
                    assert!(c.flags.iter().any(|g| g.name == other), "{}", c.name);
                }
            }
        }
    }
}
