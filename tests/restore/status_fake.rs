//! `status` against the fake agterm: hooks per agent, agterm's version and mode, one row per pane that
//! runs an agent or is captured, the warnings; and a clear line when agterm is not running.

use crate::restore_support::{text, uuid, Env};
use agterm_backup_core::pane::PaneRole;
use agterm_backup_core::terminal::RestoreMode;

#[test]
fn status_reports_hooks_agterm_panes_and_warnings() {
    let mut env = Env::new("0.34", RestoreMode::Live, None, false);
    let applied = env.run(&["installer", "apply", "--agents", "claude", "--no-denylist"]);
    assert!(applied.status.success(), "{}", text(&applied.stderr));
    let id = uuid();
    let (dir, t) = env.project("api", &id);
    let s = env.fake.add_session(None, None, env.home.path(), true);
    env.record(&s.id, PaneRole::Left, &id, &dir, &t, 30);
    env.start_agent(&s.id, PaneRole::Right, "claude");

    let out = env.run(&["status", "--json"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["v"], 1);
    let hook = |a: &str| {
        v["hooks"]
            .as_array()
            .unwrap()
            .iter()
            .find(|h| h["agent"] == a)
            .unwrap()
            .clone()
    };
    assert_eq!(hook("claude")["state"], "present", "{v}");
    assert_eq!(hook("codex")["state"], "absent");
    assert_eq!(v["agterm"]["running"], true);
    assert_eq!(v["agterm"]["version"], "0.34.0");
    assert_eq!(v["agterm"]["mode"], "live");
    let panes = v["panes"].as_array().unwrap();
    assert_eq!(panes.len(), 2, "{v}");
    let left = panes.iter().find(|p| p["role"] == "left").unwrap();
    assert_eq!(left["captured"], true);
    assert_eq!(left["session_id"], id.as_str());
    assert_eq!(
        left["agent_cwd"],
        dir.display().to_string(),
        "differs from the pane's cwd"
    );
    let right = panes.iter().find(|p| p["role"] == "right").unwrap();
    assert_eq!(right["captured"], false);
    assert_eq!(right["agent"], "claude");
    let warnings = v["warnings"].to_string();
    assert!(warnings.contains("Live mode"), "{warnings}");
    assert!(warnings.contains("denylist"), "{warnings}");
    assert!(warnings.contains("codex hook is absent"), "{warnings}");

    let human = text(&env.run(&["status"]).stdout);
    assert!(
        human.contains("agterm 0.34.0 · restore mode live"),
        "{human}"
    );
    assert!(human.contains("NOT captured"), "{human}");

    env.fake.stop();
    let off = env.run(&["status"]);
    assert!(off.status.success(), "{}", text(&off.stderr));
    let off = text(&off.stdout);
    assert!(off.contains("agterm is not running"), "{off}");
    assert!(off.contains(&id[..8]), "records still listed: {off}");
}

/// Before any restart: an agent started and captured in this agterm launch is captured (its record is
/// newer than the launch, which the journal rule of a restore would set aside).
#[test]
fn agents_captured_in_this_launch_are_not_called_uncaptured() {
    let env = Env::new("0.34", RestoreMode::Rerun, None, false);
    let id = uuid();
    let (dir, t) = env.project("api", &id);
    let s = env.fake.add_session(None, None, env.home.path(), false);
    // The record must be newer than the launch in whole seconds too: written in a later second.
    agterm_backup_testkit::clock::wait_past_second(std::time::SystemTime::now());
    env.start_agent(&s.id, PaneRole::Left, "claude --model sonnet");
    env.record(&s.id, PaneRole::Left, &id, &dir, &t, 0);
    let out = env.run(&["status", "--json"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let p = &v["panes"][0];
    assert_eq!(p["captured"], true, "{v}");
    assert_eq!(p["session_id"], id.as_str(), "{v}");
    let human = text(&env.run(&["status"]).stdout);
    assert!(!human.contains("NOT captured"), "{human}");
    assert!(human.contains("captured in this launch"), "{human}");
}
