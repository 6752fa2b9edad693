//! The Claude Code plugin route. A user may install our capture hook as a Claude Code plugin
//! (`/plugin install agterm-backup@…`, see `plugins/claude-code/`) instead of letting `installer apply`
//! edit `settings.json`. Both at once would run the hook twice on every event, so `apply` leaves
//! `settings.json` alone while the plugin is enabled, and `status` says which route is active.

use serde_json::Value;

/// The plugin's name in its `plugin.json`.
pub const PLUGIN_NAME: &str = "agterm-backup";

/// The `name@marketplace` key of our plugin when Claude Code has it installed
/// (`<config>/plugins/installed_plugins.json`) and enabled (`enabledPlugins` in `settings.json`).
pub fn enabled_plugin(settings: Option<&str>, installed_plugins: Option<&str>) -> Option<String> {
    // Read as Claude Code reads settings.json: a file nested deeper than serde's limit still counts.
    let enabled = crate::json_hooks::claude_setting(settings?, "enabledPlugins")?;
    let enabled: Value = serde_json::from_str(&enabled).ok()?;
    let installed: Value = serde_json::from_str(installed_plugins?).ok()?;
    let installed = installed.get("plugins")?.as_object()?;
    enabled
        .as_object()?
        .iter()
        .filter(|(key, on)| on.as_bool() == Some(true) && is_ours(key))
        .map(|(key, _)| key)
        .find(|key| installed.get(*key).is_some_and(|v| !v.is_null()))
        .cloned()
}

fn is_ours(key: &str) -> bool {
    key.split_once('@').map_or(key, |(name, _)| name) == PLUGIN_NAME
}

/// Which route runs the Claude hook: `settings`, `plugin`, `both` (the hook runs twice) or `none`.
pub fn route(settings_has_ours: bool, plugin: bool) -> &'static str {
    match (settings_has_ours, plugin) {
        (true, true) => "both",
        (true, false) => "settings",
        (false, true) => "plugin",
        (false, false) => "none",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const INSTALLED: &str = r#"{"version":2,"plugins":{"agterm-backup@agterm-backup":[{"scope":"user","version":"0.1.0"}]}}"#;

    #[test]
    fn found_only_when_installed_and_enabled() {
        let on = r#"{"enabledPlugins":{"agterm-backup@agterm-backup":true}}"#;
        let off = r#"{"enabledPlugins":{"agterm-backup@agterm-backup":false}}"#;
        assert_eq!(
            enabled_plugin(Some(on), Some(INSTALLED)).as_deref(),
            Some("agterm-backup@agterm-backup")
        );
        assert_eq!(enabled_plugin(Some(off), Some(INSTALLED)), None);
        assert_eq!(enabled_plugin(Some(on), None), None);
        assert_eq!(
            enabled_plugin(Some(on), Some(r#"{"version":2,"plugins":{}}"#)),
            None
        );
        assert_eq!(enabled_plugin(None, Some(INSTALLED)), None);
        assert_eq!(enabled_plugin(Some("{not json"), Some(INSTALLED)), None);
    }

    /// Claude Code loads a settings.json nested deeper than serde's 128 levels (it skips the deep value), and
    /// a BOM: the plugin route is seen there too, or `apply` would add the hook a second time.
    #[test]
    fn found_in_settings_claude_loads_but_serde_does_not() {
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        let on = format!("\u{feff}{{\"x\": {deep}, \"enabledPlugins\": {{\"agterm-backup@agterm-backup\": true}}}}");
        assert_eq!(
            enabled_plugin(Some(&on), Some(INSTALLED)).as_deref(),
            Some("agterm-backup@agterm-backup")
        );
    }

    #[test]
    fn other_plugins_are_not_ours() {
        let s = r#"{"enabledPlugins":{"agterm-backup-extra@x":true,"agterm@agterm":true}}"#;
        let i = r#"{"plugins":{"agterm-backup-extra@x":[{}],"agterm@agterm":[{}]}}"#;
        assert_eq!(enabled_plugin(Some(s), Some(i)), None);
    }

    #[test]
    fn routes() {
        assert_eq!(route(true, true), "both");
        assert_eq!(route(false, true), "plugin");
        assert_eq!(route(true, false), "settings");
        assert_eq!(route(false, false), "none");
    }
}
