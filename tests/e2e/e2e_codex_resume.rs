//! From a record to a resumed conversation, with the real Codex CLI (`--no-daemon`, hooks trusted by
//! `installer apply --trust`): a session runs in one pane and quits; in a fresh pane of the same agterm
//! pane (its shell elsewhere) the resume line built from the record is typed, and the record must then
//! come from a `source: "resume"` SessionStart with the same id, directory and flags, with no new rollout.
//! Skipped (with a SKIPPED line) when the CLI is absent.

use agterm_backup_core::agent::CODEX;
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
const TURN: Duration = Duration::from_secs(40);

#[test]
fn codex_resumed_from_its_record_continues_the_same_conversation() {
    let Some(codex) = agent_cli("codex") else {
        return;
    };
    let rig = Rig::new(&["codex resume", "elsewhere"]);
    rig.pre_install_config(false);
    rig.install(
        Path::new(agterm_backup_testkit::agterm_backup_bin!()),
        "codex",
        true,
    );
    let cwd = rig.root.join("codex resume");
    let pane = rig.pane("right");
    let env = rig.pane_env(&pane);

    let argv = [
        codex.display().to_string(),
        "--no-daemon".into(),
        "-m".into(),
        "mock-model".into(),
    ];
    let first = start_in_pane(&rig.tmux, "first", &cwd, &env, &quote_words(&argv));
    wait_ready(&rig.tmux, &first, Agent::Codex, AGENT_START);
    type_prompt(&rig.tmux, &first, "before the restart");
    wait_screen(&rig.tmux, &first, TURN, "the first reply", |s| {
        s.contains("stub reply to: before the restart")
    });
    let before = rig.wait_record(&pane, TURN, "the Stop record", |r| r["event"] == "Stop");
    let id = before["session_id"]
        .as_str()
        .expect("session_id")
        .to_string();
    rig.tmux.ok(&["kill-session", "-t", "first"]);
    let rollouts = rig.home.codex_rollouts();
    assert_eq!(rollouts.len(), 1, "{rollouts:?}");
    let journal_lines = pane.journal().lines().count();

    let flags: Vec<String> = serde_json::from_value(before["flags"].clone()).expect("flags");
    assert_eq!(flags, ["--no-daemon", "-m", "mock-model"]);
    let agent_cwd = before["agent_cwd"].as_str().expect("agent_cwd");
    assert_eq!(agent_cwd, cwd.display().to_string());
    let shell_dir = rig.root.join("elsewhere");
    let line = ResumeLine::build(
        &CODEX,
        &id,
        &flags,
        agent_cwd,
        Some(&shell_dir.display().to_string()),
    )
    .expect("a resume line from the record");
    let second = start_in_pane(&rig.tmux, "second", &shell_dir, &env, &line.line);
    wait_ready(&rig.tmux, &second, Agent::Codex, AGENT_START);
    assert!(
        !rig.tmux
            .capture(&second, true)
            .contains("Hooks need review"),
        "trusted hooks stay trusted on resume"
    );
    // Codex's SessionStart fires lazily: with the first prompt after the resume.
    type_prompt(&rig.tmux, &second, "after the restart");
    wait_screen(&rig.tmux, &second, TURN, "the resumed reply", |s| {
        s.contains("stub reply to: after the restart")
    });
    let record = rig.wait_record(&pane, TURN, "a record from the resumed session", |r| {
        r["source"] == "resume" && r["event"] == "Stop"
    });
    assert_eq!(record["session_id"], id.as_str(), "record: {record}");
    assert_eq!(record["agent_cwd"], before["agent_cwd"]);
    assert_eq!(
        record["flags"], before["flags"],
        "`resume <id>` is not a kept flag"
    );
    assert_ne!(record["agent_pid"], before["agent_pid"]);
    assert_eq!(rig.home.codex_rollouts(), rollouts, "no new rollout");
    wait_file_holds_all(
        &rollouts[0],
        TURN,
        "both prompts in the one rollout",
        &["before the restart", "after the restart"],
    );
    let journal = pane.journal();
    assert_eq!(
        journal.lines().count(),
        journal_lines,
        "same id and directory: no journal line\n{journal}"
    );
    rig.stub.assert_answered_everything();
}
