//! `agterm-backup restart` beyond Claude in tmux: the real Codex in a tmux pane (quit with `/quit`, whose
//! `SessionEnd` Codex sends only for a user's quit — restart's must still not end it), and the real
//! Claude Code in a zmx session. Each idle conversation comes back once, in its pane, not ended, with
//! its version before and after. Fails (no silent skip) in CI without the CLIs.

use crate::tmux_common::{TmuxRig, TURN};
use crate::zmx_common::ZmxRig;
use serde_json::Value;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

fn doc_of(out: &Output) -> Value {
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "no JSON ({e}): {}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    assert!(
        out.status.success(),
        "{doc:#}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    doc
}

/// The first record (of `records`) satisfying `pred`, waiting for it.
fn wait_for(records: impl Fn() -> Vec<Value>, what: &str, pred: impl Fn(&Value) -> bool) -> Value {
    let start = Instant::now();
    loop {
        if let Some(r) = records().into_iter().find(|r| pred(r)) {
            return r;
        }
        assert!(start.elapsed() < TURN, "{what}: {:#?}", records());
        std::thread::sleep(Duration::from_millis(150));
    }
}

/// The installed version as `<binary> --version` prints it.
fn installed(binary: &std::path::Path, env: &[(String, String)]) -> String {
    let out = Command::new(binary)
        .arg("--version")
        .envs(env.iter().map(|(k, v)| (k, v)))
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn restart_brings_an_idle_codex_back_in_its_tmux_pane_not_ended() {
    let Some(t) = TmuxRig::new(&["proj"]) else {
        return;
    };
    t.install();
    let dir = t.dir("proj").display().to_string();
    t.new_session("work", &dir);
    t.run_codex("work:0.0", "codex pane says hi");
    let rec = wait_for(
        || t.records(),
        "codex's turn ended",
        |r| r["agent"] == "codex" && r["event"] == "Stop",
    );
    let id = rec["session_id"].as_str().unwrap().to_string();

    let out = Command::new(&t.bin)
        .args([
            "restart",
            "--terminal",
            "tmux",
            "--yes",
            "--json",
            "--agent",
            "codex",
            "--socket",
        ])
        .arg(t.tmux.socket())
        .envs(t.rig.home.env(&t.rig.stub))
        .env("AGTERM_BACKUP_HOME", &t.rig.state_dir)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let doc = doc_of(&out);
    let row = &doc["panes"][0];
    assert_eq!(row["status"], "restarted", "{doc:#}");
    let after = row["version_after"]
        .as_str()
        .expect("the installed version");
    assert!(
        installed(&t.codex, &t.rig.home.env(&t.rig.stub)).contains(after),
        "{doc:#}"
    );
    assert_eq!(
        row["version_before"], after,
        "the rollout's cli_version: {doc:#}"
    );
    t.wait_resumed("work:0.0", "codex", &id);
    assert_eq!(t.agents_running("work:0.0", "codex", &id), 1);
    // Codex fires no SessionStart until the resumed TUI's first prompt: its `/quit`'s SessionEnd is the
    // pane's last record, and it must carry no end.
    let live = t.rig.state_dir.join("live");
    let listing = std::fs::read_dir(&live)
        .map(|d| d.flatten().map(|e| e.file_name()).collect::<Vec<_>>())
        .unwrap_or_default();
    let quit = wait_for(
        || t.records(),
        &format!("codex's quit recorded; live/: {listing:?}"),
        |r| r["session_id"] == id.as_str() && r["event"] == "SessionEnd",
    );
    assert!(quit.get("end_reason").is_none(), "{quit:#}");
}

#[test]
fn restart_brings_an_idle_claude_back_in_its_zmx_session() {
    let Some(z) = ZmxRig::new(&["api"]) else {
        return;
    };
    z.install();
    z.attach("api", &z.dir("api"));
    z.run_claude("api", "zmx session says hi");
    let rec = wait_for(
        || z.records(),
        "claude's turn ended",
        |r| r["terminal"] == "zmx" && r["event"] == "Stop",
    );
    let id = rec["session_id"].as_str().unwrap().to_string();

    let out = Command::new(&z.bin)
        .args([
            "restart",
            "--terminal",
            "zmx",
            "--yes",
            "--json",
            "--pane",
            "api",
        ])
        .env_clear()
        .envs(agterm_backup_testkit::hermetic::places())
        .envs(z.env.iter().map(|(k, v)| (k, v)))
        .current_dir(&z.rig.root)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let doc = doc_of(&out);
    assert_eq!(doc["panes"][0]["status"], "restarted", "{doc:#}");
    assert_eq!(doc["panes"][0]["pane"], "zmx api", "{doc:#}");
    z.wait_resumed("api", "claude", &id);
    assert_eq!(z.agents_running("api", "claude", &id).len(), 1);
    let back = wait_for(
        || z.records(),
        "claude resumed",
        |r| r["session_id"] == id.as_str() && r["event"] == "SessionStart",
    );
    assert!(back.get("end_reason").is_none(), "{back:#}");
}
