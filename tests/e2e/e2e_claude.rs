//! End to end with the real Claude Code CLI: it runs offline in a tmux pane against the stub model, fires
//! its hooks into the built `agterm-backup hook claude`, and the pane's live record must name its real
//! session, launch directory, flags and process. Skipped (with a SKIPPED line) when the CLI is absent.

use agterm_backup_core::quote::{quote, quote_words};
use agterm_backup_testkit::agents::rig::Rig;
use agterm_backup_testkit::agents::{
    find_descendant, read_payloads, run_cli, start_in_pane, type_prompt, wait_screen,
};
use agterm_backup_testkit::paths::agent_cli;
use agterm_backup_testkit::settle::wait_hooks_done;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::time::Duration;

const AGENT_START: Duration = Duration::from_secs(30);
const TURN: Duration = Duration::from_secs(30);

fn agterm_backup() -> &'static Path {
    Path::new(agterm_backup_testkit::agterm_backup_bin!())
}

/// The SessionStart payloads Claude sent, in order.
fn session_starts(rig: &Rig) -> Vec<Value> {
    rig.payloads_of("SessionStart")
}

fn file_bytes(path: &Path) -> Option<Vec<u8>> {
    std::fs::read(path).ok()
}

/// The main pane: `claude --model <x> '<prompt with an apostrophe>'` (the prompt argument auto-submits and
/// asks for a tool call, so SessionStart, UserPromptSubmit, PreToolUse and Stop all fire). Then a headless
/// `claude -p` with the same pane env and state dir must change nothing.
#[test]
fn claude_pane_record_names_its_session_dir_flags_and_pid_and_headless_changes_nothing() {
    let Some(claude) = agent_cli("claude") else {
        return;
    };
    let rig = Rig::new(&["main proj"]);
    rig.install_claude(agterm_backup());
    let launch_dir = rig.root.join("main proj");
    let pane = rig.pane("left");
    let env = rig.pane_env(&pane);

    let argv = [
        claude.display().to_string(),
        "--model".into(),
        "sonnet".into(),
        "it's the first prompt USE_TOOL".into(),
    ];
    let tmux_pane = start_in_pane(&rig.tmux, "main", &launch_dir, &env, &quote_words(&argv));
    wait_screen(
        &rig.tmux,
        &tmux_pane,
        AGENT_START + TURN,
        "the tool call's reply",
        |s| s.contains("stub: the tool said stub-tool-ran"),
    );
    let claude_pid = find_descendant(rig.tmux.pane_pid(&tmux_pane), "claude", false)
        .expect("a claude process below the pane's shell");

    let starts = session_starts(&rig);
    assert_eq!(starts.len(), 1, "one SessionStart: {starts:?}");
    let session_id = starts[0]["session_id"]
        .as_str()
        .expect("SessionStart session_id")
        .to_string();
    let transcript = PathBuf::from(
        starts[0]["transcript_path"]
            .as_str()
            .expect("transcript_path"),
    );
    assert!(
        transcript.exists(),
        "Claude wrote its transcript {}",
        transcript.display()
    );
    assert_eq!(
        transcript.file_stem().unwrap().to_string_lossy(),
        session_id
    );
    assert!(
        read_payloads(&rig.payloads)
            .iter()
            .any(|p| p["hook_event_name"] == "PreToolUse"),
        "PreToolUse fired"
    );

    let record = rig.wait_record(&pane, TURN, "the Stop record", |r| r["event"] == "Stop");
    assert_eq!(
        record["session_id"],
        session_id.as_str(),
        "record: {record}"
    );
    assert_eq!(record["agent"], "claude");
    assert_eq!(
        record["agterm_session"],
        pane.session_id.to_uppercase().as_str()
    );
    assert_eq!(record["role"], "left");
    assert_eq!(record["pane_id"], pane.pane_id.as_str());
    assert_eq!(
        record["transcript_path"],
        transcript.display().to_string().as_str()
    );
    assert_eq!(
        record["agent_cwd"],
        launch_dir.display().to_string().as_str()
    );
    assert_eq!(
        record["hook_cwd"],
        launch_dir.display().to_string().as_str()
    );
    assert_eq!(
        record["flags"],
        serde_json::json!(["--model", "sonnet"]),
        "the prompt is dropped"
    );
    assert_eq!(record["agent_pid"], claude_pid);
    assert_eq!(record["terminal"], "agterm");
    let journal = std::fs::read_to_string(pane.journal_path()).expect("the pane's journal exists");
    let lines: Vec<Value> = journal
        .lines()
        .map(|l| serde_json::from_str(l).expect("journal line is JSON"))
        .collect();
    assert!(
        !lines.is_empty() && lines.iter().all(|l| l["session_id"] == session_id.as_str()),
        "{journal}"
    );

    // Headless, same pane env and state dir: its hooks fire (a second SessionStart) but write nothing.
    let record_before = file_bytes(&pane.record_path());
    let journal_before = file_bytes(&pane.journal_path());
    let listing_before = std::fs::read_dir(rig.state_dir.join("live"))
        .unwrap()
        .count();
    let out = run_cli(&claude, &["-p", "hi from headless"], &launch_dir, &env);
    assert!(
        out.contains("stub reply to: hi from headless"),
        "claude -p answered: {out}"
    );
    let starts = session_starts(&rig);
    assert_eq!(
        starts.len(),
        2,
        "the headless run fired its own SessionStart: {starts:?}"
    );
    assert_ne!(starts[1]["session_id"], session_id.as_str());
    // The headless run's hooks have all started before it exits; the files are compared once they are done.
    wait_hooks_done(&rig.root, TURN);
    assert_eq!(
        file_bytes(&pane.record_path()),
        record_before,
        "claude -p changed the record"
    );
    assert_eq!(
        file_bytes(&pane.journal_path()),
        journal_before,
        "claude -p changed the journal"
    );
    assert_eq!(
        std::fs::read_dir(rig.state_dir.join("live"))
            .unwrap()
            .count(),
        listing_before
    );

    // Nested and headless: the pane's claude runs `claude -p` through its Bash tool. The parent's own
    // hooks rewrite the record for this turn, but the nested session must never appear in it.
    let nested = format!(
        "RUN:{} -p 'nested hi'",
        quote(&claude.display().to_string())
    );
    type_prompt(&rig.tmux, &tmux_pane, &nested);
    wait_screen(&rig.tmux, &tmux_pane, TURN, "the nested run's reply", |s| {
        s.contains("stub: the tool said stub reply to: nested hi")
    });
    let starts = session_starts(&rig);
    assert_eq!(
        starts.len(),
        3,
        "the nested run fired its own SessionStart: {starts:?}"
    );
    let nested_id = starts[2]["session_id"].as_str().unwrap().to_string();
    assert_ne!(nested_id, session_id);
    rig.wait_payload(TURN, "the parent's second Stop", |_| {
        rig.payloads_of("Stop")
            .iter()
            .filter(|p| p["session_id"] == session_id.as_str())
            .count()
            >= 2
    });
    let record = rig.wait_record(&pane, TURN, "the record after the nested turn", |r| {
        r["event"] == "Stop" && r["ts"] != record["ts"]
    });
    assert_eq!(
        record["session_id"],
        session_id.as_str(),
        "record: {record}"
    );
    assert_eq!(record["agent_pid"], claude_pid);
    let journal = pane.journal();
    assert!(
        !journal.contains(&nested_id),
        "the nested session reached the journal: {journal}"
    );
    rig.stub.assert_answered_everything();
}
