//! Live mode (0.26+): a clean quit keeps every pane's process running and the next launch reattaches;
//! a reboot replays the quit-time capture (denylist applies) or gives a plain shell; pins never fire; and
//! switching away from Live reaps the surviving processes.

use agterm_backup_core::pane::PaneRole;
use agterm_backup_core::terminal::RestoreMode;
use agterm_backup_testkit::fake_agterm::{wait_until, FakeAgterm, FakeConfig, RestartKind};
use serde_json::json;
use std::time::Duration;

const WAIT: Duration = Duration::from_secs(10);

fn actions(fake: &FakeAgterm, session: &str) -> Vec<(PaneRole, String)> {
    fake.launch_actions(session)
}

fn run(fake: &FakeAgterm, session: &str, role: PaneRole, line: &str) {
    fake.type_line(session, role, line);
}

fn sleeping(fake: &FakeAgterm, session: &str, role: PaneRole, secs: &str) {
    run(fake, session, role, &format!("sleep {secs}"));
    let want = vec!["sleep".to_string(), secs.to_string()];
    fake.wait_for_foreground(session, role, WAIT, |fg| fg.as_ref() == Some(&want));
}

fn sleep_pid(fake: &FakeAgterm, session: &str, role: PaneRole) -> u32 {
    fake.foreground_pid(session, role)
        .expect("a foreground process")
}

#[test]
fn live_clean_quit_keeps_processes_running() {
    let dir = agterm_backup_testkit::scratch::tempdir();
    let mut fake = FakeAgterm::start(FakeConfig::new("0.34", RestoreMode::Live));
    let s = fake.add_session(None, None, dir.path(), true);
    sleeping(&fake, &s.id, PaneRole::Left, "100");
    let sleeper = sleep_pid(&fake, &s.id, PaneRole::Left);
    let pid = fake.pid();
    fake.restart(RestartKind::CleanQuit);
    assert_ne!(fake.pid(), pid);
    assert_eq!(
        actions(&fake, &s.id),
        vec![
            (PaneRole::Left, "reattach".into()),
            (PaneRole::Right, "reattach".into())
        ]
    );
    assert_eq!(fake.pane_tmux_id(&s.id, PaneRole::Left), s.left.tmux);
    assert_eq!(
        sleep_pid(&fake, &s.id, PaneRole::Left),
        sleeper,
        "the same sleep process survived"
    );
    assert_eq!(
        fake.foreground(&s.id, PaneRole::Left),
        Some(vec!["sleep".into(), "100".into()])
    );
    // The reattached pane keeps its creation-time env and token.
    assert_eq!(
        fake.pane_env(&s.id, PaneRole::Left)["AGTERM_PANE_ID"],
        s.left.pane_id
    );
    let zmx = fake.request(&json!({"cmd": "zmx.list"}));
    let rows = zmx["result"]["zmx"]["entries"].as_array().unwrap();
    assert!(
        rows.iter().all(|r| r["observation"] == json!("running")),
        "{zmx}"
    );
}

#[test]
fn live_reboot_replays_the_capture_or_gives_a_plain_shell() {
    let dir = agterm_backup_testkit::scratch::tempdir();
    let mut fake = FakeAgterm::start(FakeConfig::new("0.34", RestoreMode::Live).denylist("tail\n"));
    let s = fake.add_session(None, None, dir.path(), true);
    sleeping(&fake, &s.id, PaneRole::Left, "100");
    let sleeper = sleep_pid(&fake, &s.id, PaneRole::Left);
    run(&fake, &s.id, PaneRole::Right, "tail -f /dev/null");
    fake.wait_for_foreground(&s.id, PaneRole::Right, WAIT, |fg| fg.is_some());
    fake.restart(RestartKind::Reboot);
    assert_eq!(
        actions(&fake, &s.id),
        vec![
            (PaneRole::Left, "replay".into()),
            (PaneRole::Right, "denied".into())
        ]
    );
    fake.wait_for_foreground(&s.id, PaneRole::Left, WAIT, |fg| fg.is_some());
    assert_ne!(
        sleep_pid(&fake, &s.id, PaneRole::Left),
        sleeper,
        "a new sleep after the reboot"
    );
    // A new pane's `env … <shell>` start is its foreground until the shell runs.
    assert_eq!(
        fake.wait_for_foreground(&s.id, PaneRole::Right, WAIT, |fg| fg.is_none()),
        None
    );
    // Live panes keep their persistent ids across the reboot.
    assert_eq!(
        fake.pane_env(&s.id, PaneRole::Left)["AGTERM_PANE_ID"],
        s.left.pane_id
    );
}

#[test]
fn switching_away_from_live_reaps_the_survivors() {
    let dir = agterm_backup_testkit::scratch::tempdir();
    let mut fake = FakeAgterm::start(FakeConfig::new("0.34", RestoreMode::Live));
    let s = fake.add_session(None, None, dir.path(), false);
    let note = fake.set_pin(
        &s.id,
        &s.left.pane_id,
        &format!("echo rerun-now > {}/f", dir.path().display()),
    );
    assert!(note["text"].as_str().unwrap().contains("live"), "{note}");
    sleeping(&fake, &s.id, PaneRole::Left, "100");
    let sleeper = sleep_pid(&fake, &s.id, PaneRole::Left);
    let set = fake.request(&json!({"cmd": "restore.mode", "args": {"mode": "rerun"}}));
    assert_eq!(set["result"]["restore"]["restartRequired"], json!(true));
    fake.restart(RestartKind::CleanQuit);
    assert_eq!(actions(&fake, &s.id), vec![(PaneRole::Left, "pin".into())]);
    assert!(
        wait_until(WAIT, || dir.path().join("f").exists()),
        "the pin fires under rerun"
    );
    let gone = wait_until(WAIT, || {
        !std::path::Path::new(&format!("/proc/{sleeper}")).exists()
    });
    assert!(gone, "the Live process was reaped");
    let zmx = fake.request(&json!({"cmd": "zmx.list"}));
    assert_eq!(zmx["result"]["zmx"]["entries"], json!([]));
}
