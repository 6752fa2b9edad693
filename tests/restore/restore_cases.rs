//! `restore` against the fake agterm with real shells: splits, `--as-of`, a missing transcript, a busy
//! pane, Claude's resume dialog, running restore twice, and the refusals.

use crate::restore_support::{text, uuid, Env, DENYLIST};
use agterm_backup_core::pane::PaneRole;
use agterm_backup_core::terminal::RestoreMode;
use agterm_backup_testkit::fake_agterm::RestartKind;
use std::time::Duration;

#[test]
fn split_panes_busy_pane_missing_transcript_and_a_second_run() {
    let mut env = Env::new("0.34", RestoreMode::None, Some(DENYLIST), false);
    let (ida, idb, idc, idd) = (uuid(), uuid(), uuid(), uuid());
    let (da, ta) = env.project("left", &ida);
    let (db, tb) = env.project("right", &idb);
    let (dc, tc) = env.project("gone", &idc);
    let (dd, td) = env.project("busy", &idd);
    let split = env.fake.add_session(None, None, env.home.path(), true);
    let busy = env.fake.add_session(None, None, env.home.path(), false);
    let lost = env.fake.add_session(None, None, env.home.path(), false);
    env.record(&split.id, PaneRole::Left, &ida, &da, &ta, 30);
    env.record(&split.id, PaneRole::Right, &idb, &db, &tb, 30);
    env.record(&busy.id, PaneRole::Left, &idd, &dd, &td, 30);
    env.record(&lost.id, PaneRole::Left, &idc, &dc, &tc, 30);
    std::fs::remove_file(&tc).unwrap();
    env.fake.restart(RestartKind::CleanQuit);
    for (s, r) in [
        (&split.id, PaneRole::Left),
        (&split.id, PaneRole::Right),
        (&busy.id, PaneRole::Left),
        (&lost.id, PaneRole::Left),
    ] {
        env.fake.wait_for_prompt(s, r);
    }
    // Something the user started right after the restart: `vim`-like, in the foreground.
    env.fake.send_keys(&busy.id, PaneRole::Left, "sleep 300\n");
    env.fake
        .wait_for_foreground(&busy.id, PaneRole::Left, Duration::from_secs(5), |fg| {
            fg.as_ref().is_some_and(|a| a[0] == "sleep")
        });

    let dry = env.run(&["restore", "--dry-run"]);
    assert!(dry.status.success(), "{}", text(&dry.stderr));
    let table = text(&dry.stdout);
    assert!(table.lines().next().unwrap().starts_with("PANE"), "{table}");
    assert!(table.contains("skip: busy: `sleep 300`"), "{table}");
    assert!(table.contains("transcript gone"), "{table}");
    assert!(
        !table.contains('\x1b'),
        "no colour when stdout is not a tty"
    );
    assert!(env.fake.typed_log().is_empty(), "--dry-run types nothing");

    let (out, plan) = env.restore_json(&["--yes"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let rows = plan["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 4);
    let by = |s: &str, role: &str| {
        rows.iter()
            .find(|r| r["session"] == s && r["role"] == role)
            .unwrap()
            .clone()
    };
    assert_eq!(by(&busy.id, "left")["reason"], "busy");
    assert_eq!(by(&lost.id, "left")["reason"], "transcript-gone");
    assert_eq!(by(&split.id, "right")["outcome"], "resumed");
    env.assert_resumed(&split.id, PaneRole::Left, &ida, &da);
    env.assert_resumed(&split.id, PaneRole::Right, &idb, &db);
    let typed = env.fake.typed_log();
    assert_eq!(typed.len(), 2, "{typed:?}");
    assert!(
        typed.iter().all(|t| t.session == split.id),
        "nothing typed into the busy or lost panes"
    );
    assert!(typed
        .iter()
        .any(|t| t.pane == PaneRole::Right && t.text.contains(&idb) && t.text.ends_with('\n')));

    // Twice: everything resumed is skipped, nothing more is typed.
    let (out, plan) = env.restore_json(&["--yes"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(by_reason(&plan, "already-running"), 2, "{plan}");
    assert_eq!(env.fake.typed_log().len(), 2);
}

fn by_reason(plan: &serde_json::Value, reason: &str) -> usize {
    plan["rows"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["reason"] == reason)
        .count()
}

#[test]
fn as_of_picks_the_conversation_of_that_time() {
    let mut env = Env::new("0.26", RestoreMode::None, Some(DENYLIST), false);
    let (old, new) = (uuid(), uuid());
    let (dir, t_old) = env.project("api", &old);
    let (_, t_new) = env.project("api2", &new);
    let s = env.fake.add_session(None, None, env.home.path(), false);
    env.record(&s.id, PaneRole::Left, &old, &dir, &t_old, 3600);
    env.record(&s.id, PaneRole::Left, &new, &dir, &t_new, 60);
    env.fake.restart(RestartKind::CleanQuit);
    env.fake.wait_for_prompt(&s.id, PaneRole::Left);
    let bad = env.run(&["restore", "--dry-run", "--as-of", "last tuesday"]);
    assert_eq!(bad.status.code(), Some(2), "{}", text(&bad.stderr));
    assert!(text(&bad.stderr).contains("\"last tuesday\""));
    let cut = (chrono::Utc::now() - chrono::Duration::seconds(1800)).to_rfc3339();
    let (out, plan) = env.restore_json(&["--yes", "--as-of", &cut]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(plan["rows"][0]["session_id"], old.as_str(), "{plan}");
    assert_eq!(plan["rows"][0]["journal"], true);
    env.assert_resumed(&s.id, PaneRole::Left, &old, &dir);
}

#[test]
fn the_resume_dialog_is_answered_with_the_chosen_digit() {
    let mut env = Env::new("0.34", RestoreMode::None, Some(DENYLIST), true);
    let id = uuid();
    let (dir, t) = env.project("api", &id);
    let s = env.fake.add_session(None, None, env.home.path(), true);
    env.record(&s.id, PaneRole::Left, &id, &dir, &t, 30);
    let id2 = uuid();
    let (dir2, t2) = env.project("docs", &id2);
    env.record(&s.id, PaneRole::Right, &id2, &dir2, &t2, 30);
    env.fake.restart(RestartKind::CleanQuit);
    env.fake.wait_for_prompt(&s.id, PaneRole::Left);
    env.fake.wait_for_prompt(&s.id, PaneRole::Right);
    // Without a tty and without --yes: refused with a hint, nothing typed.
    let refused = env.run(&["restore"]);
    assert_eq!(refused.status.code(), Some(2));
    assert!(
        text(&refused.stderr).contains("--yes"),
        "{}",
        text(&refused.stderr)
    );
    assert!(env.fake.typed_log().is_empty());
    // Left: answered with 2 by restore. Right: left alone, then answered by `answer --choice 3`.
    let out = env.run(&["restore", "--yes", "--answer-choice", "2"]);
    assert!(
        out.status.success(),
        "{}\n{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    let progress = text(&out.stdout);
    assert!(
        progress.contains("answered the resume question: 2"),
        "{progress}"
    );
    env.fake.wait_for_screen(
        &s.id,
        PaneRole::Left,
        "STANDIN answered: 2",
        Duration::from_secs(5),
    );
    env.fake.wait_for_screen(
        &s.id,
        PaneRole::Right,
        "STANDIN answered: 2",
        Duration::from_secs(5),
    );
    assert!(env.fake.typed_log().iter().any(|t| t.text == "2"));
}

#[test]
fn answer_and_no_answer() {
    let mut env = Env::new("0.34", RestoreMode::None, Some(DENYLIST), true);
    let id = uuid();
    let (dir, t) = env.project("api", &id);
    let s = env.fake.add_session(None, None, env.home.path(), false);
    env.record(&s.id, PaneRole::Left, &id, &dir, &t, 30);
    env.fake.restart(RestartKind::CleanQuit);
    env.fake.wait_for_prompt(&s.id, PaneRole::Left);
    let out = env.run(&["restore", "--yes", "--no-answer"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    env.fake.wait_for_screen(
        &s.id,
        PaneRole::Left,
        "Resume full session as-is",
        Duration::from_secs(5),
    );
    assert!(!env
        .fake
        .screen(&s.id, PaneRole::Left)
        .contains("STANDIN answered"));
    let dry = env.run(&["answer", "--dry-run", "--choice", "3"]);
    assert!(
        text(&dry.stdout).contains("waiting, would answer 3"),
        "{}",
        text(&dry.stdout)
    );
    assert_eq!(env.run(&["answer", "--choice", "9"]).status.code(), Some(2));
    let out = env.run(&["answer", "--choice", "3"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    env.fake.wait_for_screen(
        &s.id,
        PaneRole::Left,
        "STANDIN answered: 3",
        Duration::from_secs(5),
    );
    let again = env.run(&["answer"]);
    assert!(
        text(&again.stdout).contains("no pane is waiting"),
        "{}",
        text(&again.stdout)
    );
}
