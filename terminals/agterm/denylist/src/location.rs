//! Where agterm keeps `restore-denylist.conf` (`ConfigPaths.swift`): in the config dir, which is the first
//! of agterm's `settings.json` `configDirectory` (when non-empty), `$AGTERM_STATE_DIR/config`, and
//! `~/.config/agterm` (on Linux too: the ports share `agtermCore`). agterm's state dir (where
//! `settings.json`, the window files and `agterm.sock` live) is `$AGTERM_STATE_DIR`, else Foundation's
//! application-support directory + `agterm` ([`default_state_dir`]): `~/Library/Application Support/agterm`
//! on macOS; on Linux (the GTK ports over swift-corelibs-foundation, read in nickalie/agterm-linux
//! `PersistenceStore.defaultDirectory` and `agtermctlKit` `socketPath`) `$XDG_DATA_HOME/agterm`, else
//! `~/.local/share/agterm`. `XDG_CONFIG_HOME` is not used by agterm, so not by us.

use std::path::{Path, PathBuf};

/// The file name inside the config dir.
pub const FILE_NAME: &str = "restore-denylist.conf";
/// Moves agterm's state dir (and with it the default config dir).
pub const AGTERM_STATE_DIR_ENV: &str = "AGTERM_STATE_DIR";

/// Which agterm build's folders apply: the macOS app's, or the Linux ports'.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AgtermPlatform {
    MacOs,
    Linux,
}

impl AgtermPlatform {
    /// The platform this binary runs on (anything but Linux is taken for macOS, agterm's home).
    pub const fn current() -> AgtermPlatform {
        if cfg!(target_os = "linux") {
            AgtermPlatform::Linux
        } else {
            AgtermPlatform::MacOs
        }
    }
}

/// agterm's state dir when `$AGTERM_STATE_DIR` is unset: Foundation's application-support directory +
/// `agterm`. On Linux that is `$XDG_DATA_HOME` (when absolute) else `~/.local/share`, as
/// swift-corelibs-foundation resolves it. `None` without the folders it needs (`HOME`).
pub fn default_state_dir(
    env: impl Fn(&str) -> Option<String>,
    platform: AgtermPlatform,
) -> Option<PathBuf> {
    let home = env("HOME").filter(|h| !h.is_empty()).map(PathBuf::from);
    let base = match platform {
        AgtermPlatform::MacOs => home?.join("Library/Application Support"),
        AgtermPlatform::Linux => env("XDG_DATA_HOME")
            .map(PathBuf::from)
            .filter(|d| d.is_absolute())
            .or_else(|| home.map(|h| h.join(".local/share")))?,
    };
    Some(base.join("agterm"))
}

/// agterm's config dir, from an environment lookup and a file reader (for agterm's `settings.json`).
/// `None` only when neither `$AGTERM_STATE_DIR` nor `$HOME` is set.
pub fn config_dir(
    env: impl Fn(&str) -> Option<String>,
    read_file: impl Fn(&Path) -> Option<String>,
) -> Option<PathBuf> {
    config_dir_on(AgtermPlatform::current(), env, read_file)
}

/// [`config_dir`] for agterm on `platform`.
pub fn config_dir_on(
    platform: AgtermPlatform,
    env: impl Fn(&str) -> Option<String>,
    read_file: impl Fn(&Path) -> Option<String>,
) -> Option<PathBuf> {
    let home = env("HOME").filter(|h| !h.is_empty()).map(PathBuf::from);
    let state_env = env(AGTERM_STATE_DIR_ENV)
        .filter(|s| !s.is_empty())
        .map(PathBuf::from);
    let state_dir = state_env
        .clone()
        .or_else(|| default_state_dir(&env, platform));
    if let Some(configured) = state_dir
        .and_then(|dir| read_file(&dir.join("settings.json")))
        .and_then(|text| configured_directory(&text))
    {
        return Some(expand_tilde(&configured, home.as_deref()));
    }
    if let Some(state) = state_env {
        return Some(state.join("config"));
    }
    home.map(|h| h.join(".config/agterm"))
}

/// `<config dir>/restore-denylist.conf`.
pub fn denylist_path(
    env: impl Fn(&str) -> Option<String>,
    read_file: impl Fn(&Path) -> Option<String>,
) -> Option<PathBuf> {
    config_dir(env, read_file).map(|d| d.join(FILE_NAME))
}

/// The non-empty `configDirectory` string of agterm's `settings.json` (read leniently, as agterm does).
fn configured_directory(settings_json: &str) -> Option<String> {
    let value: serde_json::Value = serde_json::from_str(settings_json).ok()?;
    let dir = value.get("configDirectory")?.as_str()?.trim();
    (!dir.is_empty()).then(|| dir.to_string())
}

fn expand_tilde(path: &str, home: Option<&Path>) -> PathBuf {
    match (path.strip_prefix("~/"), home) {
        (Some(rest), Some(home)) => home.join(rest),
        _ if path == "~" => home
            .map(Path::to_path_buf)
            .unwrap_or_else(|| PathBuf::from(path)),
        _ => PathBuf::from(path),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn env_of(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let map: HashMap<String, String> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        move |k| map.get(k).cloned()
    }

    #[test]
    fn settings_config_directory_wins_over_state_dir() {
        let dir = config_dir(env_of(&[("HOME", "/h"), ("AGTERM_STATE_DIR", "/s")]), |p| {
            (p == Path::new("/s/settings.json"))
                .then(|| r#"{"configDirectory":"~/dots/agterm"}"#.into())
        });
        assert_eq!(dir, Some(PathBuf::from("/h/dots/agterm")));
    }

    #[test]
    fn settings_are_read_from_application_support_without_state_env() {
        let dir = config_dir_on(AgtermPlatform::MacOs, env_of(&[("HOME", "/h")]), |p| {
            (p == Path::new("/h/Library/Application Support/agterm/settings.json"))
                .then(|| r#"{"configDirectory":"/etc/agt"}"#.into())
        });
        assert_eq!(dir, Some(PathBuf::from("/etc/agt")));
    }

    /// The Linux ports read `settings.json` from `$XDG_DATA_HOME/agterm` (else `~/.local/share/agterm`)
    /// and keep the config dir at `~/.config/agterm`.
    #[test]
    fn linux_ports_keep_their_state_under_xdg_data_home() {
        let linux =
            |pairs: &[(&str, &str)]| default_state_dir(env_of(pairs), AgtermPlatform::Linux);
        assert_eq!(
            linux(&[("HOME", "/h")]),
            Some(PathBuf::from("/h/.local/share/agterm"))
        );
        assert_eq!(
            linux(&[("HOME", "/h"), ("XDG_DATA_HOME", "/x/data")]),
            Some(PathBuf::from("/x/data/agterm"))
        );
        assert_eq!(
            linux(&[("HOME", "/h"), ("XDG_DATA_HOME", "relative")]),
            Some(PathBuf::from("/h/.local/share/agterm"))
        );
        let dir = config_dir_on(AgtermPlatform::Linux, env_of(&[("HOME", "/h")]), |p| {
            (p == Path::new("/h/.local/share/agterm/settings.json"))
                .then(|| r#"{"configDirectory":"/etc/agt"}"#.into())
        });
        assert_eq!(dir, Some(PathBuf::from("/etc/agt")));
        let plain = config_dir_on(AgtermPlatform::Linux, env_of(&[("HOME", "/h")]), |_| None);
        assert_eq!(plain, Some(PathBuf::from("/h/.config/agterm")));
    }

    #[test]
    fn empty_config_directory_falls_back_to_state_dir_config() {
        let dir = config_dir(
            env_of(&[("HOME", "/h"), ("AGTERM_STATE_DIR", "/s")]),
            |_| Some(r#"{"configDirectory":"  "}"#.into()),
        );
        assert_eq!(dir, Some(PathBuf::from("/s/config")));
    }

    #[test]
    fn default_is_dot_config_agterm_even_with_xdg() {
        let dir = config_dir(env_of(&[("HOME", "/h"), ("XDG_CONFIG_HOME", "/x")]), |_| {
            None
        });
        assert_eq!(dir, Some(PathBuf::from("/h/.config/agterm")));
        assert_eq!(config_dir(env_of(&[]), |_| None), None);
    }

    #[test]
    fn unreadable_settings_are_ignored() {
        let dir = config_dir(env_of(&[("HOME", "/h")]), |_| Some("{not json".into()));
        assert_eq!(dir, Some(PathBuf::from("/h/.config/agterm")));
    }
}
