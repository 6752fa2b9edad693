//! The terminals as `--help`, the man page and the completions name them, built from the registry's
//! rows (each row's `command_line` phrases, `agterm_backup_core::command_line`), so a new terminal shows
//! up everywhere with nothing to edit here. Like `agents_help`, for the terminals.

use agterm_backup_terminals::{Row, ROWS};

/// `a`, `a and b`, `a, b and c` (`word` = "and", "or"): the registry's, which its own list of names uses.
pub use agterm_backup_terminals::sentence_list as list;

fn names() -> Vec<&'static str> {
    ROWS.iter().map(|r| r.name.as_str()).collect()
}

/// Every terminal's name, `a, b and c`.
pub fn names_and() -> String {
    list(&names(), "and")
}

/// What brings each terminal's panes back, `a, b, c`.
pub fn restarted_by() -> String {
    let all: Vec<&str> = ROWS.iter().map(|r| r.command_line.restarted_by).collect();
    all.join(", ")
}

/// What `installer apply` wires into the terminals besides the agents' hooks.
pub fn installer_wires() -> Vec<&'static str> {
    ROWS.iter()
        .filter_map(|r| r.command_line.installer_wires)
        .collect()
}

/// The row whose restore is shown among the top-level examples, else the first.
fn featured() -> &'static Row {
    ROWS.iter()
        .find(|r| r.command_line.restore_example.is_some_and(|e| e.featured))
        .unwrap_or(&ROWS[0])
}

/// The `restore --terminal <name> --yes` example lines (only the featured ones, or all), their
/// comments aligned three spaces after the longest command.
fn restore_examples(featured_only: bool) -> String {
    let lines: Vec<(String, &str)> = ROWS
        .iter()
        .filter_map(|r| Some((r.name.as_str(), r.command_line.restore_example?)))
        .filter(|(_, e)| e.featured || !featured_only)
        .map(|(name, e)| {
            (
                format!("  agterm-backup restore --terminal {name} --yes"),
                e.comment,
            )
        })
        .collect();
    let width = lines.iter().map(|(c, _)| c.len()).max().unwrap_or(0);
    lines
        .iter()
        .map(|(c, comment)| format!("\n{c:<width$}   # {comment}"))
        .collect()
}

pub fn top_after_help() -> String {
    format!(
        "Examples:\n  agterm-backup installer apply      # once: wire the hook into every installed agent\n  \
         agterm-backup status               # each terminal, and what is captured pane by pane\n  \
         agterm-backup restore              # after a restart: resume every captured pane{}",
        restore_examples(true)
    )
}

pub fn status_about() -> String {
    let instances: Vec<&str> = ROWS.iter().map(|r| r.command_line.instances).collect();
    format!(
        "Show each terminal ({}), what is captured in each pane and what a restore would do",
        list(&instances, "and")
    )
}

pub fn status_after_help() -> String {
    format!(
        "Examples:\n  agterm-backup status\n  agterm-backup status --json | jq '.panes[] | select(.terminal == \"{}\")'",
        featured().name.as_str()
    )
}

pub fn restore_about() -> String {
    format!(
        "Resume every captured agent in the panes {} brought back",
        agterm_backup_terminals::names()
    )
}

pub fn restore_after_help() -> String {
    format!(
        "Examples:\n  agterm-backup restore --dry-run     # show the plan, type nothing\n  \
         agterm-backup restore --yes         # no question asked\n  \
         agterm-backup restore --as-of 2026-12-01T09:00:00Z{}",
        restore_examples(false)
    )
}

pub fn restart_about() -> String {
    format!(
        "Restart each idle agent ({}) onto the version installed now, its conversation kept: quit it \
         the way its user would, then resume it in the same pane, directory and flags",
        names().join(", ")
    )
}

pub fn answer_about() -> String {
    format!(
        "Answer Claude Code's \"resume from summary?\" question in every pane waiting on it ({})",
        names().join(", ")
    )
}

pub fn snap_about() -> String {
    format!(
        "Freeze the records and every terminal's panes ({}) into a snapshot",
        names().join(", ")
    )
}

/// A bare `--socket`'s help: what it names for the row that takes one, and where that looks without.
pub fn bare_socket_help() -> String {
    let each: Vec<String> = ROWS
        .iter()
        .filter(|r| r.takes_bare_socket)
        .map(|r| match r.command_line.socket_default {
            Some(default) => format!("{} (default: {default})", r.command_line.socket),
            None => r.command_line.socket.to_string(),
        })
        .collect();
    each.join("; ")
}

/// `--socket` beside `--terminal`: the bare one's, then each other terminal's.
pub fn terminal_socket_help() -> String {
    let bare: Vec<&str> = ROWS
        .iter()
        .filter(|r| r.takes_bare_socket)
        .map(|r| r.command_line.socket)
        .collect();
    let named: Vec<String> = ROWS
        .iter()
        .filter(|r| !r.takes_bare_socket)
        .map(|r| {
            format!(
                "with `--terminal {}` {}",
                r.name.as_str(),
                r.command_line.socket
            )
        })
        .collect();
    let parts: Vec<String> = [bare.join("; "), named.join(", ")]
        .into_iter()
        .filter(|p| !p.is_empty())
        .collect();
    parts.join("; ")
}

/// `restore --terminal`'s help: which instance each terminal of many means.
pub fn terminal_help() -> String {
    let defaults: String = ROWS
        .iter()
        .filter_map(|r| Some((r.name.as_str(), r.command_line.named_default?)))
        .map(|(name, d)| format!("; with {name}, {d}"))
        .collect();
    format!(
        "Restore only into this terminal (default: every terminal that has records and is running{defaults})"
    )
}

/// `restart --pane`'s help: the ways to name a pane, each terminal's among them.
pub fn pane_help() -> String {
    let labels: Vec<String> = ROWS
        .iter()
        .filter_map(|r| r.command_line.pane_label_example)
        .map(|l| format!("`{l}`"))
        .collect();
    let names: String = ROWS
        .iter()
        .filter_map(|r| r.command_line.pane_names)
        .map(|n| format!("{n}, "))
        .collect();
    format!(
        "Only this pane: its label as shown ({}), {names}pane id (`%3`) or record key",
        labels.join(", ")
    )
}

/// `snap --harvest`'s help: harvesting reads the first row's panes (a harvested record has a record's
/// own fields, which name the first row's panes: `agterm_backup_terminals::ROWS`).
pub fn harvest_help() -> String {
    format!(
        "Also recover Claude Code conversations that ran before the hook existed, from {} panes' \
         scrollback",
        ROWS[0].name.as_str()
    )
}

/// `shell-answer --place`'s help: each terminal of many instances' place.
pub fn place_help() -> String {
    let places: Vec<&str> = ROWS
        .iter()
        .filter_map(|r| r.command_line.place.map(|p| p.what))
        .collect();
    format!(
        "Which instance of the terminal: {} (the scope's place)",
        places.join(", ")
    )
}

/// The older flags `shell-answer --place` still takes.
pub fn place_aliases() -> Vec<&'static str> {
    ROWS.iter()
        .filter_map(|r| r.command_line.place.map(|p| p.alias))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every row speaks in each text built from the rows: a new row shows up with nothing to edit here.
    #[test]
    fn every_row_is_in_the_texts_built_from_the_rows() {
        for r in &ROWS {
            let name = r.name.as_str();
            let cl = &r.command_line;
            for text in [
                names_and(),
                restore_about(),
                restart_about(),
                answer_about(),
                snap_about(),
            ] {
                assert!(text.contains(name), "{name}: {text}");
            }
            assert!(status_about().contains(cl.instances), "{name}");
            assert!(restarted_by().contains(cl.restarted_by), "{name}");
            let socket = if r.takes_bare_socket {
                assert!(bare_socket_help().starts_with(cl.socket), "{name}");
                cl.socket.to_string()
            } else {
                format!("with `--terminal {name}` {}", cl.socket)
            };
            assert!(terminal_socket_help().contains(&socket), "{name}");
            if let Some(d) = cl.named_default {
                assert!(
                    terminal_help().contains(&format!("with {name}, {d}")),
                    "{name}"
                );
            }
            if let Some(e) = cl.restore_example {
                assert!(restore_after_help().contains(e.comment), "{name}");
                assert_eq!(top_after_help().contains(e.comment), e.featured, "{name}");
            }
            if let Some(p) = cl.place {
                assert!(place_help().contains(p.what) && place_aliases().contains(&p.alias));
            }
        }
    }
}
