//! Which tmux pane the hook runs in, from `$TMUX` (`<socket>,<server pid>,<session id>`, read here
//! alone: [`TmuxVar`]) and `$TMUX_PANE` (`%N`). Reading them costs nothing; the pane's *name* (session,
//! window and pane index) takes a question to the server, which [`crate::name`] asks once per pane and
//! caches.

/// Whether environment variable `name` is one of tmux's pane variables (`$TMUX`, `$TMUX_PANE`): those a
/// Codex daemon's hook takes from the TUI it runs for instead of its own.
pub fn is_pane_var(name: &str) -> bool {
    matches!(name, "TMUX" | "TMUX_PANE")
}

/// The tmux pane of this process's environment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TmuxEnv {
    pub socket: String,
    pub server_pid: u32,
    /// `%N`, as tmux spells it.
    pub pane_id: String,
}

impl TmuxEnv {
    /// Reads `$TMUX` and `$TMUX_PANE`; `None` outside tmux or when either is malformed.
    pub fn from_env(env: impl Fn(&str) -> Option<String>) -> Option<TmuxEnv> {
        let tmux = env("TMUX")?;
        let pane_id = env("TMUX_PANE")?.trim().to_string();
        let server = TmuxVar::parse(&tmux)?;
        is_pane_id(&pane_id).then_some(TmuxEnv {
            socket: server.socket.to_string(),
            server_pid: server.pid.parse().ok()?,
            pane_id,
        })
    }

    /// The `N` of `%N`.
    pub fn pane_number(&self) -> u32 {
        self.pane_id[1..].parse().expect("checked in from_env")
    }
}

/// `$TMUX`, which tmux sets in its panes and its `run-shell` jobs: `<socket>,<server pid>,<session id>`.
/// The one place it is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TmuxVar<'a> {
    /// The server's socket, an absolute path.
    pub socket: &'a str,
    /// The server's pid, as written.
    pub pid: &'a str,
}

impl TmuxVar<'_> {
    /// `value`'s fields; `None` for fewer than three or a socket that is no absolute path (an empty
    /// `$TMUX` included).
    pub fn parse(value: &str) -> Option<TmuxVar<'_>> {
        // The socket path may itself hold commas: the pid and session id are the last two fields.
        let mut fields = value.rsplitn(3, ',');
        let _session = fields.next()?;
        let pid = fields.next()?;
        let socket = fields.next().filter(|s| s.starts_with('/'))?;
        Some(TmuxVar { socket, pid })
    }
}

/// The socket of the server whose pane or job this process runs in (`$TMUX`), if any.
pub fn server_socket(env: impl Fn(&str) -> Option<String>) -> Option<String> {
    env("TMUX").and_then(|v| TmuxVar::parse(&v).map(|t| t.socket.to_string()))
}

/// `%` and up to nine digits.
pub fn is_pane_id(id: &str) -> bool {
    id.strip_prefix('%')
        .is_some_and(|n| !n.is_empty() && n.len() <= 9 && n.bytes().all(|b| b.is_ascii_digit()))
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
    fn reads_the_socket_pid_and_pane() {
        let e = TmuxEnv::from_env(env(&[
            ("TMUX", "/tmp/tmux-1000/default,4242,3"),
            ("TMUX_PANE", "%17"),
        ]))
        .unwrap();
        assert_eq!(e.socket, "/tmp/tmux-1000/default");
        assert_eq!((e.server_pid, e.pane_number()), (4242, 17));
        let commas = TmuxEnv::from_env(env(&[("TMUX", "/tmp/a,b/s,1,0"), ("TMUX_PANE", "%0")]));
        assert_eq!(commas.unwrap().socket, "/tmp/a,b/s");
    }

    #[test]
    fn outside_tmux_or_junk_is_none() {
        assert_eq!(TmuxEnv::from_env(env(&[])), None);
        assert_eq!(TmuxEnv::from_env(env(&[("TMUX", "")])), None);
        let no_pane = [("TMUX", "/tmp/s,1,0")];
        assert_eq!(TmuxEnv::from_env(env(&no_pane)), None);
        for bad in ["17", "%", "%1a", "%../x", "%12345678901"] {
            let e = [("TMUX", "/tmp/s,1,0"), ("TMUX_PANE", bad)];
            assert_eq!(TmuxEnv::from_env(env(&e)), None, "{bad}");
        }
        let relative = [("TMUX", "s,1,0"), ("TMUX_PANE", "%1")];
        assert_eq!(TmuxEnv::from_env(env(&relative)), None);
        let no_pid = [("TMUX", "/tmp/s,x,0"), ("TMUX_PANE", "%1")];
        assert_eq!(TmuxEnv::from_env(env(&no_pid)), None);
    }

    #[test]
    fn the_server_socket_is_read_from_tmux_alone_and_may_hold_commas() {
        let job = [("TMUX", "/tmp/a,b/s,77,2")];
        assert_eq!(server_socket(env(&job)).as_deref(), Some("/tmp/a,b/s"));
        for bad in ["", "/tmp/s", "/tmp/s,1", "s,1,0"] {
            assert_eq!(server_socket(env(&[("TMUX", bad)])), None, "{bad:?}");
        }
        assert_eq!(server_socket(env(&[])), None);
    }
}
