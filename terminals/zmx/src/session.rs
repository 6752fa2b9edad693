//! A zmx session's identity: its socket directory and its name.
//!
//! zmx (neurosnap/zmx) keeps one daemon per session, a unix socket named after the session in one socket
//! directory (`ZMX_DIR`, else `$XDG_RUNTIME_DIR/zmx`, else `$TMPDIR/zmx-<uid>`, else `/tmp/zmx-<uid>`:
//! `cfg.zig socketDir`). A session is the same session when the directory and the name are, so after a
//! reboot `zmx attach <name>` recreates it. The record of a zmx session holds a [`ZmxSession`]; its file
//! in `live/` is named by [`ZmxSession::key_name`], which starts with `zmx.` and so is never read as an
//! agterm (`<UUID>-<role>`) or tmux (`tmux.`) key. This file is the one place that reads and writes zmx's
//! part of a record.
//!
//! agterm's Live panes are zmx daemons too, named `agterm-<32 hex>` in agterm's own socket directory:
//! those are agterm's panes ([`is_agterm_daemon`]), never zmx sessions of ours.

use agterm_backup_core::own_pane::OwnPane;
use agterm_backup_core::pane::encode::{encode, fnv1a, is_encoded};
use agterm_backup_core::pane::TerminalName;
use agterm_backup_core::terminal::PaneView;
use serde::{Deserialize, Serialize};

/// zmx's name among the terminals: records say it in `terminal` and keep a session's [`ZmxSession`]
/// under it.
pub const NAME: TerminalName = TerminalName::new("zmx");

/// Every zmx key name starts with this.
pub const KEY_PREFIX: &str = "zmx.";

/// A session name's encoded form is cut (and a hash appended) beyond this many bytes.
const MAX_ENCODED_NAME: usize = 120;

/// One zmx session: where its socket lives, its name, and when its daemon started.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ZmxSession {
    /// The socket directory, as zmx resolves it (no trailing `/`).
    pub socket_dir: String,
    /// The full session name (`ZMX_SESSION`, any `ZMX_SESSION_PREFIX` included).
    pub name: String,
    /// When the session's daemon started, Unix seconds (`zmx list`'s `created`; the hook reads its
    /// socket's modification time, written when the daemon bound it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub started: Option<i64>,
}

impl ZmxSession {
    /// Same socket directory and name: the same session, in any of its lives.
    pub fn same_session(&self, other: &ZmxSession) -> bool {
        self.socket_dir == other.socket_dir && self.name == other.name
    }

    /// The file-name key: `zmx.<dir>.<name>`, `<dir>` being the directory's last component plus a hash of
    /// the whole path, every component [`encode`]d (lower-case only, so case-insensitive disks keep two
    /// names apart).
    pub fn key_name(&self) -> String {
        let dir = self.socket_dir.trim_end_matches('/');
        let base = dir.rsplit('/').next().unwrap_or_default();
        format!(
            "{KEY_PREFIX}{}-{:08x}.{}",
            encode(base, 40),
            fnv1a(dir),
            encode(&self.name, MAX_ENCODED_NAME)
        )
    }
}

impl OwnPane for ZmxSession {
    const TERMINAL: TerminalName = NAME;
    fn own_key(&self) -> String {
        self.key_name()
    }
    fn is_own_key(stem: &str) -> bool {
        is_key_name(stem)
    }
}

/// How a person recognises a zmx session: `zmx api`.
pub fn view_label(view: &PaneView) -> Option<String> {
    ZmxSession::of_view(view).map(|p| format!("zmx {}", p.name))
}

agterm_backup_core::own_pane_part!(
    /// zmx's part of a record or of a pane view, read and written as methods (`rec.zmx()`).
    ZmxPart,
    zmx,
    set_zmx,
    ZmxSession
);

/// Whether `stem` is a zmx key name this version writes (its shape, not that the session exists).
pub fn is_key_name(stem: &str) -> bool {
    let Some(rest) = stem.strip_prefix(KEY_PREFIX) else {
        return false;
    };
    let parts: Vec<&str> = rest.split('.').collect();
    parts.len() == 2 && is_encoded(parts[0]) && is_encoded(parts[1]) && stem.len() <= 200
}

/// zmx's socket directory for an environment (`cfg.zig socketDir`): `ZMX_DIR` exactly, else
/// `$XDG_RUNTIME_DIR/zmx`, else `$TMPDIR/zmx-<uid>` (trailing `/` of `TMPDIR` dropped), else
/// `/tmp/zmx-<uid>`.
pub fn socket_dir(env: impl Fn(&str) -> Option<String>, uid: u32) -> String {
    if let Some(dir) = env("ZMX_DIR") {
        return dir.trim_end_matches('/').to_string();
    }
    if let Some(xdg) = env("XDG_RUNTIME_DIR") {
        return format!("{xdg}/zmx");
    }
    let tmp = env("TMPDIR").unwrap_or_else(|| "/tmp".into());
    format!("{}/zmx-{uid}", tmp.trim_end_matches('/'))
}

/// The socket directory of this process's environment.
pub fn socket_dir_here() -> String {
    // SAFETY: getuid has no preconditions and cannot fail.
    let uid = unsafe { libc::getuid() };
    socket_dir(|k| std::env::var(k).ok(), uid)
}

/// agterm's Live daemons: `agterm-` and 32 lower-case hex digits (agterm's `ZmxSupport.isDaemonName`).
pub fn is_agterm_daemon(name: &str) -> bool {
    name.strip_prefix("agterm-").is_some_and(|hex| {
        hex.len() == 32
            && hex
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn session(dir: &str, name: &str) -> ZmxSession {
        ZmxSession {
            socket_dir: dir.into(),
            name: name.into(),
            started: None,
        }
    }

    #[test]
    fn key_names_read_as_zmx_and_never_as_agterm_or_tmux() {
        let k = session("/run/user/1000/zmx", "api").key_name();
        assert!(k.starts_with("zmx.zmx-") && k.ends_with(".api"), "{k}");
        assert_eq!(ZmxSession::parse_key(&k).map(|p| p.terminal()), Some(NAME));
        assert!(!is_key_name("tmux.default-00000000.work.0.0"));
        assert!(!is_key_name("6B1E0C2A-AAAA-BBBB-CCCC-0123456789AB-left"));
        // A trailing slash is the same directory.
        assert_eq!(k, session("/run/user/1000/zmx/", "api").key_name());
    }

    #[test]
    fn another_directory_is_another_session_and_case_counts() {
        let a = session("/tmp/zmx-1000", "api").key_name();
        assert_ne!(a, session("/run/user/1000/zmx", "api").key_name());
        assert!(!a.eq_ignore_ascii_case(&session("/tmp/zmx-1000", "API").key_name()));
        let evil = session("/tmp/zmx-1000", "../../etc/passwd").key_name();
        assert!(!evil.contains('/') && is_key_name(&evil), "{evil}");
    }

    #[test]
    fn socket_dir_follows_zmx_priority() {
        fn env<'a>(pairs: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
            move |k: &str| {
                pairs
                    .iter()
                    .find(|(n, _)| *n == k)
                    .map(|(_, v)| v.to_string())
            }
        }
        let all = [
            ("ZMX_DIR", "/custom/"),
            ("XDG_RUNTIME_DIR", "/run/user/5"),
            ("TMPDIR", "/var/t/"),
        ];
        assert_eq!(socket_dir(env(&all), 5), "/custom");
        assert_eq!(socket_dir(env(&all[1..]), 5), "/run/user/5/zmx");
        assert_eq!(socket_dir(env(&all[2..]), 5), "/var/t/zmx-5");
        assert_eq!(socket_dir(env(&[]), 5), "/tmp/zmx-5");
    }

    #[test]
    fn agterm_daemons_are_told_apart() {
        assert!(is_agterm_daemon("agterm-0123456789abcdef0123456789abcdef"));
        for other in [
            "agterm-0123456789ABCDEF0123456789ABCDEF",
            "agterm-123",
            "agterm",
            "api",
            "agterm-0123456789abcdef0123456789abcdeg",
        ] {
            assert!(!is_agterm_daemon(other), "{other}");
        }
    }

    proptest! {
        #[test]
        fn every_name_encodes_to_a_safe_distinct_key(a in "\\PC{0,80}", b in "\\PC{0,80}") {
            let ka = session("/tmp/zmx-501", &a).key_name();
            prop_assert!(is_key_name(&ka), "{}", ka);
            prop_assert!(!ka.contains('/') && !ka.contains('\0'));
            let kb = session("/tmp/zmx-501", &b).key_name();
            prop_assert_eq!(a == b, ka.eq_ignore_ascii_case(&kb));
        }
    }
}

#[cfg(test)]
#[path = "session_upgrade_tests.rs"]
mod upgrade_tests;
