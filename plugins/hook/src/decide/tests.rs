use super::*;
use agterm_backup_core::agent::{CLAUDE, CODEX};
use agterm_backup_core::pane::PaneRole;
use agterm_backup_core::process::AgentProcess;
use agterm_backup_core::process::FakeProcesses;
use agterm_backup_core::record::PinOutcome;
use agterm_backup_core::state::StateDir;
use agterm_backup_terminals::pane::{HookPane, NoPane};

const PANE_SESSION: &str = "6b1e0c2a-aaaa-bbbb-cccc-0123456789ab";
const ID: &str = "77e8ca85-2b1c-4a8e-9d0b-0c1d2e3f4a5b";

fn env(extra: &[(&str, &str)]) -> Env {
    let mut e: Env = [
        ("AGTERM_SESSION_ID", PANE_SESSION),
        ("AGTERM_PANE", "left"),
        ("AGTERM_PANE_ID", "PANE-1"),
        ("AGTERM_WINDOW_ID", "W-1"),
        ("CLAUDE_CODE_ENTRYPOINT", "cli"),
        ("CLAUDE_PROJECT_DIR", "/w/p"),
    ]
    .iter()
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .collect();
    for (k, v) in extra {
        e.insert(k.to_string(), v.to_string());
    }
    e
}

fn payload(event: &str, transcript_folder: &str) -> Payload {
    Payload {
        session_id: ID.into(),
        transcript_path: Some(format!(
            "/h/.claude/projects/{transcript_folder}/{ID}.jsonl"
        )),
        cwd: Some("/w/p/sub".into()),
        hook_event_name: Some(event.into()),
        source: (event == "SessionStart").then(|| "startup".into()),
        reason: None,
    }
}

fn process(cmdline: &str, cwd: &str) -> ProcessFacts {
    ProcessFacts {
        located: Located {
            agent: Some(AgentProcess {
                pid: 4242,
                argv: cmdline.split_whitespace().map(String::from).collect(),
            }),
            enclosing: None,
        },
        cwd: Some(cwd.into()),
        start_time: Some(1_700_000_000),
        stdin_raw_terminal: None,
    }
}

/// The pane of `env` as the pipeline finds and resolves it (the registry's `pane::find`; a pane the
/// environment names alone needs no state directory), or why none.
pub(super) fn pane_of(env: &Env) -> Result<HookPane, Skip> {
    let found = crate::terminal_pane::find(env, &FakeProcesses::default(), 0)?;
    let nowhere = StateDir::at("/nonexistent/agterm-backup-test");
    Ok(crate::terminal_pane::resolve(found, &nowhere).expect("a pane of the environment alone"))
}

/// The decision for an event in the pane of `env`; a skip where it names none, as the pipeline's.
fn run(
    spec: &'static AgentSpec,
    env: &Env,
    payload: &Payload,
    process: &ProcessFacts,
    previous: Option<&LiveRecord>,
) -> Decision {
    let pane = match pane_of(env) {
        Ok(pane) => pane,
        Err(skip) => return Decision::Skip(skip),
    };
    decide(&HookInput {
        spec,
        env,
        pane: pane.record_pane(),
        payload,
        process,
        previous,
        // A minute after the previous record: past the refresh interval, so every call writes.
        now: previous
            .and_then(|p| p.written_at())
            .map(|t| t + chrono::Duration::seconds(60))
            .unwrap_or_else(|| "2026-12-01T00:00:00.000Z".parse().unwrap()),
    })
}

fn written(d: Decision) -> (LiveRecord, bool) {
    match d {
        Decision::Write { record, journal } => (*record, journal),
        Decision::Skip(s) => panic!("skipped: {s}"),
        Decision::Fresh => panic!("fresh: nothing written"),
    }
}

#[test]
fn first_event_writes_a_full_record_and_a_journal_line() {
    let e = env(&[]);
    let p = payload("SessionStart", "-w-p");
    let facts = process("claude --model sonnet -c fix the bug", "/w/p");
    let (r, journal) = written(run(&CLAUDE, &e, &p, &facts, None));
    assert!(journal);
    assert_eq!(r.agent, "claude");
    assert_eq!(r.session_id, ID);
    assert_eq!(r.agterm_session, PANE_SESSION.to_ascii_uppercase());
    assert_eq!(r.role, PaneRole::Left);
    assert_eq!(r.pane_id.as_deref(), Some("PANE-1"));
    assert_eq!(r.window_id.as_deref(), Some("W-1"));
    assert_eq!(r.flags, vec!["--model", "sonnet"]);
    assert_eq!(r.agent_cwd, "/w/p");
    assert_eq!(r.hook_cwd, "/w/p/sub");
    assert_eq!(r.agent_pid, Some(4242));
    assert_eq!(r.source.as_deref(), Some("startup"));
    assert_eq!(r.event, "SessionStart");
    assert_eq!(r.terminal, "agterm");
    assert_eq!(
        r.extra.get(AGENT_START_KEY),
        Some(&Value::from(1_700_000_000))
    );
}

#[test]
fn later_events_keep_source_pin_and_unknown_keys_without_a_journal_line() {
    let e = env(&[]);
    let facts = process("claude --model sonnet", "/w/p");
    let (mut first, _) = written(run(
        &CLAUDE,
        &e,
        &payload("SessionStart", "-w-p"),
        &facts,
        None,
    ));
    first.pin = Some(PinOutcome::Ok);
    first.pinned_line = Some("cd '/w/p' && claude --resume x".into());
    first.extra.insert("future".into(), Value::from("kept"));
    let (next, journal) = written(run(
        &CLAUDE,
        &e,
        &payload("PreToolUse", "-w-p"),
        &facts,
        Some(&first),
    ));
    assert!(!journal);
    assert_eq!(next.event, "PreToolUse");
    assert_eq!(next.source.as_deref(), Some("startup"));
    assert_eq!(next.pin, Some(PinOutcome::Ok));
    assert_eq!(next.pinned_line, first.pinned_line);
    assert_eq!(next.extra.get("future"), Some(&Value::from("kept")));
}

#[test]
fn agent_cwd_is_kept_while_the_transcript_is_the_same_and_rechosen_when_it_changes() {
    let e = env(&[]);
    let facts = process("claude", "/w/p");
    let (first, _) = written(run(
        &CLAUDE,
        &e,
        &payload("SessionStart", "-w-p"),
        &facts,
        None,
    ));
    // The process cwd moved (it cannot for Claude, but the rule must not look): kept.
    let moved = process("claude", "/elsewhere");
    let (same, _) = written(run(
        &CLAUDE,
        &e,
        &payload("Stop", "-w-p"),
        &moved,
        Some(&first),
    ));
    assert_eq!(same.agent_cwd, "/w/p");
    // A new transcript under the payload cwd's slug: re-chosen, and journalled.
    let mut p = payload("SessionStart", "-w-p-sub");
    p.session_id = "aaaaaaaa-0000-0000-0000-000000000001".into();
    let (changed, journal) = written(run(&CLAUDE, &e, &p, &moved, Some(&same)));
    assert_eq!(changed.agent_cwd, "/w/p/sub");
    assert!(journal);
    // The previous agent cwd is itself a candidate (a resume from elsewhere reports the real file later).
    let mut e2 = env(&[]);
    e2.remove("CLAUDE_PROJECT_DIR");
    let mut p = payload("UserPromptSubmit", "-w-p");
    p.transcript_path = Some(format!("/h/.claude/projects/-w-p/{ID}.jsonl"));
    p.cwd = Some("/tmp".into());
    let mut prev = first.clone();
    prev.transcript_path = Some("/h/.claude/projects/-tmp/never-created.jsonl".into());
    let (r, _) = written(run(
        &CLAUDE,
        &e2,
        &p,
        &process("claude", "/tmp"),
        Some(&prev),
    ));
    assert_eq!(r.agent_cwd, "/w/p");
}

#[test]
fn codex_records_the_session_cwd_and_drops_resume() {
    let e = env(&[]);
    let mut p = payload("SessionStart", "ignored");
    p.transcript_path = Some("/c/sessions/2026/12/01/rollout-x.jsonl".into());
    p.cwd = Some("/w/q".into());
    let facts = process(&format!("codex resume {ID} -m o3 --search"), "/w/q");
    let (r, _) = written(run(&CODEX, &e, &p, &facts, None));
    assert_eq!(r.agent_cwd, "/w/q");
    assert_eq!(r.flags, vec!["-m", "o3", "--search"]);
}

#[test]
fn headless_nested_and_bad_ids_write_nothing() {
    let e = env(&[]);
    let p = payload("SessionStart", "-w-p");
    let skip = |d: Decision| match d {
        Decision::Skip(s) => s,
        Decision::Write { .. } | Decision::Fresh => panic!("wrote a record"),
    };
    assert!(matches!(
        skip(run(&CLAUDE, &e, &p, &process("claude -p hi", "/w/p"), None)),
        Skip::Headless(_)
    ));
    let sdk = env(&[("CLAUDE_CODE_ENTRYPOINT", "sdk-cli")]);
    assert_eq!(
        skip(run(&CLAUDE, &sdk, &p, &process("claude", "/w/p"), None)),
        Skip::Headless("CLAUDE_CODE_ENTRYPOINT=sdk-cli".into())
    );
    // The entrypoint variable is Claude's: a codex hook ignores it.
    let mut cp = p.clone();
    cp.transcript_path = None;
    assert!(matches!(
        run(&CODEX, &sdk, &cp, &process("codex", "/w"), None),
        Decision::Write { .. }
    ));
    assert!(matches!(
        skip(run(&CODEX, &e, &cp, &process("codex exec hi", "/w"), None)),
        Skip::Headless(_)
    ));
    let mut nested = process("claude", "/w/p");
    nested.located.enclosing = Some((7, "codex"));
    assert_eq!(
        skip(run(&CLAUDE, &e, &p, &nested, None)),
        Skip::Nested(7, "codex")
    );
    for bad in ["../x", "a'b", &"a".repeat(10_000)] {
        let mut bp = p.clone();
        bp.session_id = bad.to_string();
        assert!(matches!(
            skip(run(&CLAUDE, &e, &bp, &process("claude", "/w/p"), None)),
            Skip::BadSessionId(_)
        ));
    }
    let overlay = env(&[("AGTERM_PANE", "")]);
    assert_eq!(
        skip(run(&CLAUDE, &overlay, &p, &process("claude", "/w/p"), None)),
        Skip::from(NoPane::from(
            agterm_backup_agterm::pane_env::NotAPane::Overlay
        ))
    );
}

#[test]
fn without_an_agent_process_flags_come_from_the_same_session_or_are_empty() {
    let e = env(&[]);
    let p = payload("PreToolUse", "-w-p");
    let none = ProcessFacts::default();
    let (r, _) = written(run(&CLAUDE, &e, &p, &none, None));
    assert_eq!(
        (r.flags.len(), r.agent_pid, r.agent_cwd.as_str()),
        (0, None, "/w/p")
    );
    let mut prev = r.clone();
    prev.flags = vec!["--verbose".into()];
    let (r2, _) = written(run(&CLAUDE, &e, &p, &none, Some(&prev)));
    assert_eq!(r2.flags, vec!["--verbose"]);
    assert!(!r2.extra.contains_key(AGENT_START_KEY));
}

#[test]
fn a_recent_record_is_not_rewritten_for_per_event_changes_only() {
    let e = env(&[]);
    let facts = process("claude --model sonnet", "/w/p");
    let (mut first, _) = written(run(
        &CLAUDE,
        &e,
        &payload("SessionStart", "-w-p"),
        &facts,
        None,
    ));
    first.pin = Some(PinOutcome::Ok);
    let p = payload("PreToolUse", "-w-p");
    let at = |ts: &str, process: &ProcessFacts, previous: &LiveRecord| {
        decide(&HookInput {
            spec: &CLAUDE,
            env: &e,
            pane: pane_of(&e).unwrap().record_pane(),
            payload: &p,
            process,
            previous: Some(previous),
            now: ts.parse().unwrap(),
        })
    };
    // 5 s later: fresh, nothing to write.
    assert_eq!(
        at("2026-12-01T00:00:05.000Z", &facts, &first),
        Decision::Fresh
    );
    // 20 s later: refreshed.
    let later = at("2026-12-01T00:00:20.000Z", &facts, &first);
    assert!(matches!(later, Decision::Write { journal: false, .. }));
    // A clock that went backwards never counts as fresh.
    let back = at("2026-11-30T23:59:00.000Z", &facts, &first);
    assert!(matches!(back, Decision::Write { .. }));
    // A material change (new flags) is written at once.
    let other = process("claude --model opus", "/w/p");
    let changed = at("2026-12-01T00:00:01.000Z", &other, &first);
    assert!(matches!(changed, Decision::Write { journal: false, .. }));
    // A turn's end is always written (once per turn), a tool call inside the interval never.
    let stop = decide(&HookInput {
        spec: &CLAUDE,
        env: &e,
        pane: pane_of(&e).unwrap().record_pane(),
        payload: &payload("Stop", "-w-p"),
        process: &facts,
        previous: Some(&first),
        now: "2026-12-01T00:00:05.000Z".parse().unwrap(),
    });
    assert!(matches!(stop, Decision::Write { journal: false, .. }));
    // A failed pin is retried once its backoff step is over, not at every event.
    first.pin = Some(PinOutcome::Error);
    agterm_backup_agterm::pin::note_failure(
        &mut first,
        "L",
        "2026-12-01T00:00:00.000Z".parse().unwrap(),
    );
    let waiting = at("2026-12-01T00:00:05.000Z", &facts, &first);
    assert_eq!(waiting, Decision::Fresh, "inside the backoff step");
    let due = at("2026-12-01T00:00:11.000Z", &facts, &first);
    assert!(matches!(due, Decision::Write { .. }), "the step is over");
    // A record of the previous release (an error, no backoff state) is retried at once.
    first.extra.remove(agterm_backup_agterm::pin::PIN_RETRY_KEY);
    let old = at("2026-12-01T00:00:01.000Z", &facts, &first);
    assert!(matches!(old, Decision::Write { .. }));
}

#[test]
fn a_session_end_is_recorded_and_journalled_and_a_later_event_clears_it() {
    let e = env(&[]);
    let facts = process("claude", "/w/p");
    let (first, _) = written(run(&CLAUDE, &e, &payload("Stop", "-w-p"), &facts, None));
    assert_eq!(first.end_reason(), None);
    let mut end = payload("SessionEnd", "-w-p");
    end.reason = Some("prompt_input_exit".into());
    let (ended, journal) = written(run(&CLAUDE, &e, &end, &facts, Some(&first)));
    assert!(journal, "the journal rule must see the end");
    assert!(ended.ended_by_user());
    assert_eq!(ended.session_id, first.session_id);
    // `claude --resume <id>` in the same pane: not ended any more.
    let mut resumed = payload("SessionStart", "-w-p");
    resumed.source = Some("resume".into());
    let (back, journal) = written(run(&CLAUDE, &e, &resumed, &facts, Some(&ended)));
    assert!(journal && back.end_reason().is_none(), "{back:?}");
    // The terminal dying is recorded as an end, but not the user's.
    end.reason = Some("other".into());
    let (died, _) = written(run(&CLAUDE, &e, &end, &facts, Some(&back)));
    assert_eq!(died.end_reason(), Some("other"));
    assert!(!died.ended_by_user());
    // An end without a reason is still recorded.
    end.reason = None;
    let (bare, _) = written(run(&CLAUDE, &e, &end, &facts, Some(&back)));
    assert_eq!(bare.end_reason(), Some("unknown"));
}

#[test]
fn process_facts_are_read_only_when_they_can_matter() {
    let e = env(&[]);
    let facts = process("claude", "/w/p");
    let p = payload("SessionStart", "-w-p");
    let (first, _) = written(run(&CLAUDE, &e, &p, &facts, None));
    let none = process_reads(&CLAUDE, &p, None, Some(4242));
    assert_eq!(
        none,
        ProcessReads {
            cwd: true,
            known_start_time: None
        }
    );
    let same = process_reads(&CLAUDE, &p, Some(&first), Some(4242));
    assert_eq!(
        same,
        ProcessReads {
            cwd: false,
            known_start_time: Some(1_700_000_000)
        }
    );
    // Another pid (a new agent process): its start time is read.
    assert_eq!(
        process_reads(&CLAUDE, &p, Some(&first), Some(7)).known_start_time,
        None
    );
    // A new transcript: the cwd is read.
    assert!(
        process_reads(
            &CLAUDE,
            &payload("SessionStart", "-x"),
            Some(&first),
            Some(4242)
        )
        .cwd
    );
    // Codex needs it only without a payload cwd.
    assert!(!process_reads(&CODEX, &p, None, Some(1)).cwd);
    let mut bare = p.clone();
    bare.cwd = None;
    assert!(process_reads(&CODEX, &bare, None, Some(1)).cwd);
}

#[test]
fn the_previous_records_own_facts_answer_fresh_without_a_process_walk() {
    let e = env(&[]);
    for (spec, cmdline) in [
        (&CLAUDE, "claude --model sonnet --add-dir a b -- 'a prompt'"),
        (
            &CODEX,
            "codex -m mock -c k=v --add-dir x resume 019a0b1c-2d3e-7f40-8a9b-0c1d2e3f4a5b",
        ),
    ] {
        let facts = process(cmdline, "/w/p");
        let (first, _) = written(run(
            spec,
            &e,
            &payload("SessionStart", "-w-p"),
            &facts,
            None,
        ));
        let p = payload("PreToolUse", "-w-p");
        let at = |process: &ProcessFacts, env: &Env, payload: &Payload| {
            decide(&HookInput {
                spec,
                env,
                pane: pane_of(env).unwrap().record_pane(),
                payload,
                process,
                previous: Some(&first),
                now: "2026-12-01T00:00:05.000Z".parse().unwrap(),
            })
        };
        // The same pid: the recorded flags stand in for argv, and the answer is Fresh — exactly what
        // the full walk answers.
        let own = facts_from_previous(spec, &first, 4242).expect("same agent and pid");
        assert_eq!(at(&own, &e, &p), Decision::Fresh, "{}", spec.name);
        assert_eq!(at(&facts, &e, &p), Decision::Fresh, "{}", spec.name);
        // Another pid or another agent: no shortcut, the caller walks the process table.
        assert_eq!(facts_from_previous(spec, &first, 4243), None);
        let other = if spec.name == "claude" {
            &CODEX
        } else {
            &CLAUDE
        };
        assert_eq!(facts_from_previous(other, &first, 4242), None);
        // What the shortcut cannot vouch for still gets written: a new conversation, a moved pane.
        let mut new_id = payload("PreToolUse", "-w-p");
        new_id.session_id = "0f0c0000-0000-4000-8000-000000000000".into();
        assert!(matches!(
            at(&own, &e, &new_id),
            Decision::Write { journal: true, .. }
        ));
        let moved = env(&[("AGTERM_PANE_ID", "PANE-2")]);
        assert!(matches!(at(&own, &moved, &p), Decision::Write { .. }));
    }
}
