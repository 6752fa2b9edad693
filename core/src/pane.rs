//! Which pane a record belongs to, in which terminal.

pub mod encode;
pub mod tty;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::fmt;
use std::str::FromStr;

/// A pane's role inside its terminal session: `left` is the primary pane, `right` the split (a
/// terminal with one pane per session says `left`).
///
/// `scratch` panes and overlays are never captured, so they have no role here.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum PaneRole {
    /// Also the role of a record whose pane its own fields do not name (another terminal's pane).
    #[default]
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
    /// Accepts every spelling a terminal gives: `left|primary|top` and `right|split|bottom`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "left" | "primary" | "top" => Ok(PaneRole::Left),
            "right" | "split" | "bottom" => Ok(PaneRole::Right),
            other => Err(format!("unknown pane role {other:?} (left or right)")),
        }
    }
}

/// A terminal's name, as records say it in `terminal` and as `--terminal` takes it. Each terminal's crate
/// owns its name (a constant there); the registry's rows list them. Core knows none.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TerminalName(&'static str);

impl TerminalName {
    pub const fn new(name: &'static str) -> TerminalName {
        TerminalName(name)
    }

    pub fn as_str(self) -> &'static str {
        self.0
    }
}

impl fmt::Display for TerminalName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

impl PartialEq<str> for TerminalName {
    fn eq(&self, other: &str) -> bool {
        self.0 == other
    }
}

/// The file-name key of a pane's record (`live/<key>.json`): its terminal's name and that terminal's own
/// key, which is the file stem exactly as the terminal writes it. The terminal's crate makes and parses
/// its keys (each shape is told apart from every other terminal's); here they are only carried.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PaneKey {
    pub terminal: TerminalName,
    pub key: String,
}

impl PaneKey {
    /// The key `key` of terminal `terminal` (the terminal's crate has checked its shape).
    pub fn new(terminal: TerminalName, key: String) -> PaneKey {
        PaneKey { terminal, key }
    }

    pub fn terminal(&self) -> TerminalName {
        self.terminal
    }

    pub fn as_str(&self) -> &str {
        &self.key
    }
}

impl fmt::Display for PaneKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.key)
    }
}

/// A pane in its own terminal's words: the terminal's name and the identity a record of it keeps under
/// that name (the terminal's crate reads and writes its typed view). A terminal whose panes the record's
/// own pane fields name (the registry's first row) has none.
#[derive(Debug, Clone, PartialEq)]
pub struct TerminalPane {
    pub terminal: TerminalName,
    pub identity: Value,
}

/// A parser of file stems into pane keys: the registry's, asking each terminal's row in turn.
pub type ParseKey<'a> = &'a dyn Fn(&str) -> Option<PaneKey>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_shows_as_its_stem_and_orders_by_terminal_first() {
        let a = PaneKey::new(TerminalName::new("b"), "x-left".into());
        let b = PaneKey::new(TerminalName::new("c"), "a".into());
        assert_eq!(a.to_string(), "x-left");
        assert!(a < b);
        assert_eq!(a.terminal(), TerminalName::new("b"));
        assert!(a.terminal() == *"b");
    }

    #[test]
    fn role_accepts_every_spelling() {
        assert_eq!("split".parse::<PaneRole>(), Ok(PaneRole::Right));
        assert_eq!("top".parse::<PaneRole>(), Ok(PaneRole::Left));
        assert!("scratch".parse::<PaneRole>().is_err());
    }
}
