//! Issue 22: agterm's `session.restart` against the fake agterm — the feature probe (post-0.34 builds
//! have it, 0.34 does not), the refusals in agterm's order and words (not Live, a remote session, an
//! unknown pane id), and a restart: the pane keeps its identity, a new shell replaces the old one and
//! runs the line, and the reply says `restart.oldPid` / `newPid` / `paneID` and `pane`.

use agterm_backup_agterm::{AgtermTerminal, Client, Timeouts};
use agterm_backup_core::pane::PaneRole;
use agterm_backup_core::terminal::{PaneRef, RestoreMode, Terminal, TerminalError};
use agterm_backup_testkit::fake_agterm::{FakeAgterm, FakeConfig};
use serde_json::json;
use std::time::Duration;

fn start(
    version: &str,
    mode: RestoreMode,
) -> (FakeAgterm, agterm_backup_testkit::scratch::ScratchDir) {
    let home = agterm_backup_testkit::scratch::tempdir();
    let fake = FakeAgterm::start(
        FakeConfig::new(version, mode).env("HOME", home.path().to_str().unwrap()),
    );
    (fake, home)
}

fn terminal(fake: &FakeAgterm) -> AgtermTerminal {
    AgtermTerminal::new(Client::new(fake.socket(), Timeouts::CLI))
}

#[test]
fn the_probe_finds_session_restart_only_where_agterm_has_it() {
    for (version, mode, has) in [
        ("0.34", RestoreMode::Live, false),
        ("0.44", RestoreMode::Live, true),
        ("0.44", RestoreMode::Rerun, true),
    ] {
        let (fake, _home) = start(version, mode);
        let info = terminal(&fake).info().unwrap();
        assert_eq!(info.supports_restart, has, "{version} {mode:?}");
    }
}

#[test]
fn a_pane_not_live_a_remote_one_and_an_unknown_token_are_refused_in_agterms_words() {
    let (fake, home) = start("0.44", RestoreMode::Rerun);
    let s = fake.add_session(None, None, home.path(), false);
    let refused = |fake: &FakeAgterm, target: &str, args: serde_json::Value| {
        let r = fake.request(&json!({"cmd": "session.restart", "target": target, "args": args}));
        assert_eq!(r["ok"], json!(false), "{r}");
        r["error"].as_str().unwrap().to_string()
    };
    assert_eq!(
        refused(&fake, &s.id, json!({"command": "true"})),
        "session.restart needs Live sessions mode; this pane has no live shell to replace"
    );
    drop(fake);
    let (fake, home) = start("0.44", RestoreMode::Live);
    let far = fake.add_session_with(home.path(), false, json!({"remote": "build-box"}));
    assert_eq!(
        refused(&fake, &far.id, json!({"command": "true"})),
        "session.restart needs a local pane; this session runs on build-box"
    );
    let s = fake.add_session(None, None, home.path(), false);
    assert_eq!(
        refused(&fake, &s.id, json!({"paneID": "NOPE", "command": "true"})),
        "unknown pane id: NOPE"
    );
    assert!(
        refused(&fake, "00000000-0000-0000-0000-000000000000", json!({}))
            .starts_with("no such session")
    );
}

#[test]
fn a_restart_replaces_the_shell_keeps_the_pane_and_runs_the_line() {
    let (fake, home) = start("0.44", RestoreMode::Live);
    let s = fake.add_session(None, None, home.path(), false);
    fake.wait_for_prompt(&s.id, PaneRole::Left);
    let old = fake.foreground_pid(&s.id, PaneRole::Left).unwrap();
    let mut term = terminal(&fake);
    let pane = PaneRef {
        session_id: s.id.clone(),
        role: PaneRole::Left,
        pane_id: Some(s.left.pane_id.clone()),
    };
    let done = term.restart(&pane, "echo restarted-$((40+2))").unwrap();
    assert_eq!(done.old_pid, Some(old));
    assert!(done.new_pid.is_some_and(|p| p != old), "{done:?}");
    fake.wait_for_screen(
        &s.id,
        PaneRole::Left,
        "restarted-42",
        Duration::from_secs(10),
    );
    // The pane kept its identity: the new shell has the same AGTERM_PANE_ID.
    let env = fake.pane_env(&s.id, PaneRole::Left);
    assert!(
        env.iter()
            .any(|(k, v)| k == "AGTERM_PANE_ID" && v == &s.left.pane_id),
        "{env:?}"
    );
    // The raw reply, as agterm sends it.
    let r = fake.request(&json!({"cmd": "session.restart", "target": s.id,
        "args": {"paneID": s.left.pane_id, "command": "true"}}));
    assert_eq!(r["result"]["pane"], "left", "{r}");
    assert_eq!(
        r["result"]["restart"]["paneID"],
        s.left.pane_id.as_str(),
        "{r}"
    );
    assert!(r["result"]["restart"]["oldPid"].is_u64() && r["result"]["restart"]["newPid"].is_u64());
    // An agterm without the command: the seam says unsupported.
    let (old_fake, home) = start("0.34", RestoreMode::Live);
    let s = old_fake.add_session(None, None, home.path(), false);
    let err = terminal(&old_fake)
        .restart(
            &PaneRef {
                session_id: s.id.clone(),
                role: PaneRole::Left,
                pane_id: None,
            },
            "true",
        )
        .unwrap_err();
    assert!(matches!(err, TerminalError::Unsupported(_)), "{err}");
}
