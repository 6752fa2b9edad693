//! `agterm-backup restart` killed at each step, with the real Claude Code in tmux: right after writing
//! its marker (the agent still runs: a second run restarts it), right after the quit (the conversation is
//! not ended, and the next run finishes it: `finish`), and right after the resume (the marker is spent:
//! the user's own `/exit` later still ends the conversation). The kill is the test seam
//! `AGTERM_BACKUP_TEST_RESTART_DIE_AFTER`, an abort as a crash would be.

use crate::tmux_common::{TmuxRig, TURN};
use serde_json::Value;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const PANE: &str = "work:0.0";

fn restart(t: &TmuxRig, die_after: Option<&str>) -> Output {
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
    .envs(t.rig.home.env(&t.rig.stub))
    .env("AGTERM_BACKUP_HOME", &t.rig.state_dir)
    .env("AGTERM_BACKUP_DIALOG_TIMEOUT_SECS", "5")
    .stdin(Stdio::null());
    if let Some(step) = die_after {
        cmd.env("AGTERM_BACKUP_TEST_RESTART_DIE_AFTER", step);
    }
    cmd.output().unwrap()
}

fn status_of(out: &Output) -> String {
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "no JSON ({e}): {}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    doc["panes"][0]["status"]
        .as_str()
        .unwrap_or_default()
        .into()
}

/// The pane's record once `pred` holds.
fn record_where(t: &TmuxRig, what: &str, pred: impl Fn(&Value) -> bool) -> Value {
    let start = Instant::now();
    loop {
        if let Some(r) = t.records().into_iter().find(|r| pred(r)) {
            return r;
        }
        assert!(start.elapsed() < TURN, "{what}: {:#?}", t.records());
        std::thread::sleep(Duration::from_millis(150));
    }
}

/// Claude's `SessionStart` hooks resuming `id`, once there are at least `n`.
fn wait_resumes(t: &TmuxRig, id: &str, n: usize) {
    let start = Instant::now();
    let count = || {
        t.rig
            .payloads_of("SessionStart")
            .iter()
            .filter(|p| p["session_id"] == id && p["source"] == "resume")
            .count()
    };
    while count() < n {
        assert!(start.elapsed() < TURN, "resume #{n} of {id} never came");
        std::thread::sleep(Duration::from_millis(150));
    }
    assert_eq!(count(), n, "resumed more often than restarted");
}

fn marker_left(t: &TmuxRig) -> bool {
    std::fs::read_dir(t.rig.state_dir.join("restarting"))
        .map(|mut d| d.next().is_some())
        .unwrap_or(false)
}

#[test]
fn restart_killed_at_each_step_never_ends_the_conversation_and_is_finished_by_the_next_run() {
    let Some(t) = TmuxRig::new(&["proj"]) else {
        return;
    };
    t.install();
    let dir = t.dir("proj").display().to_string();
    t.new_session("work", &dir);
    t.run_claude(PANE, "crash pane says hi");
    let rec = record_where(&t, "the turn ended", |r| r["event"] == "Stop");
    let id = rec["session_id"].as_str().unwrap().to_string();

    // 1. Killed right after the marker: nothing was quit; the next run restarts the pane.
    let out = restart(&t, Some("marker"));
    assert!(!out.status.success());
    assert!(marker_left(&t));
    assert!(t.rig.payloads_of("SessionEnd").is_empty(), "nothing quit");
    assert_eq!(status_of(&restart(&t, None)), "restarted");
    wait_resumes(&t, &id, 1);
    assert!(!marker_left(&t));

    // 2. Killed right after the quit: the shell is back, the conversation is not ended, and the next run
    //    finishes the restart.
    record_where(&t, "the resumed agent's start", |r| {
        r["event"] == "SessionStart" && r["session_id"] == id.as_str()
    });
    let out = restart(&t, Some("quit"));
    assert!(!out.status.success());
    let quit = record_where(&t, "restart's quit recorded", |r| {
        r["event"] == "SessionEnd" && r["session_id"] == id.as_str()
    });
    assert!(
        quit.get("end_reason").is_none(),
        "restart's quit is no end: {quit:#}"
    );
    assert!(marker_left(&t));
    assert_eq!(status_of(&restart(&t, None)), "restarted");
    wait_resumes(&t, &id, 2);
    assert!(!marker_left(&t));

    // 3. Killed right after the resume: the marker stays behind, spent — the user's own `/exit` later
    //    ends the conversation as it always did.
    record_where(&t, "the resumed agent's start", |r| {
        r["event"] == "SessionStart" && r["session_id"] == id.as_str()
    });
    let out = restart(&t, Some("resume"));
    assert!(!out.status.success());
    wait_resumes(&t, &id, 3);
    assert!(marker_left(&t));
    record_where(&t, "the resumed agent's start", |r| {
        r["event"] == "SessionStart" && r["session_id"] == id.as_str()
    });
    t.exit_claude(PANE);
}

#[test]
fn a_restart_killed_after_its_quit_is_finished_by_restore_after_a_reboot() {
    use agterm_backup_testkit::layout::{rebuild, run_post_restore_hook, save};
    let Some(t) = TmuxRig::new(&["proj"]) else {
        return;
    };
    t.install();
    let dir = t.dir("proj").display().to_string();
    t.new_session("work", &dir);
    t.run_claude(PANE, "reboot pane says hi");
    let rec = record_where(&t, "the turn ended", |r| r["event"] == "Stop");
    let id = rec["session_id"].as_str().unwrap().to_string();
    assert!(!restart(&t, Some("quit")).status.success());
    let quit = record_where(&t, "restart's quit recorded", |r| {
        r["event"] == "SessionEnd" && r["session_id"] == id.as_str()
    });
    assert!(quit.get("end_reason").is_none(), "{quit:#}");

    // The machine goes down before anyone runs restart again; tmux-resurrect rebuilds the layout and its
    // post-restore hook runs restore.
    let saved = save(&t.tmux);
    t.reboot();
    rebuild(&t.tmux, &saved);
    t.wait_prompt(PANE);
    run_post_restore_hook(&t.tmux, &t.rig.root);
    t.wait_resumed(PANE, "claude", &id);
    wait_resumes(&t, &id, 1);
}
