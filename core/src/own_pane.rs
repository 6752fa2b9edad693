//! A terminal's typed view of the pane identity its records and pane views keep under its name: the
//! one generic piece every terminal with panes of its own words (a multiplexer's pane, a named session)
//! implements in its crate. Core names none of them.

use crate::pane::{PaneKey, TerminalName, TerminalPane};
use crate::record::LiveRecord;
use crate::terminal::PaneView;
use serde::de::DeserializeOwned;
use serde::Serialize;

/// A terminal's identity of one of its panes, kept as JSON under [`OwnPane::TERMINAL`].
pub trait OwnPane: Serialize + DeserializeOwned {
    /// The terminal's name: a record's `terminal`, the key its identity sits under.
    const TERMINAL: TerminalName;

    /// The terminal's own key of this pane: its record files' stem.
    fn own_key(&self) -> String;

    /// Whether a file stem has this terminal's key shape (no two terminals' shapes overlap).
    fn is_own_key(stem: &str) -> bool;

    /// The key of a record's file stem, when it has this terminal's shape.
    fn parse_key(stem: &str) -> Option<PaneKey> {
        Self::is_own_key(stem).then(|| PaneKey::new(Self::TERMINAL, stem.to_string()))
    }

    /// This pane's record key.
    fn key(&self) -> PaneKey {
        PaneKey::new(Self::TERMINAL, self.own_key())
    }

    /// This pane as a record or a pane view keeps it.
    fn terminal_pane(&self) -> TerminalPane {
        TerminalPane {
            terminal: Self::TERMINAL,
            identity: serde_json::to_value(self).expect("a pane identity always serializes"),
        }
    }

    /// The pane a record of this terminal keeps (`None` for another terminal's record).
    fn of_record(rec: &LiveRecord) -> Option<Self> {
        serde_json::from_value(rec.terminal_pane(Self::TERMINAL.as_str())?.clone()).ok()
    }

    /// The pane a pane view of this terminal shows.
    fn of_view(view: &PaneView) -> Option<Self> {
        serde_json::from_value(view.terminal_pane(Self::TERMINAL.as_str())?.clone()).ok()
    }

    /// The key of a record of this terminal: its pane's.
    fn record_key(rec: &LiveRecord) -> Option<PaneKey> {
        Self::of_record(rec).map(|p| p.key())
    }

    /// The key of a pane view of this terminal: its pane's.
    fn view_key(view: &PaneView) -> Option<PaneKey> {
        Self::of_view(view).map(|p| p.key())
    }
}

/// What keeps a pane's identity in its terminal's words: a record, a pane view.
pub trait KeepsOwnPane {
    fn own_pane<P: OwnPane>(&self) -> Option<P>;
    fn set_own_pane<P: OwnPane>(&mut self, pane: &P);
}

impl KeepsOwnPane for LiveRecord {
    fn own_pane<P: OwnPane>(&self) -> Option<P> {
        P::of_record(self)
    }
    fn set_own_pane<P: OwnPane>(&mut self, pane: &P) {
        self.set_terminal_pane(&pane.terminal_pane());
    }
}

impl KeepsOwnPane for PaneView {
    fn own_pane<P: OwnPane>(&self) -> Option<P> {
        P::of_view(self)
    }
    fn set_own_pane<P: OwnPane>(&mut self, pane: &P) {
        self.set_terminal_pane(pane.terminal_pane());
    }
}

/// Declares a terminal's part of records and pane views as two methods, for the code that speaks that
/// terminal's language: `own_pane_part!(TmuxPart, tmux, set_tmux, TmuxPane)` gives every
/// [`KeepsOwnPane`] `.tmux()` and `.set_tmux(&pane)` once `TmuxPart` is in scope.
#[macro_export]
macro_rules! own_pane_part {
    ($(#[$doc:meta])* $part:ident, $get:ident, $set:ident, $pane:ty) => {
        $(#[$doc])*
        pub trait $part: $crate::own_pane::KeepsOwnPane {
            /// The pane kept under this terminal's name.
            fn $get(&self) -> Option<$pane> {
                self.own_pane()
            }
            /// Makes this that pane's (a record: its `terminal` says this terminal, the fields naming
            /// another terminal's pane are empty).
            fn $set(&mut self, pane: &$pane) {
                self.set_own_pane(pane)
            }
        }

        impl<T: $crate::own_pane::KeepsOwnPane> $part for T {}
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::tests::sample;
    use serde::Deserialize;

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Mux {
        name: String,
    }

    impl OwnPane for Mux {
        const TERMINAL: TerminalName = TerminalName::new("mux");
        fn own_key(&self) -> String {
            format!("mux.{}", self.name)
        }
        fn is_own_key(stem: &str) -> bool {
            stem.starts_with("mux.")
        }
    }

    #[test]
    fn a_pane_is_kept_under_its_terminals_name_and_read_back_by_it_alone() {
        let mut rec = sample();
        assert_eq!(rec.own_pane::<Mux>(), None);
        rec.set_own_pane(&Mux { name: "api".into() });
        assert_eq!(rec.terminal, "mux");
        assert_eq!(rec.own_pane(), Some(Mux { name: "api".into() }));
        assert_eq!(Mux::parse_key("mux.api"), Mux::record_key(&rec));
        assert_eq!(Mux::parse_key("other.api"), None);
        assert_eq!(
            Mux::record_key(&rec).map(|k| k.to_string()).as_deref(),
            Some("mux.api")
        );
        // Another terminal's record carries no identity of this one, whatever its extra keys say.
        rec.terminal = "other".into();
        assert_eq!(rec.own_pane::<Mux>(), None);
    }
}
