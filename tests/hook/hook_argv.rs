//! The hook's exit code cannot be 2 (issue 31): Claude Code takes exit 2 from `PreToolUse` or
//! `UserPromptSubmit` as "block". Every command line the installer writes, for every agent, read back from
//! the files `installer apply` wrote (not spelled out here), runs silent with exit 0; so does every
//! mutation of one (a newer release's flags before or after `hook`, words dropped, non-UTF-8 or empty
//! words, `--help` with stdout on a pipe) with any stdin. CI runs these against the musl build too.

use crate::hook_common::{claude_payload, log_text, Stdin, World, ID_A};
use proptest::prelude::*;
use std::ffi::OsString;
use std::os::unix::ffi::OsStringExt;
use std::path::{Path, PathBuf};
use std::process::Command;

/// One command line the installer wrote: a shell line (`'<bin>' hook claude`), or an argv (the opencode
/// plugin spawns the binary itself).
#[derive(Debug, Clone)]
enum Line {
    Shell { file: PathBuf, line: String },
    Argv { file: PathBuf, argv: Vec<String> },
}

impl Line {
    fn file(&self) -> &Path {
        match self {
            Line::Shell { file, .. } | Line::Argv { file, .. } => file,
        }
    }

    /// The argv the agent ends up running (the shell's own word splitting for a shell line).
    fn argv(&self) -> Vec<String> {
        match self {
            Line::Argv { argv, .. } => argv.clone(),
            Line::Shell { line, .. } => {
                let out = Command::new("/bin/sh")
                    .arg("-c")
                    .arg(format!("printf '%s\\0' {line}"))
                    .output()
                    .unwrap();
                let words = String::from_utf8(out.stdout).unwrap();
                words.split_terminator('\0').map(String::from).collect()
            }
        }
    }
}

/// Runs `installer apply` (every agent set up: a stub of each CLI on `PATH`) in a fresh HOME and reads
/// back every line naming the binary from the files it wrote.
fn installer_lines(world: &World) -> Vec<Line> {
    let bin = Path::new(agterm_backup_testkit::agterm_backup_bin!());
    let home = world.path().join("installer-home");
    let stubs = world.path().join("installer-stubs");
    std::fs::create_dir_all(&home).unwrap();
    std::fs::create_dir_all(&stubs).unwrap();
    for agent in agterm_backup_installer::ALL_AGENTS {
        let stub = stubs.join(agent);
        std::fs::write(&stub, "#!/bin/sh\n").unwrap();
        std::fs::set_permissions(&stub, std::os::unix::fs::PermissionsExt::from_mode(0o755))
            .unwrap();
    }
    let out = Command::new(bin)
        .args([
            "installer",
            "apply",
            "--no-denylist",
            "--no-tmux",
            "--no-shell",
        ])
        .env_clear()
        .envs(agterm_backup_testkit::hermetic::places())
        .env("HOME", &home)
        .env("PATH", format!("{}:/usr/bin:/bin", stubs.display()))
        .output()
        .unwrap();
    assert!(out.status.success(), "installer apply: {out:?}");
    let bin = std::fs::canonicalize(bin).unwrap().display().to_string();
    let mut lines = Vec::new();
    for file in files_under(&home) {
        let text = std::fs::read_to_string(&file).unwrap();
        let strings = match file.extension().and_then(|e| e.to_str()) {
            Some("json") => json_strings(&serde_json::from_str(&text).unwrap()),
            Some("toml") => toml_strings(text.parse::<toml_edit::DocumentMut>().unwrap().as_item()),
            Some("js") => {
                lines.push(Line::Argv {
                    argv: plugin_argv(&text),
                    file: file.clone(),
                });
                continue;
            }
            _ => continue,
        };
        lines.extend(
            strings
                .into_iter()
                .filter(|s| s.contains(&bin))
                .map(|line| Line::Shell {
                    file: file.clone(),
                    line,
                }),
        );
    }
    lines
}

fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(files_under(&path));
        } else if !path.to_string_lossy().ends_with(".bak") {
            out.push(path);
        }
    }
    out
}

fn json_strings(v: &serde_json::Value) -> Vec<String> {
    match v {
        serde_json::Value::String(s) => vec![s.clone()],
        serde_json::Value::Array(a) => a.iter().flat_map(json_strings).collect(),
        serde_json::Value::Object(o) => o.values().flat_map(json_strings).collect(),
        _ => vec![],
    }
}

fn toml_strings(item: &toml_edit::Item) -> Vec<String> {
    fn value(v: &toml_edit::Value) -> Vec<String> {
        match v {
            toml_edit::Value::String(s) => vec![s.value().clone()],
            toml_edit::Value::Array(a) => a.iter().flat_map(value).collect(),
            toml_edit::Value::InlineTable(t) => t.iter().flat_map(|(_, v)| value(v)).collect(),
            _ => vec![],
        }
    }
    match item {
        toml_edit::Item::Value(v) => value(v),
        toml_edit::Item::Table(t) => t.iter().flat_map(|(_, i)| toml_strings(i)).collect(),
        toml_edit::Item::ArrayOfTables(a) => a
            .iter()
            .flat_map(|t| {
                t.iter()
                    .flat_map(|(_, i)| toml_strings(i))
                    .collect::<Vec<_>>()
            })
            .collect(),
        toml_edit::Item::None => vec![],
    }
}

/// The argv the opencode plugin spawns: `const BINARY = "<path>";` and `spawn(BINARY, [<args>]`.
fn plugin_argv(js: &str) -> Vec<String> {
    let binary = js
        .lines()
        .find_map(|l| l.trim().strip_prefix("const BINARY = "))
        .and_then(|v| serde_json::from_str::<String>(v.trim_end_matches(';')).ok())
        .expect("the plugin names its binary");
    let args = js
        .split("spawn(BINARY, ")
        .nth(1)
        .expect("the plugin spawns the binary");
    let args: Vec<String> = serde_json::from_str(&args[..=args.find(']').unwrap()]).unwrap();
    std::iter::once(binary).chain(args).collect()
}

fn the_agent_of(argv: &[String]) -> &str {
    let at = argv.iter().position(|w| w == "hook").expect("a hook line");
    &argv[at + 1]
}

#[test]
fn every_line_the_installer_writes_runs_the_hook_silently() {
    let world = World::new();
    let lines = installer_lines(&world);
    let mut agents: Vec<String> = lines
        .iter()
        .map(|l| the_agent_of(&l.argv()).to_string())
        .collect();
    agents.sort();
    agents.dedup();
    let mut all = agterm_backup_installer::ALL_AGENTS
        .map(String::from)
        .to_vec();
    all.sort();
    assert_eq!(agents, all, "a line for every agent: {lines:#?}");
    let payload = claude_payload("PreToolUse", ID_A, "/w/p", "/w/p");
    for line in &lines {
        let argv = match line {
            Line::Shell { line, .. } => vec!["/bin/sh".into(), "-c".into(), line.clone()],
            Line::Argv { argv, .. } => argv.clone(),
        };
        let out = world
            .start(&argv, world.path(), &Stdin::Bytes(&payload))
            .wait();
        assert!(
            out.code == 0 && out.stdout.is_empty() && out.stderr.is_empty(),
            "{}: {line:?}: {out:?}",
            line.file().display()
        );
    }
    let log = log_text(&world);
    assert!(!log.contains("unknown agent"), "{log}");
    assert!(world.record().is_some(), "the claude line recorded: {log}");
}

/// A word a newer or older release might put around `hook`.
fn any_word() -> impl Strategy<Value = OsString> {
    prop_oneof![
        "-[a-zA-Z]".prop_map(OsString::from),
        "--[a-z][a-z-]{0,10}(=[a-zA-Z0-9]{0,4})?".prop_map(OsString::from),
        Just(OsString::from("--help")),
        Just(OsString::from("-h")),
        Just(OsString::from("--version")),
        Just(OsString::from("--")),
        Just(OsString::new()),
        "[A-Za-z0-9./]{1,10}".prop_map(OsString::from),
        prop::collection::vec(any::<u8>().prop_filter("no NUL", |b| *b != 0), 0..8)
            .prop_map(OsString::from_vec),
        prop::sample::select(agterm_backup_installer::ALL_AGENTS.to_vec()).prop_map(OsString::from),
    ]
}

/// Before `hook` go flags and values, never another subcommand's name (that would be that command).
fn word_before_hook() -> impl Strategy<Value = OsString> {
    any_word().prop_filter("not a subcommand", |w| {
        !w.to_str()
            .is_some_and(agterm_backup::hook_call::is_subcommand)
    })
}

fn any_stdin() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        Just(claude_payload("UserPromptSubmit", ID_A, "/w/p", "/w/p")),
        Just(Vec::new()),
        prop::collection::vec(any::<u8>(), 0..64),
        "\\{\"[a-z_]{1,12}\":[\"0-9a-z{}\\[\\],:]{0,20}\\}".prop_map(String::into_bytes),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn a_mutated_hook_line_still_exits_0_and_prints_nothing(
        which in any::<prop::sample::Index>(),
        before in prop::collection::vec(word_before_hook(), 0..3),
        after in prop::collection::vec(any_word(), 0..4),
        keep_agent in any::<bool>(),
        agent_at in any::<prop::sample::Index>(),
        stdin in any_stdin(),
    ) {
        let world = World::new();
        let lines = installer_lines_once();
        let base = lines[which.index(lines.len())].clone();
        let (bin, agent) = (OsString::from(&base[0]), OsString::from(the_agent_of(&base)));
        let mut tail = after;
        if keep_agent {
            tail.insert(agent_at.index(tail.len() + 1), agent);
        }
        let argv: Vec<OsString> = std::iter::once(bin)
            .chain(before)
            .chain(std::iter::once(OsString::from("hook")))
            .chain(tail)
            .collect();
        let out = world.start(&argv, world.path(), &Stdin::Bytes(&stdin)).wait();
        prop_assert!(
            out.code == 0 && out.stdout.is_empty() && out.stderr.is_empty(),
            "{argv:?}: {out:?}"
        );
    }
}

/// The installer's lines as argvs, read once for the whole property run.
fn installer_lines_once() -> &'static [Vec<String>] {
    static LINES: std::sync::OnceLock<Vec<Vec<String>>> = std::sync::OnceLock::new();
    LINES.get_or_init(|| {
        installer_lines(&World::new())
            .iter()
            .map(Line::argv)
            .collect()
    })
}
