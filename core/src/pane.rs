//! Which pane a record belongs to.

pub mod tmux;

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// A pane's role inside an agterm session: `left` is the primary pane, `right` the split.
///
/// `scratch` panes and overlays are never captured, so they have no role here.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PaneRole {
    Left,
    Right,
}

impl PaneRole {
    pub fn as_str(self) -> &'static str {
        match self {
            PaneRole::Left => "left",
            PaneRole::Right => "right",
        }
    }
}

impl fmt::Display for PaneRole {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for PaneRole {
    type Err = String;
    /// Accepts agterm's spellings: `left|primary|top` and `right|split|bottom`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "left" | "primary" | "top" => Ok(PaneRole::Left),
            "right" | "split" | "bottom" => Ok(PaneRole::Right),
            other => Err(format!("unknown pane role {other:?} (left or right)")),
        }
    }
}

/// The file-name key of a pane's record: `<AGTERM_SESSION_ID>-<role>`, session id upper-cased.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PaneKey {
    pub session: String,
    pub role: PaneRole,
}

impl PaneKey {
    /// Builds a key; the session id is upper-cased as agterm prints it. Returns `None` for a session id
    /// that could escape the state directory or is not agterm-shaped (hex digits and dashes).
    pub fn new(session: &str, role: PaneRole) -> Option<PaneKey> {
        let session = session.trim().to_ascii_uppercase();
        let ok = !session.is_empty()
            && session.len() <= 64
            && session.bytes().all(|b| b.is_ascii_hexdigit() || b == b'-');
        ok.then_some(PaneKey { session, role })
    }

    /// Parses `<SESSION>-<role>` (a record's file stem).
    pub fn parse(stem: &str) -> Option<PaneKey> {
        let (session, role) = stem.rsplit_once('-')?;
        PaneKey::new(session, role.parse().ok()?)
    }
}

impl fmt::Display for PaneKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.session, self.role)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_round_trips_and_upper_cases() {
        let k = PaneKey::new("6b1e0c2a-aaaa-bbbb-cccc-0123456789ab", PaneRole::Right).unwrap();
        assert_eq!(k.to_string(), "6B1E0C2A-AAAA-BBBB-CCCC-0123456789AB-right");
        assert_eq!(PaneKey::parse(&k.to_string()), Some(k));
    }

    #[test]
    fn key_refuses_paths_and_junk() {
        assert!(PaneKey::new("../etc", PaneRole::Left).is_none());
        assert!(PaneKey::new("", PaneRole::Left).is_none());
        assert!(PaneKey::new("ABC/DEF", PaneRole::Left).is_none());
        assert!(PaneKey::parse("ABCDEF-scratch").is_none());
    }

    #[test]
    fn role_accepts_agterm_aliases() {
        assert_eq!("split".parse::<PaneRole>(), Ok(PaneRole::Right));
        assert_eq!("top".parse::<PaneRole>(), Ok(PaneRole::Left));
        assert!("scratch".parse::<PaneRole>().is_err());
    }
}
