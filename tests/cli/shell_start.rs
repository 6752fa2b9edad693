//! `shell-start` as the snippet runs it, against a socket the test holds: a pane with nothing captured,
//! a conversation the user ended, `AGTERM_BACKUP_AUTO=0` and a shell outside any pane cost no socket
//! call and print nothing; a pane with something to resume asks the terminal, and a terminal that never
//! answers is cut off by the hard budget, silently.

use serde_json::json;
use std::os::unix::net::UnixListener;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const SESSION: &str = "6B1E0C2A-AAAA-BBBB-CCCC-0123456789AB";
const ID: &str = "77e8ca85-2b1c-4a8e-9d0b-0c1d2e3f4a5b";

fn record(end_reason: Option<&str>) -> serde_json::Value {
    let mut r = json!({
        "v": 1, "agent": "claude", "session_id": ID, "agterm_session": SESSION, "role": "left",
        "pane_id": null, "transcript_path": null, "agent_cwd": "/w/p", "hook_cwd": "/w/p",
        "flags": [], "agent_pid": 42, "event": "Stop", "ts": "2026-11-30T10:00:00Z",
        "terminal": "agterm"
    });
    if let Some(reason) = end_reason {
        r["event"] = "SessionEnd".into();
        r["end_reason"] = reason.into();
    }
    r
}

/// Writes the pane's record and a journal of `journal` (one line each).
fn capture(state: &Path, current: serde_json::Value, journal: &[serde_json::Value]) {
    let live = state.join("live");
    std::fs::create_dir_all(&live).unwrap();
    std::fs::write(
        live.join(format!("{SESSION}-left.json")),
        current.to_string(),
    )
    .unwrap();
    let lines: String = journal.iter().map(|r| format!("{r}\n")).collect();
    std::fs::write(live.join(format!("{SESSION}-left.history.jsonl")), lines).unwrap();
}

/// Runs `shell-start --shell zsh` with `env` and the socket at `socket`; returns its output, how long it
/// took, and whether it connected to the socket.
fn run(state: &Path, socket: &Path, env: &[(&str, &str)]) -> (Output, Duration, bool) {
    run_typed(state, socket, env, b"")
}

/// [`run`] with `typed` waiting on its stdin, as text typed ahead of the shell's prompt waits on the tty.
fn run_typed(
    state: &Path,
    socket: &Path,
    env: &[(&str, &str)],
    typed: &[u8],
) -> (Output, Duration, bool) {
    let listener = UnixListener::bind(socket).unwrap();
    listener.set_nonblocking(true).unwrap();
    let started = Instant::now();
    let mut cmd = Command::new(agterm_backup_testkit::agterm_backup_bin!());
    cmd.args(["shell-start", "--shell", "zsh"])
        .env_clear()
        .envs(agterm_backup_testkit::hermetic::places())
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("HOME", state.parent().unwrap())
        .env("AGTERM_BACKUP_HOME", state)
        .env("AGTERM_SOCKET", socket)
        .env("AGTERM_BACKUP_SHELL_START_BUDGET_MS", "700");
    // A pipe holding `typed` before the process starts, its write end kept open (no EOF) while it runs.
    // Close-on-exec: a child another test spawns meanwhile must not hold the write end (no EOF then).
    let (read, mut write) = agterm_backup_testkit::fds::pipe();
    std::io::Write::write_all(&mut write, typed).unwrap();
    cmd.stdin(Stdio::from(read));
    for (k, v) in env {
        cmd.env(k, v);
    }
    let child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Hold every connection open without a word, as a hung terminal would.
    let mut held = Vec::new();
    while started.elapsed() < Duration::from_millis(50) {
        if let Ok((stream, _)) = listener.accept() {
            held.push(stream);
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let out = child.wait_with_output().unwrap();
    drop(write);
    let took = started.elapsed();
    if let Ok((stream, _)) = listener.accept() {
        held.push(stream);
    }
    std::fs::remove_file(socket).unwrap();
    (out, took, !held.is_empty())
}

fn pane_env() -> [(&'static str, &'static str); 2] {
    [("AGTERM_SESSION_ID", SESSION), ("AGTERM_PANE", "left")]
}

#[test]
fn nothing_to_resume_costs_no_socket_call_and_prints_nothing() {
    let dir = agterm_backup_testkit::scratch::tempdir();
    let state = dir.path().join("state");
    let socket = dir.path().join("a.sock");
    // A brand-new pane: no record at all; and a shell outside any pane (nothing created either).
    for env in [&pane_env()[..], &[]] {
        let (out, _, connected) = run(&state, &socket, env);
        assert!(out.status.success() && out.stdout.is_empty() && out.stderr.is_empty());
        assert!(!connected, "{env:?}: asked the terminal");
        assert!(!state.exists(), "{env:?}: created the state directory");
    }
    // The conversation the user ended (the only one the pane ever held).
    let ended = record(Some("prompt_input_exit"));
    capture(&state, ended.clone(), &[record(None), ended]);
    let (out, _, connected) = run(&state, &socket, &pane_env());
    assert!(out.stdout.is_empty() && !connected, "an ended conversation");
    // Something to resume, but the user turned it off in this shell.
    capture(&state, record(None), &[record(None)]);
    let off = [pane_env()[0], pane_env()[1], ("AGTERM_BACKUP_AUTO", "0")];
    let (out, _, connected) = run(&state, &socket, &off);
    assert!(out.stdout.is_empty() && !connected, "AGTERM_BACKUP_AUTO=0");
}

#[test]
fn a_terminal_that_never_answers_is_cut_off_by_the_budget_silently() {
    let dir = agterm_backup_testkit::scratch::tempdir();
    let state = dir.path().join("state");
    let socket = dir.path().join("a.sock");
    // Ended once, resumed since: the newest word is not an end, so the pane asks the terminal.
    let ended = record(Some("prompt_input_exit"));
    capture(&state, record(None), &[ended, record(None)]);
    let (out, took, connected) = run(&state, &socket, &pane_env());
    assert!(
        connected,
        "a pane with something to resume asks the terminal"
    );
    assert!(out.status.success(), "{out:?}");
    assert!(out.stdout.is_empty() && out.stderr.is_empty(), "{out:?}");
    assert!(
        took >= Duration::from_millis(700) && took < Duration::from_millis(2500),
        "the budget ends it: {took:?}"
    );
}

#[test]
fn input_waiting_at_the_prompt_wins_over_a_resume() {
    let dir = agterm_backup_testkit::scratch::tempdir();
    let state = dir.path().join("state");
    let socket = dir.path().join("a.sock");
    capture(&state, record(None), &[record(None)]);
    // agterm typed the pane's pin (or a replayed command) into the new shell: that runs at this prompt.
    let pin = format!("cd '/w/p' && 'claude' '--resume' '{ID}'\n");
    // The terminal is asked (whether the pane has a conversation to resume decides whether the shell
    // says that input held it back); a terminal that never answers ends it silently, within the budget.
    let (out, took, _) = run_typed(&state, &socket, &pane_env(), pin.as_bytes());
    assert!(out.status.success() && out.stdout.is_empty(), "{out:?}");
    assert!(!state.join("resumed").exists(), "no claim taken");
    assert!(took < Duration::from_millis(1500), "{took:?}");
}
