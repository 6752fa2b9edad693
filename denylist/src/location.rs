//! Where agterm keeps `restore-denylist.conf` (`ConfigPaths.swift`): in the config dir, which is the first
//! of agterm's `settings.json` `configDirectory` (when non-empty), `$AGTERM_STATE_DIR/config`, and
//! `~/.config/agterm`. agterm's state dir (where `settings.json` lives) is `$AGTERM_STATE_DIR`, else
//! `~/Library/Application Support/agterm`. `XDG_CONFIG_HOME` is not used by agterm, so not by us.

use std::path::{Path, PathBuf};

/// The file name inside the config dir.
pub const FILE_NAME: &str = "restore-denylist.conf";
/// Moves agterm's state dir (and with it the default config dir).
pub const AGTERM_STATE_DIR_ENV: &str = "AGTERM_STATE_DIR";

/// agterm's config dir, from an environment lookup and a file reader (for agterm's `settings.json`).
/// `None` only when neither `$AGTERM_STATE_DIR` nor `$HOME` is set.
pub fn config_dir(
    env: impl Fn(&str) -> Option<String>,
    read_file: impl Fn(&Path) -> Option<String>,
) -> Option<PathBuf> {
    let home = env("HOME").filter(|h| !h.is_empty()).map(PathBuf::from);
    let state_env = env(AGTERM_STATE_DIR_ENV)
        .filter(|s| !s.is_empty())
        .map(PathBuf::from);
    let state_dir = state_env.clone().or_else(|| {
        home.as_ref()
            .map(|h| h.join("Library/Application Support/agterm"))
    });
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
        let dir = config_dir(env_of(&[("HOME", "/h")]), |p| {
            (p == Path::new("/h/Library/Application Support/agterm/settings.json"))
                .then(|| r#"{"configDirectory":"/etc/agt"}"#.into())
        });
        assert_eq!(dir, Some(PathBuf::from("/etc/agt")));
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
