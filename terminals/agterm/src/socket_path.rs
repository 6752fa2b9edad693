//! Where agterm's control socket is: `--socket` → `$AGTERM_SOCKET` (inside a pane) →
//! `$AGTERM_STATE_DIR/agterm.sock` → `<agterm's default state dir>/agterm.sock`: macOS
//! `~/Library/Application Support/agterm`, the Linux ports `$XDG_DATA_HOME/agterm` or
//! `~/.local/share/agterm` ([`agterm_backup_denylist::default_state_dir`], one rule for the socket and
//! the denylist's `settings.json`).
//!
//! `agtermctl` itself ignores `$AGTERM_SOCKET`; we read it first because inside a pane it is the path the
//! pane's own agterm bound (or `<path>.unavailable` on an instance that could not own the socket, which
//! then fails to connect instead of reaching another agterm).

use agterm_backup_denylist::{default_state_dir, AgtermPlatform};
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
    default_socket_path(var, AgtermPlatform::current())
}

/// The socket agterm on `platform` binds when `$AGTERM_STATE_DIR` is unset.
pub fn default_socket_path(
    env: impl Fn(&str) -> Option<String>,
    platform: AgtermPlatform,
) -> Option<PathBuf> {
    default_state_dir(env, platform).map(|dir| dir.join(SOCKET_FILE))
}

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
            default_socket_path(env(&all[2..]), AgtermPlatform::current())
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
            default_socket_path(env(&e), AgtermPlatform::current())
        );
    }

    #[test]
    fn the_default_socket_is_in_agterms_state_dir_per_platform() {
        let e = [("HOME", "/h"), ("XDG_DATA_HOME", "/d")];
        assert_eq!(
            default_socket_path(env(&e), AgtermPlatform::MacOs),
            Some(PathBuf::from(
                "/h/Library/Application Support/agterm/agterm.sock"
            ))
        );
        assert_eq!(
            default_socket_path(env(&e), AgtermPlatform::Linux),
            Some(PathBuf::from("/d/agterm/agterm.sock"))
        );
        assert_eq!(
            default_socket_path(env(&e[..1]), AgtermPlatform::Linux),
            Some(PathBuf::from("/h/.local/share/agterm/agterm.sock"))
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
