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

/// clap_complete's bash script tracks the subcommand typed so far in `$cmd` as, for a bin named
/// `my-tool`, `my__tool__subcmd__installer`, but labels the arms that offer each subcommand's words
/// `my__subcmd__tool__subcmd__installer`: it escapes the bin name's hyphen twice
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
    let cmd = Cli::command();
    let mut page = Vec::new();
    clap_mangen::Man::new(cmd.clone())
        .render(&mut page)
        .map_err(|e| CliError::failure(format!("could not write the man page: {e}")))?;
    // clap_mangen documents the top level only and points at one page per subcommand that nobody
    // installs: each subcommand's options go into this one page instead.
    page.extend_from_slice(subcommand_sections(&cmd).as_bytes());
    std::io::stdout()
        .write_all(&page)
        .map_err(|e| CliError::failure(format!("could not write the man page: {e}")))
}

/// Text safe in a roff line: backslashes and hyphens escaped, no line starting a request.
fn roff(text: &str) -> String {
    let escaped = text.replace('\\', "\\e").replace('-', "\\-");
    escaped
        .lines()
        .map(|l| {
            if l.starts_with('.') || l.starts_with('\'') {
                format!("\\&{l}")
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// One `.SH` section per visible subcommand (nested ones too): what it does and each of its options.
fn subcommand_sections(root: &clap::Command) -> String {
    let mut out = String::new();
    let mut stack: Vec<(String, &clap::Command)> = root
        .get_subcommands()
        .map(|c| (format!("{} {}", root.get_name(), c.get_name()), c))
        .collect();
    stack.reverse();
    while let Some((name, cmd)) = stack.pop() {
        if cmd.is_hide_set() {
            continue;
        }
        out.push_str(&format!(".SH \"{}\"\n", roff(&name.to_uppercase())));
        if let Some(about) = cmd.get_long_about().or(cmd.get_about()) {
            out.push_str(&format!("{}\n", roff(&about.to_string())));
        }
        for arg in cmd
            .get_arguments()
            .filter(|a| !a.is_hide_set() && !a.is_global_set())
        {
            let id = arg.get_id().as_str();
            if id == "help" || id == "version" {
                continue;
            }
            let mut head = match (arg.get_short(), arg.get_long()) {
                (Some(s), Some(l)) => format!("\\fB\\-{s}\\fR, \\fB\\-\\-{}\\fR", roff(l)),
                (None, Some(l)) => format!("\\fB\\-\\-{}\\fR", roff(l)),
                (Some(s), None) => format!("\\fB\\-{s}\\fR"),
                (None, None) => format!("\\fI<{}>\\fR", roff(&id.to_uppercase())),
            };
            if arg.get_long().is_some() && arg.get_action().takes_values() {
                let value = arg
                    .get_value_names()
                    .and_then(|v| v.first())
                    .map(|v| v.to_string())
                    .unwrap_or_else(|| id.to_uppercase());
                head.push_str(&format!(" \\fI<{}>\\fR", roff(&value)));
            }
            let mut help = arg
                .get_long_help()
                .or(arg.get_help())
                .map(|h| h.to_string())
                .unwrap_or_default();
            let values: Vec<String> = arg
                .get_possible_values()
                .iter()
                .filter(|v| !v.is_hide_set())
                .map(|v| v.get_name().to_string())
                .collect();
            if !values.is_empty() && arg.get_action().takes_values() {
                help.push_str(&format!(" [possible values: {}]", values.join(", ")));
            }
            let defaults: Vec<String> = arg
                .get_default_values()
                .iter()
                .map(|v| v.to_string_lossy().into_owned())
                .collect();
            if !defaults.is_empty() && arg.get_action().takes_values() {
                help.push_str(&format!(" [default: {}]", defaults.join(",")));
            }
            out.push_str(&format!(".TP\n{head}\n{}\n", roff(&help)));
        }
        if let Some(after) = cmd.get_after_help() {
            out.push_str(&format!(".PP\n.nf\n{}\n.fi\n", roff(&after.to_string())));
        }
        let at = stack.len();
        stack.extend(
            cmd.get_subcommands()
                .map(|c| (format!("{name} {}", c.get_name()), c)),
        );
        stack[at..].reverse();
    }
    out
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
        assert!(lines.contains("using_subcommand init\" -f -a \"zsh bash fish\"\n"));
        // No line for positionals that take free text (the hook's agent name and arguments).
        assert_eq!(lines.lines().count(), 3, "{lines}");
    }

    #[test]
    fn the_man_page_documents_each_subcommands_options() {
        use clap::CommandFactory;
        let sections = super::subcommand_sections(&crate::cli::Cli::command());
        for (section, option) in [
            ("AGTERM\\-BACKUP INSTALLER APPLY", "\\fB\\-\\-trust\\fR"),
            (
                "AGTERM\\-BACKUP INSTALLER REMOVE",
                "\\fB\\-\\-agents\\fR \\fI<AGENTS>\\fR",
            ),
            (
                "AGTERM\\-BACKUP RESTORE",
                "\\fB\\-\\-as\\-of\\fR \\fI<TIME|SNAPSHOT>\\fR",
            ),
            ("AGTERM\\-BACKUP TIMER", "\\fB\\-\\-every\\fR"),
        ] {
            let at = sections
                .find(&format!(".SH \"{section}\"\n"))
                .unwrap_or_else(|| panic!("no section {section}:\n{sections}"));
            let body = &sections[at..];
            let end = body[4..].find(".SH ").map_or(body.len(), |e| e + 4);
            assert!(
                body[..end].contains(option),
                "{section} lacks {option}:\n{}",
                &body[..end]
            );
        }
        // Hidden aliases get no section; no stray escape reaches the reader.
        assert!(!sections.contains("\"AGTERM\\-BACKUP INSTALL\"\n"));
        assert!(!sections.contains("\\\""), "{sections}");
    }

    #[test]
    fn no_help_text_shows_a_stray_backslash() {
        use clap::CommandFactory;
        let mut stack = vec![crate::cli::Cli::command()];
        while let Some(mut cmd) = stack.pop() {
            let help = cmd.render_long_help().to_string();
            assert!(!help.contains('\\'), "{}: {help}", cmd.get_name());
            stack.extend(cmd.get_subcommands().cloned());
        }
    }

    #[test]
    fn a_bin_name_without_hyphen_is_left_alone() {
        let script = "tool__subcmd__x)\n";
        assert_eq!(fix_bash_state_labels(script, "tool"), script);
    }
}
