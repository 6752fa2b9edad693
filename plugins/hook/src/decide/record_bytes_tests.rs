//! The record the hook writes for a pane of each terminal, byte for byte as the release before each
//! terminal's crate stamped its own fields (issue 33) wrote it: the record file (pretty) and the journal
//! line, over a previous record with every field the rewrite carries on (an unknown key, a failed pin,
//! dropped flags, an end), from an environment naming a pane of the first row too (the multiplexer's
//! pane wins and none of the first row's fields may leak into its record).

use super::*;
use agterm_backup_core::agent::CLAUDE;
use agterm_backup_core::process::AgentProcess;
use agterm_backup_core::record::LiveRecord;

const ID: &str = "77e8ca85-2b1c-4a8e-9d0b-0c1d2e3f4a5b";

fn env() -> Env {
    [
        ("AGTERM_SESSION_ID", "6b1e0c2a-aaaa-bbbb-cccc-0123456789ab"),
        ("AGTERM_PANE", "right"),
        ("AGTERM_PANE_ID", "PANE-2"),
        ("AGTERM_WINDOW_ID", "W-1"),
        ("AGTERM_WORKSPACE_ID", "WS-1"),
        ("CLAUDE_CODE_ENTRYPOINT", "cli"),
    ]
    .iter()
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .collect()
}

fn tmux_pane() -> agterm_backup_tmux::found::HookTmuxPane {
    agterm_backup_tmux::found::HookTmuxPane {
        env: agterm_backup_tmux::env::TmuxEnv {
            socket: "/tmp/tmux-1000/default".into(),
            server_pid: 4242,
            pane_id: "%7".into(),
        },
        name: agterm_backup_tmux::pane::TmuxPane {
            socket: "/tmp/tmux-1000/default".into(),
            session: "work".into(),
            window: 1,
            pane: 2,
            pane_id: Some("%7".into()),
            server_pid: Some(4242),
            server_started: Some(1_700_000_000),
            cwd: Some("/w/p".into()),
        },
    }
}

fn zmx_session() -> agterm_backup_zmx::session::ZmxSession {
    agterm_backup_zmx::session::ZmxSession {
        socket_dir: "/run/user/1000/zmx".into(),
        name: "api".into(),
        started: Some(1_800_000_000),
    }
}

/// The previous record of the same pane: what the rewrite must carry on, in its place.
fn previous(terminal: &str) -> LiveRecord {
    let mut extra = serde_json::Map::new();
    extra.insert("from_a_newer_release".into(), Value::from("kept"));
    if terminal != "agterm" {
        extra.insert(terminal.into(), Value::from("an older identity"));
    }
    extra.insert(AGENT_START_KEY.into(), Value::from(1_600_000_000));
    LiveRecord {
        v: RECORD_VERSION,
        agent: "claude".into(),
        session_id: ID.into(),
        agterm_session: String::new(),
        role: agterm_backup_core::pane::PaneRole::Left,
        pane_id: None,
        transcript_path: None,
        agent_cwd: "/w/p".into(),
        hook_cwd: "/w/p".into(),
        flags: vec![],
        agent_pid: Some(4242),
        event: "Stop".into(),
        ts: "2026-12-01T00:00:00.000Z".into(),
        terminal: terminal.into(),
        source: Some("startup".into()),
        window_id: None,
        workspace_id: None,
        pin: Some(PinOutcome::Error),
        pinned_line: Some("claude --resume x".into()),
        extra,
    }
}

fn record(pane: &dyn RecordPane, terminal: &str, first: bool) -> LiveRecord {
    let env = env();
    let payload = Payload {
        session_id: ID.into(),
        transcript_path: Some(format!("/h/.claude/projects/-w-p/{ID}.jsonl")),
        cwd: Some("/w/p/sub".into()),
        hook_event_name: Some("SessionEnd".into()),
        source: None,
        reason: Some("prompt_input_exit".into()),
    };
    let process = ProcessFacts {
        located: Located {
            agent: Some(AgentProcess {
                pid: 4242,
                argv: ["claude", "--model", "sonnet", "--frobnicate", "x"]
                    .map(String::from)
                    .to_vec(),
            }),
            enclosing: None,
        },
        cwd: Some("/w/p".into()),
        start_time: Some(1_700_000_000),
        stdin_raw_terminal: None,
    };
    let previous = previous(terminal);
    match decide(&HookInput {
        spec: &CLAUDE,
        env: &env,
        payload: &payload,
        process: &process,
        previous: (!first).then_some(&previous),
        pane,
        now: "2026-12-01T00:01:00.000Z".parse().unwrap(),
    }) {
        Decision::Write { record, .. } => *record,
        other => panic!("{terminal}: {other:?}"),
    }
}

/// Each terminal's record as the release before wrote it: over the previous record (`false`) and as a
/// pane's first (`true`), one journal line each (the record file is the same object, pretty).
const BEFORE: [(&str, bool, &str); 6] = [
    (
        "agterm",
        false,
        r#"{"v":1,"agent":"claude","session_id":"77e8ca85-2b1c-4a8e-9d0b-0c1d2e3f4a5b","agterm_session":"6B1E0C2A-AAAA-BBBB-CCCC-0123456789AB","role":"right","pane_id":"PANE-2","transcript_path":"/h/.claude/projects/-w-p/77e8ca85-2b1c-4a8e-9d0b-0c1d2e3f4a5b.jsonl","agent_cwd":"/w/p","hook_cwd":"/w/p/sub","flags":["--model","sonnet"],"agent_pid":4242,"event":"SessionEnd","ts":"2026-12-01T00:01:00.000Z","terminal":"agterm","source":"startup","window_id":"W-1","workspace_id":"WS-1","pin":"error","pinned_line":"claude --resume x","from_a_newer_release":"kept","agent_start":1700000000,"dropped_flags":["--frobnicate"],"end_reason":"prompt_input_exit"}"#,
    ),
    (
        "tmux",
        false,
        r#"{"v":1,"agent":"claude","session_id":"77e8ca85-2b1c-4a8e-9d0b-0c1d2e3f4a5b","agterm_session":"","role":"left","pane_id":null,"transcript_path":"/h/.claude/projects/-w-p/77e8ca85-2b1c-4a8e-9d0b-0c1d2e3f4a5b.jsonl","agent_cwd":"/w/p","hook_cwd":"/w/p/sub","flags":["--model","sonnet"],"agent_pid":4242,"event":"SessionEnd","ts":"2026-12-01T00:01:00.000Z","terminal":"tmux","source":"startup","pin":"error","pinned_line":"claude --resume x","from_a_newer_release":"kept","tmux":{"socket":"/tmp/tmux-1000/default","session":"work","window":1,"pane":2,"pane_id":"%7","server_pid":4242,"server_started":1700000000,"cwd":"/w/p"},"agent_start":1700000000,"dropped_flags":["--frobnicate"],"end_reason":"prompt_input_exit"}"#,
    ),
    (
        "zmx",
        false,
        r#"{"v":1,"agent":"claude","session_id":"77e8ca85-2b1c-4a8e-9d0b-0c1d2e3f4a5b","agterm_session":"","role":"left","pane_id":null,"transcript_path":"/h/.claude/projects/-w-p/77e8ca85-2b1c-4a8e-9d0b-0c1d2e3f4a5b.jsonl","agent_cwd":"/w/p","hook_cwd":"/w/p/sub","flags":["--model","sonnet"],"agent_pid":4242,"event":"SessionEnd","ts":"2026-12-01T00:01:00.000Z","terminal":"zmx","source":"startup","pin":"error","pinned_line":"claude --resume x","from_a_newer_release":"kept","zmx":{"socket_dir":"/run/user/1000/zmx","name":"api","started":1800000000},"agent_start":1700000000,"dropped_flags":["--frobnicate"],"end_reason":"prompt_input_exit"}"#,
    ),
    (
        "agterm",
        true,
        r#"{"v":1,"agent":"claude","session_id":"77e8ca85-2b1c-4a8e-9d0b-0c1d2e3f4a5b","agterm_session":"6B1E0C2A-AAAA-BBBB-CCCC-0123456789AB","role":"right","pane_id":"PANE-2","transcript_path":"/h/.claude/projects/-w-p/77e8ca85-2b1c-4a8e-9d0b-0c1d2e3f4a5b.jsonl","agent_cwd":"/w/p","hook_cwd":"/w/p/sub","flags":["--model","sonnet"],"agent_pid":4242,"event":"SessionEnd","ts":"2026-12-01T00:01:00.000Z","terminal":"agterm","window_id":"W-1","workspace_id":"WS-1","agent_start":1700000000,"dropped_flags":["--frobnicate"],"end_reason":"prompt_input_exit"}"#,
    ),
    (
        "tmux",
        true,
        r#"{"v":1,"agent":"claude","session_id":"77e8ca85-2b1c-4a8e-9d0b-0c1d2e3f4a5b","agterm_session":"","role":"left","pane_id":null,"transcript_path":"/h/.claude/projects/-w-p/77e8ca85-2b1c-4a8e-9d0b-0c1d2e3f4a5b.jsonl","agent_cwd":"/w/p","hook_cwd":"/w/p/sub","flags":["--model","sonnet"],"agent_pid":4242,"event":"SessionEnd","ts":"2026-12-01T00:01:00.000Z","terminal":"tmux","agent_start":1700000000,"dropped_flags":["--frobnicate"],"end_reason":"prompt_input_exit","tmux":{"socket":"/tmp/tmux-1000/default","session":"work","window":1,"pane":2,"pane_id":"%7","server_pid":4242,"server_started":1700000000,"cwd":"/w/p"}}"#,
    ),
    (
        "zmx",
        true,
        r#"{"v":1,"agent":"claude","session_id":"77e8ca85-2b1c-4a8e-9d0b-0c1d2e3f4a5b","agterm_session":"","role":"left","pane_id":null,"transcript_path":"/h/.claude/projects/-w-p/77e8ca85-2b1c-4a8e-9d0b-0c1d2e3f4a5b.jsonl","agent_cwd":"/w/p","hook_cwd":"/w/p/sub","flags":["--model","sonnet"],"agent_pid":4242,"event":"SessionEnd","ts":"2026-12-01T00:01:00.000Z","terminal":"zmx","agent_start":1700000000,"dropped_flags":["--frobnicate"],"end_reason":"prompt_input_exit","zmx":{"socket_dir":"/run/user/1000/zmx","name":"api","started":1800000000}}"#,
    ),
];

#[test]
fn each_terminals_record_is_written_byte_for_byte_as_before() {
    for (terminal, first, before) in BEFORE {
        let env_pane = super::tests::pane_of(&env()).unwrap();
        let pane: &dyn RecordPane = match terminal {
            "agterm" => env_pane.record_pane(),
            "tmux" => &tmux_pane(),
            _ => &zmx_session(),
        };
        let rec = record(pane, terminal, first);
        assert_eq!(rec.to_json_line(), before, "{terminal}, first: {first}");
        let again: LiveRecord = serde_json::from_str(before).unwrap();
        assert_eq!(
            serde_json::to_string_pretty(&rec).unwrap(),
            serde_json::to_string_pretty(&again).unwrap(),
            "{terminal}: the record file"
        );
    }
}
