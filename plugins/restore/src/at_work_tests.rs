use super::*;
use crate::fixtures::{record, ts, ID_A, ID_B};
use agterm_backup_core::agent::agent;
use agterm_backup_core::pane::PaneRole;

const LAUNCH: &str = "2026-12-01T08:00:00Z";

fn claude() -> &'static AgentSpec {
    agent("claude").unwrap()
}

/// A state folder whose pane holds A from before the launch, plus `since` (records of the replay).
fn state_with(tmp: &Path, since: &[LiveRecord]) -> (StateDir, PaneKey) {
    let state = StateDir::at(tmp.join("state"));
    state.ensure().unwrap();
    let before = record(ID_A, PaneRole::Left, "2026-12-01T07:00:00Z");
    agterm_backup_terminals::append_journal(&state, &before).unwrap();
    agterm_backup_terminals::write_record(&state, &before).unwrap();
    for r in since {
        agterm_backup_terminals::append_journal(&state, r).unwrap();
        agterm_backup_terminals::write_record(&state, r).unwrap();
    }
    (state, agterm_backup_terminals::record_key(&before).unwrap())
}

fn replay(event: &str, at: &str, transcript: Option<&Path>) -> LiveRecord {
    let mut r = record(ID_B, PaneRole::Left, at);
    r.event = event.into();
    r.transcript_path = transcript.map(|p| p.display().to_string());
    r
}

#[test]
fn no_record_since_the_launch_proves_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let (state, key) = state_with(tmp.path(), &[]);
    let why = idle_since(&state, &key, claude(), ID_A, ts(LAUNCH)).unwrap_err();
    assert!(why.contains("no record since the launch"), "{why}");
}

#[test]
fn a_replay_that_only_started_is_idle_and_one_with_a_prompt_is_not() {
    let tmp = tempfile::tempdir().unwrap();
    let start = replay("SessionStart", "2026-12-01T08:00:05Z", None);
    let (state, key) = state_with(tmp.path(), std::slice::from_ref(&start));
    assert_eq!(idle_since(&state, &key, claude(), ID_A, ts(LAUNCH)), Ok(()));
    // Written after the plan: the user's prompt, recorded by the hook.
    let prompt = replay("UserPromptSubmit", "2026-12-01T08:03:00Z", None);
    agterm_backup_terminals::append_journal(&state, &prompt).unwrap();
    agterm_backup_terminals::write_record(&state, &prompt).unwrap();
    let why = idle_since(&state, &key, claude(), ID_A, ts(LAUNCH)).unwrap_err();
    assert!(why.contains("UserPromptSubmit"), "{why}");
}

#[test]
fn a_prompt_in_the_agents_own_transcript_counts_when_the_hook_missed_it() {
    let tmp = tempfile::tempdir().unwrap();
    let transcript = tmp.path().join("b.jsonl");
    let (state, key) = state_with(
        tmp.path(),
        &[replay(
            "SessionStart",
            "2026-12-01T08:00:05Z",
            Some(&transcript),
        )],
    );
    // Claude's transcript: a meta line and an older prompt do not count; a prompt since the launch does.
    let lines = [
        r#"{"type":"user","isMeta":true,"timestamp":"2026-12-01T08:00:06Z","message":{}}"#,
        r#"{"type":"user","timestamp":"2026-12-01T07:59:00Z","message":{"content":"old"}}"#,
        r#"{"type":"assistant","timestamp":"2026-12-01T08:00:07Z"}"#,
    ];
    std::fs::write(&transcript, lines.join("\n") + "\n").unwrap();
    assert_eq!(idle_since(&state, &key, claude(), ID_A, ts(LAUNCH)), Ok(()));
    let prompt =
        r#"{"type":"user","timestamp":"2026-12-01T08:02:00Z","message":{"content":"fix it"}}"#;
    std::fs::write(&transcript, lines.join("\n") + "\n" + prompt + "\n{torn").unwrap();
    let why = idle_since(&state, &key, claude(), ID_A, ts(LAUNCH)).unwrap_err();
    assert!(why.contains("2026-12-01T08:02:00Z"), "{why}");
}

#[test]
fn codex_rollouts_show_their_prompts_too() {
    let rollout = [
        r#"{"timestamp":"2026-12-01T08:00:01Z","type":"session_meta","payload":{}}"#,
        r#"{"timestamp":"2026-12-01T08:00:02Z","type":"response_item","payload":{"type":"message","role":"user"}}"#,
    ]
    .join("\n");
    assert_eq!(prompt_since(&rollout, ts(LAUNCH)), None);
    let typed = rollout
        + "\n"
        + r#"{"timestamp":"2026-12-01T08:01:00Z","type":"event_msg","payload":{"type":"user_message","message":"hi"}}"#;
    assert_eq!(
        prompt_since(&typed, ts(LAUNCH)).as_deref(),
        Some("2026-12-01T08:01:00Z")
    );
}

/// Through `execute`: the plan said restart (row 7b, the replay's start recorded since the launch); a
/// prompt recorded after the plan keeps `session.restart` from running. Without it the restart is asked
/// of the terminal (the mock has none, so it fails there — past the re-check).
#[test]
fn a_prompt_recorded_after_the_plan_keeps_the_pane_from_being_restarted() {
    use crate::execute::{type_plan, ExecOptions, Outcome};
    use crate::fixtures::{captured, pane};
    use crate::plan::{plan, Action, PlanInput};
    use agterm_backup_core::terminal::{LiveDaemon, RestoreMode, TerminalInfo};
    let gemini = |id: &str, at: &str, event: &str| {
        let mut r = record(id, PaneRole::Left, at);
        r.agent = "gemini".into();
        r.transcript_path = None;
        r.event = event.into();
        r
    };
    let (before, start) = (
        gemini(ID_A, "2026-12-01T07:00:00Z", "SessionStart"),
        gemini(ID_B, "2026-12-01T08:00:05Z", "SessionStart"),
    );
    let mut p = pane(PaneRole::Left);
    p.foreground = Some(vec![
        "node".into(),
        "/usr/lib/node_modules/@google/gemini-cli/bundle/gemini.js".into(),
    ]);
    p.live = Some(LiveDaemon {
        daemon: "agterm-x".into(),
        running: true,
        clients: Some(1),
        leader_pid: Some(4100),
        started_at: Some(ts("2026-12-01T08:00:02Z")),
    });
    let t = crate::transcripts::Transcripts::default();
    let rows = plan(&PlanInput {
        captured: &[captured(Some(start.clone()), vec![before.clone()])],
        panes: std::slice::from_ref(&p),
        mode: Some(RestoreMode::Live),
        launched_at: Some(ts(LAUNCH)),
        as_of: None,
        now: Some(ts("2026-12-01T08:01:00Z")),
        transcripts: &t,
        launch: None,
        restart: true,
    });
    assert!(
        matches!(rows[0].action, Action::Restart { .. }),
        "{:?}",
        rows[0]
    );
    let opts = ExecOptions {
        confirm_timeout: std::time::Duration::from_millis(50),
        settle: std::time::Duration::ZERO,
        dialog_timeout: std::time::Duration::from_millis(50),
        realize_timeout: std::time::Duration::ZERO,
        poll: std::time::Duration::from_millis(5),
        answer: None,
    };
    for (prompted, want) in [(false, "could not restart"), (true, "at work")] {
        let tmp = tempfile::tempdir().unwrap();
        let mut since = vec![start.clone()];
        if prompted {
            since.push(gemini(ID_B, "2026-12-01T08:02:00Z", "BeforeAgent"));
        }
        let state = StateDir::at(tmp.path().join("state"));
        state.ensure().unwrap();
        for r in std::iter::once(&before).chain(&since) {
            agterm_backup_terminals::append_journal(&state, r).unwrap();
            agterm_backup_terminals::write_record(&state, r).unwrap();
        }
        let mut term = crate::mock::MockTerminal::new(TerminalInfo::default(), vec![p.clone()]);
        let out = type_plan(&mut term, &rows, &state, &opts, &mut |_: &str| {});
        let word = match &out[0] {
            Some(Outcome::NotIdle(w)) | Some(Outcome::Failed(w)) => w.clone(),
            other => format!("{other:?}"),
        };
        assert!(word.contains(want), "prompted {prompted}: {word}");
    }
}
