//! Where agterm's control socket is: `--socket` → `$AGTERM_SOCKET` (inside a pane) →
//! `$AGTERM_STATE_DIR/agterm.sock` → the platform's default ([`default_socket_path`]: on macOS
//! `~/Library/Application Support/agterm/agterm.sock`).
//!
//! `agtermctl` itself ignores `$AGTERM_SOCKET`; we read it first because inside a pane it is the path the
//! pane's own agterm bound (or `<path>.unavailable` on an instance that could not own the socket, which
//! then fails to connect instead of reaching another agterm).

use std::path::{Path, PathBuf};

/// The socket's file name inside agterm's state directory.
pub const SOCKET_FILE: &str = "agterm.sock";

/// Resolves the socket path from an explicit override and an environment lookup. Empty values count as
/// unset. `None` only when nothing at all is known (no override, no agterm variables, no `HOME`).
pub fn resolve_socket_path(
    override_path: Option<&Path>,
    env: impl Fn(&str) -> Option<String>,
) -> Option<PathBuf> {
    if let Some(p) = override_path.filter(|p| !p.as_os_str().is_empty()) {
        return Some(p.to_path_buf());
    }
    let var = |k: &str| env(k).filter(|v| !v.is_empty());
    if let Some(sock) = var("AGTERM_SOCKET") {
        return Some(PathBuf::from(sock));
    }
    if let Some(dir) = var("AGTERM_STATE_DIR") {
        return Some(Path::new(&dir).join(SOCKET_FILE));
    }
    default_socket_path(&env)
}

/// The platform's default socket path, the one place that knows it: on macOS agterm's Application
/// Support folder (`~/Library/Application Support/agterm/agterm.sock`, agterm's `defaultSocketPath()`);
/// elsewhere (the Linux ports) the XDG state directory, `$XDG_STATE_HOME/agterm/agterm.sock`, else
/// `~/.local/state/agterm/agterm.sock`. `None` without a `HOME`.
pub fn default_socket_path(env: &impl Fn(&str) -> Option<String>) -> Option<PathBuf> {
    let var = |k: &str| env(k).filter(|v| !v.is_empty());
    if cfg!(target_os = "macos") {
        let home = var("HOME")?;
        return Some(Path::new(&home).join(MACOS_DIR).join(SOCKET_FILE));
    }
    let state = match var("XDG_STATE_HOME").filter(|d| d.starts_with('/')) {
        Some(dir) => PathBuf::from(dir),
        None => Path::new(&var("HOME")?).join(".local/state"),
    };
    Some(state.join("agterm").join(SOCKET_FILE))
}

/// agterm's folder under the home directory on macOS.
const MACOS_DIR: &str = "Library/Application Support/agterm";

/// Resolves from the process environment.
pub fn socket_path_from_env(override_path: Option<&Path>) -> Option<PathBuf> {
    resolve_socket_path(override_path, |k| std::env::var(k).ok())
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

    /// The default under `home` on this platform.
    fn platform(home: &str) -> String {
        match cfg!(target_os = "macos") {
            true => format!("{home}/Library/Application Support/agterm/agterm.sock"),
            false => format!("{home}/.local/state/agterm/agterm.sock"),
        }
    }

    #[test]
    fn the_default_is_the_platforms() {
        let e = [("HOME", "/h"), ("XDG_STATE_HOME", "/st")];
        let got = default_socket_path(&env(&e)).unwrap();
        if cfg!(target_os = "macos") {
            assert_eq!(got, PathBuf::from(platform("/h")));
        } else {
            assert_eq!(got, PathBuf::from("/st/agterm/agterm.sock"));
            assert!(!got.to_string_lossy().contains("Library"));
            assert_eq!(
                default_socket_path(&env(&e[..1])),
                Some(PathBuf::from(platform("/h")))
            );
        }
    }

    #[test]
    fn order_is_override_then_pane_then_state_dir_then_home() {
        let all = [
            ("AGTERM_SOCKET", "/pane/agterm.sock"),
            ("AGTERM_STATE_DIR", "/state"),
            ("HOME", "/home/u"),
        ];
        assert_eq!(
            resolve_socket_path(Some(Path::new("/o.sock")), env(&all)),
            Some(PathBuf::from("/o.sock"))
        );
        assert_eq!(
            resolve_socket_path(None, env(&all)),
            Some(PathBuf::from("/pane/agterm.sock"))
        );
        assert_eq!(
            resolve_socket_path(None, env(&all[1..])),
            Some(PathBuf::from("/state/agterm.sock"))
        );
        assert_eq!(
            resolve_socket_path(None, env(&all[2..])),
            Some(PathBuf::from(platform("/home/u")))
        );
        assert_eq!(resolve_socket_path(None, env(&[])), None);
    }

    #[test]
    fn empty_values_count_as_unset() {
        let e = [
            ("AGTERM_SOCKET", ""),
            ("AGTERM_STATE_DIR", ""),
            ("HOME", "/h"),
        ];
        assert_eq!(
            resolve_socket_path(Some(Path::new("")), env(&e)),
            Some(PathBuf::from(platform("/h")))
        );
    }

    #[test]
    fn unavailable_marker_is_kept_so_it_fails_loudly() {
        let e = [("AGTERM_SOCKET", "/s/agterm.sock.unavailable")];
        assert_eq!(
            resolve_socket_path(None, env(&e)),
            Some(PathBuf::from("/s/agterm.sock.unavailable"))
        );
    }
}
