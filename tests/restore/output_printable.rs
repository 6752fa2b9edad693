//! Nothing raw reaches the user's terminal: directory names, agterm session names and paths holding
//! escape sequences (OSC title, CSI clear screen, BEL, C1 CSI, DEL) are shown escaped by `status`,
//! `restore` and `installer`, while `--json` keeps them exact.

use crate::restore_support::{text, uuid, Env};
use agterm_backup_core::pane::PaneRole;
use agterm_backup_core::terminal::RestoreMode;
use serde_json::json;
use std::process::Command;

/// A name built to attack the terminal: retitle it (OSC 0 … BEL), clear it (CSI 2J), a C1 CSI, a DEL.
const HOSTILE: &str = "api\u{1b}]0;pwned\u{7}\u{1b}[2J\u{9b}31m\u{7f}";

/// Bytes a terminal acts on: C0 (but newline; tab only moves the cursor), DEL, and C1 in UTF-8.
fn raw_controls(out: &[u8]) -> Vec<String> {
    let s = String::from_utf8_lossy(out);
    s.chars()
        .filter(|&c| c.is_control() && c != '\n' && c != '\t')
        .map(|c| format!("{c:?}"))
        .collect()
}

fn assert_printable(what: &str, out: &std::process::Output) {
    for (stream, bytes) in [("stdout", &out.stdout), ("stderr", &out.stderr)] {
        let found = raw_controls(bytes);
        assert!(
            found.is_empty(),
            "{what} {stream} holds raw {found:?}:\n{}",
            text(bytes)
        );
    }
}

#[test]
fn status_and_restore_escape_hostile_directory_and_session_names() {
    let env = Env::new("0.34", RestoreMode::None, None, false);
    let id = uuid();
    let (dir, t) = env.project(HOSTILE, &id);
    let r = env.fake.request(&json!({"cmd": "fake.add_session",
        "args": {"cwd": env.home.path().display().to_string(), "split": false, "name": HOSTILE}}));
    assert_eq!(r["ok"], json!(true), "{r}");
    let session = r["result"]["id"].as_str().unwrap().to_string();
    env.fake.wait_for_prompt(&session, PaneRole::Left);
    env.record(&session, PaneRole::Left, &id, &dir, &t, 30);

    let status = env.run(&["status"]);
    assert!(status.status.success(), "{}", text(&status.stderr));
    assert_printable("status", &status);
    let shown = text(&status.stdout);
    assert!(
        shown.contains(r"api\x1b]0;pwned\x07\x1b[2J\u{9b}31m\x7f"),
        "{shown}"
    );

    let restore = env.run(&["restore", "--dry-run"]);
    assert_printable("restore --dry-run", &restore);
    let shown = text(&restore.stdout);
    assert!(shown.contains(r"api\x1b]0;pwned"), "{shown}");

    // JSON is for programs: exact values, escaped by JSON itself.
    let (out, v) = env.restore_json(&["--dry-run"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(v["rows"][0]["agent_cwd"], dir.display().to_string());
    assert_eq!(v["rows"][0]["name"], HOSTILE);
}

#[test]
fn installer_messages_escape_hostile_paths() {
    let root = agterm_backup_testkit::scratch::tempdir();
    let home = root.path().join(HOSTILE);
    std::fs::create_dir_all(home.join(".claude")).unwrap();
    let installer = |args: &[&str]| {
        Command::new(agterm_backup_testkit::agterm_backup_bin!())
            .arg("installer")
            .args(args)
            .env_clear()
            .envs(agterm_backup_testkit::hermetic::places())
            .env("PATH", std::env::var("PATH").unwrap_or_default())
            .env("HOME", &home)
            .env("AGTERM_BACKUP_HOME", root.path().join("state"))
            // Managed policy files (`/etc/claude-code`, …) never from the machine.
            .env(
                "AGTERM_BACKUP_SYSTEM_ROOT",
                std::path::Path::new(&root.path().join("state")).join("system-root"),
            )
            .output()
            .unwrap()
    };
    let out = installer(&["apply", "--dry-run", "--agents", "claude", "--no-denylist"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_printable("installer apply --dry-run", &out);
    assert!(
        text(&out.stdout).contains(r"api\x1b]0;pwned"),
        "{}",
        text(&out.stdout)
    );

    assert_printable("installer status", &installer(&["status"]));
}

#[test]
fn installer_problems_escape_hostile_paths() {
    // A settings file we refuse (it does not parse) and one we cannot write, under a hostile HOME: every
    // problem names its file, on stderr, escaped.
    let root = agterm_backup_testkit::scratch::tempdir();
    let home = root.path().join(HOSTILE);
    std::fs::create_dir_all(home.join(".claude")).unwrap();
    std::fs::create_dir_all(home.join(".codex")).unwrap();
    std::fs::write(home.join(".claude/settings.json"), "{not json").unwrap();
    std::fs::write(home.join(".codex/hooks.json"), "{not json either").unwrap();
    let out = Command::new(agterm_backup_testkit::agterm_backup_bin!())
        .args(["installer", "apply", "--no-denylist"])
        .env_clear()
        .envs(agterm_backup_testkit::hermetic::places())
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("HOME", &home)
        .env("AGTERM_BACKUP_HOME", root.path().join("state"))
        // Managed policy files (`/etc/claude-code`, …) never from the machine.
        .env(
            "AGTERM_BACKUP_SYSTEM_ROOT",
            std::path::Path::new(&root.path().join("state")).join("system-root"),
        )
        .output()
        .unwrap();
    assert!(!out.status.success(), "{}", text(&out.stdout));
    assert!(
        text(&out.stderr).contains(r"api\x1b]0;pwned"),
        "{}",
        text(&out.stderr)
    );
    assert_printable("installer apply with refused files", &out);
}
