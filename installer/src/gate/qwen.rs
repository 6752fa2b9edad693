//! Qwen Code (0.24.4): `disableAllHooks: true` turns every hook off. Layers, lowest first
//! (`mergeSettings`): the machine's `system-defaults.json` (`$QWEN_CODE_SYSTEM_DEFAULTS_PATH`), the
//! user's `$QWEN_HOME/settings.json` (else `~/.qwen/settings.json`), a trusted project's
//! `.qwen/settings.json`, the machine's `settings.json` (`$QWEN_CODE_SYSTEM_SETTINGS_PATH`, else
//! `/etc/qwen-code` or `/Library/Application Support/QwenCode`); the last that sets it wins.

use super::{Facts, Format, Layer, LayerKind, Off, Os, Place, Row};
use std::path::PathBuf;

pub const ROW: Row = Row {
    agent: "qwen",
    layers,
    decide,
};

fn layers(place: &Place<'_>) -> Vec<(LayerKind, PathBuf, Format)> {
    let user = match place.lookup.env("QWEN_HOME").filter(|h| !h.is_empty()) {
        Some(dir) => Some(PathBuf::from(dir).join("settings.json")),
        None => super::below_home(place, ".qwen/settings.json"),
    };
    let system = place
        .lookup
        .env("QWEN_CODE_SYSTEM_SETTINGS_PATH")
        .map(PathBuf::from)
        .unwrap_or_else(|| match place.os {
            Os::MacOs => place.system("/Library/Application Support/QwenCode/settings.json"),
            Os::Linux => place.system("/etc/qwen-code/settings.json"),
        });
    let defaults = place
        .lookup
        .env("QWEN_CODE_SYSTEM_DEFAULTS_PATH")
        .map(PathBuf::from)
        .unwrap_or_else(|| system.with_file_name("system-defaults.json"));
    super::layered_json(
        defaults,
        user,
        place
            .project
            .as_ref()
            .map(|p| p.join(".qwen/settings.json")),
        system,
        Format::JsonComments,
    )
}

fn decide(layers: &[Layer], _facts: &Facts) -> Option<Off> {
    let layer = super::deciding(layers, "disableAllHooks")?;
    (layer.get("disableAllHooks") == Some(&serde_json::Value::Bool(true)))
        .then(|| super::off_by_layer("qwen", layer, "disableAllHooks"))
}
