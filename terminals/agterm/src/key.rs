//! agterm's record key: `<AGTERM_SESSION_ID>-<role>`, the session id upper-cased, unchanged since the
//! first release (so every existing state dir still reads). An agterm record names its pane in the
//! record's own fields (`agterm_session`, `role`), so it keeps nothing under agterm's name.

use agterm_backup_core::pane::{PaneKey, PaneRole, TerminalName};
use agterm_backup_core::record::LiveRecord;
use agterm_backup_core::terminal::PaneView;

/// agterm's name among the terminals (`terminal` in its records).
pub const NAME: TerminalName = TerminalName::new("agterm");

/// An agterm pane: its session (upper-case) and role.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct AgtermPaneKey {
    pub session: String,
    pub role: PaneRole,
}

impl AgtermPaneKey {
    /// The session id upper-cased as agterm prints it; `None` for a session id that could escape the
    /// state directory or is not agterm-shaped (hex digits and dashes, at most 64).
    pub fn new(session: &str, role: PaneRole) -> Option<AgtermPaneKey> {
        let session = session.trim().to_ascii_uppercase();
        let ok = !session.is_empty()
            && session.len() <= 64
            && session.bytes().all(|b| b.is_ascii_hexdigit() || b == b'-');
        ok.then_some(AgtermPaneKey { session, role })
    }

    /// The record key: `<SESSION>-<role>`.
    pub fn key(&self) -> PaneKey {
        PaneKey::new(NAME, format!("{}-{}", self.session, self.role))
    }
}

/// The record key of agterm pane `role` of session `session` (see [`AgtermPaneKey::new`]).
pub fn key(session: &str, role: PaneRole) -> Option<PaneKey> {
    AgtermPaneKey::new(session, role).map(|k| k.key())
}

/// The session and role of an agterm key; `None` for another terminal's.
pub fn split(key: &PaneKey) -> Option<AgtermPaneKey> {
    if key.terminal() != NAME {
        return None;
    }
    let (session, role) = key.as_str().rsplit_once('-')?;
    AgtermPaneKey::new(session, role.parse().ok()?)
}

/// The key of a record's file stem, when it is agterm-shaped (`<hex and dashes>-<role>`, any of
/// agterm's role spellings).
pub fn parse_key(stem: &str) -> Option<PaneKey> {
    let (session, role) = stem.rsplit_once('-')?;
    key(session, role.parse().ok()?)
}

/// The key of an agterm record (every record before other terminals were served): from its session id
/// and role, if the session id is agterm-shaped.
pub fn record_key(rec: &LiveRecord) -> Option<PaneKey> {
    key(&rec.agterm_session, rec.role)
}

/// The key of a pane agterm shows.
pub fn view_key(view: &PaneView) -> Option<PaneKey> {
    key(&view.session_id, view.role)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_round_trips_and_upper_cases() {
        let k = key("6b1e0c2a-aaaa-bbbb-cccc-0123456789ab", PaneRole::Right).unwrap();
        assert_eq!(k.to_string(), "6B1E0C2A-AAAA-BBBB-CCCC-0123456789AB-right");
        assert_eq!(parse_key(&k.to_string()), Some(k.clone()));
        assert_eq!(split(&k).map(|a| a.role), Some(PaneRole::Right));
    }

    #[test]
    fn key_refuses_paths_and_junk() {
        assert!(key("../etc", PaneRole::Left).is_none());
        assert!(key("", PaneRole::Left).is_none());
        assert!(key("ABC/DEF", PaneRole::Left).is_none());
        assert!(parse_key("ABCDEF-scratch").is_none());
        assert!(parse_key("tmux.x").is_none());
        assert!(parse_key("tmux.a-00000000.../.0.0").is_none());
        assert!(parse_key("zmx.zmx-0000abcd.api").is_none());
    }
}

#[cfg(test)]
#[path = "key_upgrade_tests.rs"]
mod upgrade_tests;
