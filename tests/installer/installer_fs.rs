//! The installer's file handling through the real binary: absent files, symlinks, read-only files, edits
//! made by the user after `apply`, `hooks.json` users, warnings and usage errors.

use crate::installer_common::*;
use std::os::unix::fs::{symlink, PermissionsExt};

fn apply_all(s: &Sandbox) -> std::process::Output {
    s.run(&["installer", "apply"])
}

#[test]
fn fresh_machine_gets_every_file_and_remove_takes_them_away() {
    let s = Sandbox::new();
    let out = apply_all(&s);
    assert!(out.status.success(), "{}", text(&out.stderr));
    for path in [
        s.claude_settings(),
        s.codex_config(),
        s.denylist(),
        s.tmux_conf(),
    ] {
        assert!(path.exists(), "{} not created", path.display());
    }
    assert_eq!(mode(&s.claude_settings()), Some(0o600));
    assert_eq!(
        mode(&s.backup_home()),
        Some(0o700),
        "apply creates the state dir"
    );
    let denylist = std::fs::read_to_string(s.denylist()).unwrap();
    assert!(
        denylist.starts_with(agterm_backup_denylist::STARTER),
        "agterm's starter text is kept"
    );
    assert_eq!(
        agterm_backup_denylist::parse(&denylist),
        vec!["tmux", "screen", "zellij", "claude", "codex", "kimi-code"]
    );
    let files = [
        s.claude_settings(),
        s.codex_config(),
        s.denylist(),
        s.tmux_conf(),
    ];
    let mtimes = || files.iter().map(|p| mtime(p)).collect::<Vec<_>>();
    let stamps = mtimes();

    let again = apply_all(&s);
    assert_eq!(
        text(&again.stdout).matches(": unchanged").count(),
        4,
        "{}",
        text(&again.stdout)
    );
    let stamps2 = mtimes();
    assert_eq!(stamps, stamps2, "a no-op apply must not touch mtimes");

    let out = s.run(&["installer", "remove"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    for path in [
        s.claude_settings(),
        s.codex_config(),
        s.denylist(),
        s.tmux_conf(),
    ] {
        assert!(!path.exists(), "{} left behind", path.display());
    }
    let status: serde_json::Value =
        serde_json::from_slice(&s.run(&["installer", "status", "--json"]).stdout).unwrap();
    assert!(
        status["targets"]
            .as_array()
            .unwrap()
            .iter()
            .all(|t| t["state"] == "absent"),
        "{status:#}"
    );
}

#[test]
fn symlinked_settings_are_edited_through_the_link() {
    let s = Sandbox::new();
    let dots = s.dir.path().join("dotfiles/claude");
    std::fs::create_dir_all(&dots).unwrap();
    std::fs::create_dir_all(s.claude_dir()).unwrap();
    let original = std::fs::read(corpus_dir().join("claude/foreign-hooks.json")).unwrap();
    std::fs::write(dots.join("settings.json"), &original).unwrap();
    std::fs::set_permissions(
        dots.join("settings.json"),
        std::fs::Permissions::from_mode(0o640),
    )
    .unwrap();
    symlink("../dotfiles/claude/settings.json", s.claude_settings()).unwrap();

    let out = s.run(&["installer", "apply", "--agents", "claude", "--no-denylist"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let link = std::fs::symlink_metadata(s.claude_settings()).unwrap();
    assert!(link.file_type().is_symlink(), "the link stays a link");
    let edited = std::fs::read_to_string(dots.join("settings.json")).unwrap();
    assert!(edited.contains("hook claude"));
    assert_eq!(mode(&dots.join("settings.json")), Some(0o640));
    let bak = agterm_backup_installer::fsio::backup_path(&s.claude_settings());
    assert_eq!(std::fs::read(bak).unwrap(), original);
    assert_eq!(
        std::fs::read_dir(&dots).unwrap().count(),
        1,
        "no temp or backup in the dotfiles repo"
    );

    let out = s.run(&["installer", "remove"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(std::fs::symlink_metadata(s.claude_settings())
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(std::fs::read(dots.join("settings.json")).unwrap(), original);
}

/// `remove` on a frozen file says what to do for a removal (not "add the hook by hand"), and leaves it.
#[test]
fn a_read_only_file_on_remove_is_reported_with_what_to_take_out() {
    let s = Sandbox::new();
    std::fs::create_dir_all(s.claude_dir()).unwrap();
    std::fs::write(s.claude_settings(), "{\"model\": \"opus\"}\n").unwrap();
    let out = s.run(&["installer", "apply", "--agents", "claude", "--no-denylist"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let applied = std::fs::read(s.claude_settings()).unwrap();
    std::fs::set_permissions(s.claude_settings(), std::fs::Permissions::from_mode(0o444)).unwrap();
    let out = s.run(&["installer", "remove", "--agents", "claude"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
    let err = text(&out.stderr);
    assert!(
        err.contains("read-only") && err.contains("settings.json"),
        "{err}"
    );
    assert!(!err.contains("add the hook"), "{err}");
    assert!(err.contains("installer status"), "{err}");
    assert_eq!(std::fs::read(s.claude_settings()).unwrap(), applied);
}

#[test]
fn a_read_only_file_is_reported_and_every_other_target_is_still_done() {
    let s = Sandbox::new();
    std::fs::create_dir_all(s.claude_dir()).unwrap();
    std::fs::write(s.claude_settings(), "{\"model\": \"opus\"}\n").unwrap();
    std::fs::set_permissions(s.claude_settings(), std::fs::Permissions::from_mode(0o444)).unwrap();
    let before = mtime(&s.claude_settings());
    let out = apply_all(&s);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
    let err = text(&out.stderr);
    let problems: Vec<&str> = err.lines().filter(|l| !l.contains("warning:")).collect();
    assert_eq!(problems.len(), 1, "{err}");
    assert!(
        problems[0].contains("read-only") && problems[0].contains("settings.json"),
        "{err}"
    );
    assert_eq!(
        std::fs::read_to_string(s.claude_settings()).unwrap(),
        "{\"model\": \"opus\"}\n"
    );
    assert_eq!(mtime(&s.claude_settings()), before);
    assert!(
        s.codex_config().exists() && s.denylist().exists(),
        "the targets that can be done are done"
    );
}

#[test]
fn a_broken_codex_file_does_not_block_claude_and_every_broken_file_is_named() {
    let s = Sandbox::new();
    assert!(apply_all(&s).status.success());
    std::fs::write(s.codex_config(), "model = \"o3\n").unwrap();
    std::fs::write(s.denylist(), "").unwrap();
    // Both agents' files broken: both named, exit 2 (refused), nothing of theirs touched.
    std::fs::write(s.claude_settings(), "{\"hooks\": {},}").unwrap();
    let out = s.run(&["installer", "remove"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    let err = text(&out.stderr);
    assert!(
        err.contains("settings.json:1:") && err.contains("config.toml:1:"),
        "{err}"
    );
    // Claude fixed: its hooks go, though Codex's file is still broken.
    assert!(apply_all(&s).status.code() == Some(2));
    std::fs::write(s.claude_settings(), "{}").unwrap();
    assert!(s
        .run(&["installer", "apply", "--agents", "claude", "--no-denylist"])
        .status
        .success());
    let out = s.run(&["installer", "remove"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(!std::fs::read_to_string(s.claude_settings())
        .unwrap()
        .contains("hook claude"));
    let out = s.run(&["installer", "remove", "--agents", "claude"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
}

#[test]
fn trust_without_codex_fails_and_says_so() {
    let s = Sandbox::new();
    let out = s.run(&[
        "installer",
        "apply",
        "--agents",
        "codex",
        "--no-denylist",
        "--trust",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("not on PATH"),
        "{}",
        text(&out.stderr)
    );
    assert!(s.codex_config().exists(), "the hooks are still written");
}

#[test]
fn remove_says_what_it_leaves_behind_and_deletes_what_it_alone_made() {
    let s = Sandbox::new();
    std::fs::create_dir_all(s.claude_dir()).unwrap();
    std::fs::write(s.claude_settings(), "{\"model\": \"opus\"}\n").unwrap();
    let out = apply_all(&s);
    assert!(
        text(&out.stderr).contains("cargo clean"),
        "hooks naming target/debug are warned about: {}",
        text(&out.stderr)
    );
    let out = s.run(&["installer", "remove"]);
    assert!(out.status.success());
    let said = text(&out.stdout);
    let bak = agterm_backup_installer::fsio::backup_path(&s.claude_settings());
    assert!(
        said.contains(&format!("kept      {}", bak.display())),
        "{said}"
    );
    // Files apply created are deleted with their backups; their folders, now empty, are named.
    assert!(!agterm_backup_installer::fsio::backup_path(&s.codex_config()).exists());
    assert!(
        said.contains(&format!(
            "kept      {}: now empty",
            s.codex_home().display()
        )),
        "{said}"
    );
}

#[test]
fn status_sees_the_plugin_route_and_sends_unreadable_files_to_be_fixed() {
    let s = Sandbox::new();
    std::fs::create_dir_all(s.claude_dir().join("plugins")).unwrap();
    std::fs::write(
        s.claude_settings(),
        "{\"enabledPlugins\": {\"agterm-backup@agterm-backup\": true}}\n",
    )
    .unwrap();
    std::fs::write(
        s.claude_dir().join("plugins/installed_plugins.json"),
        "{\"version\": 2, \"plugins\": {\"agterm-backup@agterm-backup\": [{\"scope\": \"user\"}]}}",
    )
    .unwrap();
    std::fs::create_dir_all(s.codex_home()).unwrap();
    std::fs::write(s.codex_config(), "model = \"o3\n").unwrap();
    let out = s.run(&["status", "--json"]);
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let warnings: Vec<String> = report["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w.as_str().unwrap().to_string())
        .collect();
    assert!(
        !warnings.iter().any(|w| w.contains("claude hook")),
        "the plugin runs the Claude hook: {warnings:?}"
    );
    let codex = warnings
        .iter()
        .find(|w| w.contains("codex hook"))
        .expect("codex warned");
    assert!(codex.contains("fix it"), "{codex}");
}

#[test]
fn remove_after_user_edits_takes_out_only_ours() {
    let s = Sandbox::new();
    std::fs::create_dir_all(s.claude_dir()).unwrap();
    std::fs::write(s.claude_settings(), "{\n  \"model\": \"opus\"\n}\n").unwrap();
    std::fs::create_dir_all(s.codex_home()).unwrap();
    std::fs::write(s.codex_config(), "model = \"o3\"\n").unwrap();
    assert!(apply_all(&s).status.success());
    // The user (or another tool) changes the files afterwards.
    let settings = std::fs::read_to_string(s.claude_settings())
        .unwrap()
        .replace("\"opus\"", "\"sonnet\"");
    std::fs::write(s.claude_settings(), &settings).unwrap();
    let mut config = std::fs::read_to_string(s.codex_config()).unwrap();
    config.push_str("\n[tui]\nnotifications = true\n");
    std::fs::write(s.codex_config(), &config).unwrap();

    let out = s.run(&["installer", "remove"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        std::fs::read_to_string(s.claude_settings()).unwrap(),
        "{\n  \"model\": \"sonnet\"\n}\n"
    );
    assert_eq!(
        std::fs::read_to_string(s.codex_config()).unwrap(),
        "model = \"o3\"\n\n[tui]\nnotifications = true\n"
    );
}

#[test]
fn dry_run_prints_a_unified_diff_and_writes_nothing() {
    let s = Sandbox::new();
    let out = s.run(&["installer", "apply", "--dry-run"]);
    assert!(out.status.success());
    let diff = text(&out.stdout);
    assert!(
        diff.contains("--- /dev/null") && diff.contains("+++ b") && diff.contains("@@"),
        "{diff}"
    );
    assert!(
        diff.contains("+claude\n") && diff.contains("hook codex"),
        "{diff}"
    );
    assert!(!s.claude_settings().exists() && !s.codex_config().exists() && !s.denylist().exists());
    assert!(
        !s.backup_home().exists(),
        "a dry run creates nothing, not even the state dir"
    );
}

#[test]
fn hooks_json_users_get_hooks_json_and_a_features_warning() {
    let s = Sandbox::new();
    std::fs::create_dir_all(s.codex_home()).unwrap();
    std::fs::write(s.codex_hooks_json(), "{\"hooks\": {}}\n").unwrap();
    std::fs::write(s.codex_config(), "[features]\nhooks = false\n").unwrap();
    let out = s.run(&["installer", "apply", "--agents", "codex", "--no-denylist"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("features.hooks = false"),
        "{}",
        text(&out.stderr)
    );
    assert!(std::fs::read_to_string(s.codex_hooks_json())
        .unwrap()
        .contains("hook codex"));
    assert_eq!(
        std::fs::read_to_string(s.codex_config()).unwrap(),
        "[features]\nhooks = false\n"
    );
}

#[test]
fn unknown_agent_is_bad_usage() {
    let s = Sandbox::new();
    let out = s.run(&["installer", "apply", "--agents", "claude,grok"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("grok"));
    assert!(!s.claude_settings().exists());
}

#[test]
fn stale_binary_path_shows_as_outdated_until_apply_refreshes_it() {
    let s = Sandbox::new();
    std::fs::create_dir_all(s.claude_dir()).unwrap();
    std::fs::copy(
        corpus_dir().join("claude/stale-ours.json"),
        s.claude_settings(),
    )
    .unwrap();
    let status: serde_json::Value =
        serde_json::from_slice(&s.run(&["installer", "status", "--json"]).stdout).unwrap();
    let claude = &status["targets"][0];
    assert_eq!(claude["state"], "partial", "{claude:#}");
    assert_eq!(claude["hooks"][0]["state"], "outdated");
    assert_eq!(
        claude["hooks"][0]["binary"],
        "/usr/local/Cellar/agterm-backup/0.0.9/bin/agterm-backup"
    );
    assert!(s
        .run(&["installer", "apply", "--agents", "claude"])
        .status
        .success());
    let text_now = std::fs::read_to_string(s.claude_settings()).unwrap();
    assert!(!text_now.contains("0.0.9"), "refreshed in place");
    assert_eq!(
        text_now.matches("hook claude").count(),
        agterm_backup_installer::OUR_EVENTS.len(),
        "one per event, never a second"
    );
}
