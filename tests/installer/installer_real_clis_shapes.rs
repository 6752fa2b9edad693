//! Every shape the installer writes, read by the real agent CLIs (skipped with a SKIPPED line when they
//! are not installed): Claude Code loads each of them and runs our hook once per event; Codex lists our
//! hook once per event, rejects a `hooks.json` with a BOM as we do, and `--trust` passes on its reason.

use crate::installer_common::*;
use agterm_backup_installer::trust::list_hooks;
use agterm_backup_testkit::paths::agent_cli;
use agterm_backup_testkit::stub_model::StubModel;
use serde_json::Value;
use std::path::Path;
use std::time::Duration;

/// Installs from a copy of the binary (the hooks name it), then swaps the copy for a wrapper that logs the
/// event of each call (from the payload on stdin) and runs the real hook.
fn logging_copy(s: &Sandbox) -> (std::path::PathBuf, std::path::PathBuf) {
    let bin_dir = s.dir.path().join("bin");
    std::fs::create_dir_all(&bin_dir).unwrap();
    let copy = bin_dir.join("agterm-backup");
    std::fs::copy(binary(), &copy).unwrap();
    (copy, s.dir.path().join("hook-events.log"))
}

fn wrap_with_event_log(copy: &Path, log: &Path) {
    let real = copy.with_file_name("agterm-backup.real");
    std::fs::rename(copy, &real).unwrap();
    std::fs::write(
        copy,
        format!(
            "#!/bin/sh\npayload=$(cat)\nprintf '%s\\n' \"$payload\" | grep -o '\"hook_event_name\": *\"[A-Za-z]*\"' | sed 's/.*\"\\([A-Za-z]*\\)\"$/\\1/' >> '{}'\nprintf '%s' \"$payload\" | exec '{}' \"$@\"\n",
            log.display(),
            real.display()
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(copy, std::fs::Permissions::from_mode(0o755)).unwrap();
}

fn run_copy(s: &Sandbox, copy: &Path, args: &[&str]) -> std::process::Output {
    let mut cmd = std::process::Command::new(copy);
    cmd.env_clear()
        .envs(agterm_backup_testkit::hermetic::places())
        .envs(
            s.command("/usr/bin:/bin")
                .get_envs()
                .filter_map(|(k, v)| Some((k.to_owned(), v?.to_owned()))),
        )
        .args(args);
    // The copy and its wrapper were just written (see `output_past_busy_text`).
    agterm_backup_testkit::fds::output_past_busy_text(&mut cmd).unwrap()
}

#[test]
fn real_claude_loads_every_shape_we_write_and_runs_our_hook_once_per_event() {
    let Some(claude) = agent_cli("claude") else {
        return;
    };
    let stub = StubModel::start().expect("stub model starts");
    // One file per class: a BOM, deep nesting, stale and hand-written entries of ours, empty containers of
    // the user's with trailing spaces and no final newline.
    for name in [
        "bom-settings.json",
        "deep-nesting.json",
        "two-stale-ours-and-bare.json",
        "empty-hooks-and-stop-kept.json",
        "full-real-world.json",
        "minified-one-line.json",
        "statusline-plugins-empty-events.json",
        "nesting-deeper-than-the-tree.json",
    ] {
        let s = Sandbox::new();
        let (copy, log) = logging_copy(&s);
        std::fs::create_dir_all(s.claude_dir()).unwrap();
        std::fs::copy(corpus_dir().join("claude").join(name), s.claude_settings()).unwrap();
        let out = run_copy(
            &s,
            &copy,
            &["installer", "apply", "--agents", "claude", "--no-denylist"],
        );
        assert!(out.status.success(), "{name}: {}", text(&out.stderr));
        wrap_with_event_log(&copy, &log);
        let out = claude_print(&claude, &s, &stub.base_url());
        assert!(
            out.status.success(),
            "{name}: claude -p failed: {}{}",
            text(&out.stdout),
            text(&out.stderr)
        );
        let events = std::fs::read_to_string(&log).unwrap_or_default();
        // A one-turn print run fires SessionStart, UserPromptSubmit and Stop (no tool: no PreToolUse);
        // whatever fires, our hook runs once for it.
        for event in ["SessionStart", "UserPromptSubmit", "Stop"] {
            assert!(
                events.lines().any(|l| l == event),
                "{name}: no {event}: {events:?}"
            );
        }
        for event in agterm_backup_installer::OUR_EVENTS {
            let n = events.lines().filter(|l| *l == event).count();
            assert!(
                n <= 1,
                "{name}: our hook ran {n} times on {event}: {events:?}"
            );
        }
    }
}

#[test]
fn status_says_duplicate_exactly_when_claude_runs_our_hook_twice() {
    let Some(claude) = agent_cli("claude") else {
        return;
    };
    let stub = StubModel::start().expect("stub model starts");
    // The same command twice: Claude Code runs identical commands once. The same binary under a second
    // path: two commands, run twice.
    // (The one command names a copy, not the binary running `status`: "outdated" when it runs once.)
    for (second_path, runs, state) in [(false, 1, "outdated"), (true, 2, "duplicate")] {
        let s = Sandbox::new();
        let (copy, log) = logging_copy(&s);
        wrap_with_event_log(&copy, &log);
        let other = s.dir.path().join("bin2");
        std::fs::create_dir_all(&other).unwrap();
        std::os::unix::fs::symlink(&copy, other.join("agterm-backup")).unwrap();
        let first = format!("'{}' hook claude", copy.display());
        let second = if second_path {
            format!("'{}' hook claude", other.join("agterm-backup").display())
        } else {
            first.clone()
        };
        let group = |c: &str| serde_json::json!({"hooks": [{"type": "command", "command": c}]});
        let settings = serde_json::json!({"hooks": {"Stop": [group(&first), group(&second)]}});
        std::fs::create_dir_all(s.claude_dir()).unwrap();
        std::fs::write(s.claude_settings(), settings.to_string()).unwrap();
        let out = claude_print(&claude, &s, &stub.base_url());
        assert!(out.status.success(), "{}", text(&out.stderr));
        let events = std::fs::read_to_string(&log).unwrap_or_default();
        let n = events.lines().filter(|l| *l == "Stop").count();
        assert_eq!(n, runs, "second path {second_path}: {events:?}");
        let report: Value =
            serde_json::from_slice(&s.run(&["installer", "status", "--json"]).stdout).unwrap();
        let stop = report["targets"][0]["hooks"]
            .as_array()
            .unwrap()
            .iter()
            .find(|h| h["event"] == "Stop")
            .unwrap()
            .clone();
        assert_eq!(stop["state"], state, "{report:#}");
    }
}

fn codex_env(s: &Sandbox) -> Vec<(String, String)> {
    vec![
        (
            "CODEX_HOME".to_string(),
            s.codex_home().display().to_string(),
        ),
        ("HOME".to_string(), s.home().display().to_string()),
    ]
}

#[test]
fn real_codex_loads_every_shape_we_write_with_our_hook_once_per_event() {
    let Some(codex) = agent_cli("codex") else {
        return;
    };
    for name in [
        "ours-by-hand.toml",
        "user-group-inside-block.toml",
        "lone-start-marker.toml",
        "profiles-no-final-newline.toml",
        "trust-of-other-sources.toml",
        "full-real-world.toml",
    ] {
        let s = Sandbox::new();
        std::fs::create_dir_all(s.codex_home()).unwrap();
        std::fs::copy(corpus_dir().join("codex-toml").join(name), s.codex_config()).unwrap();
        let out = s.run(&["installer", "apply", "--agents", "codex", "--no-denylist"]);
        assert!(out.status.success(), "{name}: {}", text(&out.stderr));
        let listed = list_hooks(
            &codex,
            s.dir.path(),
            &codex_env(&s),
            Duration::from_secs(60),
        )
        .expect("codex app-server answers");
        let errors = agterm_backup_installer::trust::codex_errors(&listed);
        assert!(errors.is_empty(), "{name}: {errors:?}");
        let ours = our_listed_hooks(&listed);
        for event in agterm_backup_installer::OUR_EVENTS {
            let label = agterm_backup_installer::codex_event_label(event);
            let n = ours
                .iter()
                .filter(|h| {
                    h["key"]
                        .as_str()
                        .is_some_and(|k| k.contains(&format!(":{label}:")))
                })
                .count();
            assert_eq!(n, 1, "{name}: {event} listed {n} times: {listed:#}");
        }
    }
}

#[test]
fn real_codex_ignores_the_hooks_json_files_we_refuse() {
    let Some(codex) = agent_cli("codex") else {
        return;
    };
    // A BOM, a top-level key Codex does not know, nesting deeper than Codex reads: it loads no hook from
    // any, so we refuse them all.
    for name in [
        "refused-bom-hooks.json",
        "refused-unknown-top-level-key.json",
        "refused-nesting-deeper-than-codex-reads.json",
    ] {
        let s = Sandbox::new();
        std::fs::create_dir_all(s.codex_home()).unwrap();
        let bytes = std::fs::read(corpus_dir().join("codex-hooks-json").join(name)).unwrap();
        std::fs::write(s.codex_hooks_json(), &bytes).unwrap();
        let listed = list_hooks(
            &codex,
            s.dir.path(),
            &codex_env(&s),
            Duration::from_secs(60),
        )
        .unwrap();
        let hooks: Vec<Value> = listed["data"]
            .as_array()
            .into_iter()
            .flatten()
            .flat_map(|e| e["hooks"].as_array().cloned().unwrap_or_default())
            .collect();
        assert!(hooks.is_empty(), "{name}: Codex loaded it: {listed:#}");
        let out = s.run(&["installer", "apply", "--agents", "codex", "--no-denylist"]);
        assert_eq!(out.status.code(), Some(2), "{name}: {}", text(&out.stderr));
        assert_eq!(std::fs::read(s.codex_hooks_json()).unwrap(), bytes);
    }
}

#[test]
fn trust_passes_on_codexs_own_reason_when_it_cannot_load_its_config() {
    let Some(codex) = agent_cli("codex") else {
        return;
    };
    let s = Sandbox::new();
    std::fs::create_dir_all(s.codex_home()).unwrap();
    // A profile Codex will not load (this Codex no longer reads a top-level `profile`).
    std::fs::write(
        s.codex_config(),
        "profile = \"work\"\n\n[profiles.work]\nmodel_provider = \"corp\"\n",
    )
    .unwrap();
    let out = apply_codex_trust(&s, &codex);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    let err = text(&out.stderr);
    assert!(err.contains("Codex cannot load its configuration"), "{err}");
    assert!(!err.contains("hooks turned off"), "{err}");
}

#[test]
fn codex_runs_identical_handlers_twice_so_status_counts_each() {
    let Some(codex) = agent_cli("codex") else {
        return;
    };
    use agterm_backup_testkit::agents::{payload_logger_command, read_payloads, AgentHome};
    let stub = StubModel::start().expect("stub model starts");
    let dir = agterm_backup_testkit::scratch::tempdir();
    let work = dir.path().join("work");
    std::fs::create_dir_all(&work).unwrap();
    let home = AgentHome::new(dir.path(), &[]);
    let log = dir.path().join("payloads");
    let logger = payload_logger_command(&log);
    home.write_codex_config(&stub, &[logger.clone(), logger]);
    let out = std::process::Command::new(&codex)
        .env_clear()
        .envs(agterm_backup_testkit::hermetic::places())
        .envs(home.env(&stub))
        .current_dir(&work)
        .args([
            "exec",
            "--skip-git-repo-check",
            "--dangerously-bypass-hook-trust",
            "-m",
            "mock-model",
            "hi",
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let payloads = read_payloads(&log);
    for event in ["SessionStart", "UserPromptSubmit", "Stop"] {
        let n = payloads
            .iter()
            .filter(|p| p["hook_event_name"] == event)
            .count();
        assert_eq!(n, 2, "Codex ran the identical handler {n} times on {event}");
    }
    // Unlike Claude Code, then: the same command of ours twice is a duplicate for Codex.
    let ours = "'/b/agterm-backup' hook codex";
    let twice = format!(
        "[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ncommand = \"{ours}\"\n[[hooks.Stop.hooks]]\ncommand = \"{ours}\"\n"
    );
    let stop = agterm_backup_installer::codex_toml::inspect(Some(&twice), ours)
        .unwrap()
        .into_iter()
        .find(|s| s.event == "Stop")
        .unwrap();
    assert_eq!(stop.runs, 2);
}
