//! Issue 20, item 5: a shell whose terminal is gone — agterm quit and left `AGTERM_*` in the
//! environment, a tmux server that is not running — with a record that says there is something to
//! resume: `shell-start` gives up at once (no socket, nothing to retry), prints nothing, and takes no
//! claim. Before, it retried until its budget (1.5 s at every such shell start).

use serde_json::json;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const SESSION: &str = "6B1E0C2A-AAAA-BBBB-CCCC-0123456789AB";

fn shell_start(
    state: &std::path::Path,
    env: &[(&str, String)],
) -> (std::process::Output, Duration) {
    let started = Instant::now();
    let out = Command::new(agterm_backup_testkit::agterm_backup_bin!())
        .args(["shell-start", "--shell", "bash", "--shell-pid", "1"])
        .env_clear()
        .envs(agterm_backup_testkit::hermetic::places())
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("HOME", state.parent().unwrap())
        .env("AGTERM_BACKUP_HOME", state)
        .envs(env.iter().map(|(k, v)| (k, v)))
        .stdin(Stdio::null())
        .output()
        .unwrap();
    (out, started.elapsed())
}

#[test]
fn an_agterm_that_quit_costs_no_wait() {
    let dir = agterm_backup_testkit::scratch::tempdir();
    let state = dir.path().join("state");
    std::fs::create_dir_all(state.join("live")).unwrap();
    let record = json!({
        "v": 1, "agent": "claude", "session_id": "77e8ca85-2b1c-4a8e-9d0b-0c1d2e3f4a5b",
        "agterm_session": SESSION, "role": "left", "pane_id": null, "transcript_path": null,
        "agent_cwd": "/w/p", "hook_cwd": "/w/p", "flags": [], "agent_pid": 42, "event": "Stop",
        "ts": "2026-11-30T10:00:00Z", "terminal": "agterm"
    });
    std::fs::write(
        state.join(format!("live/{SESSION}-left.json")),
        record.to_string(),
    )
    .unwrap();
    let gone = dir.path().join("agterm.sock").display().to_string();
    let env = [
        ("AGTERM_SESSION_ID", SESSION.to_string()),
        ("AGTERM_PANE", "left".to_string()),
        ("AGTERM_SOCKET", gone),
        ("AGTERM_BACKUP_SHELL_START_BUDGET_MS", "2000".to_string()),
    ];
    let (out, took) = shell_start(&state, &env);
    assert!(out.status.success(), "{out:?}");
    assert!(out.stdout.is_empty() && out.stderr.is_empty(), "{out:?}");
    assert!(
        took < Duration::from_millis(300),
        "gave up at once: {took:?}"
    );
    assert!(!state.join("resumed").exists(), "no claim taken");
}
