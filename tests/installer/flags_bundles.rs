//! The Gemini CLI and Qwen Code rows of the agent table against the option definitions in the installed
//! npm bundles (yargs), hidden ones included: every option the CLI defines for its conversation (the
//! global options and those of `$0 [query..]`) is a row with the same arity, and every row is an option
//! it defines. yargs' rules: `boolean` is a switch; `string`/`number` with `nargs: 1` takes the next word,
//! without it the next word unless it is an option; `array` with `nargs: 1` takes one word, without it
//! every word up to the next option. Skipped without the CLIs, failed under `CI`.

use agterm_backup_core::agent::{AgentSpec, Takes, GEMINI, QWEN};
use agterm_backup_testkit::paths::{agent_cli, agent_cli_dir};
use std::path::{Path, PathBuf};

/// One yargs option: its names (`--long`, `-x` aliases) and what it takes.
#[derive(Debug)]
struct Defined {
    names: Vec<String>,
    takes: Takes,
}

fn takes_of(body: &str) -> Takes {
    let has = |s: &str| body.contains(s);
    let one = has("nargs: 1");
    if has("type: \"boolean\"") {
        Takes::Nothing
    } else if has("type: \"array\"") {
        if one {
            Takes::One
        } else {
            Takes::Many
        }
    } else if one {
        Takes::One
    } else {
        Takes::Optional
    }
}

/// `alias: "x"` or `alias: ["x", "yy"]` in an option's body.
fn aliases(body: &str) -> Vec<String> {
    let Some(at) = body.find("alias: ") else {
        return Vec::new();
    };
    let rest = &body[at + 7..];
    let list = if rest.starts_with('[') {
        &rest[1..rest.find(']').unwrap_or(1)]
    } else {
        rest.split([',', '\n']).next().unwrap_or("")
    };
    list.split(',')
        .map(|a| a.trim().trim_matches('"').to_string())
        .filter(|a| !a.is_empty())
        .map(|a| {
            if a.len() == 1 {
                format!("-{a}")
            } else {
                format!("--{a}")
            }
        })
        .collect()
}

fn defined(name: &str, body: &str) -> Defined {
    let mut names = vec![format!("--{name}")];
    names.extend(aliases(body));
    Defined {
        names,
        takes: takes_of(body),
    }
}

/// The file of `dir` whose text contains `needle`.
fn file_with(dir: &Path, needle: &str) -> String {
    let files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "js"))
        .collect();
    files
        .iter()
        .filter_map(|p| std::fs::read_to_string(p).ok())
        .find(|t| t.contains(needle))
        .unwrap_or_else(|| panic!("no bundle file in {} holds {needle:?}", dir.display()))
}

/// Gemini: the `.option("name", {…})` calls from `.scriptName("gemini")` to `.version(`.
fn gemini_definitions(modules: &Path) -> Vec<Defined> {
    let text = file_with(
        &modules.join("@google/gemini-cli/bundle"),
        ".scriptName(\"gemini\")",
    );
    let start = text.find(".scriptName(\"gemini\")").unwrap();
    let end = start + text[start..].find(".version(await getVersion())").unwrap();
    let region = &text[start..end];
    region
        .split(".option(\"")
        .skip(1)
        .map(|chunk| {
            let name = &chunk[..chunk.find('"').unwrap()];
            defined(name, chunk)
        })
        .collect()
}

/// Qwen: the entries of `TOP_LEVEL_GLOBAL_OPTIONS` and `DEFAULT_COMMAND_OPTIONS`.
fn qwen_definitions(modules: &Path) -> Vec<Defined> {
    let text = file_with(
        &modules.join("@qwen-code/qwen-code/chunks"),
        "var DEFAULT_COMMAND_OPTIONS = {",
    );
    let mut out = Vec::new();
    for object in [
        "var TOP_LEVEL_GLOBAL_OPTIONS = {",
        "var DEFAULT_COMMAND_OPTIONS = {",
    ] {
        let start = text.find(object).unwrap() + object.len();
        let end = start + text[start..].find("\n};").unwrap();
        let mut name = None::<String>;
        let mut body = String::new();
        for line in text[start..end].lines() {
            let entry = line
                .strip_prefix("  ")
                .filter(|l| !l.starts_with(' ') && l.ends_with(": {"));
            if let Some(key) = entry {
                if let Some(n) = name.take() {
                    out.push(defined(&n, &body));
                }
                name = Some(key.trim_end_matches(": {").trim_matches('"').to_string());
                body.clear();
            } else {
                body.push_str(line);
                body.push('\n');
            }
        }
        if let Some(n) = name {
            out.push(defined(&n, &body));
        }
    }
    out
}

fn check(spec: &AgentSpec, defined: &[Defined]) {
    assert!(
        defined.len() > 20,
        "{}: read only {} options",
        spec.name,
        defined.len()
    );
    let mut problems = Vec::new();
    for d in defined {
        for name in &d.names {
            match spec.flag(name) {
                None => problems.push(format!("{name} ({:?}) is not in the table", d.takes)),
                Some(row) if row.takes != d.takes => problems.push(format!(
                    "{name}: the bundle says {:?}, the table {:?}",
                    d.takes, row.takes
                )),
                Some(_) => {}
            }
        }
    }
    // yargs adds these two itself (`.help()`, `.version()` with aliases).
    let builtin = ["-h", "--help", "-v", "--version"];
    for name in spec.flags.iter().flat_map(|f| f.names.iter()) {
        if !builtin.contains(name) && !defined.iter().any(|d| d.names.iter().any(|n| n == name)) {
            problems.push(format!(
                "{name} is in the table but the bundle defines no such option"
            ));
        }
    }
    assert!(
        problems.is_empty(),
        "{} table vs its bundle:\n{}",
        spec.name,
        problems.join("\n")
    );
}

#[test]
fn gemini_table_matches_the_bundles_option_definitions() {
    if agent_cli("gemini").is_none() {
        return;
    }
    let modules = agent_cli_dir().unwrap().join("..");
    check(&GEMINI, &gemini_definitions(&modules));
}

#[test]
fn qwen_table_matches_the_bundles_option_definitions() {
    if agent_cli("qwen").is_none() {
        return;
    }
    let modules = agent_cli_dir().unwrap().join("..");
    check(&QWEN, &qwen_definitions(&modules));
}
