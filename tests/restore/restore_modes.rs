//! `restore --yes` after a restart of the fake agterm, in each restore mode: every captured pane ends up
//! running `claude --resume <id>` (the stand-in) in its own directory, and nothing is typed into a pane
//! whose agent survived.

use crate::restore_support::{text, uuid, Env, DENYLIST};
use agterm_backup_core::pane::PaneRole;
use agterm_backup_core::terminal::RestoreMode;
use agterm_backup_testkit::fake_agterm::RestartKind;
use serde_json::json;
use std::time::Duration;

/// One session, a record for its left pane written before the restart, the agent started bare (as a
/// person does) so that agterm captures it; then `kind`; then one `restore --yes`.
fn restart_then_restore(env: &mut Env, kind: RestartKind) -> (String, String, std::path::PathBuf) {
    let id = uuid();
    let (dir, transcript) = env.project("api", &id);
    let s = env.fake.add_session(None, None, env.home.path(), false);
    env.record(&s.id, PaneRole::Left, &id, &dir, &transcript, 30);
    env.start_agent(&s.id, PaneRole::Left, "claude");
    env.fake.restart(kind);
    env.fake.wait_for_prompt(&s.id, PaneRole::Left);
    let (out, plan) = env.restore_json(&["--yes"]);
    assert!(
        out.status.success(),
        "{}\n{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    assert_eq!(plan["rows"][0]["action"], "type", "{plan}");
    assert_eq!(plan["rows"][0]["outcome"], "resumed", "{plan}");
    env.assert_resumed(&s.id, PaneRole::Left, &id, &dir);
    (s.id, id, dir)
}

#[test]
fn agterm_0_15_without_pins() {
    let mut env = Env::new("0.15", RestoreMode::Rerun, Some(DENYLIST), false);
    let (_, _, _) = restart_then_restore(&mut env, RestartKind::CleanQuit);
    assert_eq!(env.fake.typed_log().len(), 1, "exactly one line typed");
}

#[test]
fn fresh_shells_mode() {
    let mut env = Env::new("0.34", RestoreMode::None, Some(DENYLIST), false);
    restart_then_restore(&mut env, RestartKind::CleanQuit);
}

#[test]
fn rerun_with_the_setting_off_ignores_the_pin() {
    // Before 0.26, "rerun" off is the legacy setting being off: the pin is stored but never fires.
    let mut env = Env::new("0.24", RestoreMode::None, Some(DENYLIST), false);
    let id = uuid();
    let (dir, transcript) = env.project("web", &id);
    let s = env.fake.add_session(None, None, env.home.path(), false);
    let pin = env.fake.request(&json!({"cmd": "session.restore", "target": s.id, "args": {"mode": "set", "command": format!("claude --resume {id}"), "pane": "left"}}));
    assert_eq!(pin["ok"], true, "{pin}");
    env.record(&s.id, PaneRole::Left, &id, &dir, &transcript, 30);
    env.fake.restart(RestartKind::Reboot);
    env.fake.wait_for_prompt(&s.id, PaneRole::Left);
    assert!(
        env.fake.foreground(&s.id, PaneRole::Left).is_none(),
        "the pin must not have fired"
    );
    let out = env.run(&["restore", "--yes"]);
    assert!(
        out.status.success(),
        "{}\n{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    env.assert_resumed(&s.id, PaneRole::Left, &id, &dir);
}

#[test]
fn live_after_a_clean_quit_types_nothing() {
    let mut env = Env::new("0.34", RestoreMode::Live, Some(DENYLIST), false);
    let id = uuid();
    let (dir, transcript) = env.project("api", &id);
    let s = env.fake.add_session(None, None, env.home.path(), false);
    env.record(&s.id, PaneRole::Left, &id, &dir, &transcript, 30);
    env.start_agent(
        &s.id,
        PaneRole::Left,
        &format!("cd '{}' && claude --resume {id}", dir.display()),
    );
    env.fake.restart(RestartKind::CleanQuit);
    let (out, plan) = env.restore_json(&["--yes"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(plan["rows"][0]["reason"], "already-running", "{plan}");
    assert!(
        env.fake.typed_log().is_empty(),
        "nothing may be typed into a running agent"
    );
    env.assert_resumed(&s.id, PaneRole::Left, &id, &dir);
}

#[test]
fn live_after_a_reboot_with_the_denylist() {
    let mut env = Env::new("0.34", RestoreMode::Live, Some(DENYLIST), false);
    restart_then_restore(&mut env, RestartKind::Reboot);
    let launch = env.fake.launch_log();
    assert!(
        launch.iter().any(|l| format!("{l:?}").contains("denied")),
        "{launch:?}"
    );
}

#[test]
fn live_after_a_reboot_without_the_denylist_a_replayed_bare_agent_never_wins() {
    let mut env = Env::new("0.34", RestoreMode::Live, None, false);
    let id = uuid();
    let (dir, transcript) = env.project("api", &id);
    let s = env.fake.add_session(None, None, env.home.path(), false);
    env.record(&s.id, PaneRole::Left, &id, &dir, &transcript, 30);
    env.start_agent(&s.id, PaneRole::Left, "claude");
    env.fake.restart(RestartKind::Reboot);
    let relaunched = std::time::SystemTime::now();
    // agterm replays the bare `claude`: a new conversation, whose SessionStart overwrites the record.
    env.wait_agent(&s.id, PaneRole::Left);
    // The new conversation's record is written after the launch: in a later second than the launch, as
    // records and the launch as restore reads it may be whole seconds.
    agterm_backup_testkit::clock::wait_past_second(relaunched);
    let new_id = uuid();
    let (_, new_t) = env.project("api-new", &new_id);
    env.record(&s.id, PaneRole::Left, &new_id, &dir, &new_t, 0);
    let (out, plan) = env.restore_json(&["--yes"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let row = &plan["rows"][0];
    assert_eq!(
        row["session_id"],
        id.as_str(),
        "the journal rule picks the pre-launch id: {plan}"
    );
    assert_eq!(row["journal"], true);
    assert_eq!(row["reason"], "new-conversation", "{plan}");
    assert!(env.fake.typed_log().is_empty());
    // The person quits the new conversation; the next restore brings the old one back.
    env.fake.send_keys(&s.id, PaneRole::Left, "\x03");
    env.fake
        .wait_for_foreground(&s.id, PaneRole::Left, Duration::from_secs(5), |fg| {
            fg.is_none()
        });
    let (out, plan) = env.restore_json(&["--yes"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(plan["rows"][0]["outcome"], "resumed", "{plan}");
    env.assert_resumed(&s.id, PaneRole::Left, &id, &dir);
}

#[test]
fn rerun_where_the_pin_fired_restore_types_nothing() {
    let mut env = Env::new("0.34", RestoreMode::Rerun, Some(DENYLIST), false);
    let id = uuid();
    let (dir, transcript) = env.project("api", &id);
    let s = env.fake.add_session(None, None, env.home.path(), false);
    env.record(&s.id, PaneRole::Left, &id, &dir, &transcript, 30);
    // What the hook pins: the resume line with `cd`.
    let line = format!(
        "cd '{}' && 'claude' '--resume' '{id}' '--model' 'sonnet'",
        dir.display()
    );
    let pin = env
        .fake
        .request(&json!({"cmd": "session.restore", "target": s.id,
        "args": {"mode": "set", "command": line, "pane": "left"}}));
    assert_eq!(pin["ok"], true, "{pin}");
    env.fake.restart(RestartKind::Reboot);
    env.assert_resumed(&s.id, PaneRole::Left, &id, &dir);
    let typed_before = env.fake.typed_log().len();
    let (out, plan) = env.restore_json(&["--yes"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(plan["rows"][0]["reason"], "already-running", "{plan}");
    assert_eq!(
        env.fake.typed_log().len(),
        typed_before,
        "restore typed nothing"
    );
}
