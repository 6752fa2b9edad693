//! The fake agterm's wire protocol, as raw JSON over its socket, at every version preset: framing,
//! version gating, target resolution and every error string of the commands the suite uses.

use crate::fake_agterm_common::{err, ok, start, PRESETS};
use agterm_backup_core::terminal::RestoreMode;
use agterm_backup_testkit::fake_agterm::{raw_request, FakeAgterm};
use serde_json::{json, Value};
use std::os::unix::fs::PermissionsExt;

#[test]
fn framing_matches_agterm() {
    let (fake, _cwd) = start("0.34", RestoreMode::Rerun);
    let socket = fake.socket();
    let mode = std::fs::metadata(&socket).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);
    assert!(std::path::Path::new(&format!("{}.lock", socket.display())).exists());
    // EOF with nothing read.
    let answer = raw_request(&socket, b"").unwrap();
    assert_eq!(
        answer,
        "{\"ok\":false,\"error\":\"request too large or read failed\"}\n"
    );
    // A bare newline is an empty document.
    let answer: Value = serde_json::from_str(&raw_request(&socket, b"\n").unwrap()).unwrap();
    assert!(err(&answer).starts_with("invalid request: "));
    // EOF ends the line too; `/` comes back escaped.
    let answer = raw_request(&socket, br#"{"cmd":"version"}"#).unwrap();
    assert!(
        answer.ends_with('\n') && answer.matches('\n').count() == 1,
        "{answer:?}"
    );
    // Over the 1 MiB cap.
    let mut big = br#"{"cmd":"tree","args":{"window":""#.to_vec();
    big.extend(std::iter::repeat_n(b'a', 1 << 20));
    big.extend(b"\"}}\n");
    let answer: Value = serde_json::from_str(&raw_request(&socket, &big).unwrap()).unwrap();
    assert_eq!(err(&answer), "request too large or read failed");
    // Only the first line counts.
    let answer: Value = serde_json::from_str(
        &raw_request(&socket, b"{\"cmd\":\"window.list\"}\n{\"cmd\":\"bogus\"}\n").unwrap(),
    )
    .unwrap();
    assert!(ok(&answer)["windows"].is_array());
}

#[test]
fn slashes_are_escaped_like_swift() {
    let (fake, cwd) = start("0.34", RestoreMode::Rerun);
    fake.add_session(None, None, cwd.path(), false);
    let raw = raw_request(&fake.socket(), b"{\"cmd\":\"tree\"}\n").unwrap();
    assert!(raw.contains("\\/"), "{raw}");
    let tree: Value = serde_json::from_str(&raw).unwrap();
    let cwd_seen = tree["result"]["tree"]["workspaces"][0]["sessions"][0]["cwd"]
        .as_str()
        .unwrap();
    assert_eq!(
        std::fs::canonicalize(cwd_seen).unwrap(),
        std::fs::canonicalize(cwd.path()).unwrap()
    );
}

#[test]
fn commands_are_gated_by_version() {
    for version in PRESETS {
        let (fake, _cwd) = start(version, RestoreMode::Rerun);
        let v: Vec<u32> = version.split('.').map(|p| p.parse().unwrap()).collect();
        let minor = v[1];
        let probe = fake.request(&json!({"cmd": "session.restore", "args": {"mode": "probe"}}));
        if minor >= 16 {
            assert_eq!(
                err(&probe),
                "invalid restore mode: probe (set|none|clear)",
                "{version}"
            );
        } else {
            assert!(
                err(&probe).starts_with("invalid request: "),
                "{version}: {probe}"
            );
        }
        let ver = fake.request(&json!({"cmd": "version"}));
        if minor >= 25 {
            assert_eq!(ok(&ver)["app"]["version"], json!(format!("{version}.0")));
        } else {
            assert!(err(&ver).starts_with("invalid request: "), "{version}");
        }
        for cmd in ["restore.mode", "zmx.list"] {
            let answer = fake.request(&json!({"cmd": cmd}));
            if minor >= 26 {
                ok(&answer);
            } else {
                assert!(
                    err(&answer).starts_with("invalid request: "),
                    "{version} {cmd}"
                );
            }
        }
        let tree = fake.request(&json!({"cmd": "tree"}));
        assert_eq!(
            ok(&tree)["tree"].get("app").is_some(),
            minor >= 25,
            "{version}"
        );
        let unknown = fake.request(&json!({"cmd": "session.frobnicate"}));
        assert!(err(&unknown).starts_with("invalid request: "));
        let wrong_type = fake.request(&json!({"cmd": "session.text", "args": {"lines": "five"}}));
        assert!(err(&wrong_type).starts_with("invalid request: "));
    }
}

#[test]
fn window_list_and_tree_per_window() {
    let (fake, cwd) = start("0.34", RestoreMode::Rerun);
    let second = fake.add_window("second", true);
    let closed = fake.add_window("closed", false);
    let a = fake.add_session(None, None, cwd.path(), false);
    let b = fake.add_session(Some(&second), Some("work"), cwd.path(), true);
    let windows = fake.request(&json!({"cmd": "window.list"}));
    let windows = ok(&windows)["windows"].as_array().unwrap().clone();
    assert_eq!(windows.len(), 3);
    let open: Vec<bool> = windows
        .iter()
        .map(|w| w["open"].as_bool().unwrap())
        .collect();
    assert_eq!(open, vec![true, true, false]);
    assert_eq!(
        windows
            .iter()
            .filter(|w| w["active"] == json!(true))
            .count(),
        1
    );

    let front = fake.request(&json!({"cmd": "tree"}));
    let sessions = &ok(&front)["tree"]["workspaces"][0]["sessions"];
    assert_eq!(sessions[0]["id"], json!(a.id));
    assert_eq!(sessions[0]["split"], json!(false));
    assert!(sessions[0].get("hasSplit").is_none());
    assert!(sessions[0].get("restoreCommand").is_none());

    let other = fake.request(&json!({"cmd": "tree", "args": {"window": second}}));
    let ws = &ok(&other)["tree"]["workspaces"][0];
    assert_eq!(ws["name"], json!("work"));
    let node = &ws["sessions"][0];
    assert_eq!(node["id"], json!(b.id));
    assert_eq!(node["hasSplit"], json!(true));
    assert_eq!(node["surfaces"].as_array().unwrap().len(), 2);
    assert!(
        node["surfaces"][0].get("paneID").is_none(),
        "paneID is post-0.34 only"
    );
    assert!(node.get("splitCwd").is_some());

    let prefix = &second[..6].to_lowercase();
    ok(&fake.request(&json!({"cmd": "tree", "args": {"window": prefix}})));
    assert_eq!(
        err(&fake.request(&json!({"cmd": "tree", "args": {"window": "zzz"}}))),
        "no such window: zzz"
    );
    assert_eq!(
        err(&fake.request(&json!({"cmd": "tree", "args": {"window": closed}}))),
        "window not open — window.select it first"
    );
}

#[test]
fn tree_fields_follow_the_version() {
    for (version, realized, split_cwd, live_fields, pane_ids) in [
        ("0.16", false, false, false, false),
        ("0.24", true, false, false, false),
        ("0.26", true, false, true, false),
        ("0.34", true, true, true, false),
        ("0.35", true, true, true, true),
    ] {
        let (fake, cwd) = start(version, RestoreMode::Live);
        let s = fake.add_session(None, None, cwd.path(), true);
        let tree = fake.request(&json!({"cmd": "tree"}));
        let node = &ok(&tree)["tree"]["workspaces"][0]["sessions"][0];
        assert_eq!(node.get("realized").is_some(), realized, "{version}");
        assert_eq!(node.get("splitCwd").is_some(), split_cwd, "{version}");
        assert_eq!(
            node.get("backedByZmx") == Some(&json!(true)),
            live_fields,
            "{version}"
        );
        assert_eq!(
            node.get("liveAttribution").is_some(),
            live_fields,
            "{version}"
        );
        assert_eq!(
            node["surfaces"][0].get("paneID").is_some(),
            pane_ids,
            "{version}"
        );
        if pane_ids {
            assert_eq!(node["surfaces"][0]["paneID"], json!(s.left.pane_id));
        }
    }
}

#[test]
fn target_resolution_errors_are_verbatim() {
    let (fake, cwd) = start("0.34", RestoreMode::Rerun);
    // Add sessions until two ids share their first hex digit.
    let mut ids: Vec<String> = Vec::new();
    let (a, b) = loop {
        let s = fake.add_session(None, None, cwd.path(), false);
        if let Some(other) = ids.iter().find(|o| o[..1] == s.id[..1]) {
            break (other.clone(), s.id);
        }
        ids.push(s.id);
    };
    let text = |target: &str| fake.request(&json!({"cmd": "session.text", "target": target}));
    // Exact, case-insensitive.
    ok(&text(&a.to_lowercase()));
    // Unique prefix (lowercase).
    ok(&text(&a[..30].to_lowercase()));
    let shared = &a[..1];
    let ambiguous = text(&shared.to_lowercase());
    let e = err(&ambiguous);
    assert!(
        e.starts_with(&format!(
            "ambiguous session prefix '{}' → ",
            shared.to_lowercase()
        )),
        "{e}"
    );
    assert!(e.contains(&a[..8]) && e.contains(&b[..8]), "{e}");
    assert_eq!(err(&text("nope")), "no such session: nope");
    assert_eq!(err(&text("")), "no such session: ");
    // `active` is the last added (selected) session.
    let active = fake
        .request(&json!({"cmd": "session.restore", "target": "active", "args": {"mode": "none"}}));
    assert_eq!(ok(&active)["id"], json!(b));
}

#[test]
fn a_stalled_fake_is_a_hung_agterm() {
    use std::io::{Read, Write};
    let (fake, _cwd) = start("0.34", RestoreMode::Rerun);
    ok(&fake.request(&json!({"cmd": "fake.stall", "args": {"ms": 1500}})));
    let started = std::time::Instant::now();
    let mut stream = std::os::unix::net::UnixStream::connect(fake.socket()).unwrap();
    stream
        .set_read_timeout(Some(std::time::Duration::from_millis(300)))
        .unwrap();
    stream.write_all(b"{\"cmd\":\"tree\"}\n").unwrap();
    let mut buf = String::new();
    let read = stream.read_to_string(&mut buf);
    assert!(
        read.is_err(),
        "no answer within the client's budget, got {buf:?}"
    );
    assert!(started.elapsed() < std::time::Duration::from_millis(1000));
    drop(stream);
    // The stall ends; the fake answers again.
    ok(&fake.request(&json!({"cmd": "window.list"})));
    assert!(started.elapsed() >= std::time::Duration::from_millis(1500));
}

#[test]
fn a_second_fake_cannot_take_a_locked_socket() {
    let (fake, _cwd) = start("0.34", RestoreMode::Rerun);
    let other = agterm_backup_testkit::scratch::tempdir_named("o");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_fake-agterm"))
        .arg("--state-dir")
        .arg(other.path())
        .arg("--socket")
        .arg(fake.socket())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("is locked"), "{stderr}");
    ok(&fake.request(&json!({"cmd": "window.list"})));
    let usage = std::process::Command::new(env!("CARGO_BIN_EXE_fake-agterm"))
        .arg("--bogus")
        .output()
        .unwrap();
    assert_eq!(usage.status.code(), Some(2));
}

#[test]
fn font_sizes_show_per_pane_liveness() {
    let (fake, cwd) = start("0.34", RestoreMode::Rerun);
    let s = fake.add_session(None, None, cwd.path(), true);
    let node = |fake: &FakeAgterm| {
        fake.request(&json!({"cmd": "tree"}))["result"]["tree"]["workspaces"][0]["sessions"][0]
            .clone()
    };
    let before = node(&fake);
    assert!(before.get("fontSize").is_some() && before.get("splitFontSize").is_some());
    ok(&fake.request(&json!({"cmd": "fake.set_realized", "target": s.id, "args": {"pane": "right", "realized": false}})));
    let after = node(&fake);
    assert!(
        after.get("fontSize").is_some() && after.get("splitFontSize").is_none(),
        "{after}"
    );
    assert_eq!(after["realized"], json!(true));
}
