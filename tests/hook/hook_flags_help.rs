//! The agent table's flag rows against the installed CLIs, hidden options included: every option of
//! `--help` and every option the CLI defines without listing it must be a row with the same arity
//! (switch, `<value>`, `[value]`, `<values...>`), every row must be an option the CLI really accepts,
//! and every subcommand must be classified (headless or session-entering).
//!
//! Claude's hidden options are read from the option definitions in its shipped binary (the commander
//! program between `.name("claude")` and the end of its option list); Codex's rows are probed against
//! its binary (`codex resume <flag> --help`: clap names an unknown flag, or a missing value). Without
//! the CLIs these tests skip, except under `CI`, where they fail.

use agterm_backup_core::agent::{AgentSpec, Takes, CLAUDE, CODEX, COPILOT};
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
                // clap's `[<tools>...]` (Copilot): the words up to the next option.
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
    spec.flag(flag).map(|f| match f.takes {
        Takes::Nothing => Arity::Switch,
        Takes::One => Arity::One,
        Takes::Optional => Arity::Optional,
        Takes::Many => Arity::Variadic,
    })
}

fn run_cli(cli: &std::path::Path, args: &[&str]) -> std::process::Output {
    let home = agterm_backup_testkit::scratch::tempdir();
    Command::new(cli)
        .args(args)
        .env_clear()
        .envs(agterm_backup_testkit::hermetic::places())
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("HOME", home.path())
        .env("CODEX_HOME", home.path().join("codex"))
        .env("DISABLE_AUTOUPDATER", "1")
        .env(
            "COPILOT_CACHE_HOME",
            agterm_backup_testkit::agents::copilot_cache(),
        )
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap()
}

fn help_of(cli: &std::path::Path, args: &[&str]) -> String {
    let out = run_cli(cli, args);
    assert!(out.status.success(), "{} {args:?} failed", cli.display());
    String::from_utf8(out.stdout).unwrap()
}

/// Every option the table and the CLI disagree on, given the CLI's full option list.
fn disagreements(spec: &AgentSpec, options: &[HelpOption]) -> Vec<String> {
    let mut problems = Vec::new();
    for opt in options {
        for name in &opt.names {
            match table_arity(spec, name) {
                None => problems.push(format!("{name} ({:?}) is not in the table", opt.arity)),
                Some(t) if t != opt.arity => problems.push(format!(
                    "{name}: the CLI says {:?}, the table says {t:?}",
                    opt.arity
                )),
                Some(_) => {}
            }
        }
    }
    problems
}

fn unclassified_commands(spec: &AgentSpec, help: &str) -> Vec<String> {
    parse_commands(help)
        .into_iter()
        .filter(|c| {
            !spec.headless_subcommands.contains(&c.as_str())
                && !spec.session_subcommands.contains(&c.as_str())
        })
        .map(|c| format!("subcommand {c} is not classified (headless or session)"))
        .collect()
}

fn find(hay: &[u8], needle: &[u8], from: usize) -> Option<usize> {
    hay.get(from..)?
        .windows(needle.len())
        .position(|w| w == needle)
        .map(|i| i + from)
}

/// The option definitions of Claude's main command in its binary: every string literal passed as the
/// first argument of a call (`.option("-d, --debug [filter]", …)`, `new Option("--max-turns <turns>",
/// …)`) between `.name("claude")` and the end of the option list, plus `-v, --version`.
fn claude_definitions(binary: &std::path::Path) -> Vec<HelpOption> {
    let bytes = std::fs::read(binary).unwrap();
    let start = find(&bytes, b".name(\"claude\")", 0).expect("the main command's definition");
    let end = find(&bytes, b"run_main_options_built", start).expect("the end of its options");
    let chunk = String::from_utf8_lossy(&bytes[start..end]);
    let mut lines = String::from("Options:\n  -v, --version  Output the version number\n");
    for piece in chunk.split("(\"-").skip(1) {
        let Some(close) = piece.find('"') else {
            continue;
        };
        let literal = format!("-{}", &piece[..close]);
        let follows = piece[close + 1..].chars().next();
        // A definition: names, then at most one argument spec (`<message id>`); not an error message.
        let arg_at = [literal.find(" <"), literal.find(" [")]
            .into_iter()
            .flatten()
            .min();
        let (names, arg) = match arg_at {
            Some(i) => (&literal[..i], &literal[i + 1..]),
            None => (literal.as_str(), ""),
        };
        let is_def = matches!(follows, Some(',' | ')'))
            && names
                .split(", ")
                .all(|n| n.starts_with('-') && !n.contains(' '))
            && (arg.is_empty() || arg.ends_with(['>', ']']));
        if is_def {
            lines.push_str(&format!("  {literal}  x\n"));
        }
    }
    parse_options(&lines)
}

#[test]
fn claude_table_matches_the_binarys_option_definitions() {
    let Some(cli) = agterm_backup_testkit::paths::agent_cli_or_fail_in_ci("claude") else {
        return;
    };
    let binary = std::fs::canonicalize(&cli).unwrap();
    let defined = claude_definitions(&binary);
    assert!(
        defined.len() > 120,
        "parsed only {} definitions",
        defined.len()
    );
    let help = help_of(&cli, &["--help"]);
    let listed = parse_options(&help);
    assert!(listed.len() > 20, "parsed only {} options", listed.len());
    let mut problems = disagreements(&CLAUDE, &defined);
    problems.extend(disagreements(&CLAUDE, &listed));
    let known: Vec<&str> = defined
        .iter()
        .flat_map(|o| o.names.iter().map(String::as_str))
        .collect();
    for name in CLAUDE.flags.iter().flat_map(|f| f.names.iter()) {
        if !known.contains(name) {
            problems.push(format!(
                "{name} is in the table but the binary does not define it"
            ));
        }
    }
    problems.extend(unclassified_commands(&CLAUDE, &help));
    assert!(
        problems.is_empty(),
        "claude table vs the binary:\n{}",
        problems.join("\n")
    );
}

/// What `codex resume <flag> --help` says of a flag: unknown, switch, or takes a value.
fn codex_probe(cli: &std::path::Path, flag: &str) -> Option<Arity> {
    let out = run_cli(cli, &["resume", flag, "--help"]);
    let text =
        String::from_utf8_lossy(&out.stderr).into_owned() + &String::from_utf8_lossy(&out.stdout);
    if text.contains("unexpected argument") {
        None
    } else if text.contains("a value is required") {
        Some(if text.contains(">...'") {
            Arity::Variadic
        } else {
            Arity::One
        })
    } else {
        Some(Arity::Switch)
    }
}

#[test]
fn codex_table_matches_codex_help_and_the_binary() {
    let Some(cli) = agterm_backup_testkit::paths::agent_cli_or_fail_in_ci("codex") else {
        return;
    };
    let helps = [
        help_of(&cli, &["--help"]),
        help_of(&cli, &["resume", "--help"]),
        help_of(&cli, &["fork", "--help"]),
    ];
    let options: Vec<HelpOption> = helps.iter().flat_map(|h| parse_options(h)).collect();
    assert!(options.len() > 20, "parsed only {} options", options.len());
    let mut problems = disagreements(&CODEX, &options);
    // Every row, hidden aliases included, is accepted by the binary with the same arity.
    for name in CODEX.flags.iter().flat_map(|f| f.names.iter()) {
        let probed = codex_probe(&cli, name);
        if probed != table_arity(&CODEX, name) {
            problems.push(format!(
                "{name}: the binary says {probed:?}, the table {:?}",
                table_arity(&CODEX, name)
            ));
        }
    }
    problems.extend(unclassified_commands(&CODEX, &helps[0]));
    assert!(
        problems.is_empty(),
        "codex table vs the CLI:\n{}",
        problems.join("\n")
    );
}

/// Copilot's `--help` lists every option it has (clap): each must be a row with its arity, every row an
/// option of `--help`, every command classified.
#[test]
fn copilot_table_matches_copilot_help() {
    let Some(cli) = agterm_backup_testkit::paths::agent_cli("copilot") else {
        return;
    };
    let help = help_of(&cli, &["--help"]);
    let options = parse_options(&help);
    assert!(options.len() > 60, "parsed only {} options", options.len());
    let mut problems = disagreements(&COPILOT, &options);
    let listed: Vec<&str> = options
        .iter()
        .flat_map(|o| o.names.iter().map(String::as_str))
        .collect();
    for name in COPILOT.flags.iter().flat_map(|f| f.names.iter()) {
        if !listed.contains(name) {
            problems.push(format!("{name} is in the table but not in --help"));
        }
    }
    problems.extend(unclassified_commands(&COPILOT, &help));
    assert!(
        problems.is_empty(),
        "copilot table vs --help:\n{}",
        problems.join("\n")
    );
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
