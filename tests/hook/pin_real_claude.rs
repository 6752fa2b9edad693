//! The "done when", with the real Claude Code CLI: in a pane of the fake agterm (0.34, rerun
//! mode), `claude --model sonnet` started by hand leaves a pin equal to its resume line; after a reboot of
//! the fake, agterm types the pin into a fresh shell and the pane runs `claude --resume <that id> --model
//! sonnet` in the agent's directory, which continues the same conversation. Skipped (SKIPPED line) when the
//! CLI is absent.

use agterm_backup_core::pane::PaneRole;
use agterm_backup_core::quote::quote;
use agterm_backup_core::state::StateDir;
use agterm_backup_core::terminal::RestoreMode;
use agterm_backup_testkit::agents::rig::Rig;
use agterm_backup_testkit::fake_agterm::{wait_until, FakeAgterm, FakeConfig, RestartKind};
use agterm_backup_testkit::paths::agent_cli;
use serde_json::Value;
use std::time::Duration;

const AGENT: Duration = Duration::from_secs(60);

fn record(state: &StateDir, session: &str, role: PaneRole) -> Option<Value> {
    let key = agterm_backup_agterm::key::key(session, role)?;
    let text = std::fs::read_to_string(state.record_path(&key)).ok()?;
    serde_json::from_str(&text).ok()
}

/// Waits for the pane's record to satisfy `pred`; panics with the record, the hook log and the screen.
fn wait_record(
    fake: &FakeAgterm,
    state: &StateDir,
    session: &str,
    what: &str,
    pred: impl Fn(&Value) -> bool,
) -> Value {
    let mut last = None;
    let found = wait_until(AGENT, || {
        last = record(state, session, PaneRole::Left);
        last.as_ref().is_some_and(&pred)
    });
    assert!(
        found,
        "timed out waiting for {what}; record: {last:?}\nlog: {}\nscreen:\n{}",
        std::fs::read_to_string(state.log_path()).unwrap_or_default(),
        fake.screen(session, PaneRole::Left)
    );
    last.unwrap()
}

#[test]
fn a_real_claude_pin_resumes_the_same_conversation_after_a_rerun_restart() {
    let Some(claude) = agent_cli("claude") else {
        return;
    };
    let rig = Rig::new(&["my proj"]);
    let hook = format!(
        "{} hook claude",
        quote(agterm_backup_testkit::agterm_backup_bin!())
    );
    rig.wire_claude(&hook);
    let proj = rig.root.join("my proj");
    // Login shells reset PATH in /etc/profile; ~/.bash_profile puts the CLIs back in front.
    std::fs::write(
        rig.home.home.join(".bash_profile"),
        format!(
            "export PATH={}:\"$PATH\"\n",
            quote(&claude.parent().unwrap().to_string_lossy())
        ),
    )
    .unwrap();
    let mut config = FakeConfig::new("0.34", RestoreMode::Rerun);
    for (k, v) in rig.home.env(&rig.stub) {
        config = config.env(&k, v);
    }
    config = config.env("AGTERM_BACKUP_HOME", rig.state_dir.to_str().unwrap());
    let mut fake = FakeAgterm::start(config);
    let state = StateDir::at(&rig.state_dir);
    let s = fake.add_session(None, None, &proj, false);

    fake.send_keys(
        &s.id,
        PaneRole::Left,
        "claude --model sonnet 'hello there'\n",
    );
    let first = wait_record(&fake, &state, &s.id, "a record with a pin", |r| {
        r["pin"].is_string()
    });
    let id = first["session_id"].as_str().unwrap().to_string();
    let want = format!(
        "cd {} && 'claude' '--resume' '{id}' '--model' 'sonnet'",
        quote(proj.to_str().unwrap())
    );
    assert_eq!(first["pin"], "ok", "record: {first}");
    assert_eq!(first["pinned_line"], want.as_str());
    assert_eq!(
        fake.pin(&s.id, PaneRole::Left).as_deref(),
        Some(want.as_str())
    );
    let transcript = first["transcript_path"].as_str().unwrap().to_string();
    // The first turn must be in the transcript before the reboot, or there is nothing to resume.
    let answered = wait_until(AGENT, || {
        std::fs::read_to_string(&transcript).is_ok_and(|t| t.contains("\"type\":\"assistant\""))
    });
    assert!(answered, "no answered turn in {transcript}");

    fake.restart(RestartKind::Reboot);
    let fg = fake.wait_for_foreground(&s.id, PaneRole::Left, AGENT, |fg| {
        fg.as_ref()
            .is_some_and(|argv| argv.iter().any(|w| w == &id))
    });
    let argv = fg.unwrap();
    let tail: Vec<&str> = argv.iter().skip(1).map(String::as_str).collect();
    assert_eq!(
        tail,
        ["--resume", id.as_str(), "--model", "sonnet"],
        "argv: {argv:?}"
    );
    let resumed = wait_record(&fake, &state, &s.id, "the resumed SessionStart", |r| {
        r["source"] == "resume" && r["ts"] != first["ts"]
    });
    assert_eq!(resumed["session_id"], id.as_str(), "same conversation");
    assert_eq!(resumed["agent_cwd"], proj.to_str().unwrap());
    assert_eq!(resumed["transcript_path"], transcript.as_str());
    assert_eq!(
        resumed["pin"], "ok",
        "the unchanged line is not re-pinned but still recorded"
    );
    assert_eq!(resumed["pinned_line"], want.as_str());
}
