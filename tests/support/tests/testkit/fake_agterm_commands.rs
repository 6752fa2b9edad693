//! The fake agterm's commands over raw JSON: `session.restore` (check order, tri-state pins, notes),
//! `session.type`/`session.text` errors, `restore.mode`, `zmx.list` and `restore.clear`.

use crate::fake_agterm_common::{err, ok, start, PRESETS};
use agterm_backup_core::terminal::RestoreMode;
use agterm_backup_testkit::fake_agterm::{raw_request, SETTING_OFF_NOTE};
use serde_json::{json, Value};

#[test]
fn session_restore_checks_in_order() {
    let long = "x".repeat(1025);
    for version in ["0.16", "0.24", "0.26", "0.34"] {
        let (fake, cwd) = start(version, RestoreMode::Rerun);
        let s = fake.add_session(None, None, cwd.path(), false);
        let restore = |target: &str, args: Value| {
            fake.request(&json!({"cmd": "session.restore", "target": target, "args": args}))
        };
        // 1. Mode checks come before target resolution.
        assert_eq!(
            err(&restore("nope", json!({"mode": "set"}))),
            "session.restore set requires a command"
        );
        assert_eq!(
            err(&restore("nope", json!({"mode": "set", "command": "a\tb"}))),
            "command must not contain control characters"
        );
        assert_eq!(
            err(&restore(
                "nope",
                json!({"mode": "set", "command": "a\u{7f}"})
            )),
            "command must not contain control characters"
        );
        assert_eq!(
            err(&restore("nope", json!({"mode": "set", "command": long}))),
            "command too long (max 1024 bytes)"
        );
        ok(&restore(
            &s.id,
            json!({"mode": "set", "command": "x".repeat(1024)}),
        ));
        assert_eq!(
            err(&restore("nope", json!({"mode": "bogus"}))),
            "invalid restore mode: bogus (set|none|clear)"
        );
        // 2. Pane syntax, 3. target.
        assert_eq!(
            err(&restore("nope", json!({"mode": "none", "pane": "middle"}))),
            "--pane must be left, right, or scratch"
        );
        assert_eq!(
            err(&restore("nope", json!({"mode": "none"}))),
            "no such session: nope"
        );
        // 4. Pane id lookup, no silent fallback.
        assert_eq!(
            err(&restore(&s.id, json!({"mode": "none", "paneID": "DEAD"}))),
            "unknown pane id: DEAD"
        );
        let fallback = restore(
            &s.id,
            json!({"mode": "set", "paneID": "DEAD", "pane": "left", "command": "echo fb"}),
        );
        ok(&fallback);
        // 5. Pane validity.
        assert_eq!(
            err(&restore(&s.id, json!({"mode": "none", "pane": "scratch"}))),
            "the scratch terminal is never restored"
        );
        assert_eq!(
            err(&restore(&s.id, json!({"mode": "none", "pane": "right"}))),
            "session has no split"
        );
        // Tri-state, by token (lower-case accepted), `set ""` = none.
        let by_token = restore(
            &s.id,
            json!({"mode": "set", "paneID": s.left.pane_id.to_lowercase(), "command": "echo hi"}),
        );
        assert_eq!(ok(&by_token)["id"], json!(s.id));
        assert_eq!(
            ok(&by_token).get("pane").is_some(),
            version >= "0.26",
            "{version}"
        );
        assert_eq!(
            fake.pin(&s.id, agterm_backup_core::pane::PaneRole::Left)
                .as_deref(),
            Some("echo hi")
        );
        let tree = fake.request(&json!({"cmd": "tree"}));
        assert_eq!(
            ok(&tree)["tree"]["workspaces"][0]["sessions"][0]["restoreCommand"],
            json!("echo hi")
        );
        ok(&restore(&s.id, json!({"mode": "set", "command": ""})));
        assert_eq!(
            fake.pin(&s.id, agterm_backup_core::pane::PaneRole::Left)
                .as_deref(),
            Some("")
        );
        ok(&restore(&s.id, json!({"mode": "clear"})));
        assert_eq!(
            fake.pin(&s.id, agterm_backup_core::pane::PaneRole::Left),
            None
        );
    }
}

#[test]
fn session_restore_notes_when_the_pin_will_not_run() {
    // Before 0.26: only `set` while the setting is off.
    let (fake, cwd) = start("0.24", RestoreMode::None);
    let s = fake.add_session(None, None, cwd.path(), false);
    let set = fake.request(
        &json!({"cmd": "session.restore", "target": s.id, "args": {"mode": "set", "command": "x"}}),
    );
    assert_eq!(ok(&set)["text"], json!(SETTING_OFF_NOTE));
    let none =
        fake.request(&json!({"cmd": "session.restore", "target": s.id, "args": {"mode": "none"}}));
    assert!(ok(&none).get("text").is_none());
    let (fake, cwd) = start("0.24", RestoreMode::Rerun);
    let s = fake.add_session(None, None, cwd.path(), false);
    let set = fake.request(
        &json!({"cmd": "session.restore", "target": s.id, "args": {"mode": "set", "command": "x"}}),
    );
    assert!(ok(&set).get("text").is_none());
    // 0.26+: set and none under live/none name the active mode; clear never notes.
    for (mode, name) in [(RestoreMode::Live, "live"), (RestoreMode::None, "none")] {
        let (fake, cwd) = start("0.34", mode);
        let s = fake.add_session(None, None, cwd.path(), false);
        for args in [
            json!({"mode": "set", "command": "x"}),
            json!({"mode": "none"}),
        ] {
            let r = fake.request(&json!({"cmd": "session.restore", "target": s.id, "args": args}));
            let text = ok(&r)["text"].as_str().expect("note").to_string();
            assert!(text.contains(name), "{text}");
            assert_eq!(ok(&r)["pane"], json!("left"));
        }
        let clear = fake
            .request(&json!({"cmd": "session.restore", "target": s.id, "args": {"mode": "clear"}}));
        assert!(ok(&clear).get("text").is_none());
    }
    let (fake, cwd) = start("0.34", RestoreMode::Rerun);
    let s = fake.add_session(None, None, cwd.path(), true);
    let right = fake.request(&json!({"cmd": "session.restore", "target": s.id,
        "args": {"mode": "set", "paneID": s.right.as_ref().unwrap().pane_id, "command": "x"}}));
    assert!(ok(&right).get("text").is_none());
    assert_eq!(ok(&right)["pane"], json!("right"));
}

#[test]
fn session_type_and_text_errors() {
    for version in PRESETS {
        let (fake, cwd) = start(version, RestoreMode::Rerun);
        let s = fake.add_session(None, None, cwd.path(), false);
        let typ = |args: Value| {
            fake.request(&json!({"cmd": "session.type", "target": s.id, "args": args}))
        };
        let txt = |args: Value| {
            fake.request(&json!({"cmd": "session.text", "target": s.id, "args": args}))
        };
        assert_eq!(err(&typ(json!({}))), "session.type requires text");
        let nul = typ(json!({"text": "a\u{0}b"}));
        if version >= "0.25" {
            assert_eq!(err(&nul), "text must not contain a NUL byte");
        } else {
            ok(&nul);
        }
        assert_eq!(
            err(&fake
                .request(&json!({"cmd": "session.type", "target": "zz", "args": {"text": "x"}}))),
            "no such session: zz"
        );
        assert_eq!(
            err(&typ(json!({"text": "x", "pane": "right"}))),
            "session has no split pane"
        );
        assert_eq!(
            err(&typ(json!({"text": "x", "pane": "scratch"}))),
            "session has no scratch terminal"
        );
        assert_eq!(
            err(&typ(json!({"text": "x", "pane": "middle"}))),
            "invalid pane: middle"
        );
        let alias = typ(json!({"text": "", "pane": "primary"}));
        if version >= "0.34" {
            ok(&alias);
        } else {
            assert_eq!(err(&alias), "invalid pane: primary");
        }
        assert_eq!(
            err(&txt(json!({"all": true, "lines": 3}))),
            "use either --all or --lines, not both"
        );
        assert_eq!(
            err(&txt(json!({"lines": 0}))),
            "--lines must be greater than 0"
        );
        assert_eq!(
            err(&txt(json!({"pane": "right"}))),
            "session has no split pane"
        );
        assert_eq!(err(&txt(json!({"pane": "nope"}))), "invalid pane: nope");
        ok(&fake.request(
            &json!({"cmd": "fake.set_realized", "target": s.id, "args": {"realized": false}}),
        ));
        assert_eq!(err(&typ(json!({"text": "x"}))), "session not realized");
        assert_eq!(err(&txt(json!({}))), "session not realized");
    }
}

#[test]
fn restore_mode_reads_and_sets_for_the_next_launch() {
    let (mut fake, _cwd) = start("0.34", RestoreMode::Rerun);
    let read = fake.request(&json!({"cmd": "restore.mode"}));
    assert_eq!(
        ok(&read)["restore"],
        json!({"configured": "rerun", "requestedAtLaunch": "rerun", "active": "rerun", "restartRequired": false})
    );
    assert_eq!(
        err(&fake.request(&json!({"cmd": "restore.mode", "args": {"mode": "Live"}}))),
        "invalid restore mode: Live"
    );
    let set = fake.request(&json!({"cmd": "restore.mode", "args": {"mode": "live"}}));
    assert_eq!(
        ok(&set)["restore"],
        json!({"configured": "live", "requestedAtLaunch": "rerun", "active": "rerun", "restartRequired": true})
    );
    fake.restart(agterm_backup_testkit::fake_agterm::RestartKind::CleanQuit);
    let read = fake.request(&json!({"cmd": "restore.mode"}));
    assert_eq!(ok(&read)["restore"]["active"], json!("live"));
    assert_eq!(ok(&read)["restore"]["restartRequired"], json!(false));
}

#[test]
fn zmx_list_rows_for_live_panes() {
    let (fake, cwd) = start("0.34", RestoreMode::Live);
    let s = fake.add_session(None, None, cwd.path(), true);
    let list = fake.request(&json!({"cmd": "zmx.list"}));
    let zmx = &ok(&list)["zmx"];
    assert_eq!(zmx["restore"]["active"], json!("live"));
    let entries = zmx["entries"].as_array().unwrap();
    assert_eq!(entries.len(), 2);
    let left = entries.iter().find(|e| e["pane"] == json!("left")).unwrap();
    assert_eq!(left["observation"], json!("running"));
    assert_eq!(left["sessionID"], json!(s.id));
    assert_eq!(left["clients"], json!(1));
    let expected = format!("agterm-{}", s.left.pane_id.replace('-', "").to_lowercase());
    assert_eq!(left["daemon"], json!(expected));
    // A pane whose process died is `claimed` + `absent`.
    fake.tmux().ok(&["kill-pane", "-t", &s.left.tmux]);
    let list = fake.request(&json!({"cmd": "zmx.list"}));
    let entries = ok(&list)["zmx"]["entries"].as_array().unwrap().clone();
    let left = entries.iter().find(|e| e["pane"] == json!("left")).unwrap();
    assert_eq!(left["observation"], json!("absent"));
    assert!(left.get("clients").is_none());

    let (rerun, cwd) = start("0.34", RestoreMode::Rerun);
    rerun.add_session(None, None, cwd.path(), false);
    let list = rerun.request(&json!({"cmd": "zmx.list"}));
    assert_eq!(ok(&list)["zmx"]["entries"], json!([]));
}

#[test]
fn restore_clear_is_app_global_and_keeps_pins() {
    let (fake, cwd) = start("0.34", RestoreMode::Rerun);
    let s = fake.add_session(None, None, cwd.path(), false);
    ok(&fake.request(&json!({"cmd": "session.restore", "target": s.id, "args": {"mode": "set", "command": "echo kept"}})));
    assert_eq!(
        raw_request(&fake.socket(), b"{\"cmd\":\"restore.clear\"}\n").unwrap(),
        "{\"ok\":true}\n"
    );
    assert_eq!(
        fake.pin(&s.id, agterm_backup_core::pane::PaneRole::Left)
            .as_deref(),
        Some("echo kept")
    );
}

#[test]
fn pane_ids_address_text_from_034_and_type_after_it() {
    use agterm_backup_core::pane::PaneRole;
    let wait = std::time::Duration::from_secs(10);
    for (version, text_honours, type_honours) in [
        ("0.26", false, false),
        ("0.34", true, false),
        ("0.35", true, true),
    ] {
        let (fake, cwd) = start(version, RestoreMode::Rerun);
        let s = fake.add_session(None, None, cwd.path(), true);
        let right = s.right.clone().unwrap().pane_id;
        let marker = json!({"text": "echo marker-$((6*7))\n", "pane": "right"});
        ok(&fake.request(&json!({"cmd": "session.type", "target": s.id, "args": marker})));
        fake.wait_for_screen(&s.id, PaneRole::Right, "\nmarker-42", wait);
        let text = fake
            .request(&json!({"cmd": "session.text", "target": s.id, "args": {"paneID": right}}));
        let seen = ok(&text)["text"].as_str().unwrap().contains("\nmarker-42");
        assert_eq!(seen, text_honours, "{version}");
        let typed = json!({"text": "echo typed-$((1+1))\n", "paneID": right});
        ok(&fake.request(&json!({"cmd": "session.type", "target": s.id, "args": typed})));
        let role = if type_honours {
            PaneRole::Right
        } else {
            PaneRole::Left
        };
        fake.wait_for_screen(&s.id, role, "\ntyped-2", wait);
    }
}
