//! Restarting the fake agterm: a new process each time, and panes brought back the way agterm does in
//! each restore mode (rerun: pin, else captured argv unless denylisted; live: reattach after a clean quit,
//! replay after a reboot; none: plain shells).

use agterm_backup_core::pane::PaneRole;
use agterm_backup_core::terminal::RestoreMode;
use agterm_backup_testkit::fake_agterm::{wait_until, FakeAgterm, FakeConfig, RestartKind};
use serde_json::{json, Value};
use std::path::Path;
use std::time::Duration;

const WAIT: Duration = Duration::from_secs(10);
/// How long we watch for something that must NOT happen.
const QUIET: Duration = Duration::from_millis(1500);

fn pin(fake: &FakeAgterm, session: &str, pane_id: &str, line: &str) -> Value {
    fake.set_pin(session, pane_id, line)
}

fn run(fake: &FakeAgterm, session: &str, role: PaneRole, line: &str) {
    fake.type_line(session, role, line);
}

fn actions(fake: &FakeAgterm, session: &str) -> Vec<(PaneRole, String)> {
    fake.launch_actions(session)
}

fn sleeping(fake: &FakeAgterm, session: &str, role: PaneRole, secs: &str) {
    run(fake, session, role, &format!("sleep {secs}"));
    let want = vec!["sleep".to_string(), secs.to_string()];
    fake.wait_for_foreground(session, role, WAIT, |fg| fg.as_ref() == Some(&want));
}

fn quietly_absent(path: &Path) -> bool {
    !wait_until(QUIET, || path.exists())
}

#[test]
fn pins_fire_after_a_rerun_restart_in_a_new_process() {
    for version in ["0.16", "0.24", "0.26", "0.34"] {
        let dir = agterm_backup_testkit::scratch::tempdir();
        let mut fake = FakeAgterm::start(FakeConfig::new(version, RestoreMode::Rerun));
        let s = fake.add_session(None, None, dir.path(), true);
        let right = s.right.clone().unwrap();
        pin(
            &fake,
            &s.id,
            &s.left.pane_id,
            &format!("cd {} && echo pinned > f", dir.path().display()),
        );
        pin(
            &fake,
            &s.id,
            &right.pane_id,
            &format!("echo right-{version} > {}/g", dir.path().display()),
        );
        let before = fake.pid();
        fake.restart(RestartKind::CleanQuit);
        assert_ne!(fake.pid(), before, "a restart is a new process");
        assert!(
            wait_until(WAIT, || dir.path().join("f").exists()),
            "left pin did not run ({version})"
        );
        let expected = format!("right-{version}\n");
        let right_ran =
            || std::fs::read_to_string(dir.path().join("g")).is_ok_and(|t| t == expected);
        assert!(
            wait_until(WAIT, right_ran),
            "right pin did not run ({version})"
        );
        assert_eq!(
            actions(&fake, &s.id),
            vec![
                (PaneRole::Left, "pin".into()),
                (PaneRole::Right, "pin".into())
            ]
        );
        fake.wait_for_screen(&s.id, PaneRole::Left, "$ cd ", WAIT);
        // Pins are sticky: still reported after they fired.
        let tree = fake.request(&json!({"cmd": "tree"}));
        let node = &tree["result"]["tree"]["workspaces"][0]["sessions"][0];
        assert!(node["restoreCommand"]
            .as_str()
            .unwrap()
            .ends_with("echo pinned > f"));
        assert!(node["splitRestoreCommand"].is_string());
    }
}

#[test]
fn a_none_pin_or_a_crash_gives_what_agterm_gives() {
    let dir = agterm_backup_testkit::scratch::tempdir();
    let mut fake = FakeAgterm::start(FakeConfig::new("0.34", RestoreMode::Rerun));
    let s = fake.add_session(None, None, dir.path(), true);
    pin(
        &fake,
        &s.id,
        &s.left.pane_id,
        &format!("echo crash-proof > {}/f", dir.path().display()),
    );
    // `--none` on the split: a plain shell even though it runs something at quit.
    let none = fake.request(&json!({"cmd": "session.restore", "target": s.id, "args": {"mode": "none", "pane": "right"}}));
    assert_eq!(none["ok"], json!(true));
    sleeping(&fake, &s.id, PaneRole::Right, "300");
    fake.restart(RestartKind::CleanQuit);
    assert_eq!(actions(&fake, &s.id)[1], (PaneRole::Right, "shell".into()));
    // A new pane's `env … <shell>` start is its foreground until the shell runs.
    assert_eq!(
        fake.wait_for_foreground(&s.id, PaneRole::Right, WAIT, |fg| fg.is_none()),
        None
    );
    // A crash captures nothing, but pins are already on disk and fire.
    std::fs::remove_file(dir.path().join("f")).unwrap();
    fake.request(&json!({"cmd": "session.restore", "target": s.id, "args": {"mode": "clear", "pane": "right"}}));
    sleeping(&fake, &s.id, PaneRole::Right, "301");
    fake.restart(RestartKind::Crash);
    assert!(wait_until(WAIT, || dir.path().join("f").exists()));
    assert_eq!(
        actions(&fake, &s.id),
        vec![
            (PaneRole::Left, "pin".into()),
            (PaneRole::Right, "shell".into())
        ]
    );
}

#[test]
fn pins_do_not_fire_under_live_or_none() {
    for mode in [RestoreMode::None, RestoreMode::Live] {
        let dir = agterm_backup_testkit::scratch::tempdir();
        let mut fake = FakeAgterm::start(FakeConfig::new("0.34", mode));
        let s = fake.add_session(None, None, dir.path(), false);
        let r = pin(
            &fake,
            &s.id,
            &s.left.pane_id,
            &format!("echo pinned > {}/f", dir.path().display()),
        );
        assert!(
            r["text"].is_string(),
            "a note says the pin will not run: {r}"
        );
        for kind in [RestartKind::CleanQuit, RestartKind::Reboot] {
            fake.restart(kind);
            assert!(
                quietly_absent(&dir.path().join("f")),
                "{mode:?} {kind:?} typed the pin"
            );
        }
        assert!(fake.typed_log().is_empty());
        assert!(
            fake.pin(&s.id, PaneRole::Left)
                .unwrap()
                .contains("echo pinned"),
            "the pin is kept for rerun"
        );
    }
}

#[test]
fn rerun_replays_captured_argv_unless_denylisted() {
    for version in ["0.15", "0.34"] {
        let dir = agterm_backup_testkit::scratch::tempdir();
        let config = FakeConfig::new(version, RestoreMode::Rerun).denylist("# mine\ntail\n");
        let mut fake = FakeAgterm::start(config);
        let s = fake.add_session(None, None, dir.path(), true);
        sleeping(&fake, &s.id, PaneRole::Left, "100");
        run(&fake, &s.id, PaneRole::Right, "tail -f /dev/null");
        fake.wait_for_foreground(&s.id, PaneRole::Right, WAIT, |fg| fg.is_some());
        fake.stop();
        let state = fake.state();
        let captured = state.session(&s.id).unwrap();
        assert_eq!(
            captured.foreground_command,
            Some(vec!["sleep".to_string(), "100".to_string()])
        );
        assert_eq!(
            captured.split_foreground_command.as_ref().unwrap()[0],
            "tail"
        );
        fake.launch();
        fake.wait_for_foreground(&s.id, PaneRole::Left, WAIT, |fg| {
            fg.as_deref() == Some(&["sleep".to_string(), "100".to_string()][..])
        });
        fake.wait_for_screen(&s.id, PaneRole::Left, "$ 'sleep' '100'", WAIT);
        // The pane's `env … bash -l` start is its foreground until bash runs: wait for the shell.
        assert_eq!(
            fake.wait_for_foreground(&s.id, PaneRole::Right, WAIT, |fg| fg.is_none()),
            None,
            "tail is denylisted"
        );
        assert_eq!(
            actions(&fake, &s.id),
            vec![
                (PaneRole::Left, "replay".into()),
                (PaneRole::Right, "denied".into())
            ]
        );
        // The capture replays once: the next launch sees nothing captured (the pane was killed at quit
        // with a fresh `sleep` running, so it is captured again — stop it first).
        fake.tmux().ok(&[
            "send-keys",
            "-t",
            &fake.pane_tmux_id(&s.id, PaneRole::Left),
            "C-c",
        ]);
        fake.wait_for_foreground(&s.id, PaneRole::Left, WAIT, |fg| fg.is_none());
        fake.restart(RestartKind::CleanQuit);
        assert_eq!(
            actions(&fake, &s.id),
            vec![
                (PaneRole::Left, "shell".into()),
                (PaneRole::Right, "shell".into())
            ]
        );
    }
}

#[test]
fn a_pin_beats_the_capture_and_none_mode_replays_nothing() {
    let dir = agterm_backup_testkit::scratch::tempdir();
    let mut fake = FakeAgterm::start(FakeConfig::new("0.34", RestoreMode::Rerun));
    let s = fake.add_session(None, None, dir.path(), false);
    pin(
        &fake,
        &s.id,
        &s.left.pane_id,
        &format!("echo won > {}/f", dir.path().display()),
    );
    sleeping(&fake, &s.id, PaneRole::Left, "100");
    fake.restart(RestartKind::CleanQuit);
    assert!(wait_until(WAIT, || dir.path().join("f").exists()));
    assert_ne!(
        fake.foreground(&s.id, PaneRole::Left),
        Some(vec!["sleep".into(), "100".into()])
    );

    let mut fresh = FakeAgterm::start(FakeConfig::new("0.34", RestoreMode::None));
    let s = fresh.add_session(None, None, dir.path(), false);
    sleeping(&fresh, &s.id, PaneRole::Left, "100");
    fresh.restart(RestartKind::CleanQuit);
    assert_eq!(
        actions(&fresh, &s.id),
        vec![(PaneRole::Left, "shell".into())]
    );
    assert!(!wait_until(QUIET, || fresh
        .foreground(&s.id, PaneRole::Left)
        .is_some()));
}

#[test]
fn pane_ids_are_persistent_from_026_and_per_spawn_before() {
    for (version, persistent) in [
        ("0.16", false),
        ("0.24", false),
        ("0.26", true),
        ("0.34", true),
    ] {
        let dir = agterm_backup_testkit::scratch::tempdir();
        let mut fake = FakeAgterm::start(FakeConfig::new(version, RestoreMode::Rerun));
        let s = fake.add_session(None, None, dir.path(), true);
        fake.restart(RestartKind::CleanQuit);
        let left = fake.pane_env(&s.id, PaneRole::Left)["AGTERM_PANE_ID"].clone();
        let right = fake.pane_env(&s.id, PaneRole::Right)["AGTERM_PANE_ID"].clone();
        assert_eq!(left == s.left.pane_id, persistent, "{version}");
        assert_eq!(
            right == s.right.as_ref().unwrap().pane_id,
            persistent,
            "{version}"
        );
        assert_eq!(fake.pane_token(&s.id, PaneRole::Left), left);
        let old = fake.request(&json!({"cmd": "session.restore", "target": s.id,
            "args": {"mode": "set", "paneID": s.left.pane_id, "command": "x"}}));
        if persistent {
            assert_eq!(old["ok"], json!(true), "{version}: {old}");
        } else {
            assert_eq!(
                old["error"],
                json!(format!("unknown pane id: {}", s.left.pane_id)),
                "{version}"
            );
        }
        let new = fake.request(&json!({"cmd": "session.restore", "target": s.id,
            "args": {"mode": "set", "paneID": right, "command": "y"}}));
        assert_eq!(new["ok"], json!(true));
        assert_eq!(fake.pin(&s.id, PaneRole::Right).as_deref(), Some("y"));
    }
}

#[test]
fn an_update_changes_the_version_and_closed_windows_stay_down() {
    let dir = agterm_backup_testkit::scratch::tempdir();
    let mut fake = FakeAgterm::start(FakeConfig::new("0.24", RestoreMode::Rerun));
    let s = fake.add_session(None, None, dir.path(), false);
    let other = fake.add_window("other", true);
    let hidden = fake.add_session(Some(&other), None, dir.path(), false);
    let closed =
        fake.request(&json!({"cmd": "fake.set_window", "args": {"window": other, "open": false}}));
    assert_eq!(closed["ok"], json!(true));
    fake.restart_as(RestartKind::CleanQuit, "0.34");
    let version = fake.request(&json!({"cmd": "version"}));
    assert_eq!(version["result"]["app"]["version"], json!("0.34.0"));
    assert_eq!(
        fake.pane_env(&s.id, PaneRole::Left)["TERM_PROGRAM_VERSION"],
        "0.34.0"
    );
    assert!(fake
        .state()
        .session(&hidden.id)
        .unwrap()
        .left
        .tmux_pane
        .is_none());
    let typed =
        fake.request(&json!({"cmd": "session.type", "target": hidden.id, "args": {"text": "x"}}));
    assert_eq!(
        typed["error"],
        json!(format!("no such session: {}", hidden.id))
    );
}

#[test]
fn a_hidden_split_is_neither_captured_nor_rebuilt() {
    let dir = agterm_backup_testkit::scratch::tempdir();
    let mut fake = FakeAgterm::start(FakeConfig::new("0.34", RestoreMode::Rerun));
    let s = fake.add_session(None, None, dir.path(), true);
    sleeping(&fake, &s.id, PaneRole::Right, "100");
    let hide = json!({"cmd": "fake.set_split_visible", "target": s.id, "args": {"visible": false}});
    assert_eq!(fake.request(&hide)["ok"], json!(true));
    let tree = fake.request(&json!({"cmd": "tree"}));
    let node = &tree["result"]["tree"]["workspaces"][0]["sessions"][0];
    assert_eq!(node["split"], json!(false));
    assert_eq!(node["hasSplit"], json!(true));
    assert_eq!(node["surfaces"][1]["visible"], json!(false));
    fake.stop();
    let captured = fake
        .state()
        .session(&s.id)
        .unwrap()
        .split_foreground_command
        .clone();
    assert_eq!(captured, None, "a hidden split is not captured");
    fake.launch();
    assert_eq!(
        actions(&fake, &s.id),
        vec![(PaneRole::Left, "shell".into())]
    );
    let show = json!({"cmd": "fake.set_split_visible", "target": s.id, "args": {"visible": true}});
    assert_eq!(fake.request(&show)["ok"], json!(true));
    fake.wait_for_prompt(&s.id, PaneRole::Right);
    assert_eq!(fake.foreground(&s.id, PaneRole::Right), None);
}
