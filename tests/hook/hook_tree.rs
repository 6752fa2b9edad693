//! Real process trees: the hook walks up from its parent to the agent, reads its argv (flags), its real
//! cwd and start time, and refuses headless and nested agents. The fake agents are copies of `/bin/sh`
//! named `claude`/`codex` running a script, so their argv is `[claude, <script>, <flags…>]`.

use crate::hook_common::*;
use std::path::{Path, PathBuf};

/// Starts `agent` (a fake agent binary) with `args` in `cwd`, the payload on stdin; waits silently.
fn run_agent(w: &World, agent: &Path, script: &Path, args: &[&str], cwd: &Path, payload: &[u8]) {
    let mut argv = vec![agent.display().to_string(), script.display().to_string()];
    argv.extend(args.iter().map(|a| a.to_string()));
    w.start(&argv, cwd, &Stdin::Bytes(payload)).wait_silent();
}

/// A script that runs the hook for `agent` as a child (not exec: the agent stays its parent).
fn hook_script(w: &World, agent: &str, prelude: &str) -> PathBuf {
    w.script(&format!(
        "{prelude}\n'{}' hook {agent}\nexit $?\n",
        hook_bin().display()
    ))
}

fn project(w: &World) -> PathBuf {
    let dir = w.path().join("proj");
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    std::fs::canonicalize(dir).unwrap()
}

#[test]
fn flags_cwd_and_pid_come_from_the_agent_process() {
    let w = World::new();
    let proj = project(&w);
    let claude = w.fake_agent("claude");
    let script = hook_script(&w, "claude", "");
    let payload = claude_payload(
        "SessionStart",
        ID_A,
        &proj.join("sub").display().to_string(),
        &proj.display().to_string(),
    );
    let args = [
        "--model",
        "sonnet",
        "--add-dir",
        "a",
        "b",
        "--resume",
        ID_B,
        "fix",
        "the",
        "bug",
    ];
    run_agent(&w, &claude, &script, &args, &proj, &payload);
    let r = w.record().expect("record");
    assert_eq!(r.flags, ["--model", "sonnet", "--add-dir", "a", "b"]);
    assert_eq!(
        r.agent_cwd,
        proj.display().to_string(),
        "the process cwd matches the transcript slug"
    );
    assert_eq!(r.hook_cwd, proj.join("sub").display().to_string());
    assert!(r.agent_pid.is_some());
    let start = r
        .extra
        .get("agent_start")
        .and_then(|v| v.as_i64())
        .expect("agent_start");
    assert!((chrono::Utc::now().timestamp() - start).abs() < 60);
}

#[test]
fn the_agent_is_found_through_an_intermediate_shell() {
    let w = World::new();
    let proj = project(&w);
    let codex = w.fake_agent("codex");
    // Codex runs hooks through `$SHELL -lc`.
    let script = w.script(&format!(
        "sh -lc \"'{}' hook codex; exit \\$?\"\nexit $?\n",
        hook_bin().display()
    ));
    let payload = serde_json::json!({
        "session_id": ID_B, "transcript_path": null, "cwd": proj.display().to_string(),
        "hook_event_name": "UserPromptSubmit", "model": "m", "turn_id": "t", "prompt": "hi"
    });
    run_agent(
        &w,
        &codex,
        &script,
        &["-m", "o3", "--search", "do", "it"],
        &proj,
        payload.to_string().as_bytes(),
    );
    let r = w.record().expect("record");
    assert_eq!(
        (r.agent.as_str(), r.flags.clone()),
        (
            "codex",
            vec!["-m".to_string(), "o3".into(), "--search".into()]
        )
    );
    assert_eq!(r.agent_cwd, proj.display().to_string());
}

#[test]
fn claude_pid_names_the_agent_even_under_an_unknown_name() {
    let w = World::new();
    let proj = project(&w);
    // A versioned binary name the table does not know, found only through $CLAUDE_PID.
    let versioned = w.fake_agent("2.1.328");
    let script = hook_script(&w, "claude", "export CLAUDE_PID=$$");
    let payload = claude_payload(
        "SessionStart",
        ID_A,
        &proj.display().to_string(),
        &proj.display().to_string(),
    );
    run_agent(&w, &versioned, &script, &["--verbose"], &proj, &payload);
    let r = w.record().expect("record");
    assert_eq!(r.flags, ["--verbose"]);
    assert!(r.agent_pid.is_some());
}

#[test]
fn the_transcript_slug_picks_the_start_directory_over_the_process_cwd() {
    let w = World::new();
    let proj = project(&w);
    let claude = w.fake_agent("claude");
    let script = hook_script(&w, "claude", "");
    // The session started in proj/sub (its transcript folder), though the process now sits in proj.
    let sub = proj.join("sub").display().to_string();
    let payload = claude_payload("SessionStart", ID_A, &sub, &sub);
    run_agent(&w, &claude, &script, &[], &proj, &payload);
    assert_eq!(w.record().unwrap().agent_cwd, sub);
}

#[test]
fn headless_runs_write_nothing() {
    let w = World::new();
    let proj = project(&w);
    let claude = w.fake_agent("claude");
    let script = hook_script(&w, "claude", "");
    let payload = claude_payload(
        "SessionStart",
        ID_A,
        &proj.display().to_string(),
        &proj.display().to_string(),
    );
    for args in [
        &["--print", "hi"][..],
        &["-p"],
        &["--model", "x", "-cp"],
        &["--bg"],
    ] {
        run_agent(&w, &claude, &script, args, &proj, &payload);
        assert!(w.record().is_none(), "{args:?} was recorded");
    }
    // The control: the same agent, interactive, records.
    run_agent(&w, &claude, &script, &["--model", "x"], &proj, &payload);
    assert_eq!(
        w.record().expect("the control run writes").flags,
        ["--model", "x"]
    );
    assert_eq!(w.journal().len(), 1);
}

#[test]
fn an_agent_nested_in_another_agent_writes_nothing() {
    let w = World::new();
    let proj = project(&w);
    let claude = w.fake_agent("claude");
    let codex = w.fake_agent("codex");
    let inner = hook_script(&w, "claude", "");
    // Outer claude → its Bash tool (sh) → inner claude → hook.
    let outer = w.script(&format!(
        "sh -c \"'{}' '{}' --model inner; exit \\$?\"\nexit $?\n",
        claude.display(),
        inner.display()
    ));
    let payload = claude_payload(
        "SessionStart",
        ID_A,
        &proj.display().to_string(),
        &proj.display().to_string(),
    );
    run_agent(&w, &claude, &outer, &["--model", "outer"], &proj, &payload);
    assert!(
        w.record().is_none(),
        "a nested claude overwrote the pane's record"
    );
    // Codex inside claude, too.
    let inner = hook_script(&w, "codex", "");
    let outer = w.script(&format!(
        "sh -c \"'{}' '{}'; exit \\$?\"\nexit $?\n",
        codex.display(),
        inner.display()
    ));
    let payload = serde_json::json!({"session_id": ID_B, "cwd": "/w", "hook_event_name": "Stop"});
    run_agent(
        &w,
        &claude,
        &outer,
        &[],
        &proj,
        payload.to_string().as_bytes(),
    );
    assert!(w.record().is_none());
    // The same inner claude, not nested, records.
    let inner = hook_script(&w, "claude", "");
    let payload = claude_payload(
        "SessionStart",
        ID_A,
        &proj.display().to_string(),
        &proj.display().to_string(),
    );
    run_agent(&w, &claude, &inner, &["--model", "inner"], &proj, &payload);
    assert_eq!(w.record().unwrap().flags, ["--model", "inner"]);
}

#[test]
fn the_hot_path_trusts_the_record_of_the_same_agent_pid_and_reads_no_process() {
    let mut w = World::new();
    let proj = project(&w);
    let claude = w.fake_agent("claude");
    let script = hook_script(&w, "claude", "export CLAUDE_PID=$$");
    let dir = proj.display().to_string();
    let start = claude_payload("SessionStart", ID_A, &dir, &dir);
    run_agent(&w, &claude, &script, &["--model", "sonnet"], &proj, &start);
    // As inside agterm, where the pin went through (here there is no agterm: the failed pin would be
    // retried once its backoff step is over).
    let mut r = w.record().expect("record");
    r.pin = Some(agterm_backup_core::record::PinOutcome::Ok);
    agterm_backup_terminals::write_record(&w.state(), &r).unwrap();
    let first = std::fs::read(w.state().record_path(&w.key())).unwrap();
    let pid = r.agent_pid.expect("agent pid").to_string();
    // That agent has exited, so its pid can no longer be read: an event carrying its $CLAUDE_PID
    // moments later is answered from the record alone (nothing rewritten), where a process walk would
    // have found no agent and rewritten the record without one.
    w.set("CLAUDE_PID", &pid);
    w.hook("claude", &claude_payload("PreToolUse", ID_A, &dir, &dir));
    assert_eq!(
        std::fs::read(w.state().record_path(&w.key())).unwrap(),
        first
    );
    // A different pid gets the full walk, and the record says what the walk found.
    w.set("CLAUDE_PID", "1");
    w.hook("claude", &claude_payload("PreToolUse", ID_A, &dir, &dir));
    let walked = w.record().expect("record");
    assert_ne!(walked.agent_pid, r.agent_pid);
}
