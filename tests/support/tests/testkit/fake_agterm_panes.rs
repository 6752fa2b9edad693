//! The fake agterm's panes are real shells: `session.type` really runs commands, `session.text` reads the
//! real screen, `tree.foreground` is the live foreground process, and each shell has agterm's env.

use agterm_backup_core::pane::PaneRole;
use agterm_backup_core::terminal::RestoreMode;
use agterm_backup_testkit::fake_agterm::{wait_until, FakeAgterm, FakeConfig};
use serde_json::{json, Value};
use std::time::Duration;

const WAIT: Duration = Duration::from_secs(10);

fn session_node(fake: &FakeAgterm) -> Value {
    let tree = fake.request(&json!({"cmd": "tree"}));
    tree["result"]["tree"]["workspaces"][0]["sessions"][0].clone()
}

#[test]
fn typed_lines_run_in_the_shell_and_text_reads_them() {
    for version in ["0.15", "0.34"] {
        let dir = agterm_backup_testkit::scratch::tempdir();
        let fake = FakeAgterm::start(FakeConfig::new(version, RestoreMode::Rerun));
        let s = fake.add_session(None, None, dir.path(), true);
        let out = dir.path().join("hi.txt");
        let r = fake.request(&json!({"cmd": "session.type", "target": s.id,
            "args": {"text": format!("echo hi > {}\n", out.display()), "select": false, "pane": "left"}}));
        assert_eq!(r["ok"], json!(true), "{r}");
        let wrote_hi = || std::fs::read_to_string(&out).is_ok_and(|t| t == "hi\n");
        assert!(wait_until(WAIT, wrote_hi), "typed command did not run");
        // `\r`, `\r\n` and `\n` are each one Return: three commands, no blank-line merges.
        let r = fake.request(&json!({"cmd": "session.type", "target": s.id,
            "args": {"text": "echo one-$((1+0))\recho two-$((1+1))\r\necho three-$((1+2))\n", "pane": "right"}}));
        assert_eq!(r["ok"], json!(true));
        fake.wait_for_screen(&s.id, PaneRole::Right, "three-3\n$", WAIT);
        let text = fake
            .request(&json!({"cmd": "session.text", "target": s.id, "args": {"pane": "right"}}));
        let text = text["result"]["text"].as_str().unwrap();
        for word in ["one-1", "two-2", "three-3"] {
            assert!(
                text.lines().any(|l| l == word),
                "{word} missing from:\n{text}"
            );
        }
        let last = fake.request(
            &json!({"cmd": "session.text", "target": s.id, "args": {"pane": "right", "lines": 2}}),
        );
        let last = last["result"]["text"].as_str().unwrap();
        assert_eq!(last.lines().count(), 2, "{last:?}");
        assert!(last.starts_with("three-3"), "{last:?}");
        // Text without a newline is typed but not submitted.
        fake.request(
            &json!({"cmd": "session.type", "target": s.id, "args": {"text": "echo pending"}}),
        );
        fake.wait_for_screen(&s.id, PaneRole::Left, "$ echo pending", WAIT);
        assert!(!fake.screen(&s.id, PaneRole::Left).contains("\npending"));
        let typed = fake.typed_log();
        assert_eq!(typed.len(), 3);
        assert_eq!(typed[1].pane, PaneRole::Right);
        assert_eq!(typed[2].text, "echo pending");
    }
}

#[test]
fn text_all_includes_scrollback() {
    let dir = agterm_backup_testkit::scratch::tempdir();
    let fake = FakeAgterm::start(FakeConfig::new("0.34", RestoreMode::Rerun));
    let s = fake.add_session(None, None, dir.path(), false);
    fake.request(&json!({"cmd": "session.type", "target": s.id, "args": {"text": "seq 1 120\n"}}));
    fake.wait_for_screen(&s.id, PaneRole::Left, "\n120\n", WAIT);
    let visible = fake.request(&json!({"cmd": "session.text", "target": s.id}));
    let visible = visible["result"]["text"].as_str().unwrap().to_string();
    let all = fake.request(&json!({"cmd": "session.text", "target": s.id, "args": {"all": true}}));
    let all = all["result"]["text"].as_str().unwrap().to_string();
    assert!(
        !visible.lines().any(|l| l == "1"),
        "line 1 scrolled off the 50-row screen"
    );
    assert!(all.lines().any(|l| l == "1") && all.lines().any(|l| l == "120"));
}

#[test]
fn foreground_is_the_running_command_and_omitted_at_the_prompt() {
    for version in ["0.16", "0.34"] {
        let dir = agterm_backup_testkit::scratch::tempdir();
        let fake = FakeAgterm::start(FakeConfig::new(version, RestoreMode::Rerun));
        let s = fake.add_session(None, None, dir.path(), true);
        let node = session_node(&fake);
        assert!(node.get("foreground").is_none(), "{node}");
        assert!(node.get("splitForeground").is_none(), "{node}");
        fake.request(&json!({"cmd": "session.type", "target": s.id, "args": {"text": "sleep 100\n", "pane": "right"}}));
        fake.wait_for_foreground(&s.id, PaneRole::Right, WAIT, |fg| fg.is_some());
        let node = session_node(&fake);
        assert_eq!(node["splitForeground"], json!(["sleep", "100"]));
        assert!(node.get("foreground").is_none());
        // Ctrl-C back to the prompt: omitted again.
        fake.tmux()
            .ok(&["send-keys", "-t", &s.right.as_ref().unwrap().tmux, "C-c"]);
        fake.wait_for_foreground(&s.id, PaneRole::Right, WAIT, |fg| fg.is_none());
        assert!(session_node(&fake).get("splitForeground").is_none());
    }
}

#[test]
fn panes_carry_agterms_environment() {
    for (version, persistent) in [("0.24", false), ("0.26", true)] {
        let dir = agterm_backup_testkit::scratch::tempdir();
        let fake =
            FakeAgterm::start(FakeConfig::new(version, RestoreMode::Rerun).env("AGB_EXTRA", "x y"));
        let s = fake.add_session(None, None, dir.path(), true);
        let env = fake.pane_env(&s.id, PaneRole::Right);
        assert_eq!(env["AGTERM_ENABLED"], "1");
        assert_eq!(env["AGTERM_SESSION_ID"], s.id);
        assert_eq!(env["AGTERM_SESSION_ID"], s.id.to_uppercase());
        assert_eq!(env["AGTERM_PANE"], "right");
        assert_eq!(env["AGTERM_PANE_ID"], s.right.as_ref().unwrap().pane_id);
        assert_eq!(env["AGTERM_SOCKET"], fake.socket().display().to_string());
        assert_eq!(env["AGTERM_WINDOW_ID"], s.window);
        assert_eq!(env["AGTERM_WORKSPACE_ID"], s.workspace);
        assert_eq!(env["TERM_PROGRAM"], "agterm");
        assert_eq!(env["TERM_PROGRAM_VERSION"], format!("{version}.0"));
        assert_eq!(env["AGB_EXTRA"], "x y");
        assert!(!env.contains_key("TMUX"));
        let left = fake.pane_env(&s.id, PaneRole::Left);
        assert_eq!(left["AGTERM_PANE"], "left");
        assert_ne!(left["AGTERM_PANE_ID"], env["AGTERM_PANE_ID"]);
        let state = fake.state();
        let pane = state.session(&s.id).unwrap().pane(PaneRole::Left).unwrap();
        assert_eq!(pane.token == pane.identity, persistent, "{version}");
        // The shell is a login shell.
        let shopt = "shopt -q login_shell && echo LOGIN-yes\n";
        fake.request(&json!({"cmd": "session.type", "target": s.id, "args": {"text": shopt}}));
        fake.wait_for_screen(&s.id, PaneRole::Left, "\nLOGIN-yes", WAIT);
    }
}

#[test]
fn a_path_given_by_the_test_survives_the_login_profile() {
    let dir = agterm_backup_testkit::scratch::tempdir();
    let bin = dir.path().join("bin");
    std::fs::create_dir(&bin).unwrap();
    let tool = bin.join("agb-only-here");
    std::fs::write(&tool, "#!/bin/sh\necho found-$((40+2))\n").unwrap();
    std::fs::set_permissions(&tool, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let path = format!("{}:/usr/bin:/bin", bin.display());
    let fake = FakeAgterm::start(FakeConfig::new("0.34", RestoreMode::Rerun).env("PATH", &path));
    let s = fake.add_session(None, None, dir.path(), false);
    fake.type_line(&s.id, PaneRole::Left, "agb-only-here");
    fake.wait_for_screen(&s.id, PaneRole::Left, "\nfound-42", WAIT);
    // Only once: the shell's own PATH changes stick.
    fake.type_line(
        &s.id,
        PaneRole::Left,
        "PATH=/bin:/usr/bin; echo \"p=$PATH\"",
    );
    fake.type_line(&s.id, PaneRole::Left, "echo \"q=$PATH\"");
    fake.wait_for_screen(&s.id, PaneRole::Left, "\nq=/bin:/usr/bin", WAIT);
}
