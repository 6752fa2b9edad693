//! `agterm-backup completions <shell>` and `agterm-backup man`, both generated from the one clap definition.

use crate::cli::{Cli, CompletionsArgs};
use crate::{CliError, CliResult};
use clap::CommandFactory;
use clap_complete::Shell;
use std::io::Write;

const BIN_NAME: &str = "agterm-backup";

pub fn run(args: CompletionsArgs) -> CliResult {
    let mut cmd = Cli::command();
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut cmd, BIN_NAME, &mut script);
    let mut script = String::from_utf8(script)
        .map_err(|e| CliError::failure(format!("completion script is not UTF-8: {e}")))?;
    match args.shell {
        Shell::Bash => script = fix_bash_state_labels(&script, BIN_NAME),
        Shell::Fish => script.push_str(&fish_positional_values(&cmd, BIN_NAME)),
        _ => {}
    }
    std::io::stdout()
        .write_all(script.as_bytes())
        .map_err(|e| CliError::failure(format!("could not write the completion script: {e}")))
}

/// clap_complete's bash script tracks the subcommand typed so far in `$cmd` as
/// `agterm__backup__subcmd__installer`, but labels the arms that offer each subcommand's words
/// `agterm__subcmd__backup__subcmd__installer`: it escapes the bin name's hyphen twice
/// (clap-rs/clap#6421, open). No arm ever matches, so nothing past the first word completes.
/// Relabel the arms the way `$cmd` is built; a no-op once clap_complete spells both alike.
fn fix_bash_state_labels(script: &str, bin_name: &str) -> String {
    const SEP: &str = "__subcmd__";
    let wrong = format!("{}{SEP}", bin_name.replace('-', SEP));
    let right = format!("{}{SEP}", bin_name.replace('-', "__"));
    if wrong == right {
        return script.to_owned();
    }
    script.replace(&wrong, &right)
}

/// clap_complete's fish script completes options and subcommands but not the values of a
/// positional argument (`completions <TAB>` offered file names). Add one line per subcommand whose
/// positionals have a fixed set of values, guarded the way the generated lines are.
fn fish_positional_values(root: &clap::Command, bin_name: &str) -> String {
    let helper = format!("__fish_{}_using_subcommand", bin_name.replace('-', "_"));
    let mut lines = String::new();
    for top in root.get_subcommands() {
        let mut stack = vec![(top, None::<&str>)];
        while let Some((cmd, nested)) = stack.pop() {
            let values: Vec<String> = cmd
                .get_positionals()
                .flat_map(|arg| arg.get_possible_values())
                .filter(|v| !v.is_hide_set())
                .map(|v| v.get_name().to_owned())
                .collect();
            if !values.is_empty() {
                let guard = match nested {
                    None => format!("{helper} {}", top.get_name()),
                    Some(sub) => format!(
                        "{helper} {}; and __fish_seen_subcommand_from {sub}",
                        top.get_name()
                    ),
                };
                lines.push_str(&format!(
                    "complete -c {bin_name} -n \"{guard}\" -f -a \"{}\"\n",
                    values.join(" ")
                ));
            }
            stack.extend(cmd.get_subcommands().map(|sc| (sc, Some(sc.get_name()))));
        }
    }
    lines
}

pub fn man() -> CliResult {
    let page = clap_mangen::Man::new(Cli::command());
    page.render(&mut std::io::stdout())
        .map_err(|e| CliError::failure(format!("could not write the man page: {e}")))
}

#[cfg(test)]
mod tests {
    use super::fix_bash_state_labels;

    #[test]
    fn relabels_only_the_doubly_escaped_arms() {
        let script = "agterm__backup,installer)\n cmd=\"agterm__backup__subcmd__installer\"\n\
                      agterm__subcmd__backup__subcmd__installer)\n";
        let fixed = fix_bash_state_labels(script, "agterm-backup");
        assert_eq!(
            fixed,
            "agterm__backup,installer)\n cmd=\"agterm__backup__subcmd__installer\"\n\
             agterm__backup__subcmd__installer)\n"
        );
        assert_eq!(fix_bash_state_labels(&fixed, "agterm-backup"), fixed);
    }

    #[test]
    fn fish_gets_the_fixed_positional_values_and_nothing_for_free_text() {
        use clap::CommandFactory;
        let lines = super::fish_positional_values(&crate::cli::Cli::command(), "agterm-backup");
        assert!(
            lines.contains(
                "complete -c agterm-backup -n \"__fish_agterm_backup_using_subcommand completions\" \
                 -f -a \"bash elvish fish powershell zsh\"\n"
            ),
            "{lines}"
        );
        assert!(lines.contains("using_subcommand timer\" -f -a \"install status uninstall\"\n"));
        // No line for positionals that take free text (the hook's agent name and arguments).
        assert_eq!(lines.lines().count(), 2, "{lines}");
    }

    #[test]
    fn a_bin_name_without_hyphen_is_left_alone() {
        let script = "tool__subcmd__x)\n";
        assert_eq!(fix_bash_state_labels(script, "tool"), script);
    }
}
