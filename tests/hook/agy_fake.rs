//! Antigravity CLI (`agy`) end to end against the test kit's double (`FAKE_AGY`: no registry carries the
//! real CLI, so this is what its hooks documentation says it does, not what it was seen doing): the
//! installer wires `~/.gemini/config/hooks.json` where `agy` is on PATH, the fake's model calls fire
//! `SessionStart` again and again and the pane gets one record and one journal line per conversation,
//! the resume line re-enters the same conversation in its directory, and `remove` gives the user's
//! file back byte for byte.

use crate::hook_common;

use agterm_backup_core::agent::AGY;
use agterm_backup_core::resume::ResumeLine;
use agterm_backup_testkit::agents::FAKE_AGY;
use hook_common::*;
use std::path::Path;
use std::process::Command;

/// A user's hooks.json with a hook set of their own.
const USERS_HOOKS: &str = "{\n  \"my-linter\": {\"PostToolUse\": [{\"type\": \"command\", \"command\": \"true\", \"timeout\": 30}]}\n}\n";

fn installer(w: &World, verb: &str) {
    let out = Command::new(hook_bin())
        .args(["installer", verb, "--agents", "agy"])
        .args(if verb == "apply" {
            &["--no-denylist", "--no-tmux"][..]
        } else {
            &[]
        })
        .env_clear()
        .envs(agterm_backup_testkit::hermetic::places())
        .envs(w.env.iter().map(|(k, v)| (k, v)))
        .current_dir(w.path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{verb}: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Runs the fake agy (`agy <script> <args…>`) in `cwd` until it exits; returns the conversation id.
fn run_agy(w: &mut World, agy: &Path, script: &Path, args: &[&str], cwd: &Path) -> String {
    let id_file = w.path().join("agy-id");
    let _ = std::fs::remove_file(&id_file);
    let mut argv = vec![agy.display().to_string(), script.display().to_string()];
    argv.extend(args.iter().map(|a| a.to_string()));
    w.set("FAKE_AGY_ID_FILE", &id_file.display().to_string());
    w.set("FAKE_AGY_CALLS", "4");
    let out = w.start(&argv, cwd, &Stdin::Bytes(b"")).wait();
    assert_eq!(out.code, 0, "{}", String::from_utf8_lossy(&out.stderr));
    std::fs::read_to_string(&id_file)
        .unwrap()
        .trim()
        .to_string()
}

#[test]
fn agy_is_recorded_once_per_conversation_resumed_in_its_directory_and_removed_byte_exactly() {
    let mut w = World::new();
    let agy = w.fake_agent("agy");
    let path = format!(
        "{}:{}",
        agy.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    w.set("PATH", &path);
    let home = w.path().join("home");
    let hooks = home.join(".gemini/config/hooks.json");
    std::fs::create_dir_all(hooks.parent().unwrap()).unwrap();
    std::fs::write(&hooks, USERS_HOOKS).unwrap();
    installer(&w, "apply");
    let applied = std::fs::read_to_string(&hooks).unwrap();
    assert!(
        applied.contains("\"agterm-backup\"") && applied.contains("my-linter"),
        "{applied}"
    );

    let script = w.script(FAKE_AGY);
    let proj = w.path().join("agy proj");
    std::fs::create_dir_all(&proj).unwrap();
    let id = run_agy(
        &mut w,
        &agy,
        &script,
        &["--dangerously-skip-permissions"],
        &proj,
    );

    // Four model calls, each firing SessionStart and PreInvocation: one record, one journal line.
    let rec = w.record().expect("agy's conversation is recorded");
    assert_eq!(
        (
            rec.agent.as_str(),
            rec.session_id.as_str(),
            rec.agent_cwd.as_str()
        ),
        ("agy", id.as_str(), proj.to_str().unwrap())
    );
    assert_eq!(rec.flags, ["--dangerously-skip-permissions"]);
    assert_eq!(w.journal().len(), 1, "{}", w.journal_text());
    assert!(home
        .join(".gemini/antigravity-cli/brain")
        .join(&id)
        .is_dir());

    // The resume line, run by the pane's shell from elsewhere, re-enters the same conversation.
    let line =
        ResumeLine::build(&AGY, &rec.session_id, &rec.flags, &rec.agent_cwd, Some("/")).unwrap();
    assert_eq!(line.argv[..3], ["agy", "--conversation", id.as_str()]);
    assert!(line.line.starts_with("cd "), "{}", line.line);
    let resumed = run_agy(
        &mut w,
        &agy,
        &script,
        &line.argv[1..]
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>(),
        Path::new(&line.cwd),
    );
    assert_eq!(resumed, id);
    assert_eq!(w.record().unwrap().session_id, id);
    assert_eq!(w.journal().len(), 1, "the same conversation: no new line");

    // A new conversation in the pane is a journal line of its own; `agy -p` is nothing.
    let other = run_agy(&mut w, &agy, &script, &[], &proj);
    assert_ne!(other, id);
    assert_eq!(w.journal().len(), 2);
    run_agy(&mut w, &agy, &script, &["-p", "fix it"], &proj);
    assert_eq!(
        w.record().unwrap().session_id,
        other,
        "headless: not recorded"
    );

    installer(&w, "remove");
    assert_eq!(std::fs::read_to_string(&hooks).unwrap(), USERS_HOOKS);
}
