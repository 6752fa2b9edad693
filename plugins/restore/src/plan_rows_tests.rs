//! The rows added for issue 11: one conversation per pane, remote panes, pins that fire, panes not
//! realized, foregrounds agterm cannot read, and lines that cannot be built.

use super::*;
use crate::fixtures::{captured, pane, record, token, ts, ID_A, ID_B, SESSION};
use agterm_backup_core::pane::PaneRole;
use proptest::prelude::*;

/// Every captured conversation's transcript exists.
fn all_transcripts(captured: &[CapturedPane]) -> Transcripts {
    let mut t = Transcripts::default();
    for r in captured
        .iter()
        .flat_map(|c| c.record.iter().chain(&c.journal))
    {
        t.paths.extend(r.transcript_path.clone());
        t.codex_ids.insert(r.session_id.to_ascii_lowercase());
    }
    t
}

fn run_mode(
    captured: &[CapturedPane],
    panes: &[PaneView],
    mode: Option<RestoreMode>,
    launched: Option<&str>,
) -> Vec<PlanRow> {
    plan(&PlanInput {
        captured,
        panes,
        mode,
        launched_at: launched.map(ts),
        as_of: None,
        now: None,
        transcripts: &all_transcripts(captured),
        launch: None,
        restart: false,
    })
}

fn code(row: &PlanRow) -> &'static str {
    match &row.action {
        Action::Skip { reason } => reason.code(),
        Action::Type { .. } => "type",
        Action::Create { .. } => "create",
        Action::Restart { .. } => "restart",
    }
}

/// Pane `i` of its own agterm session (so every record joins a distinct pane).
fn nth(i: usize) -> (String, String) {
    (
        format!("6B1E0C2A-AAAA-BBBB-CCCC-{i:012X}"),
        format!("9A2F0000-0000-0000-0000-{i:012X}"),
    )
}

fn nth_pane(i: usize) -> PaneView {
    let (session, token) = nth(i);
    let mut p = pane(PaneRole::Left);
    p.session_id = session;
    p.pane_id = Some(token);
    p.session_name = Some(format!("s{i}"));
    p
}

fn nth_record(i: usize, agent: &str, id: &str, at: &str) -> CapturedPane {
    let (session, token) = nth(i);
    let mut r = record(id, PaneRole::Left, at);
    r.agent = agent.into();
    r.agterm_session = session.clone();
    r.pane_id = Some(token);
    CapturedPane {
        key: agterm_backup_agterm::key::key(&session, PaneRole::Left).unwrap(),
        record: Some(r),
        journal: Vec::new(),
    }
}

#[test]
fn a_conversation_held_by_two_panes_goes_to_the_newer_one_only() {
    // Quit in pane 0 at 10:00, resumed by hand in pane 1 at 11:00.
    let captured = [
        nth_record(0, "claude", ID_A, "2026-11-30T10:00:00Z"),
        nth_record(1, "claude", ID_A, "2026-11-30T11:00:00Z"),
    ];
    let rows = run_mode(&captured, &[nth_pane(0), nth_pane(1)], None, None);
    assert_eq!(code(&rows[0]), "duplicate");
    assert_eq!(code(&rows[1]), "type");
    let Action::Skip { reason } = &rows[0].action else {
        unreachable!()
    };
    assert!(
        reason.describe().contains("s1 · left"),
        "{}",
        reason.describe()
    );
    // The same id under another agent is another conversation.
    let captured = [
        nth_record(0, "codex", ID_A, "2026-11-30T10:00:00Z"),
        nth_record(1, "claude", ID_A, "2026-11-30T11:00:00Z"),
    ];
    let rows = run_mode(&captured, &[nth_pane(0), nth_pane(1)], None, None);
    assert_eq!((code(&rows[0]), code(&rows[1])), ("type", "type"));
    // The newer pane is closed: the conversation comes back in the one still open.
    let captured = [
        nth_record(0, "claude", ID_A, "2026-11-30T10:00:00Z"),
        nth_record(1, "claude", ID_A, "2026-11-30T11:00:00Z"),
    ];
    let rows = run_mode(&captured, &[nth_pane(0)], None, None);
    assert_eq!((code(&rows[0]), code(&rows[1])), ("type", "pane-gone"));
}

#[test]
fn the_journal_rule_decides_who_held_it_last() {
    // Pane 1 moved on to conversation B after the launch; before the cutoff it held A at 11:00, newer
    // than pane 0's A at 10:00 — so pane 1 (from its journal) gets A.
    let mut p1 = nth_record(1, "claude", ID_B, "2026-12-01T09:30:00Z");
    let mut old = p1.record.clone().unwrap();
    old.session_id = ID_A.into();
    old.ts = "2026-11-30T11:00:00Z".into();
    p1.journal = vec![old, p1.record.clone().unwrap()];
    let captured = [nth_record(0, "claude", ID_A, "2026-11-30T10:00:00Z"), p1];
    let rows = run_mode(
        &captured,
        &[nth_pane(0), nth_pane(1)],
        Some(RestoreMode::None),
        Some("2026-12-01T09:00:00Z"),
    );
    assert_eq!(code(&rows[0]), "duplicate");
    assert_eq!(code(&rows[1]), "type");
    assert!(rows[1].from_journal);
}

/// Pane `i` holding `id` before the cutoff (its journal's first line at `since`, its record at `last`),
/// and now `now_id` written at `now` (after the cutoff).
fn held_then(i: usize, id: &str, since: &str, now_id: &str, now: &str) -> CapturedPane {
    let mut c = nth_record(i, "claude", id, since);
    let first = c.record.clone().unwrap();
    let mut current = first.clone();
    current.session_id = now_id.into();
    current.ts = now.into();
    c.journal = vec![first];
    if now_id != id {
        c.journal.push(current.clone());
    }
    c.record = Some(current);
    c
}

#[test]
fn a_pane_holding_the_conversation_since_the_launch_keeps_it_on_the_next_restore() {
    const LAUNCH: &str = "2026-12-01T09:00:00Z";
    // Both panes had A open at once; pane 1 last wrote at 11:45, pane 0 at 11:30, so the first restore
    // typed A into pane 1. Pane 1's journal still starts at 11:00 (no journal line for the same
    // conversation), its record is now the resumed one, written after the launch.
    let mut p0 = nth_record(0, "claude", ID_A, "2026-11-30T11:30:00Z");
    p0.journal = vec![nth_record(0, "claude", ID_A, "2026-11-30T10:00:00Z")
        .record
        .unwrap()];
    let p1 = held_then(
        1,
        ID_A,
        "2026-11-30T11:00:00Z",
        ID_A,
        "2026-12-01T09:05:00Z",
    );
    let mut panes = [nth_pane(0), nth_pane(1)];
    panes[1].foreground = Some(vec!["claude".into(), "--resume".into(), ID_A.into()]);
    let captured = [p0, p1];
    let rows = run_mode(&captured, &panes, Some(RestoreMode::None), Some(LAUNCH));
    assert_eq!(
        (code(&rows[0]), code(&rows[1])),
        ("duplicate", "already-running")
    );
    // Resumed by hand after the launch in pane 2, which held B before it: A is not typed into pane 0.
    let captured = [
        nth_record(0, "claude", ID_A, "2026-11-30T11:30:00Z"),
        held_then(
            2,
            ID_B,
            "2026-11-30T09:00:00Z",
            ID_A,
            "2026-12-01T09:10:00Z",
        ),
    ];
    let mut panes = [nth_pane(0), nth_pane(2)];
    panes[1].foreground = Some(vec!["claude".into(), "--resume".into(), ID_A.into()]);
    let rows = run_mode(&captured, &panes, Some(RestoreMode::None), Some(LAUNCH));
    assert_eq!(code(&rows[0]), "duplicate");
    let Action::Skip { reason } = &rows[0].action else {
        unreachable!()
    };
    assert!(reason.describe().contains("s2"), "{}", reason.describe());
    assert_eq!(code(&rows[1]), "new-conversation");
    // Pane 3's first record is from this launch (nothing in force): it holds A all the same.
    let captured = [
        nth_record(0, "claude", ID_A, "2026-11-30T11:30:00Z"),
        nth_record(3, "claude", ID_A, "2026-12-01T09:10:00Z"),
    ];
    let rows = run_mode(
        &captured,
        &[nth_pane(0), nth_pane(3)],
        Some(RestoreMode::None),
        Some(LAUNCH),
    );
    assert_eq!((code(&rows[0]), code(&rows[1])), ("duplicate", "no-record"));
    // Pane 0's agent died with the old terminal, its SessionEnd landing after the launch: that does not
    // make pane 0 the holder over pane 1, which restore typed the conversation into.
    let mut p0 = nth_record(0, "claude", ID_A, "2026-11-30T11:30:00Z");
    let mut late_end = p0.record.clone().unwrap();
    late_end.event = "SessionEnd".into();
    late_end.set_end_reason(Some("other"));
    late_end.ts = "2026-12-01T09:07:00Z".into();
    p0.journal = vec![p0.record.replace(late_end).unwrap()];
    let p1 = held_then(
        1,
        ID_A,
        "2026-11-30T11:45:00Z",
        ID_A,
        "2026-12-01T09:05:00Z",
    );
    let mut panes = [nth_pane(0), nth_pane(1)];
    panes[1].foreground = Some(vec!["claude".into(), "--resume".into(), ID_A.into()]);
    let rows = run_mode(&[p0, p1], &panes, Some(RestoreMode::None), Some(LAUNCH));
    assert_eq!(
        (code(&rows[0]), code(&rows[1])),
        ("duplicate", "already-running")
    );
}

#[test]
fn as_of_gives_each_pane_what_it_held_then() {
    // At 10:30 pane 0 held A and pane 1 held B; pane 0 moved on to B at 11:00, before the launch.
    // Restoring as of 10:30 gives pane 0 A and pane 1 B: pane 0 does not hold B now.
    let p0 = held_then(
        0,
        ID_A,
        "2026-11-30T10:00:00Z",
        ID_B,
        "2026-11-30T11:00:00Z",
    );
    let captured = [p0, nth_record(1, "claude", ID_B, "2026-11-30T10:15:00Z")];
    let rows = plan(&PlanInput {
        captured: &captured,
        panes: &[nth_pane(0), nth_pane(1)],
        mode: Some(RestoreMode::None),
        launched_at: Some(ts("2026-12-01T09:00:00Z")),
        as_of: Some(ts("2026-11-30T10:30:00Z")),
        now: None,
        transcripts: &all_transcripts(&captured),
        launch: None,
        restart: false,
    });
    assert_eq!((code(&rows[0]), code(&rows[1])), ("type", "type"));
    assert_eq!(rows[0].session_id.as_deref(), Some(ID_A));
}

#[test]
fn a_conversation_ended_in_the_pane_that_held_it_last_is_ended_in_every_pane() {
    // Pane 0's agent died with the terminal at 10:00; the user resumed it in pane 1 and quit it there.
    let mut p1 = nth_record(1, "claude", ID_A, "2026-11-30T11:00:00Z");
    let rec = p1.record.as_mut().unwrap();
    rec.event = "SessionEnd".into();
    rec.set_end_reason(Some("prompt_input_exit"));
    let captured = [nth_record(0, "claude", ID_A, "2026-11-30T10:00:00Z"), p1];
    let rows = run_mode(&captured, &[nth_pane(0), nth_pane(1)], None, None);
    assert_eq!((code(&rows[0]), code(&rows[1])), ("ended", "ended"));
    // Resumed by hand after the launch in pane 2 and quit there: ended for pane 0 too.
    let mut p2 = held_then(
        2,
        ID_B,
        "2026-11-30T09:00:00Z",
        ID_A,
        "2026-12-01T09:10:00Z",
    );
    p2.record
        .as_mut()
        .unwrap()
        .set_end_reason(Some("prompt_input_exit"));
    let captured = [nth_record(0, "claude", ID_A, "2026-11-30T10:00:00Z"), p2];
    let rows = run_mode(
        &captured,
        &[nth_pane(0), nth_pane(2)],
        Some(RestoreMode::None),
        Some("2026-12-01T09:00:00Z"),
    );
    assert_eq!((code(&rows[0]), code(&rows[1])), ("ended", "type"));
}

/// A second restore: the first one typed the winner, whose hook then wrote a record in this launch and
/// whose foreground is the agent now; nothing is typed again. The winner's journal keeps only the line
/// of when it first took the conversation (no journal line for the same one), here the oldest time of
/// all, so the journal rule alone would make it the oldest holder.
fn second_pass(first: &[PlanRow], captured: &mut [CapturedPane], panes: &mut [PaneView]) {
    for (row, c) in first.iter().zip(captured.iter_mut()) {
        if row.line().is_some() {
            let i = panes
                .iter()
                .position(|p| Some(&p.session_id) == row.target.as_ref().map(|t| &t.session_id))
                .unwrap();
            let rec = c.record.clone().unwrap();
            panes[i].foreground = Some(vec![
                rec.agent.clone(),
                "--resume".into(),
                rec.session_id.clone(),
            ]);
            let mut first_held = rec.clone();
            first_held.ts = "2026-11-29T00:00:00Z".into();
            c.journal = vec![first_held];
            let mut resumed = rec;
            resumed.ts = "2026-12-01T09:05:00Z".into();
            c.record = Some(resumed);
        }
    }
}

proptest! {
    /// Any panes, any conversations shared among them, any agents and ages: each (agent, conversation)
    /// gets at most one `type` row — the newest record's — every other row of it names that pane, and a
    /// second restore types nothing.
    #[test]
    fn each_conversation_is_typed_into_exactly_one_pane(
        held in proptest::collection::vec((0usize..3, 0usize..2, 0i64..5000), 1..8),
        open in proptest::collection::vec(proptest::bool::ANY, 8),
    ) {
        let ids = [ID_A, ID_B, "0f0c1d2e-3f4a-4b5c-8d6e-7f8091a2b3c4"];
        let agents = ["claude", "codex"];
        let base = ts("2026-11-30T00:00:00Z");
        let captured: Vec<CapturedPane> = held
            .iter()
            .enumerate()
            .map(|(i, (id, ag, min))| {
                let at = (base + chrono::Duration::seconds(*min)).to_rfc3339();
                nth_record(i, agents[*ag], ids[*id], &at)
            })
            .collect();
        let mut panes: Vec<PaneView> =
            (0..held.len()).filter(|&i| open[i]).map(nth_pane).collect();
        const LAUNCH: Option<&str> = Some("2026-12-01T09:00:00Z");
        let rows = run_mode(&captured, &panes, Some(RestoreMode::None), LAUNCH);
        for (i, (id, ag, _)) in held.iter().enumerate() {
            let same: Vec<usize> = (0..held.len())
                .filter(|&j| held[j].0 == *id && held[j].1 == *ag && open[j])
                .collect();
            let typed: Vec<usize> = same.iter().copied().filter(|&j| rows[j].line().is_some()).collect();
            prop_assert!(typed.len() <= 1);
            if !open[i] {
                prop_assert_eq!(code(&rows[i]), "pane-gone");
                continue;
            }
            let newest = same.iter().copied().max_by_key(|&j| (held[j].2, std::cmp::Reverse(j))).unwrap();
            prop_assert_eq!(&typed, &vec![newest]);
            if i != newest {
                prop_assert_eq!(code(&rows[i]), "duplicate");
                let Action::Skip { reason: SkipReason::Duplicate { winner, .. } } = &rows[i].action else {
                    unreachable!()
                };
                prop_assert_eq!(winner, &captured[newest].key);
            }
        }
        let mut captured = captured;
        second_pass(&rows, &mut captured, &mut panes);
        let again = run_mode(&captured, &panes, Some(RestoreMode::None), LAUNCH);
        prop_assert!(again.iter().all(|r| r.line().is_none()), "{:?}", again);
    }
}

#[test]
fn remote_panes_are_never_typed_into() {
    let c = [captured(
        Some(record(ID_A, PaneRole::Left, "2026-11-30T10:00:00Z")),
        vec![],
    )];
    let mut p = pane(PaneRole::Left);
    p.remote = true;
    assert_eq!(code(&run_mode(&c, &[p.clone()], None, None)[0]), "remote");
    p.foreground = Some(vec!["vim".into()]);
    assert_eq!(code(&run_mode(&c, &[p], None, None)[0]), "remote");
}

#[test]
fn a_pin_that_fires_is_left_to_agterm() {
    let mut r = record(ID_A, PaneRole::Left, "2026-11-30T10:00:00Z");
    let mut p = pane(PaneRole::Left);
    p.pin = Some(format!("cd '/w/p' && 'claude' '--resume' '{ID_A}'"));
    let at = |r: &LiveRecord, p: &PaneView, mode| {
        code(
            &run_mode(
                &[captured(Some(r.clone()), vec![])],
                std::slice::from_ref(p),
                mode,
                None,
            )[0],
        )
    };
    assert_eq!(at(&r, &p, Some(RestoreMode::Rerun)), "pinned");
    assert_eq!(
        at(&r, &p, Some(RestoreMode::Live)),
        "type",
        "pins never fire under Live"
    );
    assert_eq!(at(&r, &p, Some(RestoreMode::None)), "type");
    assert_eq!(
        at(&r, &p, None),
        "type",
        "before 0.26 nobody said the legacy setting is on (a pin set by hand)"
    );
    r.pin = Some(PinOutcome::Ok);
    assert_eq!(at(&r, &p, None), "pinned", "agterm said it would run it");
    r.pin = Some(PinOutcome::SettingOff);
    assert_eq!(at(&r, &p, None), "type", "agterm said the setting is off");
    p.pin = Some(String::new());
    assert_eq!(
        at(&r, &p, Some(RestoreMode::Rerun)),
        "type",
        "a plain-shell pin types nothing"
    );
    // Still unrealized: the pin will fire once it is up — pinned, not merely not realized.
    p.pin = Some("claude --resume x".into());
    p.realized = Some(false);
    assert_eq!(at(&r, &p, Some(RestoreMode::Rerun)), "pinned");
    // The pin fired and the agent runs: that is what the row says.
    p.realized = Some(true);
    p.foreground = Some(vec!["claude".into()]);
    assert_eq!(at(&r, &p, Some(RestoreMode::Rerun)), "already-running");
}

#[test]
fn a_realized_pane_whose_pin_had_its_chance_is_planned_like_any_other() {
    let r = record(ID_A, PaneRole::Left, "2026-11-30T10:00:00Z");
    let c = [captured(Some(r), vec![])];
    let mut p = pane(PaneRole::Left);
    p.pin = Some("claude --resume x".into());
    let at = |p: &PaneView, now: Option<&str>| {
        code(
            &plan(&PlanInput {
                captured: &c,
                panes: std::slice::from_ref(p),
                mode: Some(RestoreMode::Rerun),
                launched_at: Some(ts("2026-12-01T09:00:00Z")),
                as_of: None,
                now: now.map(ts),
                transcripts: &all_transcripts(&c),
                launch: None,
                restart: false,
            })[0],
        )
    };
    assert_eq!(
        at(&p, Some("2026-12-01T09:00:10Z")),
        "pinned",
        "just launched"
    );
    assert_eq!(at(&p, None), "pinned", "no clock: still coming");
    assert_eq!(
        at(&p, Some("2026-12-01T09:10:00Z")),
        "type",
        "fired long ago (or never will: a window reopened later), the pane sits idle"
    );
    p.realized = Some(false);
    assert_eq!(
        at(&p, Some("2026-12-01T09:10:00Z")),
        "pinned",
        "it fires once the pane comes up"
    );
}

#[test]
fn unrealized_and_unreadable_panes_are_not_idle_shells() {
    let c = [captured(
        Some(record(ID_A, PaneRole::Left, "2026-11-30T10:00:00Z")),
        vec![],
    )];
    let mut p = pane(PaneRole::Left);
    p.realized = Some(false);
    assert_eq!(
        code(&run_mode(&c, &[p.clone()], None, None)[0]),
        "not-realized"
    );
    p.realized = Some(true);
    // 0.26+: no `foreground` and no `foregroundShell` — a setuid sudo holds the pane.
    p.shell_in_front = Some(false);
    assert_eq!(
        code(&run_mode(&c, &[p.clone()], None, None)[0]),
        "hidden-foreground"
    );
    p.shell_in_front = Some(true);
    assert_eq!(code(&run_mode(&c, &[p.clone()], None, None)[0]), "type");
    p.shell_in_front = None;
    assert_eq!(
        code(&run_mode(&c, &[p], None, None)[0]),
        "type",
        "a build that does not report the shell: the foreground alone decides"
    );
}

#[test]
fn a_directory_or_flag_no_line_can_carry_has_its_own_reason() {
    let p = pane(PaneRole::Left);
    let mut cases = Vec::new();
    for dir in [
        "/w/p\u{1b}]0;pwned\u{7}",
        "relative/dir",
        "/w/new\nline",
        "",
    ] {
        let mut r = record(ID_A, PaneRole::Left, "2026-11-30T10:00:00Z");
        r.agent_cwd = dir.into();
        cases.push(r);
    }
    for flag in ["--append-system-prompt=a\nb", "\t", "--x=\u{7f}"] {
        let mut r = record(ID_A, PaneRole::Left, "2026-11-30T10:00:00Z");
        r.flags = vec![flag.into()];
        cases.push(r);
    }
    for r in cases {
        let rows = run_mode(
            &[captured(Some(r.clone()), vec![])],
            std::slice::from_ref(&p),
            None,
            None,
        );
        assert_eq!(
            code(&rows[0]),
            "unquotable",
            "{:?} {:?}",
            r.agent_cwd,
            r.flags
        );
        let Action::Skip { reason } = &rows[0].action else {
            unreachable!()
        };
        assert!(reason
            .describe()
            .starts_with("cannot go into a resume line"));
    }
    let mut bad = record(ID_A, PaneRole::Left, "2026-11-30T10:00:00Z");
    bad.session_id = "../x".into();
    let rows = run_mode(&[captured(Some(bad), vec![])], &[p], None, None);
    assert_eq!(code(&rows[0]), "invalid-id");
    let _ = (SESSION, token(PaneRole::Left));
}
