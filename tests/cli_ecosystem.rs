//! The CLI fits the ecosystem: completions and a man page generated from the one clap definition,
//! an example in every subcommand's `--help`, and a Claude Code plugin that the real CLI accepts.

use std::process::Command;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_agterm-backup"))
}

fn stdout_of(args: &[&str]) -> String {
    let out = bin().args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

const SUBCOMMANDS: &[&str] = &[
    "installer",
    "hook",
    "status",
    "restore",
    "answer",
    "snap",
    "timer",
    "completions",
    "man",
];

#[test]
fn completions_cover_every_subcommand_in_each_shell() {
    for shell in ["bash", "zsh", "fish"] {
        let script = stdout_of(&["completions", shell]);
        for sub in SUBCOMMANDS {
            assert!(script.contains(sub), "{shell} completion lacks {sub}");
        }
        assert!(
            script.contains("dry-run") && script.contains("as-of"),
            "{shell}"
        );
    }
}

#[test]
fn bash_completion_script_is_valid_bash() {
    let script = stdout_of(&["completions", "bash"]);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.bash");
    std::fs::write(&path, script).unwrap();
    let st = Command::new("bash").arg("-n").arg(&path).status().unwrap();
    assert!(st.success());
}

#[test]
fn man_page_is_roff_and_names_the_commands() {
    let page = stdout_of(&["man"]);
    assert!(
        page.starts_with(".ie") || page.contains(".TH agterm-backup"),
        "{}",
        &page[..200.min(page.len())]
    );
    for sub in ["installer", "restore", "status", "snap"] {
        assert!(page.contains(sub), "man page lacks {sub}");
    }
    if Command::new("man").arg("--version").output().is_ok() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("agterm-backup.1");
        std::fs::write(&path, &page).unwrap();
        let out = Command::new("man")
            .arg("-l")
            .arg(&path)
            .env("MANPAGER", "cat")
            .env("PAGER", "cat")
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "man -l failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(String::from_utf8_lossy(&out.stdout).contains("restore"));
    }
}

#[test]
fn every_subcommand_help_shows_an_example() {
    let leaves: &[&[&str]] = &[
        &["installer", "apply"],
        &["installer", "remove"],
        &["installer", "status"],
        &["hook"],
        &["status"],
        &["restore"],
        &["answer"],
        &["snap"],
        &["timer"],
        &["completions"],
        &["man"],
    ];
    for leaf in leaves {
        let mut args = leaf.to_vec();
        args.push("--help");
        let help = stdout_of(&args);
        assert!(
            help.contains("Example"),
            "`{}` --help has no example:\n{help}",
            leaf.join(" ")
        );
    }
}

#[test]
fn bad_usage_exits_2_with_one_clear_line() {
    let out = bin()
        .args(["restore", "--answer-choice", "x"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--answer-choice"));
}

#[test]
fn claude_code_plugin_and_marketplace_validate_with_the_real_cli() {
    let Some(claude) = agterm_backup_testkit::paths::agent_cli("claude") else {
        return;
    };
    let root = agterm_backup_testkit::paths::workspace_root();
    let home = tempfile::tempdir().unwrap();
    for target in [root.join("plugins/claude-code"), root.clone()] {
        let out = Command::new(&claude)
            .args(["plugin", "validate"])
            .arg(&target)
            .env("HOME", home.path())
            .env("DISABLE_AUTOUPDATER", "1")
            .env("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1")
            .output()
            .unwrap();
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            out.status.success() && text.contains("Validation passed"),
            "{}: {text}",
            target.display()
        );
    }
}

#[test]
fn plugin_hooks_call_the_installed_binary_for_the_four_events() {
    let root = agterm_backup_testkit::paths::workspace_root();
    let text = std::fs::read_to_string(root.join("plugins/claude-code/hooks/hooks.json")).unwrap();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let hooks = v["hooks"].as_object().unwrap();
    let mut events: Vec<&str> = hooks.keys().map(String::as_str).collect();
    events.sort();
    assert_eq!(
        events,
        ["PreToolUse", "SessionStart", "Stop", "UserPromptSubmit"]
    );
    for groups in hooks.values() {
        assert_eq!(
            groups[0]["hooks"][0]["command"],
            "agterm-backup hook claude"
        );
    }
}
