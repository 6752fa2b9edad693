//! zmx sessions through the plan (rows 3, 3c, 3d and the ones a created row still passes) and through
//! the typing (a created session; a user's attach winning the race).

use super::*;
use crate::execute::{type_plan, ExecOptions, Outcome};
use crate::fixtures::{record, ts, ID_A, ID_B};
use crate::mock::MockTerminal;
use crate::plan::{plan, Action, PlanInput, PlanRow};
use crate::transcripts::Transcripts;
use agterm_backup_core::pane::PaneRole;
use agterm_backup_core::state::StateDir;
use agterm_backup_core::terminal::{Created, TerminalInfo};
use agterm_backup_zmx::join::ZMX_SESSION;
use agterm_backup_zmx::session::{ZmxPart, ZmxSession};
use std::time::Duration;

const DIR: &str = "/run/user/1000/zmx";
const BOOT: &str = "2026-12-01T08:00:00Z";

fn session(name: &str, started: Option<&str>) -> ZmxSession {
    ZmxSession {
        socket_dir: DIR.into(),
        name: name.into(),
        started: started.map(|s| ts(s).timestamp()),
    }
}

fn zmx_record(id: &str, name: &str, at: &str) -> LiveRecord {
    let mut r = record(id, PaneRole::Left, at);
    r.agent_cwd = format!("/w/{name}");
    r.transcript_path = Some(format!("/h/.claude/projects/-w-{name}/{id}.jsonl"));
    r.set_zmx(&session(name, Some("2026-11-30T09:00:00Z")));
    r
}

fn captured(record: Option<LiveRecord>, journal: Vec<LiveRecord>) -> CapturedPane {
    let key =
        agterm_backup_terminals::record_key(record.as_ref().or(journal.last()).unwrap()).unwrap();
    CapturedPane {
        key,
        record,
        journal,
    }
}

/// A listed session: its shell idle (`fg` `None`) or running `fg`.
fn listed(name: &str, started: &str, fg: Option<&[&str]>) -> PaneView {
    let mut p = crate::fixtures::pane(PaneRole::Left);
    let s = session(name, Some(started));
    p.session_id = name.into();
    p.pane_id = Some(s.key_name());
    p.session_name = Some(name.into());
    p.cwd = Some(format!("/w/{name}"));
    p.foreground = fg.map(|f| f.iter().map(|w| w.to_string()).collect());
    p.shell_in_front = Some(fg.is_none());
    p.set_zmx(&s);
    p
}

fn plan_at(captured: &[CapturedPane], panes: &[PaneView], boot: Option<&str>) -> Vec<PlanRow> {
    let mut t = Transcripts::default();
    for c in captured {
        for r in c.record.iter().chain(&c.journal) {
            t.paths.insert(r.transcript_path.clone().unwrap());
        }
    }
    plan(&PlanInput {
        captured,
        panes,
        mode: None,
        launched_at: boot.map(ts),
        as_of: None,
        now: Some(ts("2026-12-01T09:00:00Z")),
        transcripts: &t,
        launch: None,
        restart: false,
    })
}

fn code(row: &PlanRow) -> String {
    match &row.action {
        Action::Type { line, .. } => format!("type {line}"),
        Action::Create { line, .. } => format!("create {line}"),
        Action::Restart { line, .. } => format!("restart {line}"),
        Action::Skip { reason } => reason.code().to_string(),
    }
}

#[test]
fn a_session_the_reboot_took_is_created_in_its_directory() {
    let rec = zmx_record(ID_A, "api", "2026-11-30T10:00:00Z");
    let rows = plan_at(&[captured(Some(rec), vec![])], &[], Some(BOOT));
    let row = &rows[0];
    assert!(row.creates(), "{row:#?}");
    assert!(
        code(row).contains(ID_A) && code(row).contains("cd '/w/api'"),
        "{row:#?}"
    );
    let target = row.target.as_ref().unwrap();
    assert_eq!(target.session_id, "api");
    assert_eq!(target.pane_id, Some(session("api", None).key_name()));
    assert_eq!(row.joined_by, None);
}

#[test]
fn a_session_closed_after_the_boot_stays_closed_and_an_unknown_boot_recreates_nothing() {
    let before = zmx_record(ID_A, "api", "2026-11-30T10:00:00Z");
    let after = zmx_record(ID_A, "api", "2026-12-01T08:30:00Z");
    let rows = plan_at(
        &[captured(Some(after), vec![before.clone()])],
        &[],
        Some(BOOT),
    );
    assert_eq!(code(&rows[0]), "session-closed", "{rows:#?}");
    let rows = plan_at(&[captured(Some(before), vec![])], &[], None);
    assert_eq!(code(&rows[0]), "pane-gone", "{rows:#?}");
}

/// A session the user attached again after the boot: its own start is the cutoff, so the conversation
/// from before it (not a new one started in it since) comes back, typed into its idle shell.
#[test]
fn a_listed_session_is_typed_into_by_its_own_start_and_skipped_when_busy() {
    let old = zmx_record(ID_A, "api", "2026-12-01T08:10:00Z");
    let new = zmx_record(ID_B, "api", "2026-12-01T08:40:00Z");
    let idle = [listed("api", "2026-12-01T08:20:00Z", None)];
    let rows = plan_at(
        &[captured(Some(new.clone()), vec![old.clone()])],
        &idle,
        Some(BOOT),
    );
    assert!(
        code(&rows[0]).starts_with("type") && code(&rows[0]).contains(ID_A),
        "{rows:#?}"
    );
    assert!(rows[0].from_journal);
    assert_eq!(rows[0].joined_by, Some(ZMX_SESSION));
    let vim = [listed(
        "api",
        "2026-12-01T08:20:00Z",
        Some(&["vim", "notes"]),
    )];
    let rows = plan_at(&[captured(Some(old.clone()), vec![])], &vim, Some(BOOT));
    assert_eq!(code(&rows[0]), "busy");
    let claude = [listed(
        "api",
        "2026-12-01T08:20:00Z",
        Some(&["claude", "--resume", ID_A]),
    )];
    let rows = plan_at(&[captured(Some(old), vec![])], &claude, Some(BOOT));
    assert_eq!(code(&rows[0]), "already-running");
}

#[test]
fn created_rows_still_pass_the_conversation_rows() {
    // The same conversation in two gone sessions: only the one that held it last comes back.
    let a = zmx_record(ID_A, "one", "2026-11-30T10:00:00Z");
    let b = zmx_record(ID_A, "two", "2026-11-30T11:00:00Z");
    let rows = plan_at(
        &[captured(Some(a), vec![]), captured(Some(b), vec![])],
        &[],
        Some(BOOT),
    );
    let codes: Vec<String> = rows.iter().map(code).collect();
    assert_eq!(codes[0], "duplicate", "{rows:#?}");
    assert!(codes[1].starts_with("create"), "{rows:#?}");
    // Ended by the user, or its transcript gone: nothing is created.
    let mut ended = zmx_record(ID_A, "api", "2026-11-30T10:00:00Z");
    ended.set_end_reason(Some("prompt_input_exit"));
    assert_eq!(
        code(&plan_at(&[captured(Some(ended), vec![])], &[], Some(BOOT))[0]),
        "ended"
    );
    let rec = zmx_record(ID_B, "api", "2026-11-30T10:00:00Z");
    let none = plan(&PlanInput {
        captured: &[captured(Some(rec), vec![])],
        panes: &[],
        mode: None,
        launched_at: Some(ts(BOOT)),
        as_of: None,
        now: None,
        transcripts: &Transcripts::default(),
        launch: None,
        restart: false,
    });
    assert_eq!(code(&none[0]), "transcript-gone");
    // A session of the same name in another socket directory is another session.
    let mut elsewhere = listed("api", "2026-12-01T08:20:00Z", None);
    elsewhere.set_zmx(&ZmxSession {
        socket_dir: "/tmp/zmx-1000".into(),
        ..elsewhere.zmx().unwrap()
    });
    let rec = zmx_record(ID_B, "api", "2026-11-30T10:00:00Z");
    assert!(plan_at(&[captured(Some(rec), vec![])], &[elsewhere], Some(BOOT))[0].creates());
}

fn fast() -> ExecOptions {
    ExecOptions {
        confirm_timeout: Duration::from_millis(300),
        settle: Duration::ZERO,
        dialog_timeout: Duration::ZERO,
        realize_timeout: Duration::ZERO,
        poll: Duration::from_millis(5),
        answer: None,
    }
}

/// The plan of one gone session `api`, and a terminal with no session.
fn gone_api() -> (Vec<PlanRow>, MockTerminal, tempfile::TempDir) {
    let rec = zmx_record(ID_A, "api", "2026-11-30T10:00:00Z");
    let rows = plan_at(&[captured(Some(rec), vec![])], &[], Some(BOOT));
    let tmp = tempfile::tempdir().unwrap();
    (
        rows,
        MockTerminal::new(TerminalInfo::default(), vec![]),
        tmp,
    )
}

#[test]
fn a_created_session_runs_the_line_once_and_counts_when_the_agent_is_up() {
    let (rows, mut term, tmp) = gone_api();
    term.on_create = Some(Box::new(|_, _, panes| {
        panes.push(listed(
            "api",
            "2026-12-01T09:00:00Z",
            Some(&["claude", "--resume", ID_A]),
        ));
        Created::Ours
    }));
    let state = StateDir::at(tmp.path().join("s"));
    let out = type_plan(&mut term, &rows, &state, &fast(), &mut |_: &str| {});
    assert_eq!(out[0], Some(Outcome::Resumed { answered: None }));
    assert_eq!(term.created.len(), 1);
    let (pane, dir, line) = &term.created[0];
    assert_eq!((pane.session_id.as_str(), dir.as_str()), ("api", "/w/api"));
    assert!(line.contains(ID_A));
    assert!(
        term.typed.is_empty(),
        "nothing typed into a session we created"
    );
}

/// A user's `zmx attach api` won the race: zmx ignored our command, so the user's plain shell gets the
/// line typed — once — like any idle shell; had the user started something there, nothing is typed.
#[test]
fn a_user_attach_winning_the_race_gets_the_line_typed_once_or_nothing_when_busy() {
    for busy in [false, true] {
        let (rows, mut term, tmp) = gone_api();
        term.on_create = Some(Box::new(move |_, _, panes| {
            let fg: Option<&[&str]> = busy.then_some(&["htop"]);
            panes.push(listed("api", "2026-12-01T09:00:00Z", fg));
            Created::Theirs
        }));
        let state = StateDir::at(tmp.path().join("s"));
        let out = type_plan(&mut term, &rows, &state, &fast(), &mut |_: &str| {});
        assert_eq!(term.created.len(), 1);
        if busy {
            assert!(term.typed.is_empty(), "{:?}", term.typed);
            assert!(matches!(&out[0], Some(Outcome::NotIdle(_))), "{out:?}");
        } else {
            assert_eq!(term.typed.len(), 1, "{:?}", term.typed);
            assert!(term.typed[0].1.contains(ID_A) && term.typed[0].1.ends_with('\n'));
        }
    }
    // The user attached between the plan and our turn: no create at all, the line is typed.
    let (rows, mut term, tmp) = gone_api();
    term.on_read = Some(Box::new(|n, panes| {
        if n == 0 {
            panes.push(listed("api", "2026-12-01T09:00:00Z", None));
        }
    }));
    let state = StateDir::at(tmp.path().join("s"));
    type_plan(&mut term, &rows, &state, &fast(), &mut |_: &str| {});
    assert!(term.created.is_empty());
    assert_eq!(term.typed.len(), 1);
}

/// The plan of one gone session `api` in this boot's launch, with `resumed` already marked.
fn gone_api_in_launch(resumed: crate::once::Resumed) -> (Vec<PlanRow>, LiveRecord) {
    use crate::once::{LaunchId, ThisLaunch, Trigger};
    let rec = zmx_record(ID_A, "api", "2026-11-30T10:00:00Z");
    let launch = ThisLaunch {
        trigger: Trigger::Restore,
        id: LaunchId::new(
            &agterm_backup_zmx::scope::socket_dir_scope(DIR.into()),
            Some(ts(BOOT)),
        ),
        resumed,
    };
    let c = [captured(Some(rec.clone()), vec![])];
    let mut t = Transcripts::default();
    t.paths.insert(rec.transcript_path.clone().unwrap());
    let rows = plan(&PlanInput {
        captured: &c,
        panes: &[],
        mode: None,
        launched_at: Some(ts(BOOT)),
        as_of: None,
        now: Some(ts("2026-12-01T09:00:00Z")),
        transcripts: &t,
        launch: Some(&launch),
        restart: false,
    });
    (rows, rec)
}

/// A session restore creates is brought back once per launch like a typed one: the row carries the
/// markers, a marker taken already (a shell's start-up trigger, a racing restore) makes it `resumed`, and
/// one taken between the plan and the create stops the create.
#[test]
fn a_created_session_takes_the_launch_markers_and_a_taken_one_creates_nothing() {
    let (rows, rec) = gone_api_in_launch(Default::default());
    assert!(rows[0].creates(), "{:#?}", rows[0]);
    let claim = rows[0]
        .claim
        .clone()
        .expect("a create row carries its claim");
    assert_eq!(claim.session_id, ID_A);
    let mut by_id = crate::once::Resumed::default();
    by_id
        .conversations
        .insert((rec.agent.clone(), rec.session_id.clone()));
    assert_eq!(code(&gone_api_in_launch(by_id).0[0]), "resumed");

    // Executing: the create takes the markers; a second plan's row, whose marker is taken, creates nothing.
    let tmp = tempfile::tempdir().unwrap();
    let state = StateDir::at(tmp.path().join("s"));
    let mut term = MockTerminal::new(TerminalInfo::default(), vec![]);
    term.on_create = Some(Box::new(|_, _, panes| {
        panes.push(listed("api", "2026-12-01T09:00:00Z", Some(&["claude"])));
        Created::Ours
    }));
    type_plan(&mut term, &rows, &state, &fast(), &mut |_: &str| {});
    assert_eq!(term.created.len(), 1);
    let mut late = MockTerminal::new(TerminalInfo::default(), vec![]);
    let out = type_plan(&mut late, &rows, &state, &fast(), &mut |_: &str| {});
    assert!(late.created.is_empty(), "created twice: {:?}", late.created);
    assert!(matches!(&out[0], Some(Outcome::NotIdle(_))), "{out:?}");
}
