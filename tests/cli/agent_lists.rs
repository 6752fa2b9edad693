//! One agent list, from the rows: every place that names the agents agterm-backup supports names exactly
//! the agent rows' [`listed`] ones (`core/src/agent/`: a file and a row per agent), in their order.
//! `--help`, the man page and the completions are generated from the rows (`src/agents_help.rs`); the
//! places that cannot be generated (the crates' descriptions, the README, the Homebrew formula, the
//! installer's `ALL_AGENTS`) are compared here, so a new row, or a list edited by hand, fails until every
//! place agrees.

use agterm_backup_core::agent::{listed, listed_titles, Support, AGENTS};
use std::process::Command;

fn run(args: &[&str]) -> String {
    let out = Command::new(agterm_backup_testkit::agterm_backup_bin!())
        .args(args)
        .env("COLUMNS", "400")
        .output()
        .unwrap();
    assert!(out.status.success(), "{args:?}: {out:?}");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn read(rel: &str) -> String {
    std::fs::read_to_string(agterm_backup_testkit::paths::workspace_root().join(rel)).unwrap()
}

/// `text` with every run of whitespace one space (wrapped prose, roff lines).
fn flat(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn description(crate_dir: &str) -> String {
    let manifest: toml_edit::DocumentMut =
        read(&format!("{crate_dir}/Cargo.toml")).parse().unwrap();
    manifest["package"]["description"]
        .as_str()
        .unwrap()
        .to_string()
}

/// The titles of the agents that are NOT listed (known only for their resume line: Grok).
fn unlisted_titles() -> Vec<&'static str> {
    AGENTS
        .iter()
        .filter(|a| a.support == Support::ResumeOnly)
        .map(|a| a.title)
        .collect()
}

/// `text` names exactly the listed agents, as one list in the rows' order, and no unlisted one.
fn names_the_rows(place: &str, text: &str) {
    let list = format!("({})", listed_titles());
    assert!(
        flat(text).contains(&list),
        "{place} does not name the agents {list}:\n{text}"
    );
    for title in unlisted_titles() {
        assert!(
            !text.contains(title),
            "{place} names {title}, which has no hook we wire"
        );
    }
}

#[test]
fn the_rows_are_whole_and_the_installer_wires_exactly_the_listed_ones() {
    let names: Vec<&str> = listed().map(|a| a.name).collect();
    assert_eq!(agterm_backup_installer::ALL_AGENTS.to_vec(), names);
    for (i, a) in AGENTS.iter().enumerate() {
        assert!(
            !a.title.is_empty() && !a.title.contains(','),
            "{}: {:?}",
            a.name,
            a.title
        );
        assert!(
            AGENTS[..i]
                .iter()
                .all(|b| b.name != a.name && b.title != a.title),
            "{} twice",
            a.name
        );
    }
}

#[test]
fn help_man_page_and_completions_list_the_rows() {
    // `-h` is the one-line description, the same text as Cargo.toml's.
    let short = run(&["-h"]);
    let about = short.lines().next().unwrap();
    names_the_rows("-h", about);
    assert_eq!(
        about,
        description("."),
        "-h and Cargo.toml's description differ"
    );
    names_the_rows("--help", &run(&["--help"]));
    // roff: hyphens escaped, lines wrapped.
    let man = run(&["man"]).replace("\\-", "-");
    names_the_rows("the man page", &man);
    for shell in ["bash", "zsh", "fish"] {
        let script = run(&["completions", shell]);
        if shell != "bash" {
            // bash completes words only; zsh and fish show the subcommands' descriptions.
            names_the_rows(&format!("{shell} completions"), &script);
        }
    }
    names_the_rows("installer --help", &run(&["installer", "--help"]));
    let hook = flat(&run(&["help", "hook"]));
    let names: Vec<&str> = listed().map(|a| a.name).collect();
    assert!(hook.contains(&format!("({}", names.join(", "))), "{hook}");
    for a in listed().filter(|a| a.support == Support::Unverified) {
        assert!(
            hook.contains(&format!(
                "{} built from its documentation, unverified",
                a.name
            )),
            "{hook}"
        );
    }
}

#[test]
fn cargo_descriptions_list_the_rows() {
    for crate_dir in [".", "installer", "plugins/hook"] {
        names_the_rows(&format!("{crate_dir}/Cargo.toml"), &description(crate_dir));
    }
}

#[test]
fn the_readme_lists_the_rows_in_its_summary_its_usage_and_its_agent_table() {
    let readme = read("README.md");
    let intro = readme
        .split("\n\n")
        .find(|p| p.starts_with("**agterm-backup brings every AI coding agent"))
        .expect("the README's summary paragraph");
    names_the_rows("the README's summary", intro);
    let names: Vec<&str> = listed().map(|a| a.name).collect();
    let usage: Vec<&str> = readme
        .lines()
        .filter(|l| l.contains("[--agents "))
        .collect();
    assert!(!usage.is_empty(), "the README shows no --agents");
    for line in usage {
        let list = line
            .split("[--agents ")
            .nth(1)
            .unwrap()
            .split(']')
            .next()
            .unwrap();
        assert_eq!(list.split(',').collect::<Vec<_>>(), names, "{line}");
    }
    // The agent table: one row per listed agent, in order, its first cell starting with the title; an
    // unverified agent says so.
    let table: Vec<&str> = readme
        .lines()
        .skip_while(|l| !l.starts_with("| agent | hook file we edit |"))
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .collect();
    assert_eq!(
        table.len(),
        listed().count(),
        "the README's agent table:\n{}",
        table.join("\n")
    );
    for (row, agent) in table.iter().zip(listed()) {
        let cell = row.split('|').nth(1).unwrap().trim();
        assert!(
            cell.starts_with(agent.title),
            "{} expected, row: {row}",
            agent.title
        );
        let marked = cell.contains("unverified");
        assert_eq!(marked, agent.support == Support::Unverified, "{row}");
    }
}

#[test]
fn the_homebrew_formula_names_all_the_agents_or_none() {
    let formula = read("packaging/agterm-backup.rb");
    let desc = formula
        .lines()
        .find_map(|l| l.trim().strip_prefix("desc "))
        .expect("the formula's desc");
    // Homebrew caps `desc` at 80 characters: it names no agent, or all of them.
    let named = listed().filter(|a| desc.contains(a.title)).count();
    assert!(named == 0 || named == listed().count(), "{desc}");
    for title in unlisted_titles() {
        assert!(!desc.contains(title), "{desc}");
    }
}
