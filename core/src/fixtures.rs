//! Plain-data builders for the unit tests (of this crate, and with the `fixtures` feature of the crates
//! above it: restore's plan, each terminal's join). A captured pane's key is its terminal's to make, so
//! each terminal's fixtures build their own.

use crate::pane::PaneRole;
use crate::record::{LiveRecord, RECORD_VERSION};
use crate::terminal::PaneView;
use chrono::{DateTime, Utc};

pub const SESSION: &str = "6B1E0C2A-AAAA-BBBB-CCCC-0123456789AB";
pub const ID_A: &str = "77e8ca85-2b1c-4a8e-9d0b-0c1d2e3f4a5b";
pub const ID_B: &str = "019a0b1c-2d3e-7f40-8a9b-0c1d2e3f4a5b";

pub fn ts(s: &str) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc)
}

pub fn token(role: PaneRole) -> String {
    match role {
        PaneRole::Left => "9A2F0000-0000-0000-0000-000000000001".into(),
        PaneRole::Right => "9A2F0000-0000-0000-0000-000000000002".into(),
    }
}

pub fn record(id: &str, role: PaneRole, at: &str) -> LiveRecord {
    LiveRecord {
        v: RECORD_VERSION,
        agent: "claude".into(),
        session_id: id.into(),
        agterm_session: SESSION.into(),
        role,
        pane_id: Some(token(role)),
        transcript_path: Some(format!("/h/.claude/projects/-w-p/{id}.jsonl")),
        agent_cwd: "/w/p".into(),
        hook_cwd: "/w/p/sub".into(),
        flags: vec!["--model".into(), "sonnet".into()],
        agent_pid: Some(4242),
        event: "SessionStart".into(),
        ts: at.into(),
        terminal: "agterm".into(),
        source: None,
        window_id: None,
        workspace_id: None,
        pin: None,
        pinned_line: None,
        extra: Default::default(),
    }
}

pub fn pane(role: PaneRole) -> PaneView {
    PaneView {
        session_id: SESSION.into(),
        role,
        pane_id: Some(token(role)),
        window_id: Some("W1".into()),
        session_name: Some("api".into()),
        cwd: None,
        foreground: None,
        shell_in_front: None,
        remote: false,
        realized: Some(true),
        pin: None,
        live: None,
        own: Default::default(),
    }
}

/// The upgrade check every terminal with panes of its own words runs over its corpus of what the
/// release before wrote (`tests/corpus/state-today/keys/<terminal>.tsv`): the file `stem` parses as
/// `pane`'s key and is written again byte for byte; the record `line` reads as `pane`, keys as `stem`
/// and is written again byte for byte, also once stamped as the hook stamps the record it built from
/// the pane's environment (the agterm pane the multiplexer was started from filled in, another
/// identity under another name).
pub fn assert_own_pane_upgrades<P>(pane: &P, stem: &str, line: &str)
where
    P: crate::own_pane::OwnPane + PartialEq + std::fmt::Debug,
{
    use crate::own_pane::KeepsOwnPane;
    let key = P::parse_key(stem).unwrap_or_else(|| panic!("{stem} no longer reads"));
    assert_eq!(
        (key.terminal(), key.to_string()),
        (P::TERMINAL, stem.to_string())
    );
    assert_eq!(pane.key(), key, "{stem}");
    assert_eq!(pane.own_key(), stem);

    let mut rec: LiveRecord = serde_json::from_str(line).unwrap();
    assert_eq!(rec.terminal, P::TERMINAL.as_str());
    assert_eq!(P::of_record(&rec).as_ref(), Some(pane), "{stem}");
    assert_eq!(rec.own_pane::<P>().as_ref(), Some(pane));
    assert_eq!(
        P::record_key(&rec).map(|k| k.to_string()).as_deref(),
        Some(stem)
    );
    assert_eq!(rec.to_json_line(), line);
    rec.agterm_session = SESSION.into();
    rec.role = PaneRole::Right;
    rec.pane_id = Some(token(PaneRole::Left));
    rec.window_id = Some("W1".into());
    rec.workspace_id = Some("S1".into());
    rec.terminal = "agterm".into();
    rec.set_own_pane(pane);
    assert_eq!(rec.to_json_line(), line);
}
