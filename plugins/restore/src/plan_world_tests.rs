//! The rows for a world that changed under a record (issue 32): its directory is gone or is no
//! directory (12b), its time is no time it could have been written at (2b), and a replayed agent
//! whose hooks are not proven to run (7c, in `plan_restart_tests.rs`).

use super::*;
use crate::fixtures::{captured, pane, record, ts, ID_A, ID_B};
use agterm_backup_core::pane::PaneRole;

const LAUNCH: &str = "2026-12-01T08:00:00Z";
const NOW: &str = "2026-12-01T08:10:00Z";

fn run(c: &CapturedPane, t: &Transcripts, launched: Option<&str>) -> PlanRow {
    let mut t = t.clone();
    for r in c.record.iter().chain(&c.journal) {
        t.paths.extend(r.transcript_path.clone());
    }
    plan(&PlanInput {
        captured: std::slice::from_ref(c),
        panes: &[pane(PaneRole::Left)],
        mode: None,
        launched_at: launched.map(ts),
        as_of: None,
        now: Some(ts(NOW)),
        transcripts: &t,
        launch: None,
        restart: false,
    })
    .remove(0)
}

fn skip_code(row: &PlanRow) -> &'static str {
    match &row.action {
        Action::Skip { reason } => reason.code(),
        _ => "typed",
    }
}

#[test]
fn a_directory_that_is_gone_or_no_directory_gets_a_reason_and_no_line() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("a-file");
    std::fs::write(&file, "x").unwrap();
    let cases = [
        (tmp.path().join("deleted"), "is gone"),
        (file, "is not a directory"),
    ];
    for (dir, why) in cases {
        let mut r = record(ID_A, PaneRole::Left, "2026-12-01T07:00:00Z");
        r.agent_cwd = dir.display().to_string();
        let c = captured(Some(r.clone()), vec![]);
        // The edge looks at the disk once; the plan reads what it found.
        let t = Transcripts::scan([&r], None);
        assert_eq!(t.dir_gone(&r).as_deref(), Some(why));
        let row = run(&c, &t, Some(LAUNCH));
        assert_eq!(row.line(), None, "{row:?}");
        assert_eq!(skip_code(&row), "dir-gone");
        let Action::Skip { reason } = &row.action else {
            unreachable!()
        };
        let text = reason.describe();
        assert!(text.contains(&r.agent_cwd) && text.contains(why), "{text}");
    }
    // A directory that is there is typed into, as before.
    let mut r = record(ID_A, PaneRole::Left, "2026-12-01T07:00:00Z");
    r.agent_cwd = tmp.path().display().to_string();
    let t = Transcripts::scan([&r], None);
    let row = run(&captured(Some(r), vec![]), &t, Some(LAUNCH));
    assert!(row.line().is_some(), "{row:?}");
}

#[test]
fn impossible_times_are_shown_and_skipped() {
    for (stamp, says) in [
        ("not a date", "not a date"),
        ("1970-01-01T00:00:07Z", "before 2020"),
        ("2099-01-01T00:00:00Z", "after this run"),
        ("2026-12-01T08:15:01Z", "after this run"),
    ] {
        let r = record(ID_A, PaneRole::Left, stamp);
        // Without a cutoff the current record is chosen as it is: its time is checked.
        let row = run(&captured(Some(r), vec![]), &Transcripts::default(), None);
        assert_eq!(skip_code(&row), "bad-time", "{stamp}: {row:?}");
        let Action::Skip { reason } = &row.action else {
            unreachable!()
        };
        let text = reason.describe();
        assert!(text.contains(stamp) && text.contains(says), "{text}");
    }
    // Within the stated tolerance (5 minutes past the run), a clock a little ahead is trusted.
    let r = record(ID_A, PaneRole::Left, "2026-12-01T08:14:59Z");
    let row = run(&captured(Some(r), vec![]), &Transcripts::default(), None);
    assert!(row.line().is_some(), "{row:?}");
}

#[test]
fn a_record_from_the_future_is_set_aside_by_the_journal_rule_for_the_one_before() {
    let good = record(ID_A, PaneRole::Left, "2026-12-01T07:00:00Z");
    let future = record(ID_B, PaneRole::Left, "2099-01-01T00:00:00Z");
    let c = captured(Some(future.clone()), vec![good, future]);
    let row = run(&c, &Transcripts::default(), Some(LAUNCH));
    assert_eq!(row.session_id.as_deref(), Some(ID_A));
    assert!(row.from_journal && row.line().is_some(), "{row:?}");
    // With only the future record there is nothing to type, and the row says why.
    let only = captured(
        Some(record(ID_B, PaneRole::Left, "2099-01-01T00:00:00Z")),
        vec![],
    );
    let row = run(&only, &Transcripts::default(), Some(LAUNCH));
    assert_eq!(skip_code(&row), "no-record", "{row:?}");
}

#[test]
fn a_record_from_before_2020_in_the_journal_is_skipped_not_typed() {
    // A clock reset to 1970 at boot: the journal rule's newest entry before the cutoff is that one.
    let old = record(ID_B, PaneRole::Left, "1970-01-01T00:01:00Z");
    let c = captured(
        Some(record(ID_A, PaneRole::Left, "2026-12-01T08:05:00Z")),
        vec![record(ID_A, PaneRole::Left, "2026-12-01T07:00:00Z"), old],
    );
    let row = run(&c, &Transcripts::default(), Some(LAUNCH));
    assert_eq!(skip_code(&row), "bad-time", "{row:?}");
}

/// Row 7c: the `SessionEnd` of the agent the reboot killed, written after the launch, names the pane's
/// own conversation: it is no record of the replay, and proves nothing about the replay's hooks.
#[test]
fn a_late_end_of_the_killed_agent_does_not_prove_the_replays_hooks() {
    use agterm_backup_core::terminal::LiveDaemon;
    let mut own = record(ID_A, PaneRole::Left, "2026-12-01T07:00:00Z");
    own.agent = "copilot".into();
    own.transcript_path = None;
    let mut late_end = own.clone();
    late_end.event = "SessionEnd".into();
    late_end.ts = "2026-12-01T08:00:03Z".into();
    let mut p = pane(PaneRole::Left);
    p.foreground = Some(vec![
        "node".into(),
        "/usr/lib/node_modules/@github/copilot/index.js".into(),
    ]);
    p.live = Some(LiveDaemon {
        daemon: "agterm-x".into(),
        running: true,
        clients: Some(1),
        leader_pid: Some(4100),
        started_at: Some(ts("2026-12-01T08:00:02Z")),
    });
    let c = captured(Some(late_end.clone()), vec![own, late_end]);
    let t = Transcripts::default();
    let row = plan(&PlanInput {
        captured: std::slice::from_ref(&c),
        panes: std::slice::from_ref(&p),
        mode: Some(RestoreMode::Live),
        launched_at: Some(ts(LAUNCH)),
        as_of: None,
        now: Some(ts(NOW)),
        transcripts: &t,
        launch: None,
        restart: true,
    })
    .remove(0);
    assert_eq!(skip_code(&row), "hooks-unproven", "{row:#?}");
}
