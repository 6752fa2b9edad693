//! What restore's plan and its texts ask of a terminal's row beyond its join ([`RestoreFacts`]): the
//! words a skip gives about one of its panes that is not up, how a person may name one of its panes
//! (`restart --pane`), and the role a pane key names (from the row's `report`). The plan itself stays plain data: it reads a
//! pane's terminal name and these static facts, never a terminal's crate.

use crate::{view_row, ROWS};
use agterm_backup_core::pane::{PaneKey, PaneRole, TerminalName};
use agterm_backup_core::terminal::PaneView;

/// A row's facts for restore.
pub struct RestoreFacts {
    /// What the terminal has not done yet while one of its panes is not up (`realized: false`), for
    /// the `not realized` skip: "<name> has not realized it". `None`: nothing worth saying beyond "its
    /// terminal has not brought this pane up yet".
    pub unrealized: Option<&'static str>,
    /// Whether `typed` is a name a person may give one of its panes beyond the generic ones (its
    /// label, record key, pane id): a multiplexer's place, a session's name.
    pub names_pane: fn(view: &PaneView, typed: &str) -> bool,
}

/// Facts of a terminal with nothing of its own to say: no words for a pane not up, no extra names.
pub const NO_RESTORE_FACTS: RestoreFacts = RestoreFacts {
    unrealized: None,
    names_pane: |_, _| false,
};

/// The terminal a pane view is of (the one whose identity it carries, else the first row's).
pub fn terminal_of(view: &PaneView) -> TerminalName {
    view_row(view).name
}

/// Whether `typed` names `view` by its terminal's own rule ([`RestoreFacts::names_pane`]).
pub fn names_pane(view: &PaneView, typed: &str) -> bool {
    (view_row(view).restore.names_pane)(view, typed)
}

/// The role a pane key names within its session, for a terminal whose panes are a session's roles
/// (`api · left`; its row's `report.session_role`); `None` for a pane that is a place or a session by
/// itself, and for a key of no row.
pub fn key_role(key: &PaneKey) -> Option<PaneRole> {
    crate::report::session_role(key).map(|s| s.role)
}

/// The `not realized` skip's words on what the terminals have not done yet: every row's
/// [`RestoreFacts::unrealized`] phrase, in the registry's order (see [`unrealized_in`]).
pub fn unrealized() -> String {
    unrealized_in(ROWS.iter().filter_map(|r| r.restore.unrealized))
}

/// `phrases` as one parenthesis for the `not realized` text: ` (a, or b)`; empty with none.
pub fn unrealized_in<'a>(phrases: impl Iterator<Item = &'a str>) -> String {
    let all: Vec<&str> = phrases.collect();
    if all.is_empty() {
        return String::new();
    }
    format!(" ({})", all.join(", or "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use agterm_backup_core::fixtures::pane;
    use agterm_backup_tmux::join_fixtures::{place, view};
    use agterm_backup_zmx::session::{ZmxPart, ZmxSession};

    /// `restart --pane` takes what each terminal calls its pane: a multiplexer's place, a session's
    /// name; a pane that is neither has no such name, and no terminal's name matches another's pane.
    #[test]
    fn each_terminal_names_its_own_panes() {
        let tmux = view(place("work", 0, 1, "%3", "/w"), "/w");
        let mut zmx = pane(PaneRole::Left);
        zmx.set_zmx(&ZmxSession {
            socket_dir: "/run/user/1/zmx".into(),
            name: "api".into(),
            started: None,
        });
        let plain = pane(PaneRole::Left);
        assert!(names_pane(&tmux, "work:0.1"));
        assert!(!names_pane(&tmux, "api") && !names_pane(&tmux, "work:0.2"));
        assert!(names_pane(&zmx, "api"));
        assert!(!names_pane(&zmx, "work:0.1"));
        assert!(!names_pane(&plain, "api") && !names_pane(&plain, "work:0.1"));
        assert_eq!(terminal_of(&plain), ROWS[0].name);
        assert_eq!(terminal_of(&tmux).as_str(), "tmux");
        assert_eq!(terminal_of(&zmx).as_str(), "zmx");
    }

    #[test]
    fn only_a_key_of_a_terminal_with_roles_names_one() {
        let role = PaneKey::new(ROWS[0].name, format!("ABCD-{}", PaneRole::Right));
        assert_eq!(key_role(&role), Some(PaneRole::Right));
        for r in &ROWS[1..] {
            assert_eq!(key_role(&PaneKey::new(r.name, "ABCD-right".into())), None);
        }
        let made_up = TerminalName::new("kitty");
        assert_eq!(key_role(&PaneKey::new(made_up, "ABCD-right".into())), None);
    }

    #[test]
    fn a_made_up_terminals_phrase_is_its_own_and_none_says_nothing() {
        let made_up = ["kitty has not drawn it"];
        assert_eq!(
            unrealized_in(made_up.into_iter()),
            " (kitty has not drawn it)"
        );
        assert_eq!(
            unrealized_in(["a", "b", "c"].into_iter()),
            " (a, or b, or c)"
        );
        assert_eq!(unrealized_in(std::iter::empty()), "");
    }
}
