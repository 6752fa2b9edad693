//! The installer's edits, read by the real agent CLIs (skipped with a SKIPPED line when they are not
//! installed): Codex loads the edited `config.toml` and lists our four hooks (through its own app-server,
//! as `installer apply --trust` uses it), positioned after agterm's so agterm's trust keys still hold; and
//! Claude Code runs our hook command from the edited `settings.json`.

use crate::installer_common::*;
use agterm_backup_installer::trust::list_hooks;
use agterm_backup_testkit::paths::agent_cli;
use agterm_backup_testkit::stub_model::StubModel;
use serde_json::Value;
use std::time::Duration;

#[test]
fn real_codex_lists_our_hooks_after_agterms_and_trust_makes_them_trusted() {
    let Some(codex) = agent_cli("codex") else {
        return;
    };
    let s = Sandbox::new();
    std::fs::create_dir_all(s.codex_home()).unwrap();
    let agterm =
        std::fs::read(corpus_dir().join("codex-toml/agterm-block-with-trust.toml")).unwrap();
    std::fs::write(s.codex_config(), &agterm).unwrap();

    let out = s.run(&["installer", "apply", "--agents", "codex", "--no-denylist"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("Trust all and continue"),
        "{}",
        text(&out.stdout)
    );

    let codex_env = vec![
        (
            "CODEX_HOME".to_string(),
            s.codex_home().display().to_string(),
        ),
        ("HOME".to_string(), s.home().display().to_string()),
    ];
    let listed = list_hooks(&codex, s.dir.path(), &codex_env, Duration::from_secs(60))
        .expect("codex app-server answers");
    let ours = our_listed_hooks(&listed);
    let config = s.codex_config().display().to_string();
    let mut keys: Vec<String> = ours
        .iter()
        .map(|h| h["key"].as_str().unwrap().to_string())
        .collect();
    keys.sort();
    // agterm's block holds SessionStart, UserPromptSubmit, PreToolUse and Stop groups at index 0: ours
    // come after them there, at index 1, and first on any other event of ours.
    let agterms = ["SessionStart", "UserPromptSubmit", "PreToolUse", "Stop"];
    let mut want: Vec<String> = agterm_backup_installer::OUR_EVENTS
        .iter()
        .map(|e| {
            let label = agterm_backup_installer::codex_event_label(e);
            format!("{config}:{label}:{}:0", usize::from(agterms.contains(e)))
        })
        .collect();
    want.sort();
    assert_eq!(keys, want, "{listed:#}");
    assert!(
        ours.iter().all(|h| h["trustStatus"] == "untrusted"),
        "{listed:#}"
    );
    let errors: Vec<&Value> = listed["data"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|e| e["errors"].as_array().unwrap())
        .collect();
    assert!(
        errors.is_empty(),
        "codex reported config errors: {errors:?}"
    );

    // --trust: through the app-server, then Codex itself lists them trusted, and a re-apply keeps them so.
    let out = apply_codex_trust(&s, &codex);
    assert!(
        out.status.success(),
        "{}{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    let out = s
        .command(&codex_dir_path(&codex))
        .args(["installer", "apply", "--agents", "codex", "--no-denylist"])
        .output()
        .unwrap();
    assert!(
        text(&out.stdout).contains(": unchanged"),
        "{}",
        text(&out.stdout)
    );
    assert!(
        !text(&out.stdout).contains("Trust all"),
        "already trusted: {}",
        text(&out.stdout)
    );
    let listed = list_hooks(&codex, s.dir.path(), &codex_env, Duration::from_secs(60)).unwrap();
    let ours = our_listed_hooks(&listed);
    assert_eq!(ours.len(), agterm_backup_installer::OUR_EVENTS.len());
    assert!(
        ours.iter().all(|h| h["trustStatus"] == "trusted"),
        "{listed:#}"
    );
    let status: Value =
        serde_json::from_slice(&s.run(&["installer", "status", "--json"]).stdout).unwrap();
    let codex_status = status["targets"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["target"] == "codex")
        .unwrap()
        .clone();
    assert!(
        codex_status["hooks"]
            .as_array()
            .unwrap()
            .iter()
            .all(|h| h["trusted"] == true),
        "{codex_status:#}"
    );

    // remove: agterm's block and trust records are back exactly; our trust records went with our hooks.
    let out = s.run(&["installer", "remove"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(std::fs::read(s.codex_config()).unwrap(), agterm);
}

#[test]
fn real_claude_runs_our_hook_from_the_edited_settings() {
    let Some(claude) = agent_cli("claude") else {
        return;
    };
    let s = Sandbox::new();
    let stub = StubModel::start().expect("stub model starts");
    // The installer writes its own path into the hook command: install from a copy, then swap the copy for
    // a wrapper that logs each invocation and runs the real hook, so the test sees Claude run it.
    let bin_dir = s.dir.path().join("bin");
    std::fs::create_dir_all(&bin_dir).unwrap();
    let copy = bin_dir.join("agterm-backup");
    std::fs::copy(binary(), &copy).unwrap();
    std::fs::create_dir_all(s.claude_dir()).unwrap();
    let original = "{\n\t\"model\": \"sonnet\",\n\t\"feedbackSurveyRate\": 0\n}\n";
    std::fs::write(s.claude_settings(), original).unwrap();
    let out = agterm_backup_testkit::fds::output_past_busy_text(
        std::process::Command::new(&copy)
            .env_clear()
            .envs(agterm_backup_testkit::hermetic::places())
            .envs(
                s.command("/usr/bin:/bin")
                    .get_envs()
                    .filter_map(|(k, v)| Some((k.to_owned(), v?.to_owned()))),
            )
            .args(["installer", "apply", "--agents", "claude", "--no-denylist"]),
    )
    .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let settings = std::fs::read_to_string(s.claude_settings()).unwrap();
    assert!(
        settings.contains(&format!("'{}' hook claude", copy.display())),
        "{settings}"
    );

    let log = s.dir.path().join("hook-calls.log");
    let real = bin_dir.join("agterm-backup.real");
    std::fs::rename(&copy, &real).unwrap();
    std::fs::write(
        &copy,
        format!(
            "#!/bin/sh\nprintf '%s\\n' \"$*\" >> '{}'\nexec '{}' \"$@\"\n",
            log.display(),
            real.display()
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&copy, std::fs::Permissions::from_mode(0o755)).unwrap();

    let out = claude_print(&claude, &s, &stub.base_url());
    assert!(
        out.status.success(),
        "claude -p failed: {}{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    let calls = std::fs::read_to_string(&log).unwrap_or_default();
    // SessionStart, UserPromptSubmit and Stop fire in a one-turn print run (no tool, so no PreToolUse).
    let hook_calls = calls.lines().filter(|l| *l == "hook claude").count();
    assert!(
        hook_calls >= 3,
        "our hook ran {hook_calls} times: {calls:?}"
    );
    // Our hook prints nothing, so the answer is the model's alone.
    assert!(
        !text(&out.stdout).contains("agterm"),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn real_codex_lists_our_hooks_from_a_users_hooks_json() {
    let Some(codex) = agent_cli("codex") else {
        return;
    };
    let s = Sandbox::new();
    std::fs::create_dir_all(s.codex_home()).unwrap();
    let foreign =
        std::fs::read(corpus_dir().join("codex-hooks-json/hooks-json-foreign.json")).unwrap();
    std::fs::write(s.codex_hooks_json(), &foreign).unwrap();
    let out = s.run(&["installer", "apply", "--agents", "codex", "--no-denylist"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        !s.codex_config().exists(),
        "hooks.json users keep a single representation"
    );
    let codex_env = vec![
        (
            "CODEX_HOME".to_string(),
            s.codex_home().display().to_string(),
        ),
        ("HOME".to_string(), s.home().display().to_string()),
    ];
    let listed = list_hooks(&codex, s.dir.path(), &codex_env, Duration::from_secs(60)).unwrap();
    let ours = our_listed_hooks(&listed);
    let hooks_json = s.codex_hooks_json().display().to_string();
    let mut keys: Vec<String> = ours
        .iter()
        .map(|h| h["key"].as_str().unwrap().to_string())
        .collect();
    keys.sort();
    // The user's PreToolUse group stays at index 0; ours follow it.
    let mut want: Vec<String> = agterm_backup_installer::OUR_EVENTS
        .iter()
        .map(|e| {
            let label = agterm_backup_installer::codex_event_label(e);
            format!("{hooks_json}:{label}:{}:0", usize::from(*e == "PreToolUse"))
        })
        .collect();
    want.sort();
    assert_eq!(keys, want, "{listed:#}");
    let warnings: Vec<&Value> = listed["data"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|e| e["warnings"].as_array().unwrap())
        .collect();
    assert!(
        warnings
            .iter()
            .all(|w| !w.as_str().unwrap_or("").contains("single representation")),
        "{warnings:?}"
    );
    assert!(s.run(&["installer", "remove"]).status.success());
    assert_eq!(std::fs::read(s.codex_hooks_json()).unwrap(), foreign);
}
