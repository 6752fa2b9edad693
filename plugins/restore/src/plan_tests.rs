use super::*;
use crate::fixtures::{captured, pane, record, ts, ID_A, ID_B, SESSION};
use agterm_backup_core::pane::PaneRole;
use agterm_backup_core::terminal::LiveDaemon;

fn transcripts_for(recs: &[&LiveRecord]) -> Transcripts {
    let mut t = Transcripts::default();
    for r in recs {
        if let Some(p) = &r.transcript_path {
            t.paths.insert(p.clone());
        }
        t.codex_ids.insert(r.session_id.to_ascii_lowercase());
    }
    t
}

fn run(
    captured: &[CapturedPane],
    panes: &[PaneView],
    launched: Option<&str>,
    t: &Transcripts,
) -> Vec<PlanRow> {
    plan(&PlanInput {
        captured,
        panes,
        mode: Some(RestoreMode::None),
        launched_at: launched.map(ts),
        as_of: None,
        now: None,
        transcripts: t,
        launch: None,
        restart: false,
    })
}

fn reason(row: &PlanRow) -> &'static str {
    match &row.action {
        Action::Skip { reason } => reason.code(),
        Action::Type { .. } => "type",
        Action::Create { .. } => "create",
        Action::Restart { .. } => "restart",
    }
}

#[test]
fn types_the_resume_line_with_cd_when_the_shell_is_elsewhere() {
    let r = record(ID_A, PaneRole::Left, "2026-11-30T10:00:00Z");
    let t = transcripts_for(&[&r]);
    let mut p = pane(PaneRole::Left);
    p.cwd = Some("/home/u".into());
    let rows = run(
        &[captured(Some(r.clone()), vec![])],
        std::slice::from_ref(&p),
        Some("2026-12-01T00:00:00Z"),
        &t,
    );
    assert_eq!(
        rows[0].line(),
        Some(format!("cd '/w/p' && 'claude' '--resume' '{ID_A}' '--model' 'sonnet'").as_str())
    );
    assert!(!rows[0].from_journal);
    p.cwd = Some("/w/p".into());
    let rows = run(&[captured(Some(r), vec![])], &[p], None, &t);
    assert_eq!(
        rows[0].line(),
        Some(format!("'claude' '--resume' '{ID_A}' '--model' 'sonnet'").as_str())
    );
}

#[test]
fn every_skip_reason() {
    let r = record(ID_A, PaneRole::Left, "2026-11-30T10:00:00Z");
    let t = transcripts_for(&[&r]);
    let idle = pane(PaneRole::Left);
    // no record
    let rows = run(
        &[captured(None, vec![])],
        std::slice::from_ref(&idle),
        None,
        &t,
    );
    assert_eq!(reason(&rows[0]), "no-record");
    // invalid id and unknown agent
    let mut bad = r.clone();
    bad.session_id = "x; rm -rf ~".into();
    assert_eq!(
        reason(
            &run(
                &[captured(Some(bad), vec![])],
                std::slice::from_ref(&idle),
                None,
                &t
            )[0]
        ),
        "invalid-id"
    );
    let mut alien = r.clone();
    alien.agent = "vim".into();
    assert_eq!(
        reason(
            &run(
                &[captured(Some(alien), vec![])],
                std::slice::from_ref(&idle),
                None,
                &t
            )[0]
        ),
        "unknown-agent"
    );
    // pane gone: the only pane is the split of another session
    let mut other = pane(PaneRole::Right);
    other.session_id = "00000000-0000-0000-0000-000000000000".into();
    other.pane_id = None;
    assert_eq!(
        reason(&run(&[captured(Some(r.clone()), vec![])], &[other], None, &t)[0]),
        "pane-gone"
    );
    // busy
    let mut busy = idle.clone();
    busy.foreground = Some(vec!["vim".into(), "notes.md".into()]);
    let row = &run(&[captured(Some(r.clone()), vec![])], &[busy], None, &t)[0];
    assert_eq!(reason(row), "busy");
    assert!(row.target.is_some(), "a busy pane still joined");
    // already running: native, node script and shell-script stand-in
    for fg in [
        vec!["claude".to_string()],
        vec![
            "node".into(),
            "/x/node_modules/@anthropic-ai/claude-code/cli.js".into(),
            "--resume".into(),
            ID_A.into(),
        ],
        vec![
            "/bin/sh".into(),
            "/t/bin/claude".into(),
            "--resume".into(),
            ID_A.into(),
        ],
    ] {
        let mut running = idle.clone();
        running.foreground = Some(fg.clone());
        assert_eq!(
            reason(&run(&[captured(Some(r.clone()), vec![])], &[running], None, &t)[0]),
            "already-running",
            "{fg:?}"
        );
    }
    // transcript gone (claude path missing, claude path never recorded, codex rollout missing)
    let empty = Transcripts::default();
    assert_eq!(
        reason(
            &run(
                &[captured(Some(r.clone()), vec![])],
                std::slice::from_ref(&idle),
                None,
                &empty
            )[0]
        ),
        "transcript-gone"
    );
    let mut no_path = r.clone();
    no_path.transcript_path = None;
    assert_eq!(
        reason(
            &run(
                &[captured(Some(no_path), vec![])],
                std::slice::from_ref(&idle),
                None,
                &t
            )[0]
        ),
        "transcript-gone"
    );
    let mut codex = r.clone();
    codex.agent = "codex".into();
    codex.transcript_path = None;
    assert_eq!(
        reason(
            &run(
                &[captured(Some(codex.clone()), vec![])],
                std::slice::from_ref(&idle),
                None,
                &empty
            )[0]
        ),
        "transcript-gone"
    );
    let row = &run(&[captured(Some(codex), vec![])], &[idle], None, &t)[0];
    assert_eq!(
        row.line(),
        Some(format!("cd '/w/p' && 'codex' 'resume' '{ID_A}' '--model' 'sonnet'").as_str())
    );
}

#[test]
fn precedence_busy_beats_transcript_gone_and_pane_gone_beats_busy() {
    let r = record(ID_A, PaneRole::Left, "2026-11-30T10:00:00Z");
    let mut busy = pane(PaneRole::Left);
    busy.foreground = Some(vec!["sleep".into(), "100".into()]);
    let rows = run(
        &[captured(Some(r), vec![])],
        &[busy],
        None,
        &Transcripts::default(),
    );
    assert_eq!(reason(&rows[0]), "busy");
}

#[test]
fn journal_rule_steps_back_past_records_written_after_launch() {
    let old = record(ID_A, PaneRole::Left, "2026-11-30T10:00:00Z");
    let newer_old = record(ID_A, PaneRole::Left, "2026-11-30T12:00:00Z");
    let replayed = record(ID_B, PaneRole::Left, "2026-12-01T08:00:05Z");
    let t = transcripts_for(&[&old, &replayed]);
    let journal = vec![old.clone(), newer_old.clone(), replayed.clone()];
    let c = captured(Some(replayed.clone()), journal);
    let rows = run(
        std::slice::from_ref(&c),
        &[pane(PaneRole::Left)],
        Some("2026-12-01T08:00:00Z"),
        &t,
    );
    assert_eq!(rows[0].session_id.as_deref(), Some(ID_A));
    assert!(rows[0].from_journal);
    assert_eq!(reason(&rows[0]), "type");
    // Without a launch time the current record stands.
    let rows = run(std::slice::from_ref(&c), &[pane(PaneRole::Left)], None, &t);
    assert_eq!(rows[0].session_id.as_deref(), Some(ID_B));
    assert!(!rows[0].from_journal);
    // Launched before everything: nothing qualifies.
    let rows = run(
        &[c],
        &[pane(PaneRole::Left)],
        Some("2026-11-29T00:00:00Z"),
        &t,
    );
    assert_eq!(reason(&rows[0]), "no-record");
}

#[test]
fn a_replayed_bare_agent_in_the_foreground_never_wins() {
    let old = record(ID_A, PaneRole::Left, "2026-11-30T10:00:00Z");
    let replayed = record(ID_B, PaneRole::Left, "2026-12-01T08:00:05Z");
    let t = transcripts_for(&[&old, &replayed]);
    let mut p = pane(PaneRole::Left);
    p.foreground = Some(vec!["claude".into()]);
    let rows = run(
        &[captured(Some(replayed), vec![old])],
        &[p],
        Some("2026-12-01T08:00:00Z"),
        &t,
    );
    assert_eq!(reason(&rows[0]), "new-conversation");
    assert_eq!(rows[0].session_id.as_deref(), Some(ID_A));
}

#[test]
fn as_of_moves_the_cutoff_by_hand() {
    let a = record(ID_A, PaneRole::Left, "2026-11-30T10:00:00Z");
    let b = record(ID_B, PaneRole::Left, "2026-11-30T14:00:00Z");
    let t = transcripts_for(&[&a, &b]);
    let cap = [captured(Some(b.clone()), vec![a, b])];
    let panes = [pane(PaneRole::Left)];
    let input = |as_of: Option<&str>| PlanInput {
        captured: &cap,
        panes: &panes,
        mode: Some(RestoreMode::Rerun),
        launched_at: Some(ts("2026-12-01T00:00:00Z")),
        as_of: as_of.map(ts),
        now: None,
        transcripts: &t,
        launch: None,
        restart: false,
    };
    assert_eq!(plan(&input(None))[0].session_id.as_deref(), Some(ID_B));
    let rows = plan(&input(Some("2026-11-30T12:00:00Z")));
    assert_eq!(rows[0].session_id.as_deref(), Some(ID_A));
    assert!(rows[0].from_journal);
}

#[test]
fn joins_by_pane_id_first_then_session_and_role() {
    // A swap moved the token of our left pane to the right pane.
    let r = record(ID_A, PaneRole::Left, "2026-11-30T10:00:00Z");
    let t = transcripts_for(&[&r]);
    let mut left = pane(PaneRole::Left);
    left.pane_id = Some("OTHER-TOKEN".into());
    let mut right = pane(PaneRole::Right);
    right.pane_id = r.pane_id.clone().map(|s| s.to_ascii_lowercase());
    let rows = run(
        &[captured(Some(r.clone()), vec![])],
        &[left.clone(), right],
        None,
        &t,
    );
    assert_eq!(rows[0].joined_by, Some(JoinedBy::PANE_ID));
    assert_eq!(rows[0].target.as_ref().unwrap().role, PaneRole::Right);
    // Pre-0.26 (no tokens anywhere): session + role.
    left.pane_id = None;
    let rows = run(&[captured(Some(r), vec![])], &[left], None, &t);
    assert_eq!(rows[0].joined_by, Some(JoinedBy::SESSION_ROLE));
    assert_eq!(rows[0].target.as_ref().unwrap().session_id, SESSION);
}

#[test]
fn live_modes() {
    let r = record(ID_A, PaneRole::Left, "2026-11-30T10:00:00Z");
    let t = transcripts_for(&[&r]);
    let mut p = pane(PaneRole::Left);
    p.live = Some(LiveDaemon {
        daemon: "agterm-x".into(),
        running: true,
        clients: Some(1),
        leader_pid: None,
        started_at: None,
    });
    let input = |panes: &[PaneView]| -> Vec<PlanRow> {
        plan(&PlanInput {
            captured: &[captured(Some(r.clone()), vec![])],
            panes,
            mode: Some(RestoreMode::Live),
            launched_at: Some(ts("2026-12-01T00:00:00Z")),
            as_of: None,
            now: None,
            transcripts: &t,
            launch: None,
            restart: false,
        })
    };
    // Clean quit and relaunch: the daemon kept the agent; nothing is typed.
    p.foreground = Some(vec!["claude".into(), "--model".into(), "sonnet".into()]);
    let rows = input(std::slice::from_ref(&p));
    assert_eq!(
        rows[0].action,
        Action::Skip {
            reason: SkipReason::AlreadyRunning { live: true }
        }
    );
    // Reboot with the denylist: a fresh shell in a recreated daemon; typed.
    p.foreground = None;
    assert_eq!(reason(&input(std::slice::from_ref(&p))[0]), "type");
}

#[test]
fn rows_keep_input_order_and_cover_every_captured_pane() {
    let a = record(ID_A, PaneRole::Left, "2026-11-30T10:00:00Z");
    let b = record(ID_B, PaneRole::Right, "2026-11-30T10:00:00Z");
    let t = transcripts_for(&[&a, &b]);
    let rows = run(
        &[
            captured(Some(b.clone()), vec![]),
            captured(Some(a.clone()), vec![]),
        ],
        &[pane(PaneRole::Left), pane(PaneRole::Right)],
        None,
        &t,
    );
    assert_eq!(rows.len(), 2);
    assert_eq!(
        agterm_backup_agterm::key::split(&rows[0].key).unwrap().role,
        PaneRole::Right
    );
    assert_eq!(rows[0].target.as_ref().unwrap().role, PaneRole::Right);
    assert_eq!(reason(&rows[1]), "type");
}

#[test]
fn a_conversation_the_user_ended_is_skipped_ended_and_a_dying_terminal_is_not() {
    let r = record(ID_A, PaneRole::Left, "2026-11-30T10:00:00Z");
    let t = transcripts_for(&[&r]);
    let idle = pane(PaneRole::Left);
    let rows_for = |rec: &LiveRecord, journal: Vec<LiveRecord>, launched: Option<&str>| {
        run(
            &[captured(Some(rec.clone()), journal)],
            std::slice::from_ref(&idle),
            launched,
            &t,
        )
    };
    for (agent, reason_given, expect) in [
        ("claude", "prompt_input_exit", "ended"),
        ("claude", "logout", "ended"),
        ("codex", "other", "ended"),
        // The terminal died under Claude (pty closed, SIGHUP, SIGTERM): it comes back.
        ("claude", "other", "type"),
        // /clear and /resume replace the conversation; the next SessionStart names the new one.
        ("claude", "clear", "type"),
        ("claude", "resume", "type"),
    ] {
        let mut ended = r.clone();
        ended.agent = agent.into();
        ended.set_end_reason(Some(reason_given));
        let rows = rows_for(&ended, vec![], None);
        assert_eq!(reason(&rows[0]), expect, "{agent} {reason_given}");
        if expect == "ended" {
            assert!(rows[0].target.is_some(), "the row names the pane");
            let Action::Skip { reason } = &rows[0].action else {
                unreachable!()
            };
            assert!(reason.describe().contains(reason_given), "{reason:?}");
        }
    }
    // The journal rule sees the end: the user quit before the restart, then started a new
    // conversation after it; the record in force at the launch is the ended one.
    let mut ended = r.clone();
    ended.set_end_reason(Some("prompt_input_exit"));
    ended.ts = "2026-11-30T11:00:00Z".into();
    let newer = record(ID_B, PaneRole::Left, "2026-12-01T00:00:10Z");
    let rows = rows_for(
        &newer,
        vec![r.clone(), ended.clone(), newer.clone()],
        Some("2026-12-01T00:00:00Z"),
    );
    assert_eq!(reason(&rows[0]), "ended");
    assert!(rows[0].from_journal);
    // Ended after the cutoff (restore run twice in one launch): the newest word on that conversation.
    let mut late_end = r.clone();
    late_end.set_end_reason(Some("prompt_input_exit"));
    late_end.ts = "2026-12-01T00:05:00Z".into();
    let rows = rows_for(
        &late_end,
        vec![r.clone(), late_end.clone()],
        Some("2026-12-01T00:00:00Z"),
    );
    assert_eq!(reason(&rows[0]), "ended");
    // Ended before the cutoff, resumed again by hand after it: not ended any more.
    let again = record(ID_A, PaneRole::Left, "2026-12-01T00:05:00Z");
    let rows = rows_for(
        &again,
        vec![r.clone(), ended.clone(), again.clone()],
        Some("2026-12-01T00:00:00Z"),
    );
    assert_eq!(reason(&rows[0]), "type");
    // A record as the previous release wrote it (no end key) is not ended.
    let old: LiveRecord = serde_json::from_str(&r.to_json_line()).unwrap();
    assert_eq!(reason(&rows_for(&old, vec![], None)[0]), "type");
}
