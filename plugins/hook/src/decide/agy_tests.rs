//! The decision over Antigravity CLI (`agy`) payloads as its hooks documentation describes them (protojson,
//! `conversationId`, `workspacePaths`): unverified against the real CLI, which no registry carries. Its
//! `SessionStart` fires at every model call: the first one of a conversation writes the record and the
//! journal, the next ones leave both as they are.

use super::*;
use agterm_backup_core::agent::{AGY, QWEN};
use agterm_backup_core::process::{agent_args, AgentProcess};

const ID: &str = "ec33ebf9-0cba-4100-8142-c61503f6c587";
const SESSION_START: &str = r#"{"conversationId":"ec33ebf9-0cba-4100-8142-c61503f6c587","workspacePaths":["/w/agy proj"],"transcriptPath":"/h/.gemini/antigravity-cli/brain/ec33ebf9-0cba-4100-8142-c61503f6c587/.system_generated/logs/transcript_full.jsonl","hookEventName":"SessionStart"}"#;

fn run(
    spec: &'static AgentSpec,
    payload: &str,
    argv: &[&str],
    previous: Option<&LiveRecord>,
) -> Decision {
    let env: Env = [
        ("AGTERM_SESSION_ID", "6b1e0c2a-aaaa-bbbb-cccc-0123456789ab"),
        ("AGTERM_PANE", "left"),
        ("AGTERM_PANE_ID", "PANE-1"),
    ]
    .iter()
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .collect();
    let payload = Payload::parse(payload.as_bytes()).expect("the documented payload parses");
    let process = ProcessFacts {
        located: Located {
            agent: Some(AgentProcess {
                pid: 4242,
                argv: argv.iter().map(|s| s.to_string()).collect(),
            }),
            enclosing: None,
        },
        cwd: Some("/w/elsewhere".into()),
        start_time: Some(1_700_000_000),
        stdin_raw_terminal: None,
    };
    assert!(agent_args(spec, &process.located.agent.as_ref().unwrap().argv).is_some());
    decide(&HookInput {
        spec,
        env: &env,
        pane: tests::pane_of(&env).unwrap().record_pane(),
        payload: &payload,
        process: &process,
        previous,
        // Five seconds after the previous write: a model call of the same turn.
        now: previous
            .and_then(|p| p.written_at())
            .map(|t| t + chrono::Duration::seconds(5))
            .unwrap_or_else(Utc::now),
    })
}

fn written(d: Decision) -> (LiveRecord, bool) {
    match d {
        Decision::Write { record, journal } => (*record, journal),
        other => panic!("not written: {other:?}"),
    }
}

#[test]
fn the_first_model_call_records_the_conversation_in_its_workspace() {
    let (record, journal) = written(run(
        &AGY,
        SESSION_START,
        &["agy", "--dangerously-skip-permissions"],
        None,
    ));
    assert!(journal);
    assert_eq!(
        (
            record.agent.as_str(),
            record.session_id.as_str(),
            record.agent_cwd.as_str()
        ),
        ("agy", ID, "/w/agy proj")
    );
    assert_eq!(
        record.flags,
        vec!["--dangerously-skip-permissions".to_string()]
    );
}

#[test]
fn later_model_calls_of_the_same_conversation_write_nothing() {
    let (first, _) = written(run(&AGY, SESSION_START, &["agy"], None));
    for event in [
        "SessionStart",
        "PreInvocation",
        "PostInvocation",
        "PostToolUse",
    ] {
        let payload = SESSION_START.replace("\"SessionStart\"", &format!("\"{event}\""));
        assert_eq!(
            run(&AGY, &payload, &["agy"], Some(&first)),
            Decision::Fresh,
            "{event}"
        );
    }
    // The same payload from an agent whose SessionStart is once per session always writes: the rule is
    // agy's row, not the hook's.
    let qwen = SESSION_START.replace("hookEventName", "hook_event_name");
    let (qwen_first, _) = written(run(&QWEN, &qwen, &["qwen"], None));
    assert!(matches!(
        run(&QWEN, &qwen, &["qwen"], Some(&qwen_first)),
        Decision::Write { .. }
    ));
    // A new conversation in the pane (`/new`) is a journal line.
    let other = SESSION_START.replace(ID, "0d0e6a1c-1111-4222-8333-944455556666");
    let (record, journal) = written(run(&AGY, &other, &["agy"], Some(&first)));
    assert!(journal);
    assert_eq!(record.session_id, "0d0e6a1c-1111-4222-8333-944455556666");
}

#[test]
fn agy_p_is_headless() {
    assert!(matches!(
        run(&AGY, SESSION_START, &["agy", "-p", "fix it"], None),
        Decision::Skip(Skip::Headless(_))
    ));
}
