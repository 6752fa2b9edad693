//! Where zmx keeps things and how it names sessions (`cfg.zig`, `socket.zig`): pure functions over the
//! environment, so the CLI, the daemon and the test handle all agree.

use std::path::PathBuf;

/// The socket and log directories, resolved as `cfg.zig` does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dirs {
    pub socket_dir: String,
    pub log_dir: String,
}

/// `Cfg.socketDir` / `Cfg.logDir`: `ZMX_DIR`, else `$XDG_RUNTIME_DIR/zmx`, else `$TMPDIR/zmx-<uid>`
/// (TMPDIR defaults to `/tmp`, trailing slashes trimmed). Logs: `$ZMX_DIR/logs`, else
/// `$XDG_STATE_HOME/zmx/logs`, else `$HOME/.local/state/zmx/logs`, else the socket fallback. A variable
/// set to the empty string counts as set (zmx reads it with `getenv`).
pub fn resolve_dirs(env: impl Fn(&str) -> Option<String>, uid: u32) -> Dirs {
    let tmpdir = env("TMPDIR").unwrap_or_else(|| "/tmp".into());
    let tmp_fallback = format!("{}/zmx-{uid}", tmpdir.trim_end_matches('/'));
    let socket_dir = match (env("ZMX_DIR"), env("XDG_RUNTIME_DIR")) {
        (Some(dir), _) => dir,
        (None, Some(xdg)) => format!("{xdg}/zmx"),
        (None, None) => tmp_fallback.clone(),
    };
    let log_dir = match (env("ZMX_DIR"), env("XDG_STATE_HOME"), env("HOME")) {
        (Some(dir), _, _) => format!("{dir}/logs"),
        (None, Some(state), _) => format!("{state}/zmx/logs"),
        (None, None, Some(home)) => format!("{home}/.local/state/zmx/logs"),
        (None, None, None) => tmp_fallback,
    };
    Dirs {
        socket_dir,
        log_dir,
    }
}

/// [`resolve_dirs`] for this process.
pub fn dirs_from_env() -> Dirs {
    resolve_dirs(|k| std::env::var(k).ok(), nix::unistd::getuid().as_raw())
}

/// `ZMX_DIR_MODE` (octal, default 0750): the mode zmx creates both directories with.
pub fn dir_mode(env: impl Fn(&str) -> Option<String>) -> u32 {
    env("ZMX_DIR_MODE")
        .and_then(|m| u32::from_str_radix(&m, 8).ok())
        .unwrap_or(0o750)
}

/// `socket.getSeshName`: `ZMX_SESSION_PREFIX` + the name; the error names are zmx's.
pub fn session_name(prefix: &str, name: &str) -> Result<String, &'static str> {
    if prefix.is_empty() && name.is_empty() {
        return Err("SessionNameRequired");
    }
    let full = format!("{prefix}{name}");
    if full.contains('/') || full.contains('\0') || full == "." || full == ".." {
        return Err("InvalidSessionName");
    }
    Ok(full)
}

/// Usable bytes of a Unix socket path on Linux (`sun_path` is 108 bytes with the NUL).
pub const MAX_SOCKET_PATH_LEN: usize = 107;

/// `socket.getSocketPath`, or zmx's "too long" message for stderr.
pub fn socket_path(socket_dir: &str, name: &str) -> Result<String, String> {
    if socket_dir.len() + 1 + name.len() <= MAX_SOCKET_PATH_LEN {
        return Ok(format!("{socket_dir}/{name}"));
    }
    let overhead = socket_dir.len() + 1;
    Err(if overhead >= MAX_SOCKET_PATH_LEN {
        format!("error: socket directory path is too long (\"{socket_dir}\")")
    } else {
        format!(
            "error: session name is too long ({} bytes, max {} for socket directory \"{socket_dir}\")",
            name.len(),
            MAX_SOCKET_PATH_LEN - overhead
        )
    })
}

/// The fake's own private state for one socket dir (not zmx's): the hidden tmux server's socket and
/// config, and the pane launch specs. Outside the socket dir (anything there would be listed as a
/// session) and short (a tmux socket path must fit `sun_path` too): `/tmp/fake-zmx-<uid>/<hash>`.
pub fn private_dir(socket_dir: &str) -> PathBuf {
    // FNV-1a 64: stable across processes and runs, no dependency.
    let hash = socket_dir.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    let uid = nix::unistd::getuid().as_raw();
    PathBuf::from(format!("/tmp/fake-zmx-{uid}/{hash:016x}"))
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
    fn socket_dir_precedence_is_zmx_dir_then_xdg_runtime_then_tmpdir() {
        let all = [
            ("ZMX_DIR", "/z"),
            ("XDG_RUNTIME_DIR", "/run/user/7"),
            ("TMPDIR", "/t/"),
            ("HOME", "/h"),
        ];
        assert_eq!(
            resolve_dirs(env(&all), 7),
            Dirs {
                socket_dir: "/z".into(),
                log_dir: "/z/logs".into()
            }
        );
        let d = resolve_dirs(env(&all[1..]), 7);
        assert_eq!(d.socket_dir, "/run/user/7/zmx");
        assert_eq!(d.log_dir, "/h/.local/state/zmx/logs");
        let d = resolve_dirs(env(&[("TMPDIR", "/t//")]), 7);
        assert_eq!(d.socket_dir, "/t/zmx-7");
        assert_eq!(
            d.log_dir, "/t/zmx-7",
            "no HOME: logs share the tmp fallback"
        );
        assert_eq!(resolve_dirs(env(&[]), 0).socket_dir, "/tmp/zmx-0");
        let d = resolve_dirs(env(&[("XDG_STATE_HOME", "/s"), ("HOME", "/h")]), 1);
        assert_eq!(d.log_dir, "/s/zmx/logs");
    }

    #[test]
    fn session_names_get_the_prefix_and_refuse_path_tricks() {
        assert_eq!(session_name("", "dev"), Ok("dev".into()));
        assert_eq!(session_name("p.", "dev"), Ok("p.dev".into()));
        assert_eq!(session_name("", ""), Err("SessionNameRequired"));
        assert_eq!(session_name("p", ""), Ok("p".into()));
        for bad in ["a/b", "..", ".", "x\0"] {
            assert_eq!(session_name("", bad), Err("InvalidSessionName"), "{bad:?}");
        }
    }

    #[test]
    fn socket_paths_fit_sun_path() {
        assert_eq!(socket_path("/tmp/zmx", "s"), Ok("/tmp/zmx/s".into()));
        let dir = "d".repeat(100);
        assert!(socket_path(&dir, &"n".repeat(6)).is_ok());
        let err = socket_path(&dir, &"n".repeat(7)).unwrap_err();
        assert!(
            err.contains("(7 bytes, max 6 for socket directory"),
            "{err}"
        );
        let err = socket_path(&"d".repeat(107), "n").unwrap_err();
        assert!(err.starts_with("error: socket directory path is too long"));
    }
}
