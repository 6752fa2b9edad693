//! From a record to a resumed conversation, with the real Claude Code CLI: a session runs in one pane and
//! exits; in a fresh pane of the same agterm pane (its shell elsewhere, as after a restart) the resume
//! line built from the record (`ResumeLine`) is typed, and Claude's own SessionStart must say
//! `source: "resume"` with the original id, in the original directory, with no new transcript, and the
//! record must keep the id, the directory and the flags. Skipped (with a SKIPPED line) when the CLI is
//! absent.

use agterm_backup_core::agent::CLAUDE;
use agterm_backup_core::quote::quote_words;
use agterm_backup_core::resume::ResumeLine;
use agterm_backup_testkit::agents::rig::Rig;
use agterm_backup_testkit::agents::{
    start_in_pane, type_prompt, wait_file_holds_all, wait_ready, wait_screen, Agent,
};
use agterm_backup_testkit::paths::agent_cli;
use std::path::Path;
use std::time::Duration;

const AGENT_START: Duration = Duration::from_secs(30);
const TURN: Duration = Duration::from_secs(30);

#[test]
fn claude_resumed_from_its_record_continues_the_same_conversation() {
    let Some(claude) = agent_cli("claude") else {
        return;
    };
    let rig = Rig::new(&["resume me", "elsewhere"]);
    rig.install_claude(Path::new(agterm_backup_testkit::agterm_backup_bin!()));
    let launch_dir = rig.root.join("resume me");
    let pane = rig.pane("left");
    let env = rig.pane_env(&pane);

    let argv = [
        claude.display().to_string(),
        "--model".into(),
        "sonnet".into(),
        "before the restart".into(),
    ];
    let first = start_in_pane(&rig.tmux, "first", &launch_dir, &env, &quote_words(&argv));
    wait_screen(
        &rig.tmux,
        &first,
        AGENT_START + TURN,
        "the first reply",
        |s| s.contains("stub reply to: before the restart"),
    );
    let before = rig.wait_record(&pane, TURN, "the Stop record", |r| r["event"] == "Stop");
    let id = before["session_id"]
        .as_str()
        .expect("session_id")
        .to_string();
    type_prompt(&rig.tmux, &first, "/exit");
    wait_screen(&rig.tmux, &first, TURN, "claude's exit", |s| {
        s.contains("Resume this session with:")
    });
    // The user's /exit is recorded (and journalled) before the pane goes.
    rig.wait_record(&pane, TURN, "the SessionEnd record", |r| {
        r["end_reason"] == "prompt_input_exit"
    });
    rig.tmux.ok(&["kill-session", "-t", "first"]);
    let transcripts = rig.home.claude_transcripts();
    let journal_lines = pane.journal().lines().count();

    // The same agterm pane after a restart: a plain shell in another directory.
    let flags: Vec<String> = serde_json::from_value(before["flags"].clone()).expect("flags");
    let agent_cwd = before["agent_cwd"].as_str().expect("agent_cwd");
    let shell_dir = rig.root.join("elsewhere");
    let line = ResumeLine::build(
        &CLAUDE,
        &id,
        &flags,
        agent_cwd,
        Some(&shell_dir.display().to_string()),
    )
    .expect("a resume line from the record");
    assert!(line.with_cd && line.fits(), "{line:?}");
    let second = start_in_pane(&rig.tmux, "second", &shell_dir, &env, &line.line);
    wait_ready(&rig.tmux, &second, Agent::Claude, AGENT_START);

    let resumed = rig.wait_payload(AGENT_START, "the resumed SessionStart", |p| {
        p["hook_event_name"] == "SessionStart" && p["source"] == "resume"
    });
    assert_eq!(
        resumed["session_id"],
        id.as_str(),
        "the same conversation: {resumed}"
    );
    assert_eq!(resumed["cwd"], launch_dir.display().to_string().as_str());
    let record = rig.wait_record(&pane, TURN, "the resumed SessionStart record", |r| {
        r["source"] == "resume"
    });
    assert_eq!(record["session_id"], id.as_str(), "record: {record}");
    assert_eq!(record["agent_cwd"], before["agent_cwd"]);
    assert_eq!(
        record["flags"], before["flags"],
        "--resume <id> is not a kept flag"
    );
    assert_ne!(record["agent_pid"], before["agent_pid"]);

    // The conversation goes on in the old transcript; no new conversation was created.
    type_prompt(&rig.tmux, &second, "after the restart");
    wait_screen(&rig.tmux, &second, TURN, "the resumed reply", |s| {
        s.contains("stub reply to: after the restart")
    });
    assert_eq!(
        rig.home.claude_transcripts(),
        transcripts,
        "no new transcript"
    );
    // Claude writes its transcript asynchronously: give it a moment to catch up with the screen.
    wait_file_holds_all(
        &transcripts[0],
        TURN,
        "both prompts in the one transcript",
        &["before the restart", "after the restart"],
    );
    // Same id and directory: the one journal line is the end being lifted (the conversation runs again).
    let journal = pane.journal();
    assert_eq!(
        journal.lines().count(),
        journal_lines + 1,
        "one journal line, the end lifted\n{journal}"
    );
    let last: serde_json::Value = serde_json::from_str(journal.lines().last().unwrap()).unwrap();
    assert_eq!(last["session_id"], id.as_str());
    assert!(last.get("end_reason").is_none(), "{last}");
    rig.stub.assert_answered_everything();
}
