//! A tmux pane's identity, the way layout restorers rebuild it.
//!
//! tmux-resurrect, tmuxp and tmuxinator bring back sessions by *name* and windows and panes by *index*
//! on the same server socket; the `%N` pane ids start again at `%0` on every server, so they are kept
//! only to recognise the same pane within one server's life. The record of a tmux pane holds a
//! [`TmuxPane`] under `tmux`; its file in `live/` is named by [`TmuxPane::key_name`], a file-name-safe
//! encoding that never collides with agterm's `<UUID>-<role>` names (and that case-insensitive file
//! systems keep apart). This file is the one place that reads and writes tmux's part of a record.

use agterm_backup_core::own_pane::OwnPane;
use agterm_backup_core::pane::encode::{encode, fnv1a, is_encoded};
use agterm_backup_core::pane::TerminalName;
use agterm_backup_core::terminal::PaneView;
use serde::{Deserialize, Serialize};

/// tmux's name among the terminals: records say it in `terminal` and keep a pane's [`TmuxPane`] under it.
pub const NAME: TerminalName = TerminalName::new("tmux");

/// Every tmux key name starts with this.
pub const KEY_PREFIX: &str = "tmux.";

/// A session name's encoded form is cut (and a hash appended) beyond this many bytes, so that the key
/// plus `.history.jsonl` stays well inside a file name's 255 bytes.
const MAX_ENCODED_SESSION: usize = 120;

/// One tmux pane: the server (its socket), the session name, the window and pane index, plus what the
/// hook saw of it (its `%N` id, the server's pid and start time, the pane's cwd).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TmuxPane {
    /// The server's socket path (`$TMUX`'s first field).
    pub socket: String,
    pub session: String,
    pub window: u32,
    pub pane: u32,
    /// `%N`: stable only while this server runs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pane_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server_pid: Option<u32>,
    /// The server's start time, Unix seconds (`#{start_time}`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server_started: Option<i64>,
    /// The pane's current path when its name was learned.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cwd: Option<String>,
}

impl TmuxPane {
    /// `session:window.pane`, tmux's own target spelling (for people and `-t`).
    pub fn target(&self) -> String {
        format!("{}:{}.{}", self.session, self.window, self.pane)
    }

    /// Same server, session, window and pane index.
    pub fn same_place(&self, other: &TmuxPane) -> bool {
        self.socket == other.socket
            && self.session == other.session
            && self.window == other.window
            && self.pane == other.pane
    }

    /// The file-name key: `tmux.<server>.<session>.<window>.<pane>`, where `<server>` is the socket's
    /// file name plus a hash of its whole path and every component is [`encode`]d.
    pub fn key_name(&self) -> String {
        let base = self.socket.rsplit('/').next().unwrap_or_default();
        let server = format!("{}-{:08x}", encode(base, 40), fnv1a(&self.socket));
        format!(
            "{KEY_PREFIX}{server}.{}.{}.{}",
            encode(&self.session, MAX_ENCODED_SESSION),
            self.window,
            self.pane
        )
    }
}

impl OwnPane for TmuxPane {
    const TERMINAL: TerminalName = NAME;
    fn own_key(&self) -> String {
        self.key_name()
    }
    fn is_own_key(stem: &str) -> bool {
        is_key_name(stem)
    }
}

/// How a person recognises a tmux pane: `tmux work:0.1`.
pub fn view_label(view: &PaneView) -> Option<String> {
    TmuxPane::of_view(view).map(|p| format!("tmux {}", p.target()))
}

agterm_backup_core::own_pane_part!(
    /// tmux's part of a record or of a pane view, read and written as methods (`rec.tmux()`).
    TmuxPart,
    tmux,
    set_tmux,
    TmuxPane
);

/// Whether `stem` is a tmux key name this version writes (its shape, not that the pane exists).
pub fn is_key_name(stem: &str) -> bool {
    let Some(rest) = stem.strip_prefix(KEY_PREFIX) else {
        return false;
    };
    let parts: Vec<&str> = rest.split('.').collect();
    let index = |s: &str| !s.is_empty() && s.len() <= 10 && s.bytes().all(|b| b.is_ascii_digit());
    parts.len() == 4
        && is_encoded(parts[0])
        && is_encoded(parts[1])
        && index(parts[2])
        && index(parts[3])
        && stem.len() <= 200
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn pane(socket: &str, session: &str, window: u32, pane: u32) -> TmuxPane {
        TmuxPane {
            socket: socket.into(),
            session: session.into(),
            window,
            pane,
            pane_id: None,
            server_pid: None,
            server_started: None,
            cwd: None,
        }
    }

    #[test]
    fn key_names_read_as_tmux_and_never_as_agterm() {
        let k = pane("/tmp/tmux-1000/default", "work", 1, 2).key_name();
        assert!(k.starts_with("tmux.default-"), "{k}");
        assert!(k.ends_with(".work.1.2"), "{k}");
        assert!(is_key_name(&k));
        // Never an agterm key (which is all an older release reads): no `-left`/`-right` ending.
        assert_eq!(TmuxPane::parse_key(&k).map(|p| p.terminal()), Some(NAME));
        assert!(!k.ends_with("-left") && !k.ends_with("-right"));
        assert!(!is_key_name("6B1E0C2A-AAAA-BBBB-CCCC-0123456789AB-left"));
    }

    #[test]
    fn case_dots_slashes_and_long_names_stay_apart_and_safe() {
        let a = pane("/s", "Work", 0, 0).key_name();
        let b = pane("/s", "work", 0, 0).key_name();
        assert!(!a.eq_ignore_ascii_case(&b));
        let evil = pane("/s", "../../etc/passwd", 0, 0).key_name();
        assert!(!evil.contains('/') && is_key_name(&evil), "{evil}");
        let long = pane("/s", &"é".repeat(300), 3, 4).key_name();
        assert!(long.len() <= 200 && is_key_name(&long), "{long}");
        let other_long = pane("/s", &format!("{}x", "é".repeat(300)), 3, 4).key_name();
        assert_ne!(long, other_long);
    }

    #[test]
    fn another_socket_is_another_server() {
        let a = pane("/tmp/tmux-1000/default", "s", 0, 0).key_name();
        let b = pane("/run/user/1000/tmux-1000/default", "s", 0, 0).key_name();
        assert_ne!(a, b);
    }

    proptest! {
        #[test]
        fn every_name_encodes_to_a_safe_distinct_key(
            s1 in "\\PC{0,80}", s2 in "\\PC{0,80}", w in 0u32..2000, p in 0u32..200
        ) {
            let k1 = pane("/tmp/tmux-501/default", &s1, w, p).key_name();
            prop_assert!(is_key_name(&k1), "{}", k1);
            prop_assert!(!k1.contains('/') && !k1.contains('\0'));
            let k2 = pane("/tmp/tmux-501/default", &s2, w, p).key_name();
            prop_assert_eq!(s1 == s2, k1.eq_ignore_ascii_case(&k2));
        }
    }
}

#[cfg(test)]
#[path = "pane_upgrade_tests.rs"]
mod upgrade_tests;
