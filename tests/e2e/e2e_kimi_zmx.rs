//! The real Kimi Code 2.1.0 (Node 22, offline against the stub model) in a zmx session (the test kit's
//! fake zmx), wired by `installer apply --agents kimi`: its own hooks write the record of that session,
//! and after a reboot `restore --yes` recreates the session running its resume line: the conversation
//! comes back in its own directory (Kimi's SessionStart `source: "resume"` with the same id), once; a
//! second `restore` does nothing. Skipped without the CLIs (a failure under `CI`).
//!
//! At start Kimi reads the login PATH with `$SHELL -l -c /usr/bin/env`: the session's `$SHELL` must run
//! what it is given (see `zmx_common`), or an interactive shell takes the terminal and Kimi stops.

use crate::zmx_common::{ZmxRig, AGENT_START, COMEBACK, TURN};
use agterm_backup_testkit::agents::{payload_logger_command, type_prompt, wait_ready, Agent};
use agterm_backup_testkit::paths::agent_cli;
use agterm_backup_testkit::settle::wait_settled;
use agterm_backup_testkit::tmux::Tmux;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// Kimi's prompt payload: content parts (`[{"type":"text","text":…}]`).
fn prompt_text(p: &Value) -> String {
    p["prompt"]
        .as_array()
        .map(|parts| parts.iter().filter_map(|t| t["text"].as_str()).collect())
        .unwrap_or_default()
}

/// The `kimi-code` processes (Kimi's process title) under `root` whose cwd is `dir`.
fn kimis_in(root: u32, dir: &Path) -> Vec<u32> {
    let mut found = Vec::new();
    let mut stack = vec![root];
    while let Some(pid) = stack.pop() {
        let argv = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
        let cwd = std::fs::read_link(format!("/proc/{pid}/cwd")).ok();
        if argv.split(|b| *b == 0).next() == Some(b"kimi-code") && cwd.as_deref() == Some(dir) {
            found.push(pid);
        }
        let children =
            std::fs::read_to_string(format!("/proc/{pid}/task/{pid}/children")).unwrap_or_default();
        stack.extend(
            children
                .split_whitespace()
                .filter_map(|c| c.parse::<u32>().ok()),
        );
    }
    found
}

fn first_turn(t: &ZmxRig, name: &str, prompt: &str) -> String {
    let target = t.target(name);
    wait_ready(&t.host, &target, Agent::Kimi, AGENT_START);
    type_prompt(&t.host, &target, prompt);
    let asked = t.rig.wait_payload(TURN, "Kimi's first prompt", |p| {
        p["hook_event_name"] == "UserPromptSubmit" && prompt_text(p) == prompt
    });
    let id = asked["session_id"].as_str().unwrap().to_string();
    t.rig.wait_payload(TURN, "Kimi's first Stop", |p| {
        p["hook_event_name"] == "Stop" && p["session_id"] == id.as_str()
    });
    id
}

#[test]
fn kimi_in_a_zmx_session_is_recorded_and_comes_back_after_a_reboot() {
    if agent_cli("kimi").is_none() {
        return;
    }
    let Some(mut t) = ZmxRig::new(&["kimi zmx"]) else {
        return;
    };
    let dir: PathBuf = t.dir("kimi zmx");
    t.rig
        .home
        .seed_kimi(&[&dir], Some(&payload_logger_command(&t.rig.payloads)));
    // Kimi's stub model; `kimi` and its Node 22 are on the user's PATH already (the CLIs' folder).
    t.env.extend(
        t.rig
            .home
            .kimi_env(&t.rig.stub)
            .into_iter()
            .filter(|(k, _)| k != "PATH"),
    );
    let out = t.rig.install(&t.bin, "kimi", false);
    let config = std::fs::read_to_string(t.rig.home.kimi_home().join("config.toml")).unwrap();
    assert!(config.contains("hook kimi"), "{out}\n{config}");

    t.attach("kimi", &dir);
    t.type_line("kimi", "kimi --yolo");
    let id = first_turn(&t, "kimi", "zmx kimi says hi");
    let rec = Tmux::wait_for(TURN, "the record of Kimi's conversation", || {
        t.records()
            .into_iter()
            .find(|r| r["terminal"] == "zmx" && r["session_id"] == id.as_str())
    });
    assert_eq!(rec["agent"], "kimi", "{rec}");
    assert_eq!(rec["zmx"]["name"], "kimi", "{rec}");
    assert_eq!(
        rec["agent_cwd"],
        dir.display().to_string().as_str(),
        "{rec}"
    );
    Tmux::wait_for(TURN, "Kimi's conversation on disk", || {
        (!t.rig.home.kimi_conversation_files(&id).is_empty()).then_some(())
    });

    t.reboot();
    let marks = t.rig.payloads_of("SessionStart").len();
    let out = t.restore(&["--yes"]);
    let said = format!(
        "{}{}\nhook log:\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
        t.hook_log()
    );
    assert!(out.status.success(), "{said}");
    assert!(said.contains("created the session"), "{said}");
    let start = t
        .rig
        .wait_payload(COMEBACK, "Kimi's resumed SessionStart", |p| {
            p["hook_event_name"] == "SessionStart"
                && p["source"] == "resume"
                && p["session_id"] == id.as_str()
        });
    assert_eq!(start["cwd"], dir.display().to_string().as_str(), "{start}");
    wait_ready(&t.host, &t.target("kimi"), Agent::Kimi, AGENT_START);
    let pid = t.session_pid("kimi").expect("the recreated session");
    assert_eq!(kimis_in(pid, &dir).len(), 1, "{said}");
    // The resumed Kimi's hooks keep the session's record: its conversation, directory and process.
    let kimi_pid = kimis_in(pid, &dir)[0];
    let kept = agterm_backup_testkit::fake_agterm::wait_until(TURN, || {
        t.records().into_iter().any(|r| {
            r["terminal"] == "zmx"
                && r["session_id"] == id.as_str()
                && r["agent_cwd"] == dir.display().to_string().as_str()
                && r["agent_pid"] == kimi_pid
        })
    });
    assert!(kept, "records {:#?}\n{said}", t.records());

    // A second restore finds it running: nothing typed, nothing created, nothing started again.
    let again = t.restore(&["--yes"]);
    assert!(again.status.success(), "{again:?}");
    let said = String::from_utf8_lossy(&again.stdout);
    assert!(
        said.contains("nothing to type"),
        "the second restore:\n{said}"
    );
    wait_settled(&t.rig.root, COMEBACK);
    assert_eq!(kimis_in(pid, &dir).len(), 1);
    let starts = t.rig.payloads_of("SessionStart");
    assert_eq!(starts.len(), marks + 1, "{starts:?}");
    let names: Vec<String> = t.zmx.list().iter().map(|r| r.name().to_string()).collect();
    assert_eq!(names, ["kimi"]);
}
