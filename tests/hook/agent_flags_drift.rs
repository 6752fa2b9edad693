//! The pins of `tests/install-deps.sh` against what is installed, and Kimi Code's row against the option
//! definitions of its installed bundle. With `tests/hook_flags_help.rs` (Claude, Codex, Copilot) and
//! `tests/flags_bundles.rs` (Gemini, Qwen) this makes a version bump one command and a list to read:
//!
//! ```sh
//! # after editing the pin in tests/install-deps.sh
//! tests/install-deps.sh && cargo test --test hook -- agent_flags_drift hook_flags_help && cargo test --test installer -- flags_bundles
//! ```
//!
//! Every option the new CLI defines that the table does not know, with a different arity, or that the
//! table has and the CLI no longer defines is one line of the failure; each becomes (or loses) one row
//! in `core/src/agent/<agent>.rs`. A table tested against an older install than its pin would prove
//! nothing, so a CLI installed at another version than its pin fails here too. Skipped without the
//! CLIs, failed under `CI`.

use agterm_backup_core::agent::{AgentSpec, Takes, KIMI};
use agterm_backup_testkit::paths::{agent_cli, agent_cli_dir, workspace_root};
use std::path::Path;

/// `(package, bin, version)` of every `AGENT_CLIS` line of `tests/install-deps.sh`.
fn pins() -> Vec<(String, String, String)> {
    let script = std::fs::read_to_string(workspace_root().join("tests/install-deps.sh")).unwrap();
    let block = script
        .split("AGENT_CLIS=(")
        .nth(1)
        .and_then(|rest| rest.split("\n)").next())
        .expect("the AGENT_CLIS array");
    block
        .lines()
        .map(|l| l.trim().trim_matches('"'))
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            assert_eq!(w.len(), 3, "pin line {l:?}: `package@version bin version`");
            let package = w[0].rsplit_once('@').expect("package@version").0;
            assert!(w[0].ends_with(&format!("@{}", w[2])), "pin line {l:?}");
            (package.to_string(), w[1].to_string(), w[2].to_string())
        })
        .collect()
}

fn installed_version(node_modules: &Path, package: &str) -> Option<String> {
    let text = std::fs::read_to_string(node_modules.join(package).join("package.json")).ok()?;
    let json: serde_json::Value = serde_json::from_str(&text).ok()?;
    json["version"].as_str().map(String::from)
}

#[test]
fn every_pinned_cli_is_installed_at_its_pin() {
    let pins = pins();
    assert!(pins.len() >= 7, "parsed only {pins:?}");
    for (package, bin, _) in &pins {
        assert!(
            pins.iter()
                .filter(|(p, b, _)| p == package || b == bin)
                .count()
                == 1,
            "{package} pinned twice"
        );
    }
    let Some(bin_dir) = agent_cli_dir() else {
        agent_cli("claude");
        return;
    };
    let node_modules = bin_dir.parent().unwrap();
    let wrong: Vec<String> = pins
        .iter()
        .filter_map(|(package, bin, pin)| {
            let got = installed_version(node_modules, package);
            (got.as_deref() != Some(pin) || !bin_dir.join(bin).exists()).then(|| {
                format!("{package}: pinned {pin}, installed {got:?}; run tests/install-deps.sh")
            })
        })
        .collect();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// One option definition: names, and what it takes in the table's terms.
#[derive(Debug)]
struct Defined {
    names: Vec<String>,
    takes: Takes,
}

/// Commander's argument spec: `<v>` one word, `[v]` an optional one, `<v...>` several.
fn takes_of(arg: &str) -> Takes {
    match arg.chars().next() {
        None => Takes::Nothing,
        Some(_) if arg.contains("...") => Takes::Many,
        Some('[') => Takes::Optional,
        Some(_) => Takes::One,
    }
}

/// The options of Kimi's main program: every `new Option("…")` / `.option("…")` / `.helpOption("…")`
/// literal in `createProgram` before its first subcommand, plus `.version(v, "-V, --version")`.
fn kimi_definitions(bundle: &str) -> Vec<Defined> {
    let start = bundle
        .find("function createProgram(")
        .expect("createProgram");
    let end = start
        + bundle[start..]
            .find("registerExportCommand(program)")
            .expect("the first subcommand");
    let chunk = &bundle[start..end];
    let mut out = vec![Defined {
        names: vec!["-V".into(), "--version".into()],
        takes: Takes::Nothing,
    }];
    assert!(chunk.contains(".version(version, \"-V, --version\")"));
    for piece in chunk.split("(\"-").skip(1) {
        let literal = format!("-{}", &piece[..piece.find('"').unwrap()]);
        let (names, arg) = match literal
            .find([' '])
            .filter(|&i| literal[i..].contains(['<', '[']))
        {
            Some(_) => {
                let at = literal.rfind(' ').unwrap();
                (&literal[..at], &literal[at + 1..])
            }
            None => (literal.as_str(), ""),
        };
        // A definition is names only (an error message such as "--agent may only be …" is not).
        if names
            .split(", ")
            .any(|n| !n.starts_with('-') || n.contains(' '))
        {
            continue;
        }
        out.push(Defined {
            names: names.split(", ").map(String::from).collect(),
            takes: takes_of(arg),
        });
    }
    out
}

fn disagreements(spec: &AgentSpec, defined: &[Defined]) -> Vec<String> {
    let mut problems = Vec::new();
    for d in defined {
        for name in &d.names {
            match spec.flag(name) {
                None => problems.push(format!("{name} ({:?}) is not in the table", d.takes)),
                Some(row) if row.takes != d.takes => problems.push(format!(
                    "{name}: the CLI says {:?}, the table {:?}",
                    d.takes, row.takes
                )),
                Some(_) => {}
            }
        }
    }
    let known: Vec<&str> = defined
        .iter()
        .flat_map(|d| d.names.iter().map(String::as_str))
        .collect();
    for name in spec.flags.iter().flat_map(|f| f.names.iter()) {
        if !known.contains(name) {
            problems.push(format!(
                "{name} is in the table but the CLI does not define it"
            ));
        }
    }
    problems
}

/// The command names (aliases included) of a commander `Commands:` section (`rc|remote [options]`).
fn help_commands(help: &str) -> Vec<String> {
    help.lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.is_empty() || l.starts_with(' '))
        .filter(|l| l.len() - l.trim_start().len() == 2)
        .flat_map(|l| {
            let first = l.split_whitespace().next().unwrap_or("");
            first.split('|').map(String::from).collect::<Vec<_>>()
        })
        .collect()
}

#[test]
fn kimi_table_matches_the_bundles_option_definitions() {
    let Some(cli) = agent_cli("kimi") else {
        return;
    };
    let bundle_path = std::fs::canonicalize(&cli).unwrap();
    assert!(bundle_path.ends_with("@moonshot-ai/kimi-code/dist/main.mjs"));
    let bundle = std::fs::read_to_string(&bundle_path).unwrap();
    let defined = kimi_definitions(&bundle);
    assert!(defined.len() > 15, "parsed only {defined:?}");
    let mut problems = disagreements(&KIMI, &defined);
    let help = agterm_backup_testkit::agents::run_kimi(&["--help"]);
    let commands = help_commands(&help);
    assert!(commands.len() > 10, "parsed only {commands:?} of\n{help}");
    for c in commands {
        if !KIMI.headless_subcommands.contains(&c.as_str()) {
            problems.push(format!("subcommand {c} is not classified"));
        }
    }
    assert!(
        problems.is_empty(),
        "kimi table vs its bundle:\n{}",
        problems.join("\n")
    );
}

#[test]
fn the_kimi_reader_reads_commander_literals() {
    let sample = r#"function createProgram(version) {
	if (previous !== void 0) throw new InvalidArgumentError("--agent may only be specified once.");
	const program = new Command("kimi").version(version, "-V, --version").helpOption("-h, --help", "Show help.");
	program.addOption(new Option("-S, --session [id]", "Resume")).option("-c, --continue", "Go on", false).addOption(new Option("-C").hideHelp()).addOption(new Option("-m, --model <model>", "M")).addOption(new Option("--dirs <dir...>"));
	registerExportCommand(program);"#;
    let got: Vec<(String, Takes)> = kimi_definitions(sample)
        .into_iter()
        .map(|d| (d.names.join(","), d.takes))
        .collect();
    assert_eq!(
        got,
        [
            ("-V,--version".to_string(), Takes::Nothing),
            ("-h,--help".into(), Takes::Nothing),
            ("-S,--session".into(), Takes::Optional),
            ("-c,--continue".into(), Takes::Nothing),
            ("-C".into(), Takes::Nothing),
            ("-m,--model".into(), Takes::One),
            ("--dirs".into(), Takes::Many),
        ]
    );
}
