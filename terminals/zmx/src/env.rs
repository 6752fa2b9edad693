//! Which zmx session the hook runs in: `$ZMX_SESSION` (zmx sets it in every session's environment,
//! `daemonize.zig`) and the socket directory zmx resolves from the same environment. Reading them costs
//! nothing; the session's start time is one `stat` of its socket.

use crate::session::{is_agterm_daemon, socket_dir, ZmxSession};
use std::path::Path;

/// Whether environment variable `name` is one of zmx's pane variables (`$ZMX_SESSION`, and `$ZMX_DIR`,
/// its socket directory): those a Codex daemon's hook takes from the TUI it runs for instead of its own.
pub fn is_pane_var(name: &str) -> bool {
    matches!(name, "ZMX_SESSION" | "ZMX_DIR")
}

/// The zmx session of this process's environment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ZmxEnv {
    pub name: String,
    pub socket_dir: String,
}

impl ZmxEnv {
    /// Reads `$ZMX_SESSION` and the socket directory; `None` outside zmx, in an agterm Live pane (its
    /// client sets `ZMX_SESSION` empty, its daemons are named `agterm-<hex>`), or for a name zmx itself
    /// refuses (a `/`, `.`, `..`).
    pub fn from_env(env: impl Fn(&str) -> Option<String>, uid: u32) -> Option<ZmxEnv> {
        let name = env("ZMX_SESSION").filter(|n| !n.is_empty())?;
        let refused = name.contains('/') || name.contains('\0') || name == "." || name == "..";
        if refused || is_agterm_daemon(&name) {
            return None;
        }
        Some(ZmxEnv {
            socket_dir: socket_dir(&env, uid),
            name,
        })
    }

    /// The session, with its start time read from its socket (`None` when the socket is gone).
    pub fn session(&self) -> ZmxSession {
        ZmxSession {
            socket_dir: self.socket_dir.clone(),
            name: self.name.clone(),
            started: socket_started(&Path::new(&self.socket_dir).join(&self.name)),
        }
    }
}

/// When the daemon bound its socket (the file's modification time, Unix seconds): zmx creates the
/// socket once per daemon, right before the fork, so this is `zmx list`'s `created` to the second.
pub fn socket_started(socket: &Path) -> Option<i64> {
    use std::os::unix::fs::MetadataExt;
    let meta = std::fs::metadata(socket).ok()?;
    use std::os::unix::fs::FileTypeExt;
    meta.file_type().is_socket().then_some(meta.mtime())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env<'a>(pairs: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |k| {
            pairs
                .iter()
                .find(|(n, _)| *n == k)
                .map(|(_, v)| v.to_string())
        }
    }

    #[test]
    fn reads_the_session_and_its_directory() {
        let e = ZmxEnv::from_env(env(&[("ZMX_SESSION", "api"), ("ZMX_DIR", "/z")]), 7).unwrap();
        assert_eq!((e.name.as_str(), e.socket_dir.as_str()), ("api", "/z"));
        let default = ZmxEnv::from_env(env(&[("ZMX_SESSION", "d.api")]), 7).unwrap();
        assert_eq!(default.socket_dir, "/tmp/zmx-7");
    }

    #[test]
    fn outside_zmx_agterm_live_and_junk_are_none() {
        assert_eq!(ZmxEnv::from_env(env(&[]), 1), None);
        assert_eq!(ZmxEnv::from_env(env(&[("ZMX_SESSION", "")]), 1), None);
        let live = [("ZMX_SESSION", "agterm-0123456789abcdef0123456789abcdef")];
        assert_eq!(ZmxEnv::from_env(env(&live), 1), None);
        for bad in ["a/b", "..", "."] {
            assert_eq!(
                ZmxEnv::from_env(env(&[("ZMX_SESSION", bad)]), 1),
                None,
                "{bad}"
            );
        }
    }

    #[test]
    fn the_start_time_is_the_socket_s() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("api");
        let _listener = std::os::unix::net::UnixListener::bind(&path).unwrap();
        let now = chrono::Utc::now().timestamp();
        let got = socket_started(&path).unwrap();
        assert!((got - now).abs() <= 2, "{got} vs {now}");
        std::fs::write(tmp.path().join("plain"), "x").unwrap();
        assert_eq!(socket_started(&tmp.path().join("plain")), None);
        assert_eq!(socket_started(&tmp.path().join("gone")), None);
    }
}
