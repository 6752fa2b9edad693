//! `agterm-backup restart` quits an agent to resume it: the `SessionEnd` of that quit must not mark the
//! conversation ended. The hook reads the pane's marker `<state>/restarting/<PANE-KEY>.json`; only a fresh
//! marker naming this very conversation (and agent) holds — any other end is recorded as before.

use crate::hook_common::*;
use agterm_backup_core::restarting::{self, RestartMarker, MARKER_TTL_SECS};

fn end_payload(id: &str, d: &str) -> Vec<u8> {
    let mut v: serde_json::Value =
        serde_json::from_slice(&claude_payload("SessionEnd", id, d, d)).unwrap();
    v["reason"] = "prompt_input_exit".into();
    serde_json::to_vec(&v).unwrap()
}

/// The record's end after a SessionStart, the marker `marker` (`(agent, id, its age in seconds)`,
/// written after that SessionStart) and a `/exit`'s SessionEnd.
fn end_after(marker: Option<(&str, &str, i64)>) -> (Option<String>, String) {
    let w = World::new();
    let d = w.path().display().to_string();
    w.hook("claude", &claude_payload("SessionStart", ID_A, &d, &d))
        .assert_silent();
    if let Some((agent, id, age)) = marker {
        let at = chrono::Utc::now() - chrono::Duration::seconds(age);
        restarting::write(&w.state(), &w.key(), &RestartMarker::new(agent, id, at)).unwrap();
    }
    w.hook("claude", &end_payload(ID_A, &d)).assert_silent();
    let rec = w.record().expect("the SessionEnd is recorded");
    assert_eq!(rec.session_id, ID_A);
    (rec.end_reason().map(String::from), rec.event)
}

#[test]
fn restarts_own_quit_is_no_end() {
    let (end, event) = end_after(Some(("claude", ID_A, 0)));
    assert_eq!(end, None, "restart's quit must leave the conversation open");
    assert_eq!(event, "SessionEnd");
}

#[test]
fn any_other_marker_or_none_leaves_the_users_end() {
    for marker in [
        None,
        Some(("claude", ID_B, 0)),
        Some(("codex", ID_A, 0)),
        Some(("claude", ID_A, MARKER_TTL_SECS + 60)),
    ] {
        let (end, _) = end_after(marker);
        assert_eq!(end.as_deref(), Some("prompt_input_exit"), "{marker:?}");
    }
}
