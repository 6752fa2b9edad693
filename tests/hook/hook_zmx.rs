//! The hook in a standalone zmx session: the record names the session (socket directory, name, the
//! daemon's start time read from its socket) and wins over the agterm pane around it; agterm's own Live
//! panes (`ZMX_SESSION` empty in the client, `agterm-<hex>` in the daemon) stay agterm's. Every run keeps
//! the hook's promises (silent, exit 0).

use crate::hook_common::*;

use agterm_backup_core::own_pane::OwnPane;
use agterm_backup_zmx::session::{ZmxPart, ZmxSession};

fn zmx_records(w: &World) -> Vec<agterm_backup_core::record::LiveRecord> {
    let state = w.state();
    agterm_backup_terminals::pane_keys(&state)
        .into_iter()
        .filter(|k| k.terminal() == agterm_backup_zmx::session::NAME)
        .filter_map(|k| state.read_record(&k))
        .collect()
}

#[test]
fn a_zmx_session_inside_agterm_is_recorded_as_the_session() {
    let mut w = World::new();
    let dir = w.path().join("zmx-sockets");
    std::fs::create_dir_all(&dir).unwrap();
    // The daemon's socket, bound now: its start time is the session's.
    let _daemon = std::os::unix::net::UnixListener::bind(dir.join("api.v2")).unwrap();
    let bound = chrono::Utc::now().timestamp();
    w.set("ZMX_SESSION", "api.v2");
    w.set("ZMX_DIR", &dir.display().to_string());
    let d = w.path().display().to_string();

    w.hook("claude", &claude_payload("SessionStart", ID_A, &d, &d))
        .assert_silent();
    assert!(w.record().is_none(), "not the agterm pane around it");
    let recs = zmx_records(&w);
    assert_eq!(recs.len(), 1, "{}", log_text(&w));
    assert_eq!(recs[0].terminal, "zmx");
    assert_eq!(recs[0].agterm_session, "");
    let z = recs[0].zmx().expect("the zmx session");
    assert_eq!(
        (z.name.as_str(), z.socket_dir.as_str()),
        ("api.v2", dir.to_str().unwrap())
    );
    assert!(z.started.is_some_and(|t| (t - bound).abs() <= 2), "{z:?}");
    assert_eq!(agterm_backup_terminals::record_key(&recs[0]), Some(z.key()));
    assert_eq!(recs[0].agent_cwd, d);
}

#[test]
fn agterm_live_panes_stay_agterm_and_the_default_socket_dir_is_zmx_s() {
    for live in ["", "agterm-0123456789abcdef0123456789abcdef"] {
        let mut w = World::new();
        w.set("ZMX_SESSION", live);
        w.set("ZMX_DIR", "/tmp/agterm-zmx-00000000000000ab");
        let d = w.path().display().to_string();
        w.hook("claude", &claude_payload("SessionStart", ID_A, &d, &d))
            .assert_silent();
        assert!(zmx_records(&w).is_empty(), "{live:?}");
        assert_eq!(w.record().map(|r| r.terminal), Some("agterm".into()));
    }
    // No ZMX_DIR: zmx's own rule (XDG_RUNTIME_DIR first); a gone socket gives no start time.
    let mut w = World::new();
    w.set("ZMX_SESSION", "work");
    w.unset("ZMX_DIR");
    w.set("XDG_RUNTIME_DIR", "/run/user/4242");
    let d = w.path().display().to_string();
    w.hook("claude", &claude_payload("SessionStart", ID_B, &d, &d))
        .assert_silent();
    let z = zmx_records(&w)[0].zmx().unwrap();
    assert_eq!(
        z,
        ZmxSession {
            socket_dir: "/run/user/4242/zmx".into(),
            name: "work".into(),
            started: None
        }
    );
}

/// The pin is the pane's terminal's (its registry row's `pin`): a zmx session inside an agterm pane pins
/// nothing with agterm, though the environment names an agterm pane the pin would go to; the agterm pane
/// itself, with the same environment but for `ZMX_SESSION`, does try (and, with no socket, fails).
#[test]
fn only_the_panes_own_terminal_pins_its_resume_line() {
    use agterm_backup_core::record::PinOutcome;
    let mut w = World::new();
    let dir = w.path().join("zmx-sockets");
    std::fs::create_dir_all(&dir).unwrap();
    let _daemon = std::os::unix::net::UnixListener::bind(dir.join("api")).unwrap();
    w.set(
        "AGTERM_SOCKET",
        &w.path().join("no-agterm.sock").display().to_string(),
    );
    w.set("ZMX_SESSION", "api");
    w.set("ZMX_DIR", &dir.display().to_string());
    let d = w.path().display().to_string();

    w.hook("claude", &claude_payload("SessionStart", ID_A, &d, &d))
        .assert_silent();
    let recs = zmx_records(&w);
    assert_eq!(recs.len(), 1, "{}", log_text(&w));
    assert_eq!((recs[0].pin, recs[0].pinned_line.as_deref()), (None, None));
    assert!(
        !recs[0].extra.contains_key("pin_retry"),
        "{:?}",
        recs[0].extra
    );

    w.unset("ZMX_SESSION");
    w.hook("claude", &claude_payload("SessionStart", ID_B, &d, &d))
        .assert_silent();
    let agterm = w.record().expect("the agterm pane's record");
    assert_eq!(agterm.pin, Some(PinOutcome::Error), "{}", log_text(&w));
    assert!(agterm.extra.contains_key("pin_retry"), "{:?}", agterm.extra);
}
