//! Restore's promises against the fake agterm with real shells (issue 11): one conversation is typed
//! into one pane, also when restore runs twice; never into a pane whose pin fires, one not realized, one
//! a setuid-like program holds, one whose prompt holds typed text, or one on another machine; the line
//! shown by `--dry-run` is the line typed; an agent that exits at once is not "running"; and the newest
//! agterm's top-level sessions, companions and remote sessions, in both shapes.

use crate::restore_support::{text, uuid, Env, DENYLIST};
use agterm_backup_core::pane::PaneRole;
use agterm_backup_core::terminal::RestoreMode;
use agterm_backup_testkit::fake_agterm::RestartKind;
use serde_json::{json, Value};
use std::time::Duration;

fn rows(plan: &Value) -> &Vec<Value> {
    plan["rows"].as_array().unwrap()
}

fn row<'a>(plan: &'a Value, session: &str, role: &str) -> &'a Value {
    rows(plan)
        .iter()
        .find(|r| r["pane"] == format!("{session}-{role}"))
        .unwrap_or_else(|| panic!("no row for {session}-{role}: {plan}"))
}

#[test]
fn one_conversation_is_typed_into_one_pane_also_when_restore_runs_twice() {
    let mut env = Env::new("0.34", RestoreMode::None, Some(DENYLIST), false);
    let (x, y) = (uuid(), uuid());
    let (dx, tx) = env.project("shared", &x);
    let (dy, ty) = env.project("other", &y);
    // Conversation x: quit in `a`'s left pane an hour ago, resumed by hand in `b`'s split since.
    let a = env.fake.add_session(None, None, env.home.path(), false);
    let b = env.fake.add_session(None, None, env.home.path(), true);
    env.record(&a.id, PaneRole::Left, &x, &dx, &tx, 3600);
    env.record(&b.id, PaneRole::Right, &x, &dx, &tx, 60);
    env.record(&b.id, PaneRole::Left, &y, &dy, &ty, 120);
    env.fake.restart(RestartKind::CleanQuit);
    for (s, r) in [
        (&a.id, PaneRole::Left),
        (&b.id, PaneRole::Left),
        (&b.id, PaneRole::Right),
    ] {
        env.fake.wait_for_prompt(s, r);
    }
    let (out, plan) = env.restore_json(&["--yes"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let typed_x: Vec<&Value> = rows(&plan)
        .iter()
        .filter(|r| r["action"] == "type" && r["session_id"] == x.as_str())
        .collect();
    assert_eq!(
        typed_x.len(),
        1,
        "one type row for the conversation: {plan}"
    );
    assert_eq!(row(&plan, &b.id, "right")["action"], "type");
    let dup = row(&plan, &a.id, "left");
    assert_eq!(dup["reason"], "duplicate", "{plan}");
    assert!(
        dup["why"].as_str().unwrap().contains("session · right"),
        "names the winning pane: {dup}"
    );
    env.assert_resumed(&b.id, PaneRole::Right, &x, &dx);
    env.assert_resumed(&b.id, PaneRole::Left, &y, &dy);
    let typed = env.fake.typed_log();
    assert_eq!(typed.len(), 2, "{typed:?}");
    assert!(typed.iter().all(|t| t.session == b.id));

    // Again: the typed panes run their agents; the duplicate stays a duplicate; nothing more is typed.
    let (out, again) = env.restore_json(&["--yes"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(row(&again, &a.id, "left")["reason"], "duplicate", "{again}");
    assert_eq!(row(&again, &b.id, "right")["reason"], "already-running");
    assert_eq!(row(&again, &b.id, "left")["reason"], "already-running");
    assert_eq!(env.fake.typed_log().len(), 2);
}

/// Waits until agterm's tree shows neither a foreground nor a shell in front of the session's main pane.
fn wait_hidden(env: &Env, sid: &str) {
    let start = std::time::Instant::now();
    loop {
        let tree = env.fake.request(&json!({"cmd": "tree"}));
        let node = tree["result"]["tree"]["workspaces"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|w| w["sessions"].as_array().unwrap().clone())
            .find(|n| n["id"] == sid)
            .expect("the session is in the tree");
        if node.get("foreground").is_none() && node.get("foregroundShell").is_none() {
            return;
        }
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "still visible: {node}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn pins_unrealized_hidden_and_half_typed_panes_are_never_typed_into() {
    let mut env = Env::new("0.34", RestoreMode::Rerun, Some(DENYLIST), false);
    let mut ids = Vec::new();
    let mut sessions = Vec::new();
    for name in ["pinned", "unrealized", "hidden", "halftyped", "plain"] {
        let id = uuid();
        let (dir, t) = env.project(name, &id);
        let s = env.fake.add_session_with(
            env.home.path(),
            false,
            json!({"name": name, "select": false}),
        );
        env.record(&s.id, PaneRole::Left, &id, &dir, &t, 30);
        ids.push((id, dir));
        sessions.push(s);
    }
    // A pin that agterm types itself at the next launch (here one that does not start the agent).
    let r = env.fake.set_pin(
        &sessions[0].id,
        &sessions[0].left.pane_id,
        "echo pinned-line",
    );
    assert_eq!(r["pane"], "left", "{r}");
    env.fake.restart(RestartKind::CleanQuit);
    for s in &sessions {
        env.fake.wait_for_prompt(&s.id, PaneRole::Left);
    }
    env.fake.wait_for_screen(
        &sessions[0].id,
        PaneRole::Left,
        "pinned-line",
        Duration::from_secs(5),
    );
    let r = env.fake.request(
        &json!({"cmd": "fake.set_realized", "target": sessions[1].id,
        "args": {"pane": "left", "realized": false}}),
    );
    assert_eq!(r["ok"], true, "{r}");
    // A program agterm cannot read (another user's process, as a setuid sudo is): no foreground, no shell.
    env.fake.send_keys(
        &sessions[2].id,
        PaneRole::Left,
        "setpriv --reuid=65534 --regid=65534 --clear-groups sleep 300\n",
    );
    wait_hidden(&env, &sessions[2].id);
    // Half a command at the prompt, not submitted.
    env.fake
        .send_keys(&sessions[3].id, PaneRole::Left, "echo half-typed");
    env.fake.wait_for_screen(
        &sessions[3].id,
        PaneRole::Left,
        "echo half-typed",
        Duration::from_secs(5),
    );

    let (out, plan) = env.restore_json(&["--yes"]);
    let reason = |i: usize| row(&plan, &sessions[i].id, "left")["reason"].clone();
    assert_eq!(reason(0), "pinned", "{plan}");
    assert_eq!(reason(1), "not-realized", "{plan}");
    assert_eq!(reason(2), "hidden-foreground", "{plan}");
    let half = row(&plan, &sessions[3].id, "left");
    assert_eq!(half["action"], "type", "the plan saw an idle shell: {plan}");
    assert!(
        half["outcome"]
            .as_str()
            .unwrap()
            .contains("the prompt already holds"),
        "{half}"
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    env.assert_resumed(&sessions[4].id, PaneRole::Left, &ids[4].0, &ids[4].1);
    let typed = env.fake.typed_log();
    assert_eq!(typed.len(), 1, "only the plain pane: {typed:?}");
    assert_eq!(typed[0].session, sessions[4].id);
    assert!(
        env.fake
            .screen(&sessions[3].id, PaneRole::Left)
            .lines()
            .any(|l| l.trim_end().ends_with("echo half-typed")),
        "the half-typed line is left as it was"
    );
}

#[test]
fn dry_run_shows_the_script_line_that_is_then_typed_and_an_agent_that_exits_is_not_running() {
    let mut env = Env::new("0.34", RestoreMode::None, Some(DENYLIST), false);
    let (long_id, bad_id) = (uuid(), uuid());
    let (dl, tl) = env.project("long", &long_id);
    let (db, tb) = env.project("bad", &bad_id);
    let s = env.fake.add_session(None, None, env.home.path(), true);
    let mut long = env.record(&s.id, PaneRole::Left, &long_id, &dl, &tl, 30);
    long.flags = vec!["--append-system-prompt".into(), "be terse ".repeat(150)];
    agterm_backup_terminals::write_record(&env.state(), &long).unwrap();
    let mut bad = env.record(&s.id, PaneRole::Right, &bad_id, &db, &tb, 30);
    bad.flags = vec!["--model".into(), "exit-now".into()];
    agterm_backup_terminals::write_record(&env.state(), &bad).unwrap();
    env.fake.restart(RestartKind::CleanQuit);
    env.fake.wait_for_prompt(&s.id, PaneRole::Left);
    env.fake.wait_for_prompt(&s.id, PaneRole::Right);

    let dry = env.run(&["restore", "--dry-run"]);
    let human = text(&dry.stdout);
    assert!(
        human.contains("would type into session · left: sh '"),
        "{human}"
    );
    let (_, dry_json) = env.restore_json(&["--dry-run"]);
    let shown = row(&dry_json, &s.id, "left")["line"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(shown.starts_with("sh '") && shown.len() < 1024, "{shown}");
    assert!(env.fake.typed_log().is_empty());

    let (out, plan) = env.restore_json(&["--yes"]);
    assert!(!out.status.success(), "an agent that exited is a failure");
    let typed = env.fake.typed_log();
    let left = typed.iter().find(|t| t.pane == PaneRole::Left).unwrap();
    assert_eq!(
        left.text,
        format!("{shown}\n"),
        "the dry run showed what is typed"
    );
    env.assert_resumed(&s.id, PaneRole::Left, &long_id, &dl);
    let right = row(&plan, &s.id, "right");
    let outcome = right["outcome"].as_str().unwrap();
    assert!(
        outcome.starts_with("exited:") && outcome.contains("'exit-now' is invalid"),
        "{right}"
    );
}

/// 0.44's top-level sessions and companions join their records in both shapes (a `root: true`
/// workspace node or `tree.sessions`; companions flat with `parentID` or nested), and a remote session
/// is never typed into — at 0.44 (`remote: true` + `remoteHost`) and at 0.34 (`remoteHost` only).
#[test]
fn newest_agterm_top_level_companion_and_remote_sessions() {
    for (version, shapes) in [
        (
            "0.44",
            json!({"root_top_level": false, "companions_nested": false}),
        ),
        (
            "0.44",
            json!({"root_top_level": true, "companions_nested": true}),
        ),
        ("0.34", json!({})),
    ] {
        let mut env = Env::new(version, RestoreMode::None, Some(DENYLIST), false);
        let r = env
            .fake
            .request(&json!({"cmd": "fake.set_shapes", "args": shapes}));
        assert_eq!(r["ok"], true, "{r}");
        let newest = version == "0.44";
        let home = env.home.path().to_path_buf();
        let top = newest.then(|| {
            env.fake
                .add_session_with(&home, false, json!({"workspace": "root", "name": "top"}))
        });
        let lead = env.fake.add_session(None, None, &home, false);
        let companion = newest.then(|| {
            env.fake.add_session_with(
                &home,
                false,
                json!({"companion_of": lead.id, "name": "comp", "scratch_cwd": "/tmp"}),
            )
        });
        let remote =
            env.fake
                .add_session_with(&home, false, json!({"remote": "mini.local", "name": "far"}));
        let mut local = vec![lead.id.clone()];
        local.extend(top.iter().chain(companion.iter()).map(|s| s.id.clone()));
        let mut expect = Vec::new();
        for (i, sid) in local.iter().chain([&remote.id]).enumerate() {
            let id = uuid();
            let (dir, t) = env.project(&format!("p{i}"), &id);
            env.record(sid, PaneRole::Left, &id, &dir, &t, 30);
            expect.push((sid.clone(), id, dir));
        }
        env.fake.restart(RestartKind::CleanQuit);
        for (sid, _, _) in &expect {
            env.fake.wait_for_prompt(sid, PaneRole::Left);
        }
        let (out, plan) = env.restore_json(&["--yes"]);
        assert!(
            out.status.success(),
            "{version} {shapes}: {}",
            text(&out.stderr)
        );
        assert_eq!(
            row(&plan, &remote.id, "left")["reason"],
            "remote",
            "{version} {shapes}: {plan}"
        );
        for (sid, id, dir) in expect.iter().filter(|(s, _, _)| *s != remote.id) {
            assert_eq!(
                row(&plan, sid, "left")["action"],
                "type",
                "{version} {shapes}: {plan}"
            );
            env.assert_resumed(sid, PaneRole::Left, id, dir);
        }
        let typed = env.fake.typed_log();
        assert_eq!(typed.len(), local.len(), "{typed:?}");
        assert!(
            typed.iter().all(|t| t.session != remote.id),
            "never into a remote pane"
        );
        let status = env.run(&["status", "--json"]);
        let v: Value = serde_json::from_slice(&status.stdout).unwrap();
        let far = v["panes"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["pane"] == format!("{}-left", remote.id))
            .unwrap_or_else(|| panic!("{v}"));
        assert!(
            far["restore"].as_str().unwrap().starts_with("remote"),
            "{far}"
        );
    }
}
