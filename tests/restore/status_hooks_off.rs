//! `status` when a hook is written but never runs: the hook row says so with the file and key, and a pane
//! whose agent runs without a record gives the reason (a project's own file, the machine's policy, a
//! Codex hook not trusted) instead of a bare "not captured". Policy files live below the test's
//! `AGTERM_BACKUP_SYSTEM_ROOT`.

use crate::restore_support::{text, Env};
use agterm_backup_core::pane::PaneRole;
use agterm_backup_core::terminal::RestoreMode;
use serde_json::Value;
use std::path::Path;

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn status(env: &Env) -> (Value, String) {
    let out = env.run(&["status", "--json"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let human = env.run(&["status"]);
    assert!(human.status.success(), "{}", text(&human.stderr));
    (
        serde_json::from_slice(&out.stdout).unwrap(),
        text(&human.stdout),
    )
}

/// An agent running in a new pane in `dir`, with our hooks applied for `agents`.
fn agent_in(dir: &Path, agents: &str, agent: &str) -> Env {
    let env = Env::new("0.34", RestoreMode::Rerun, None, false);
    let applied = env.run(&["installer", "apply", "--agents", agents, "--no-denylist"]);
    assert!(applied.status.success(), "{}", text(&applied.stderr));
    let dir = env.home.path().join(dir);
    std::fs::create_dir_all(&dir).unwrap();
    let s = env.fake.add_session(None, None, &dir, false);
    env.start_agent(&s.id, PaneRole::Left, agent);
    env
}

/// The test's one agterm pane (a tmux server on the machine's default socket may add its own).
fn the_pane(v: &Value) -> &Value {
    let panes: Vec<&Value> = v["panes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["terminal"] == "agterm")
        .collect();
    assert_eq!(panes.len(), 1, "{v:#}");
    panes[0]
}

#[test]
fn a_projects_local_settings_switch_hooks_off_in_that_pane_only() {
    let env = agent_in(Path::new("work/api"), "claude", "claude");
    let local = env.home.path().join("work/api/.claude/settings.local.json");
    write(&local, "{\"disableAllHooks\": true}\n");
    let (v, human) = status(&env);
    let pane = the_pane(&v);
    assert_eq!(pane["captured"], false, "{v:#}");
    let why = pane["not_captured_because"].as_str().unwrap_or_default();
    let file = local.display().to_string();
    assert!(
        why.contains("`disableAllHooks: true`")
            && why.contains(&file)
            && why.contains("in this project"),
        "{v:#}"
    );
    // The user-wide hook runs elsewhere: no warning, no NOT RUN.
    let claude = v["hooks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|h| h["agent"] == "claude")
        .unwrap();
    assert!(claude["switched_off"].is_null(), "{v:#}");
    assert!(
        human.contains("not captured: `disableAllHooks: true` in") && human.contains(&file),
        "{human}"
    );
    assert!(!human.contains("NOT RUN"), "{human}");
}

#[test]
fn a_managed_policy_is_named_on_the_hook_row_in_the_warnings_and_on_the_pane() {
    let env = agent_in(Path::new("work/web"), "claude", "claude");
    let managed = env
        .home
        .path()
        .join("system-root/etc/claude-code/managed-settings.json");
    write(&managed, "{\"disableAllHooks\": true}\n");
    let (v, human) = status(&env);
    let file = managed.display().to_string();
    let claude = v["hooks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|h| h["agent"] == "claude")
        .unwrap();
    assert_eq!(claude["state"], "present", "{v:#}");
    assert_eq!(claude["switched_off"]["file"], file.as_str());
    assert_eq!(claude["switched_off"]["key"], "disableAllHooks");
    assert_eq!(claude["switched_off"]["way_out"], "ask-administrator");
    assert!(v["warnings"].to_string().contains(&file), "{v:#}");
    let why = the_pane(&v)["not_captured_because"]
        .as_str()
        .unwrap_or_default();
    assert!(
        why.contains(&file) && why.contains("administrator"),
        "{v:#}"
    );
    assert!(human.contains("hook claude   present, NOT RUN"), "{human}");
    assert!(
        human.contains(&format!("warning: `disableAllHooks: true` in {file}")),
        "{human}"
    );
}

#[test]
fn an_untrusted_codex_hook_is_the_panes_reason() {
    let env = Env::new("0.34", RestoreMode::Rerun, None, false);
    // A Codex stand-in: its process is named `codex`, as the real TUI's is.
    let bin = env.home.path().join("bin/codex");
    write(
        &bin,
        "#!/bin/bash\nexec -a codex /bin/sh -c 'sleep 100000; :'\n",
    );
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&bin, std::fs::Permissions::from_mode(0o755)).unwrap();
    let applied = env.run(&["installer", "apply", "--agents", "codex", "--no-denylist"]);
    assert!(applied.status.success(), "{}", text(&applied.stderr));
    let s = env.fake.add_session(None, None, env.home.path(), false);
    env.fake.send_keys(&s.id, PaneRole::Left, "codex\n");
    env.fake
        .wait_for_foreground(
            &s.id,
            PaneRole::Left,
            std::time::Duration::from_secs(10),
            |fg| {
                fg.as_ref()
                    .is_some_and(|a| a.first().is_some_and(|a0| a0 == "codex"))
            },
        )
        .expect("the Codex stand-in runs");
    let (v, human) = status(&env);
    let why = the_pane(&v)["not_captured_because"]
        .as_str()
        .unwrap_or_default();
    assert!(why.contains("Codex has not trusted our hooks"), "{v:#}");
    assert!(
        human.contains("not captured: Codex has not trusted"),
        "{human}"
    );
}

#[test]
fn a_launch_flag_that_leaves_out_the_users_hooks_is_the_panes_reason() {
    let env = agent_in(Path::new("work/cli"), "claude", "claude --bare");
    let (v, human) = status(&env);
    let why = the_pane(&v)["not_captured_because"]
        .as_str()
        .unwrap_or_default();
    assert!(why.contains("launched with `--bare`"), "{v:#}");
    assert!(
        human.contains("not captured: launched with `--bare`"),
        "{human}"
    );
}

/// The first case: `installer apply` warned, `status` said `present` and nothing more.
#[test]
fn the_users_own_disable_all_hooks_is_on_the_hook_row_and_in_the_warnings() {
    let env = agent_in(Path::new("work/app"), "claude", "claude");
    let settings = env.home.path().join(".claude/settings.json");
    let applied = std::fs::read_to_string(&settings).unwrap();
    std::fs::write(
        &settings,
        applied.replacen('{', "{\"disableAllHooks\": true,", 1),
    )
    .unwrap();
    let (v, human) = status(&env);
    let file = settings.display().to_string();
    let claude = v["hooks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|h| h["agent"] == "claude")
        .unwrap();
    assert_eq!(claude["switched_off"]["file"], file.as_str(), "{v:#}");
    assert_eq!(claude["switched_off"]["key"], "disableAllHooks");
    assert_eq!(claude["switched_off"]["way_out"], "remove-key");
    assert!(human.contains("hook claude   present, NOT RUN"), "{human}");
    assert!(
        human.contains(&format!("warning: `disableAllHooks: true` in {file}"))
            && human.contains("remove `disableAllHooks`"),
        "{human}"
    );
    let why = the_pane(&v)["not_captured_because"]
        .as_str()
        .unwrap_or_default();
    assert!(why.contains(&file), "{v:#}");
}
