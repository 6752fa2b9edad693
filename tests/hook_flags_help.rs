//! The agent table's flag lists against the real `--help` of the installed CLIs: every option's arity
//! (switch, `<value>`, `[value]`, `<values...>`) must match the table, every table flag must exist, and
//! every subcommand must be classified (headless or session-entering). Skips when the CLIs are absent.

use agterm_backup_core::agent::{AgentSpec, CLAUDE, CODEX, COPILOT};
use std::process::Command;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Arity {
    Switch,
    One,
    Optional,
    Variadic,
}

/// One option line of a `--help`: its names and what it takes.
#[derive(Debug)]
struct HelpOption {
    names: Vec<String>,
    arity: Arity,
}

/// Parses the option lines (indented at most 6 columns, starting with `-` + a letter or `-`) of commander
/// (`claude`) and clap (`codex`) help texts.
fn parse_options(help: &str) -> Vec<HelpOption> {
    help.lines()
        .filter_map(|line| {
            let trimmed = line.trim_start();
            let indent = line.len() - trimmed.len();
            let second = trimmed.chars().nth(1)?;
            if indent == 0
                || indent > 6
                || !trimmed.starts_with('-')
                || !(second == '-' || second.is_ascii_alphanumeric())
            {
                return None;
            }
            let head = trimmed.split("  ").next()?.trim();
            let arg_at = head
                .match_indices([' ', '='])
                .map(|(i, _)| i)
                .find(|&i| head[i + 1..].starts_with(['<', '[']));
            let (names, arg) = match arg_at {
                Some(i) => (&head[..i], &head[i + 1..]),
                None => (head, ""),
            };
            let arity = match arg.chars().next() {
                None => Arity::Switch,
                // clap's `[<tools>...]` (Copilot): values up to the next flag.
                Some('[') if arg.contains("...") => Arity::Variadic,
                Some('[') => Arity::Optional,
                Some(_) if arg.contains("...") => Arity::Variadic,
                Some(_) => Arity::One,
            };
            Some(HelpOption {
                names: names.split(", ").map(|n| n.trim().to_string()).collect(),
                arity,
            })
        })
        .collect()
}

/// The command names (aliases included) of the `Commands:` section.
fn parse_commands(help: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut inside = false;
    for line in help.lines() {
        if line.starts_with("Commands:") {
            inside = true;
            continue;
        }
        if inside && !line.starts_with(' ') && !line.is_empty() {
            break;
        }
        let trimmed = line.trim_start();
        if !inside || line.len() - trimmed.len() != 2 || trimmed.is_empty() {
            continue;
        }
        let first = trimmed.split_whitespace().next().unwrap_or("");
        out.extend(first.split('|').map(String::from));
        if let Some(a) = line.split("[aliases: ").nth(1) {
            out.extend(a.trim_end_matches(']').split(", ").map(String::from));
        }
    }
    out
}

fn table_arity(spec: &AgentSpec, flag: &str) -> Option<Arity> {
    let has = |l: &[&str]| l.contains(&flag);
    if has(spec.value_flags) || has(spec.session_value_flags) {
        Some(Arity::One)
    } else if has(spec.variadic_flags) {
        Some(Arity::Variadic)
    } else if has(spec.optional_value_flags) || has(spec.session_optional_value_flags) {
        Some(Arity::Optional)
    } else if has(spec.session_flags) || has(spec.headless_flags) {
        Some(Arity::Switch)
    } else {
        None
    }
}

fn help_of(cli: &std::path::Path, args: &[&str]) -> String {
    let home = tempfile::tempdir().unwrap();
    let out = Command::new(cli)
        .args(args)
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("HOME", home.path())
        .env("CODEX_HOME", home.path().join("codex"))
        .env("DISABLE_AUTOUPDATER", "1")
        .env(
            "COPILOT_CACHE_HOME",
            agterm_backup_testkit::agents::copilot_cache(),
        )
        .output()
        .unwrap();
    assert!(out.status.success(), "{} {args:?} failed", cli.display());
    String::from_utf8(out.stdout).unwrap()
}

fn check(spec: &AgentSpec, helps: &[String]) {
    let options: Vec<HelpOption> = helps.iter().flat_map(|h| parse_options(h)).collect();
    assert!(options.len() > 20, "parsed only {} options", options.len());
    let mut problems = Vec::new();
    for opt in &options {
        for name in &opt.names {
            if spec.headless_flags.contains(&name.as_str()) {
                continue; // A headless run is never recorded: its arity does not matter.
            }
            let table = table_arity(spec, name).unwrap_or(Arity::Switch);
            if table != opt.arity {
                problems.push(format!(
                    "{name}: --help says {:?}, table says {table:?}",
                    opt.arity
                ));
            }
        }
    }
    let known: Vec<&str> = options
        .iter()
        .flat_map(|o| o.names.iter().map(String::as_str))
        .collect();
    let lists = [
        spec.value_flags,
        spec.variadic_flags,
        spec.optional_value_flags,
        spec.session_flags,
        spec.session_value_flags,
        spec.session_optional_value_flags,
        spec.headless_flags,
    ];
    for flag in lists.iter().flat_map(|l| l.iter()) {
        if !known.contains(flag) {
            problems.push(format!("{flag} is in the table but not in --help"));
        }
    }
    for cmd in helps.iter().take(1).flat_map(|h| parse_commands(h)) {
        let c = cmd.as_str();
        if !spec.headless_subcommands.contains(&c) && !spec.session_subcommands.contains(&c) {
            problems.push(format!(
                "subcommand {c} is not classified (headless or session)"
            ));
        }
    }
    assert!(
        problems.is_empty(),
        "{} table vs --help:\n{}",
        spec.name,
        problems.join("\n")
    );
}

#[test]
fn claude_table_matches_claude_help() {
    let Some(cli) = agterm_backup_testkit::paths::agent_cli("claude") else {
        eprintln!("SKIPPED: claude CLI not installed");
        return;
    };
    check(&CLAUDE, &[help_of(&cli, &["--help"])]);
}

#[test]
fn codex_table_matches_codex_help() {
    let Some(cli) = agterm_backup_testkit::paths::agent_cli("codex") else {
        eprintln!("SKIPPED: codex CLI not installed");
        return;
    };
    let helps = [
        help_of(&cli, &["--help"]),
        help_of(&cli, &["resume", "--help"]),
        help_of(&cli, &["fork", "--help"]),
    ];
    check(&CODEX, &helps);
}

#[test]
fn copilot_table_matches_copilot_help() {
    let Some(cli) = agterm_backup_testkit::paths::agent_cli("copilot") else {
        return;
    };
    check(&COPILOT, &[help_of(&cli, &["--help"])]);
}

#[test]
fn the_help_parser_reads_both_styles() {
    let commander = "Options:\n  --add-dir <directories...>   More\n  -d, --debug [filter]  Debug\n  -c, --continue   Go on\n  --allowedTools, --allowed-tools <tools...>\n      Comma\n                     --system-prompt[-file],\n";
    let parsed = parse_options(commander);
    let got: Vec<_> = parsed
        .iter()
        .map(|o| (o.names.join(","), o.arity))
        .collect();
    assert_eq!(
        got,
        [
            ("--add-dir".to_string(), Arity::Variadic),
            ("-d,--debug".into(), Arity::Optional),
            ("-c,--continue".into(), Arity::Switch),
            ("--allowedTools,--allowed-tools".into(), Arity::Variadic),
        ]
    );
    let clap = "Commands:\n  exec     Run [aliases: e]\n  resume   Resume\n\nOptions:\n  -i, --image <FILE>...\n          Images\n      --oss\n          - on-request: x\n";
    let got: Vec<_> = parse_options(clap)
        .iter()
        .map(|o| (o.names.join(","), o.arity))
        .collect();
    assert_eq!(
        got,
        [
            ("-i,--image".to_string(), Arity::Variadic),
            ("--oss".into(), Arity::Switch)
        ]
    );
    assert_eq!(parse_commands(clap), ["exec", "e", "resume"]);
}
