//! The hook records the pane's agent session from its environment and payload, and does nothing where it
//! must not: outside agterm, in an overlay, in scratch, for SDK/headless entrypoints, for unknown agents.

use crate::hook_common::*;
use std::os::unix::fs::PermissionsExt;

fn mode(p: &std::path::Path) -> u32 {
    std::fs::metadata(p).unwrap().permissions().mode() & 0o777
}

#[test]
fn writes_the_record_and_journal_with_private_modes() {
    let w = World::new();
    w.hook(
        "claude",
        &claude_payload("SessionStart", ID_A, "/w/p", "/w/p"),
    );
    let r = w.record().expect("record written");
    assert_eq!(r.session_id, ID_A);
    assert_eq!(r.agent, "claude");
    assert_eq!(r.agterm_session, PANE_SESSION.to_ascii_uppercase());
    assert_eq!(
        r.pane_id.as_deref(),
        Some("9A2F0000-0000-0000-0000-000000000001")
    );
    assert_eq!(r.window_id.as_deref(), Some("W-1"));
    assert_eq!(r.source.as_deref(), Some("startup"));
    assert_eq!(r.agent_cwd, "/w/p");
    assert_eq!(r.hook_cwd, "/w/p");
    assert_eq!(r.terminal, "agterm");
    assert!(r.written_at().is_some(), "ts {:?} is RFC 3339", r.ts);
    assert_eq!(w.journal().len(), 1);
    let s = w.state();
    assert_eq!(mode(s.root()), 0o700);
    assert_eq!(mode(&s.live_dir()), 0o700);
    assert_eq!(mode(&s.record_path(&w.key())), 0o600);
    assert_eq!(mode(&s.journal_path(&w.key())), 0o600);

    // A turn's end in the same session rewrites the record but adds no journal line (a tool call
    // within the refresh interval, with the failed pin waiting out its backoff, rewrites nothing).
    w.hook(
        "claude",
        &claude_payload("PreToolUse", ID_A, "/w/p/sub", "/w/p"),
    );
    assert_eq!(w.record().unwrap().event, "SessionStart");
    w.hook("claude", &claude_payload("Stop", ID_A, "/w/p/sub", "/w/p"));
    let r2 = w.record().unwrap();
    assert_eq!(
        (r2.event.as_str(), r2.hook_cwd.as_str()),
        ("Stop", "/w/p/sub")
    );
    assert_eq!(
        r2.source.as_deref(),
        Some("startup"),
        "source kept from SessionStart"
    );
    assert_eq!(w.journal().len(), 1);
    // A new session id (e.g. /clear) appends one.
    w.hook(
        "claude",
        &claude_payload("SessionStart", ID_B, "/w/p", "/w/p"),
    );
    let j = w.journal();
    assert_eq!(
        j.iter().map(|r| r.session_id.as_str()).collect::<Vec<_>>(),
        [ID_A, ID_B]
    );
    let log = log_text(&w);
    assert!(
        !log.contains("cannot") && !log.contains("internal error"),
        "log: {log}"
    );
}

#[test]
fn outside_agterm_nothing_is_written() {
    let mut w = World::new();
    w.unset("AGTERM_SESSION_ID");
    w.hook(
        "claude",
        &claude_payload("SessionStart", ID_A, "/w/p", "/w/p"),
    );
    assert!(
        !w.state().root().exists(),
        "state dir must not even be created"
    );
}

#[test]
fn overlays_and_scratch_panes_are_skipped() {
    let mut w = World::new();
    w.unset("AGTERM_PANE");
    w.hook(
        "claude",
        &claude_payload("SessionStart", ID_A, "/w/p", "/w/p"),
    );
    assert!(!w.state().root().exists());
    w.set("AGTERM_PANE", "scratch");
    w.hook(
        "claude",
        &claude_payload("SessionStart", ID_A, "/w/p", "/w/p"),
    );
    assert!(!w.state().root().exists());
}

#[test]
fn the_right_pane_and_agterm_aliases_key_the_record() {
    let mut w = World::new();
    w.set("AGTERM_PANE", "split");
    w.hook(
        "claude",
        &claude_payload("SessionStart", ID_A, "/w/p", "/w/p"),
    );
    let key =
        agterm_backup_agterm::key::key(PANE_SESSION, agterm_backup_core::pane::PaneRole::Right)
            .unwrap();
    assert_eq!(
        w.state().read_record(&key).map(|r| r.session_id),
        Some(ID_A.to_string())
    );
    assert!(w.record().is_none(), "nothing for the left pane");
}

#[test]
fn sdk_entrypoints_are_headless() {
    let mut w = World::new();
    w.set("CLAUDE_CODE_ENTRYPOINT", "sdk-cli");
    w.hook(
        "claude",
        &claude_payload("SessionStart", ID_A, "/w/p", "/w/p"),
    );
    assert!(w.record().is_none());
    w.set("CLAUDE_CODE_ENTRYPOINT", "cli");
    w.hook(
        "claude",
        &claude_payload("SessionStart", ID_A, "/w/p", "/w/p"),
    );
    assert!(w.record().is_some());
}

#[test]
fn an_unknown_agent_writes_only_a_log_line() {
    let w = World::new();
    w.hook("vim", &claude_payload("SessionStart", ID_A, "/w/p", "/w/p"));
    assert!(w.record().is_none());
    assert!(
        log_text(&w).contains("unknown agent \"vim\""),
        "log: {}",
        log_text(&w)
    );
    // No agent argument at all.
    let out = w
        .start(
            &[hook_bin().display().to_string(), "hook".into()],
            w.path(),
            &Stdin::Bytes(b"{}"),
        )
        .wait_silent();
    assert_eq!(out.code, 0);
}

#[test]
fn codex_records_its_session_cwd() {
    let w = World::new();
    let payload = serde_json::json!({
        "session_id": ID_B, "transcript_path": null, "cwd": "/w/q",
        "hook_event_name": "SessionStart", "source": "startup", "model": "m",
        "permission_mode": "default"
    });
    w.hook("codex", payload.to_string().as_bytes());
    let r = w.record().unwrap();
    assert_eq!((r.agent.as_str(), r.agent_cwd.as_str()), ("codex", "/w/q"));
    assert_eq!(r.transcript_path, None);
}
