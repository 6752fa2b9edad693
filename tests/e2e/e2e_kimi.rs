//! End to end with the real Kimi Code 2.1.0 (its npm bundle on Node 22, offline against the stub model's
//! Chat Completions): `installer apply --agents kimi` wires its `config.toml` next to the user's own hook
//! (here the payload logger), Kimi's own hooks write the pane's record (agent, conversation, directory)
//! from an agterm pane, and the resume line the record gives (`kimi --session <id>`, typed in the
//! conversation's directory) brings back that same conversation (`SessionStart` `source: "resume"`).
//! Headless runs in that pane (`kimi -p` typed at its prompt, and from a pipe) change nothing.
//! `installer remove` then gives back the user's file byte for byte. Skipped without the CLI (a failure
//! under `CI`).

use agterm_backup_core::agent::KIMI;
use agterm_backup_core::quote::quote;
use agterm_backup_core::resume::ResumeLine;
use agterm_backup_testkit::agents::rig::Rig;
use agterm_backup_testkit::agents::{
    payload_logger_command, run_cli, start_in_pane, type_prompt, wait_ready, wait_screen, Agent,
};
use agterm_backup_testkit::paths::agent_cli;
use serde_json::Value;
use std::path::Path;
use std::time::Duration;

const AGENT_START: Duration = Duration::from_secs(40);
const TURN: Duration = Duration::from_secs(40);

fn agterm_backup() -> &'static Path {
    Path::new(agterm_backup_testkit::agterm_backup_bin!())
}

/// Kimi's prompt payload carries content parts (`[{"type":"text","text":…}]`), not a string.
fn prompt_text(payload: &Value) -> String {
    match &payload["prompt"] {
        Value::String(s) => s.clone(),
        Value::Array(parts) => parts
            .iter()
            .filter_map(|p| p["text"].as_str())
            .collect::<Vec<_>>()
            .join(""),
        _ => String::new(),
    }
}

fn wait_payload(rig: &Rig, what: &str, pred: impl Fn(&Value) -> bool) -> Value {
    let mut found = None;
    agterm_backup_testkit::tmux::Tmux::wait_for(TURN, what, || {
        found = agterm_backup_testkit::agents::read_payloads(&rig.payloads)
            .into_iter()
            .find(|p| pred(p));
        found.as_ref().map(|_| ())
    });
    found.unwrap()
}

#[test]
fn kimi_pane_is_recorded_resumed_by_its_line_and_remove_gives_the_file_back() {
    let Some(kimi) = agent_cli("kimi") else {
        return;
    };
    let rig = Rig::new(&["kimi proj"]);
    let dir = rig.root.join("kimi proj");
    let logger = payload_logger_command(&rig.payloads);
    rig.home.seed_kimi(&[&dir], Some(&logger));
    let config = rig.home.kimi_home().join("config.toml");
    let original = std::fs::read(&config).unwrap();
    rig.install(agterm_backup(), "kimi", false);
    let wired = std::fs::read_to_string(&config).unwrap();
    assert!(
        wired.contains("hook kimi") && wired.contains(&logger),
        "{wired}"
    );
    assert!(
        wired.as_bytes().starts_with(&original),
        "kept first: {wired}"
    );

    let pane = rig.pane("left");
    let mut env = rig.pane_env(&pane);
    env.extend(rig.home.kimi_env(&rig.stub));
    let kimi_line = quote(&kimi.display().to_string());
    let tmux_pane = start_in_pane(
        &rig.tmux,
        "kimi",
        &dir,
        &env,
        &format!("{kimi_line} --yolo"),
    );
    wait_ready(&rig.tmux, &tmux_pane, Agent::Kimi, AGENT_START);
    let prompt = "kimi pane says hi";
    type_prompt(&rig.tmux, &tmux_pane, prompt);
    let asked = wait_payload(&rig, "Kimi's UserPromptSubmit", |p| {
        p["hook_event_name"] == "UserPromptSubmit" && prompt_text(p) == prompt
    });
    let id = asked["session_id"].as_str().unwrap().to_string();
    wait_payload(&rig, "Kimi's Stop", |p| {
        p["hook_event_name"] == "Stop" && p["session_id"] == id.as_str()
    });
    // The record: Kimi's conversation in its directory, from this agterm pane.
    let record_ok = || {
        pane.record().is_some_and(|r| {
            r["agent"] == "kimi"
                && r["session_id"] == id.as_str()
                && r["agent_cwd"] == dir.display().to_string().as_str()
        })
    };
    assert!(
        agterm_backup_testkit::fake_agterm::wait_until(TURN, record_ok),
        "record {:?}; hook log:\n{}",
        pane.record(),
        std::fs::read_to_string(rig.state_dir.join("hook.log")).unwrap_or_default()
    );
    assert!(
        !rig.home.kimi_conversation_files(&id).is_empty(),
        "Kimi keeps {id} on disk"
    );

    // Quit, then type the resume line the record gives, in the conversation's directory.
    type_prompt(&rig.tmux, &tmux_pane, Agent::Kimi.quit_command());
    wait_screen(&rig.tmux, &tmux_pane, TURN, "the shell prompt", |s| {
        s.trim_end().ends_with("pane$")
    });
    let line = ResumeLine::build(
        &KIMI,
        &id,
        &[],
        &dir.display().to_string(),
        Some(&dir.display().to_string()),
    )
    .expect("a resume line");
    assert_eq!(line.line, format!("'kimi' '--session' '{id}'"));
    let typed = line.line.replacen("'kimi'", &kimi_line, 1);
    rig.tmux.send_text(&tmux_pane, &typed, true);
    let resumed = wait_payload(&rig, "Kimi's resumed SessionStart", |p| {
        p["hook_event_name"] == "SessionStart" && p["source"] == "resume"
    });
    assert_eq!(resumed["session_id"], id.as_str(), "{resumed}");
    assert_eq!(resumed["cwd"], dir.display().to_string().as_str());
    wait_ready(&rig.tmux, &tmux_pane, Agent::Kimi, AGENT_START);
    type_prompt(&rig.tmux, &tmux_pane, Agent::Kimi.quit_command());
    wait_screen(&rig.tmux, &tmux_pane, TURN, "the shell prompt", |s| {
        s.trim_end().ends_with("pane$")
    });

    // Headless runs in the same pane, typed at its prompt (a canonical terminal) and from a pipe: their
    // hooks fire (a conversation of their own) and change nothing of the pane's record or journal.
    let kept = || {
        let r = pane.record().unwrap_or_default();
        (
            ["session_id", "agent_pid", "agent_cwd", "flags", "agent"].map(|k| r[k].clone()),
            std::fs::read(pane.journal_path()).unwrap_or_default(),
        )
    };
    let before = kept();
    assert_eq!(before.0[0], id.as_str());
    rig.tmux.send_text(
        &tmux_pane,
        &format!("{kimi_line} -p 'headless in the pane'"),
        true,
    );
    let headless = wait_payload(&rig, "the headless run's Stop", |p| {
        p["hook_event_name"] == "Stop" && p["session_id"] != id.as_str()
    });
    let out = run_cli(&kimi, &["-p", "headless from a pipe"], &dir, &env);
    assert!(out.contains("stub reply to: headless from a pipe"), "{out}");
    wait_payload(&rig, "the piped run's Stop", |p| {
        p["hook_event_name"] == "Stop"
            && p["session_id"] != id.as_str()
            && p["session_id"] != headless["session_id"]
    });
    wait_screen(&rig.tmux, &tmux_pane, TURN, "the shell prompt", |s| {
        s.trim_end().ends_with("pane$")
    });
    assert_eq!(kept(), before, "a headless run changed the pane's record");

    let out = std::process::Command::new(agterm_backup())
        .args(["installer", "remove", "--agents", "kimi"])
        .env_clear()
        .envs(agterm_backup_testkit::hermetic::places())
        .env("HOME", &rig.home.home)
        .env("AGTERM_STATE_DIR", rig.root.join("agterm-state"))
        .env("PATH", "/usr/bin:/bin")
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    assert_eq!(
        std::fs::read(&config).unwrap(),
        original,
        "remove gives the user's config.toml back"
    );
}
