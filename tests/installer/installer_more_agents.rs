//! The installer's Gemini CLI, Qwen Code and Copilot CLI targets against real-world-shaped files
//! (`tests/corpus/installer-more/<agent>/`), through the real binary: `apply` keeps every byte of the
//! original (it is a subsequence of the result), a second `apply` changes nothing (not even the mtime),
//! `remove` gives the original bytes back (a stale entry of ours: nothing of ours is left), a refused
//! file (`refused-*`) exits 2 with a `file:line:col:` line and stays untouched. The agent's own parser is
//! the judge where it can be run alone (`gemini -l`, `qwen -l` load their settings and exit): it must read
//! what the installer wrote. opencode's plugin file is created, kept and deleted, never someone else's.

use crate::installer_common::*;
use agterm_backup_installer::agent_hooks::{has_ours, hook_file};
use agterm_backup_testkit::paths::agent_cli_dir;
use std::path::{Path, PathBuf};
use std::process::Command;

fn corpus(agent: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/corpus/installer-more")
        .join(agent);
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    files
}

/// Where `agent`'s file lives in the sandbox.
fn target(s: &Sandbox, agent: &str) -> PathBuf {
    let row = hook_file(agent).expect("a row");
    row.path(|_| None, &s.home())
}

fn is_subsequence(small: &[u8], big: &[u8]) -> bool {
    let mut it = big.iter();
    small.iter().all(|c| it.any(|b| b == c))
}

/// The agent reads `applied` as its settings file without complaint (when the real CLI is installed), in
/// a home of its own: Qwen migrates the file it reads (it adds `"$version"`).
fn judged_by_the_agent(agent: &str, applied: &[u8], name: &str) {
    let Some(cli) = agent_cli_dir()
        .map(|d| d.join(agent))
        .filter(|c| c.exists())
    else {
        return;
    };
    if agent == "copilot" {
        return; // Copilot has no command that only loads its hook files; the e2e suite runs them.
    }
    let s = Sandbox::new();
    let path = target(&s, agent);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, applied).unwrap();
    let out = Command::new(cli)
        .arg("-l")
        .env_clear()
        .envs(agterm_backup_testkit::hermetic::places())
        .env("HOME", s.home())
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("GEMINI_API_KEY", "judge")
        .env("OPENAI_API_KEY", "judge")
        .output()
        .expect("the agent runs");
    let all = format!("{}{}", text(&out.stdout), text(&out.stderr));
    for complaint in [
        "Error in",
        "Please fix the configuration",
        "SyntaxError",
        "Cannot read",
    ] {
        assert!(!all.contains(complaint), "{agent} rejects {name}:\n{all}");
    }
}

fn check(agent: &str, file: &Path) {
    let s = Sandbox::new();
    let path = target(&s, agent);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let original = std::fs::read(file).unwrap();
    std::fs::write(&path, &original).unwrap();
    let name = file.file_name().unwrap().to_string_lossy().into_owned();
    let apply = [
        "installer",
        "apply",
        "--agents",
        agent,
        "--no-denylist",
        "--no-tmux",
    ];
    let out = s.run(&apply);
    if name.starts_with("refused-") {
        assert_eq!(out.status.code(), Some(2), "{name}: {}", text(&out.stdout));
        let err = text(&out.stderr);
        assert!(
            err.contains(&format!("{}:", path.display())) && err.lines().count() == 1,
            "{name}: {err}"
        );
        assert_eq!(std::fs::read(&path).unwrap(), original, "{name}: untouched");
        return;
    }
    assert!(
        out.status.success(),
        "{name}: {}{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    let applied = std::fs::read(&path).unwrap();
    let row = hook_file(agent).unwrap();
    assert!(
        has_ours(row, &String::from_utf8_lossy(&applied)),
        "{name}: wired"
    );
    let stale = name.starts_with("stale-");
    if !stale {
        assert!(
            is_subsequence(&original, &applied),
            "{name}: a byte was lost:\n{}",
            text(&applied)
        );
    }
    judged_by_the_agent(agent, &applied, &name);
    let before = mtime(&path);
    std::thread::sleep(std::time::Duration::from_millis(20));
    assert!(s.run(&apply).status.success());
    assert_eq!(
        std::fs::read(&path).unwrap(),
        applied,
        "{name}: second apply"
    );
    assert_eq!(mtime(&path), before, "{name}: second apply wrote");
    let out = s.run(&["installer", "remove"]);
    assert!(out.status.success(), "{name}: {}", text(&out.stderr));
    let removed = read_opt(&path).unwrap_or_default();
    if stale {
        assert!(
            !has_ours(row, &String::from_utf8_lossy(&removed)),
            "{name}: {}",
            text(&removed)
        );
    } else {
        assert_eq!(
            text(&removed),
            text(&original),
            "{name}: remove gives the original back"
        );
    }
}

#[test]
fn gemini_qwen_and_copilot_corpora_keep_their_bytes() {
    let mut n = 0;
    for agent in ["gemini", "qwen", "copilot", "agy"] {
        for file in corpus(agent) {
            check(agent, &file);
            n += 1;
        }
    }
    assert!(n >= 15, "corpus has {n} files");
}

#[test]
fn a_file_we_create_is_deleted_again_and_opencodes_plugin_is_ours_alone() {
    let s = Sandbox::new();
    for dir in [".gemini", ".qwen", ".copilot", ".config/opencode"] {
        std::fs::create_dir_all(s.home().join(dir)).unwrap();
    }
    let out = s.run(&[
        "installer",
        "apply",
        "--no-denylist",
        "--agents",
        "gemini,qwen,copilot,opencode",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let plugin = s.home().join(".config/opencode/plugins/agterm-backup.js");
    let js = std::fs::read_to_string(&plugin).unwrap();
    assert!(
        js.contains(&canonical_binary().display().to_string()),
        "{js}"
    );
    for agent in ["gemini", "qwen", "copilot"] {
        assert!(target(&s, agent).exists(), "{agent}");
    }
    let status = s.run(&["installer", "status", "--json"]);
    let report: serde_json::Value = serde_json::from_slice(&status.stdout).unwrap();
    for agent in ["gemini", "qwen", "copilot", "opencode"] {
        let t = report["targets"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["target"] == agent);
        assert_eq!(
            t.map(|t| t["state"].clone()),
            Some("present".into()),
            "{agent}: {report}"
        );
    }
    assert!(s.run(&["installer", "remove"]).status.success());
    for path in [
        target(&s, "gemini"),
        target(&s, "qwen"),
        target(&s, "copilot"),
        plugin.clone(),
    ] {
        assert!(!path.exists(), "{} is gone again", path.display());
    }
    // A plugin of that name that someone else wrote is refused and kept.
    std::fs::create_dir_all(plugin.parent().unwrap()).unwrap();
    std::fs::write(&plugin, "export const Theirs = async () => ({});\n").unwrap();
    let out = s.run(&[
        "installer",
        "apply",
        "--no-denylist",
        "--agents",
        "opencode",
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stdout));
    assert_eq!(
        std::fs::read_to_string(&plugin).unwrap(),
        "export const Theirs = async () => ({});\n"
    );
}

#[test]
fn agents_that_are_not_here_are_skipped_and_named() {
    let s = Sandbox::new();
    let out = s.run(&["installer", "apply", "--no-denylist"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let said = text(&out.stdout);
    for agent in ["gemini", "copilot", "qwen", "opencode"] {
        assert!(
            said.lines()
                .any(|l| l.starts_with(agent) && l.contains("skipped: not installed here")),
            "{agent}: {said}"
        );
    }
    assert!(!s.home().join(".gemini").exists() && !s.home().join(".config/opencode").exists());
}
