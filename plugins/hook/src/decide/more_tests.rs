//! The decision over what Gemini CLI 0.61.0, Copilot CLI 1.0.102, Qwen Code 0.24.4 and opencode's plugin
//! really send (the payloads and process argvs seen in `research/agents-offline-more.md` runs): payload →
//! record, and their headless runs skipped.

use super::*;
use agterm_backup_core::agent::{COPILOT, GEMINI, OPENCODE, QWEN};
use agterm_backup_core::process::{agent_args, AgentProcess};

const GEMINI_BEFORE_AGENT: &str = r#"{"session_id":"690b9e62-7ec9-42f1-a8f8-be5f078c33e2","transcript_path":"/h/.gemini/tmp/proj/chats/session-2026-12-01T11-19-690b9e62.jsonl","cwd":"/w/proj","hook_event_name":"BeforeAgent","timestamp":"2026-12-01T11:19:42.917Z","prompt":"hello gemini USE_TOOL"}"#;
const COPILOT_SESSION_START: &str = r#"{"hook_event_name":"SessionStart","session_id":"7e456ad7-06ad-444e-86bf-17092df9fd91","timestamp":"2026-12-01T11:20:25.847Z","cwd":"/w/proj","source":"new","initial_prompt":"hello copilot"}"#;
const COPILOT_STOP: &str = r#"{"hook_event_name":"Stop","session_id":"7e456ad7-06ad-444e-86bf-17092df9fd91","timestamp":"2026-12-01T11:20:26.081Z","cwd":"/w/proj","transcript_path":"/h/.copilot/session-state/7e456ad7-06ad-444e-86bf-17092df9fd91/events.jsonl","stop_reason":"end_turn","stop_hook_active":false}"#;
const QWEN_SESSION_START: &str = r#"{"session_id":"22b2ee57-a0b0-457b-a677-7708c1d75621","transcript_path":"/h/.qwen/projects/-w-proj/chats/22b2ee57-a0b0-457b-a677-7708c1d75621.jsonl","cwd":"/w/proj","hook_event_name":"SessionStart","timestamp":"2026-12-01T11:20:55.514Z","permission_mode":"auto","source":"startup","model":"stub-model"}"#;

fn env() -> Env {
    [
        ("AGTERM_SESSION_ID", "6b1e0c2a-aaaa-bbbb-cccc-0123456789ab"),
        ("AGTERM_PANE", "right"),
        ("AGTERM_PANE_ID", "PANE-2"),
        // Gemini and Qwen export Claude's variable too; it must not steer their directory.
        ("CLAUDE_PROJECT_DIR", "/elsewhere"),
    ]
    .iter()
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .collect()
}

fn facts(argv: &str) -> ProcessFacts {
    ProcessFacts {
        located: Located {
            agent: Some(AgentProcess {
                pid: 777,
                argv: argv.split_whitespace().map(String::from).collect(),
            }),
            enclosing: None,
        },
        cwd: Some("/w/proc-cwd".into()),
        start_time: Some(1_700_000_000),
        stdin_raw_terminal: None,
    }
}

fn run(
    spec: &'static AgentSpec,
    payload: &str,
    argv: &str,
    previous: Option<&LiveRecord>,
) -> Decision {
    let env = env();
    let payload = Payload::parse(payload.as_bytes()).expect("a real payload parses");
    let process = facts(argv);
    assert!(
        agent_args(spec, &process.located.agent.as_ref().unwrap().argv).is_some(),
        "{argv} is {}",
        spec.name
    );
    decide(&HookInput {
        spec,
        env: &env,
        pane: tests::pane_of(&env).unwrap().record_pane(),
        payload: &payload,
        process: &process,
        previous,
        now: previous
            .and_then(|p| p.written_at())
            .map(|t| t + chrono::Duration::seconds(60))
            .unwrap_or_else(|| "2026-12-01T00:00:00.000Z".parse().unwrap()),
    })
}

fn written(d: Decision) -> LiveRecord {
    match d {
        Decision::Write { record, .. } => *record,
        other => panic!("not written: {other:?}"),
    }
}

#[test]
fn gemini_records_its_session_in_the_payloads_directory() {
    let argv =
        "/usr/bin/node --max-old-space-size=12052 /p/node_modules/.bin/gemini -m gemini-2.5-flash";
    let r = written(run(&GEMINI, GEMINI_BEFORE_AGENT, argv, None));
    assert_eq!(
        (r.agent.as_str(), r.session_id.as_str(), r.event.as_str()),
        (
            "gemini",
            "690b9e62-7ec9-42f1-a8f8-be5f078c33e2",
            "BeforeAgent"
        )
    );
    assert_eq!(r.agent_cwd, "/w/proj");
    assert_eq!(r.flags, ["-m", "gemini-2.5-flash"]);
    assert!(r.transcript_path.unwrap().ends_with("-690b9e62.jsonl"));
    let headless = "/usr/bin/node /p/node_modules/.bin/gemini -p hello -o json";
    assert!(matches!(
        run(&GEMINI, GEMINI_BEFORE_AGENT, headless, None),
        Decision::Skip(Skip::Headless(_))
    ));
    // `-i <prompt>` stays interactive; its prompt is not a flag to keep.
    let interactive = "/usr/bin/node /p/node_modules/.bin/gemini -i hello --yolo";
    assert_eq!(
        written(run(&GEMINI, GEMINI_BEFORE_AGENT, interactive, None)).flags,
        ["--yolo"]
    );
}

#[test]
fn copilot_keeps_the_transcript_once_stop_names_it() {
    let native =
        "/p/node_modules/@github/copilot-linux-x64/copilot --model gpt-4.1 --resume=7e456ad7";
    let start = written(run(&COPILOT, COPILOT_SESSION_START, native, None));
    assert_eq!(start.source.as_deref(), Some("new"));
    assert_eq!(
        start.flags,
        ["--model", "gpt-4.1"],
        "the resume flag is not kept"
    );
    assert_eq!(start.transcript_path, None);
    assert_eq!(start.agent_cwd, "/w/proj");
    let stop = written(run(&COPILOT, COPILOT_STOP, native, Some(&start)));
    assert!(stop.transcript_path.unwrap().ends_with("/events.jsonl"));
    assert_eq!(
        stop.source.as_deref(),
        Some("new"),
        "kept from SessionStart"
    );
    for headless in ["-p hi --allow-all-tools", "-s -p hi", "--acp"] {
        let argv = format!("/p/copilot-linux-x64/copilot {headless}");
        assert!(
            matches!(
                run(&COPILOT, COPILOT_STOP, &argv, None),
                Decision::Skip(Skip::Headless(_))
            ),
            "{argv}"
        );
    }
}

#[test]
fn qwen_one_shot_prompts_are_headless() {
    let tui = "/usr/bin/node --expose-gc /p/node_modules/@qwen-code/qwen-code/cli.js -m stub-model";
    let r = written(run(&QWEN, QWEN_SESSION_START, tui, None));
    assert_eq!(
        (r.agent.as_str(), r.agent_cwd.as_str()),
        ("qwen", "/w/proj")
    );
    assert_eq!(r.flags, ["-m", "stub-model"]);
    for one_shot in ["fix the tests", "-p hi", "-o stream-json", "-m x -- hi"] {
        let argv = format!("/usr/bin/node /p/node_modules/.bin/qwen {one_shot}");
        assert!(
            matches!(
                run(&QWEN, QWEN_SESSION_START, &argv, None),
                Decision::Skip(Skip::Headless(_))
            ),
            "{argv}"
        );
    }
}

#[test]
fn gemini_turn_events_count_as_our_moments() {
    let argv = "/usr/bin/node /p/node_modules/.bin/gemini -m gemini-2.5-flash";
    let first = written(run(&GEMINI, GEMINI_BEFORE_AGENT, argv, None));
    let env = env();
    let process = facts(argv);
    let at = |event: &str| {
        let text = GEMINI_BEFORE_AGENT.replace("\"BeforeAgent\"", &format!("\"{event}\""));
        let payload = Payload::parse(text.as_bytes()).unwrap();
        decide(&HookInput {
            spec: &GEMINI,
            env: &env,
            pane: tests::pane_of(&env).unwrap().record_pane(),
            payload: &payload,
            process: &process,
            previous: Some(&first),
            // A second after the last write: inside the refresh interval.
            now: first.written_at().unwrap() + chrono::Duration::seconds(1),
        })
    };
    // AfterAgent ends a turn (our Stop): the record says where the turn ended, every time.
    assert!(matches!(at("AfterAgent"), Decision::Write { .. }));
    // BeforeTool is a tool call (our PreToolUse): a storm of them is held to the refresh interval.
    assert_eq!(at("BeforeTool"), Decision::Fresh);
    assert_eq!(GEMINI.moment("BeforeAgent"), "UserPromptSubmit");
    assert_eq!(QWEN.moment("Stop"), "Stop");
}

/// What Gemini CLI 0.61.0 sent at `/quit` and opencode's plugin at `dispose` (the e2e run's payloads): the
/// record carries the end's reason, and the next event of the conversation clears it.
#[test]
fn gemini_and_opencode_ends_are_recorded_with_their_reason() {
    const GEMINI_END: &str = r#"{"session_id":"690b9e62-7ec9-42f1-a8f8-be5f078c33e2","transcript_path":"/h/.gemini/tmp/proj/chats/session-2026-12-01T11-19-690b9e62.jsonl","cwd":"/w/proj","hook_event_name":"SessionEnd","timestamp":"2026-12-02T06:53:40.957Z","reason":"exit"}"#;
    const OPENCODE_END: &str = r#"{"session_id":"ses_dca7870beffe7KdsO9KaJiGjKQ","cwd":"/w/proj","hook_event_name":"SessionEnd","reason":"dispose"}"#;
    let gemini = "/usr/bin/node /p/node_modules/.bin/gemini";
    let opencode = "/p/node_modules/opencode-linux-x64/bin/opencode -m stub/stub-model";
    for (spec, payload, argv, reason) in [
        (&GEMINI, GEMINI_END, gemini, "exit"),
        (&OPENCODE, OPENCODE_END, opencode, "dispose"),
    ] {
        let ended = written(run(spec, payload, argv, None));
        assert_eq!(ended.event, "SessionEnd", "{}", spec.name);
        assert_eq!(ended.end_reason(), Some(reason), "{}", spec.name);
        let later = payload.replace("\"SessionEnd\"", "\"SessionStart\"");
        let resumed = written(run(spec, &later, argv, Some(&ended)));
        assert_eq!(resumed.end_reason(), None, "{}", spec.name);
    }
}
