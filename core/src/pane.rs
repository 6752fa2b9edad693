//! Which pane a record belongs to, in which terminal.

pub mod tmux;
pub mod tty;
pub mod zmx;

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

/// The terminals agterm-backup captures panes of. Records say which in `terminal`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TerminalKind {
    Agterm,
    Tmux,
    Zmx,
}

impl TerminalKind {
    pub fn as_str(self) -> &'static str {
        match self {
            TerminalKind::Agterm => "agterm",
            TerminalKind::Tmux => "tmux",
            TerminalKind::Zmx => "zmx",
        }
    }
}

impl fmt::Display for TerminalKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for TerminalKind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "agterm" => Ok(TerminalKind::Agterm),
            "tmux" => Ok(TerminalKind::Tmux),
            "zmx" => Ok(TerminalKind::Zmx),
            other => Err(format!("unknown terminal {other:?} (agterm, tmux or zmx)")),
        }
    }
}

/// An agterm pane: `<AGTERM_SESSION_ID>-<role>`, the session id upper-cased.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct AgtermPaneKey {
    pub session: String,
    pub role: PaneRole,
}

/// The file-name key of a pane's record, qualified by its terminal. Each terminal has its own shape, and
/// no shape can be read as another's: agterm's is `<AGTERM_SESSION_ID>-<role>` (hex, dashes, the role;
/// unchanged since the first release, so every existing state dir still reads), tmux's starts with
/// `tmux.` ([`tmux::TmuxPane::key_name`]), zmx's with `zmx.` ([`zmx::ZmxSession::key_name`]).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PaneKey {
    Agterm(AgtermPaneKey),
    /// A tmux pane by its encoded name (the record holds the pane's full identity).
    Tmux(String),
    /// A zmx session by its encoded name (the record holds the session's full identity).
    Zmx(String),
}

impl PaneKey {
    /// An agterm key; the session id is upper-cased as agterm prints it. Returns `None` for a session id
    /// that could escape the state directory or is not agterm-shaped (hex digits and dashes).
    pub fn new(session: &str, role: PaneRole) -> Option<PaneKey> {
        let session = session.trim().to_ascii_uppercase();
        let ok = !session.is_empty()
            && session.len() <= 64
            && session.bytes().all(|b| b.is_ascii_hexdigit() || b == b'-');
        ok.then_some(PaneKey::Agterm(AgtermPaneKey { session, role }))
    }

    /// The key of a tmux pane.
    pub fn tmux(pane: &tmux::TmuxPane) -> PaneKey {
        PaneKey::Tmux(pane.key_name())
    }

    /// The key of a zmx session.
    pub fn zmx(session: &zmx::ZmxSession) -> PaneKey {
        PaneKey::Zmx(session.key_name())
    }

    /// Parses a record's file stem, of any terminal.
    pub fn parse(stem: &str) -> Option<PaneKey> {
        if tmux::is_key_name(stem) {
            return Some(PaneKey::Tmux(stem.to_string()));
        }
        if zmx::is_key_name(stem) {
            return Some(PaneKey::Zmx(stem.to_string()));
        }
        let (session, role) = stem.rsplit_once('-')?;
        PaneKey::new(session, role.parse().ok()?)
    }

    pub fn terminal(&self) -> TerminalKind {
        match self {
            PaneKey::Agterm(_) => TerminalKind::Agterm,
            PaneKey::Tmux(_) => TerminalKind::Tmux,
            PaneKey::Zmx(_) => TerminalKind::Zmx,
        }
    }

    /// The agterm session and role, for an agterm key.
    pub fn agterm(&self) -> Option<&AgtermPaneKey> {
        match self {
            PaneKey::Agterm(k) => Some(k),
            PaneKey::Tmux(_) | PaneKey::Zmx(_) => None,
        }
    }
}

impl fmt::Display for PaneKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PaneKey::Agterm(k) => write!(f, "{}-{}", k.session, k.role),
            PaneKey::Tmux(name) | PaneKey::Zmx(name) => f.write_str(name),
        }
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
        assert!(PaneKey::parse("tmux.x").is_none());
        assert!(PaneKey::parse("tmux.a-00000000.../.0.0").is_none());
    }

    #[test]
    fn tmux_keys_parse_as_tmux() {
        let pane = tmux::TmuxPane {
            socket: "/tmp/tmux-1/default".into(),
            session: "Work".into(),
            window: 2,
            pane: 1,
            pane_id: None,
            server_pid: None,
            server_started: None,
            cwd: None,
        };
        let key = PaneKey::tmux(&pane);
        assert_eq!(PaneKey::parse(&key.to_string()), Some(key.clone()));
        assert_eq!(key.terminal(), TerminalKind::Tmux);
        assert!(key.agterm().is_none());
    }

    #[test]
    fn role_accepts_agterm_aliases() {
        assert_eq!("split".parse::<PaneRole>(), Ok(PaneRole::Right));
        assert_eq!("top".parse::<PaneRole>(), Ok(PaneRole::Left));
        assert!("scratch".parse::<PaneRole>().is_err());
    }
}
