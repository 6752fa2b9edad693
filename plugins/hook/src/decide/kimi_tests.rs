//! The decision over what Kimi Code 2.1.0 really sends (payloads seen running it offline): its process
//! shows only its title `kimi-code` (no node, no script, no flags), so its TUI is told from a headless
//! `kimi -p` by its terminal: raw in the TUI, canonical (or not a terminal) otherwise.

use super::*;
use agterm_backup_core::agent::KIMI;
use agterm_backup_core::process::{agent_args, AgentProcess};

const SESSION_START: &str = r#"{"hook_event_name":"SessionStart","session_id":"session_e6d8c24b-e08f-4347-9d32-88cedcddb422","cwd":"/w/kimi proj","client_type":"kimi_code_cli","source":"startup","model":"__kimi_env_model__","profile":"agent"}"#;
const PROMPT: &str = r#"{"hook_event_name":"UserPromptSubmit","session_id":"session_e6d8c24b-e08f-4347-9d32-88cedcddb422","cwd":"/w/kimi proj","client_type":"kimi_code_cli","session_title":"hello there","prompt":[{"type":"text","text":"hello there"}],"is_steer":false}"#;

const RESUMED: &str = r#"{"hook_event_name":"SessionStart","session_id":"session_e6d8c24b-e08f-4347-9d32-88cedcddb422","cwd":"/w/kimi proj","client_type":"kimi_code_cli","source":"resume"}"#;

fn run(payload: &str, stdin_raw_terminal: Option<bool>) -> Decision {
    run_after(payload, stdin_raw_terminal, None)
}

fn run_after(
    payload: &str,
    stdin_raw_terminal: Option<bool>,
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
    let payload = Payload::parse(payload.as_bytes()).expect("a real payload parses");
    let process = ProcessFacts {
        located: Located {
            agent: Some(AgentProcess {
                pid: 555,
                argv: vec!["kimi-code".into()],
            }),
            enclosing: None,
        },
        cwd: Some("/w/kimi proj".into()),
        start_time: Some(1_700_000_000),
        stdin_raw_terminal,
    };
    assert_eq!(
        agent_args(&KIMI, &process.located.agent.as_ref().unwrap().argv),
        Some(&[][..]),
        "the process title is Kimi"
    );
    decide(&HookInput {
        spec: &KIMI,
        env: &env,
        pane: tests::pane_of(&env).unwrap().record_pane(),
        payload: &payload,
        process: &process,
        previous,
        now: Utc::now(),
    })
}

#[test]
fn the_tui_on_a_raw_terminal_is_recorded_with_its_session_and_directory() {
    for payload in [SESSION_START, PROMPT] {
        let Decision::Write { record, journal } = run(payload, Some(true)) else {
            panic!("not written");
        };
        assert!(journal);
        assert_eq!(
            (
                record.agent.as_str(),
                record.session_id.as_str(),
                record.agent_cwd.as_str()
            ),
            (
                "kimi",
                "session_e6d8c24b-e08f-4347-9d32-88cedcddb422",
                "/w/kimi proj"
            )
        );
        assert!(record.flags.is_empty());
    }
    // A terminal that could not be read: recorded (a headless run is the rarer mistake to make).
    assert!(matches!(run(SESSION_START, None), Decision::Write { .. }));
}

#[test]
fn kimi_p_on_a_canonical_terminal_or_a_pipe_is_headless() {
    assert!(matches!(
        run(PROMPT, Some(false)),
        Decision::Skip(Skip::Headless(_))
    ));
}

/// A resumed Kimi fires its SessionStart before its editor puts the terminal in raw mode: the pane's own
/// conversation coming back moves the record onto the new process; another conversation, or a new one,
/// on a canonical terminal stays headless.
#[test]
fn a_resumed_session_start_of_the_panes_conversation_is_recorded_before_raw_mode() {
    let Decision::Write { record: first, .. } = run(PROMPT, Some(true)) else {
        panic!("not written");
    };
    let mut old = *first;
    old.agent_pid = Some(444);
    let Decision::Write { record, .. } = run_after(RESUMED, Some(false), Some(&old)) else {
        panic!("the resumed TUI is not recorded");
    };
    assert_eq!(record.agent_pid, Some(555));
    assert_eq!(record.session_id, old.session_id);
    let other = RESUMED.replace("e6d8c24b", "0000aaaa");
    let startup = RESUMED.replace("\"resume\"", "\"startup\"");
    for payload in [other.as_str(), startup.as_str()] {
        assert!(
            matches!(
                run_after(payload, Some(false), Some(&old)),
                Decision::Skip(Skip::Headless(_))
            ),
            "{payload}"
        );
    }
    assert!(matches!(
        run(RESUMED, Some(false)),
        Decision::Skip(Skip::Headless(_))
    ));
}
