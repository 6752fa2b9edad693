//! `agterm-backup restart` with the real Claude Code in a user's tmux: an idle pane (its turn ended) is
//! quit with `/exit` and resumed in place — the same conversation, once, not marked ended — while a pane
//! in the middle of a turn (a tool call held open by a gate file) is left alone with its reason. Then
//! `restart --wait` restarts that pane only once its turn has ended. The panes run the previous Claude
//! Code release (`tests/install-deps.sh` installs it beside the pinned one); each conversation comes back
//! on the pinned release, installed now. Fails (no silent skip) in CI without the CLIs.

use crate::tmux_common::{TmuxRig, TURN};
use agterm_backup_testkit::agents::type_prompt;
use serde_json::Value;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const IDLE: &str = "work:0.0";
const BUSY: &str = "work:0.1";

/// `agterm-backup restart --terminal tmux --socket <server> --yes --json <extra>` as the user runs it.
fn restart_cmd(t: &TmuxRig, extra: &[&str]) -> Command {
    let mut cmd = Command::new(&t.bin);
    cmd.args([
        "restart",
        "--terminal",
        "tmux",
        "--yes",
        "--json",
        "--socket",
    ])
    .arg(t.tmux.socket())
    .args(extra)
    .envs(t.rig.home.env(&t.rig.stub))
    .env("AGTERM_BACKUP_HOME", &t.rig.state_dir)
    .env("AGTERM_BACKUP_DIALOG_TIMEOUT_SECS", "5")
    .stdin(Stdio::null());
    cmd
}

/// The first word of `<binary> --version` (`2.1.331 (Claude Code)`).
fn version_of(binary: &std::path::Path) -> String {
    let out = Command::new(binary).arg("--version").output().unwrap();
    let out = String::from_utf8_lossy(&out.stdout);
    out.split_whitespace()
        .next()
        .unwrap_or_default()
        .to_string()
}

/// `<older claude> --model sonnet <prompt>` at the pane's prompt, by its full path (as a user whose
/// shell started it before the update), until the reply shows.
fn run_older_claude(t: &TmuxRig, older: &std::path::Path, target: &str, prompt: &str) {
    let argv = [
        older.display().to_string(),
        "--model".into(),
        "sonnet".into(),
        prompt.into(),
    ];
    t.type_line(target, &agterm_backup_core::quote::quote_words(&argv));
    agterm_backup_testkit::agents::wait_screen(
        &t.tmux,
        target,
        TURN + TURN,
        "claude's reply",
        |s| s.contains(&format!("stub reply to: {prompt}")),
    );
}

/// Whether the resumed agent of `target` runs from the installed release, not the previous one.
fn runs_installed(t: &TmuxRig, target: &str, id: &str) -> bool {
    let pane_pid: u32 = t
        .tmux
        .ok(&["display-message", "-p", "-t", target, "#{pane_pid}"])
        .parse()
        .unwrap();
    let pids = crate::tmux_common::agents_under(pane_pid, "claude", id);
    !pids.is_empty()
        && pids.iter().all(|pid| {
            std::fs::read_link(format!("/proc/{pid}/exe"))
                .is_ok_and(|e| !e.to_string_lossy().contains("claude-previous"))
        })
}

fn report(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "restart printed no JSON ({e}): {}\nstderr: {}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

fn row<'a>(doc: &'a Value, target: &str) -> &'a Value {
    doc["panes"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|r| r["pane"] == format!("tmux {target}"))
        .unwrap_or_else(|| panic!("no row for {target}: {doc:#}"))
}

/// The record of tmux pane `target` once `pred` holds for it.
fn wait_record_where(
    t: &TmuxRig,
    target: &str,
    what: &str,
    pred: impl Fn(&Value) -> bool,
) -> Value {
    let (session, at) = target.split_once(':').unwrap();
    let (w, p) = at.split_once('.').unwrap();
    let start = Instant::now();
    loop {
        let found = t.records().into_iter().find(|r| {
            r["tmux"]["session"] == session
                && r["tmux"]["window"] == w.parse::<u32>().unwrap()
                && r["tmux"]["pane"] == p.parse::<u32>().unwrap()
        });
        if let Some(r) = found.filter(|r| pred(r)) {
            return r;
        }
        assert!(
            start.elapsed() < TURN,
            "{target}: {what}; records: {:#?}",
            t.records()
        );
        std::thread::sleep(Duration::from_millis(150));
    }
}

/// How many times Claude resumed conversation `id` (its `SessionStart` hooks with source `resume`): the
/// resumed TUI redraws the screen, so the typed line is not left on it to count.
fn resumes(t: &TmuxRig, id: &str) -> usize {
    t.rig.wait_payload(TURN, "the resume's SessionStart", |p| {
        p["hook_event_name"] == "SessionStart" && p["session_id"] == id && p["source"] == "resume"
    });
    t.rig
        .payloads_of("SessionStart")
        .iter()
        .filter(|p| p["session_id"] == id && p["source"] == "resume")
        .count()
}

/// Every journal line in the state folder.
fn journal_lines(t: &TmuxRig) -> Vec<Value> {
    std::fs::read_dir(t.rig.state_dir.join("live"))
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().ends_with(".history.jsonl"))
        .flat_map(|e| {
            let text = std::fs::read_to_string(e.path()).unwrap_or_default();
            text.lines()
                .filter_map(|l| serde_json::from_str::<Value>(l).ok())
                .collect::<Vec<_>>()
        })
        .collect()
}

#[test]
fn restart_resumes_the_idle_pane_in_place_and_waits_for_the_busy_one() {
    let Some(t) = TmuxRig::new(&["idle", "busy"]) else {
        return;
    };
    // The panes run the previous release; the pinned one is "installed now" (first on PATH).
    let Some(older) = agterm_backup_testkit::paths::previous_claude() else {
        return;
    };
    let (old_version, new_version) = (version_of(&older), version_of(&t.claude));
    assert_ne!(old_version, new_version);
    t.install();
    let tmux = &t.tmux;
    let dir = |n: &str| t.dir(n).display().to_string();
    tmux.ok(&[
        "new-session",
        "-d",
        "-s",
        "work",
        "-x",
        "200",
        "-y",
        "50",
        "-c",
        &dir("idle"),
    ]);
    tmux.ok(&["split-window", "-t", "work:0", "-c", &dir("busy")]);
    run_older_claude(&t, &older, IDLE, "idle pane says hi");
    run_older_claude(&t, &older, BUSY, "busy pane says hi");
    let idle = wait_record_where(&t, IDLE, "its turn ended", |r| r["event"] == "Stop");
    let idle_id = idle["session_id"].as_str().unwrap().to_string();
    wait_record_where(&t, BUSY, "its turn ended", |r| r["event"] == "Stop");

    // The busy pane's next turn runs a tool that lasts until the test opens the gate.
    let gate = t.rig.root.join("gate");
    let prompt = format!("RUN:while [ ! -e {} ]; do sleep 0.2; done", gate.display());
    type_prompt(tmux, BUSY, &prompt);
    let busy = wait_record_where(&t, BUSY, "its turn started", |r| {
        r["event"] == "UserPromptSubmit" || r["event"] == "PreToolUse"
    });
    // The tool runs (the hook holds a PreToolUse record back within seconds of the prompt's).
    t.rig.wait_payload(TURN, "the gated tool call", |p| {
        p["hook_event_name"] == "PreToolUse"
            && p["tool_input"]["command"]
                .as_str()
                .is_some_and(|c| c.contains("gate"))
    });
    let busy_id = busy["session_id"].as_str().unwrap().to_string();

    let out = restart_cmd(&t, &[]).output().unwrap();
    let doc = report(&out);
    assert!(
        out.status.success(),
        "{doc:#}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let (idle_row, busy_row) = (row(&doc, IDLE), row(&doc, BUSY));
    assert_eq!(idle_row["status"], "restarted", "{doc:#}");
    assert_eq!(busy_row["status"], "wait", "{doc:#}");
    assert!(
        busy_row["reason"]
            .as_str()
            .unwrap()
            .contains("middle of a turn"),
        "{doc:#}"
    );
    // Before: what the conversation's transcript says (the previous release wrote it); after: the
    // release installed now.
    assert_eq!(idle_row["version_before"], old_version.as_str(), "{doc:#}");
    assert_eq!(idle_row["version_after"], new_version.as_str(), "{doc:#}");
    assert_eq!(
        idle_row["version_change"],
        format!("{old_version} → {new_version}")
    );
    assert_eq!(doc["summary"]["restarted"], 1);
    assert_eq!(doc["summary"]["waiting"], 1);

    // The idle conversation is back in its pane, once, and restart's own quit did not end it.
    t.wait_resumed(IDLE, "claude", &idle_id);
    assert!(
        runs_installed(&t, IDLE, &idle_id),
        "resumed on the installed release"
    );
    assert_eq!(resumes(&t, &idle_id), 1, "{}", tmux.capture(IDLE, true));
    assert_eq!(t.agents_running(IDLE, "claude", &idle_id), 1);
    let back = wait_record_where(&t, IDLE, "resumed", |r| r["event"] == "SessionStart");
    assert_eq!(back["session_id"], idle_id.as_str());
    assert!(back.get("end_reason").is_none(), "{back:#}");
    // Restart's `/exit` fired a SessionEnd (`prompt_input_exit`, a user's quit by its reason), yet no
    // record or journal line of the conversation carries an end.
    assert!(t
        .rig
        .payloads_of("SessionEnd")
        .iter()
        .any(|p| p["session_id"] == idle_id.as_str()));
    let journals = journal_lines(&t);
    assert!(
        !journals
            .iter()
            .any(|l| l["session_id"] == idle_id.as_str() && l.get("end_reason").is_some()),
        "{journals:#?}"
    );
    assert!(!t
        .rig
        .state_dir
        .join("restarting")
        .read_dir()
        .unwrap()
        .any(|_| true));
    // The busy pane got nothing.
    assert_eq!(t.any_resume_lines(BUSY), 0);

    // `--wait`: the busy pane is restarted once its turn ends, not before.
    let waiter = restart_cmd(&t, &["--wait", "--timeout", "120", "--pane", BUSY])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let opened = Instant::now();
    std::fs::write(&gate, "").unwrap();
    let out = waiter.wait_with_output().unwrap();
    let doc = report(&out);
    assert!(out.status.success(), "{doc:#}");
    assert_eq!(row(&doc, BUSY)["status"], "restarted", "{doc:#}");
    assert_eq!(row(&doc, BUSY)["version_after"], new_version.as_str());
    t.wait_resumed(BUSY, "claude", &busy_id);
    assert!(
        runs_installed(&t, BUSY, &busy_id),
        "resumed on the installed release"
    );
    assert_eq!(resumes(&t, &busy_id), 1, "{}", tmux.capture(BUSY, true));
    assert_eq!(t.agents_running(BUSY, "claude", &busy_id), 1);
    // The turn had ended first: its Stop came in, and the tool's reply is on the pane's scrollback.
    assert!(
        t.rig
            .payloads_of("Stop")
            .iter()
            .filter(|p| p["session_id"] == busy_id.as_str())
            .count()
            >= 2,
        "the busy turn's Stop"
    );
    eprintln!(
        "restart --wait: busy pane back {:.1}s after its gate opened; away {}s (idle pane away {}s)",
        opened.elapsed().as_secs_f64(),
        row(&doc, BUSY)["away_secs"],
        idle_row["away_secs"]
    );
}
