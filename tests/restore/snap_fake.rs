//! `snap` and `snap --harvest` against the fake agterm, and `restore --as-of <snapshot>`.

use crate::restore_support::{text, uuid, Env, DENYLIST};
use agterm_backup_core::pane::PaneRole;
use agterm_backup_core::terminal::RestoreMode;
use agterm_backup_testkit::fake_agterm::RestartKind;
use std::os::unix::fs::PermissionsExt;
use std::time::Duration;

#[test]
fn snap_freezes_records_and_topology_and_harvests_scrollback_ids() {
    let mut env = Env::new("0.34", RestoreMode::None, Some(DENYLIST), false);
    let (live_id, old_id, ghost) = (uuid(), uuid(), uuid());
    let (dir, t) = env.project("api", &live_id);
    let (old_dir, _) = env.project("legacy", &old_id);
    let s = env.fake.add_session(None, None, env.home.path(), true);
    env.record(&s.id, PaneRole::Left, &live_id, &dir, &t, 30);
    // The right pane ran Claude before the hook existed: only its scrollback knows the id. A second id
    // without a transcript must not be taken; neither may the left pane's scrollback override its record.
    env.fake.send_keys(
        &s.id,
        PaneRole::Right,
        &format!("echo 'Session ID: {old_id}'; echo 'Session ID: {ghost}'\n"),
    );
    env.fake.send_keys(
        &s.id,
        PaneRole::Left,
        &format!("echo 'Session ID: {old_id}'\n"),
    );
    env.fake.wait_for_screen(
        &s.id,
        PaneRole::Right,
        &format!("Session ID: {ghost}\n"),
        Duration::from_secs(5),
    );

    let out = env.run(&["snap", "--harvest"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("1 record(s), 2 pane(s), 1 harvested"),
        "{}",
        text(&out.stdout)
    );
    let state = env.state();
    let latest = state.latest_snapshot();
    assert_eq!(
        std::fs::metadata(&latest).unwrap().permissions().mode() & 0o777,
        0o600
    );
    let snap: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&latest).unwrap()).unwrap();
    assert_eq!(snap["records"][0]["session_id"], live_id.as_str());
    assert_eq!(snap["panes"].as_array().unwrap().len(), 2);
    assert_eq!(snap["harvested"].as_array().unwrap().len(), 1, "{snap}");
    assert_eq!(snap["harvested"][0]["session_id"], old_id.as_str());
    assert_eq!(snap["harvested"][0]["role"], "right");
    assert_eq!(
        snap["harvested"][0]["agent_cwd"],
        old_dir.display().to_string()
    );
    let stamped: Vec<_> = std::fs::read_dir(state.snapshots_dir()).unwrap().collect();
    assert_eq!(stamped.len(), 1);

    // After a restart, restore resumes the harvested conversation too, in its own directory.
    env.fake.restart(RestartKind::CleanQuit);
    env.fake.wait_for_prompt(&s.id, PaneRole::Right);
    let (out, plan) = env.restore_json(&["--yes", "--as-of", latest.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        plan["cutoff"].as_str().unwrap()[..19],
        snap["taken_at"].as_str().unwrap()[..19],
        "{plan}"
    );
    env.assert_resumed(&s.id, PaneRole::Left, &live_id, &dir);
    env.assert_resumed(&s.id, PaneRole::Right, &old_id, &old_dir);
}

#[test]
fn snap_without_agterm_still_freezes_the_records() {
    let mut env = Env::new("0.34", RestoreMode::None, None, false);
    let id = uuid();
    let (dir, t) = env.project("api", &id);
    let s = env.fake.add_session(None, None, env.home.path(), false);
    env.record(&s.id, PaneRole::Left, &id, &dir, &t, 30);
    env.fake.stop();
    let out = env.run(&["snap"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("note: no pane tree"),
        "{}",
        text(&out.stdout)
    );
    let snap: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(env.state().latest_snapshot()).unwrap())
            .unwrap();
    assert_eq!(snap["records"][0]["session_id"], id.as_str());
    assert!(snap["error"].is_string());
}
