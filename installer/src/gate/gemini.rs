//! Gemini CLI (0.61.0): `hooksConfig.enabled: false` turns every hook off ("Canonical toggle for the
//! hooks system"), and a hook whose name is in `hooksConfig.disabled` does not run (ours is named
//! `agterm-backup`). Layers, lowest first (`mergeSettings`): the machine's `system-defaults.json`, the
//! user's `~/.gemini/settings.json` (`$GEMINI_CLI_HOME` for HOME), a trusted project's
//! `.gemini/settings.json`, the machine's `settings.json` (`$GEMINI_CLI_SYSTEM_SETTINGS_PATH`, else
//! `/etc/gemini-cli` or `/Library/Application Support/GeminiCli`). `enabled` is taken from the last layer
//! that sets it; `disabled` is the union of every layer's list. The two machine files count only when no
//! one but root can change them and the folders above them (`isFileAndDirectorySecureSync`; Gemini skips
//! them otherwise, with a "Security Warning").

use super::{Facts, Format, Layer, LayerKind, Off, Os, Place, Row};
use std::path::PathBuf;

pub const ROW: Row = Row {
    agent: "gemini",
    layers,
    decide,
};

/// The name our hook carries in Gemini's settings (`agent_hooks::GEMINI`'s `name`).
pub const OUR_NAME: &str = "agterm-backup";

fn layers(place: &Place<'_>) -> Vec<(LayerKind, PathBuf, Format)> {
    let home = place
        .lookup
        .env("GEMINI_CLI_HOME")
        .filter(|h| !h.is_empty())
        .or_else(|| place.lookup.env("HOME"))
        .map(PathBuf::from);
    let system = place
        .lookup
        .env("GEMINI_CLI_SYSTEM_SETTINGS_PATH")
        .map(PathBuf::from)
        .unwrap_or_else(|| match place.os {
            Os::MacOs => place.system("/Library/Application Support/GeminiCli/settings.json"),
            Os::Linux => place.system("/etc/gemini-cli/settings.json"),
        });
    let defaults = place
        .lookup
        .env("GEMINI_CLI_SYSTEM_DEFAULTS_PATH")
        .map(PathBuf::from)
        .unwrap_or_else(|| system.with_file_name("system-defaults.json"));
    super::layered_json(
        defaults,
        home.map(|h| h.join(".gemini/settings.json")),
        place
            .project
            .as_ref()
            .map(|p| p.join(".gemini/settings.json")),
        system,
        Format::JsonCommentsRootOnly,
    )
}

fn decide(layers: &[Layer], _facts: &Facts) -> Option<Off> {
    if let Some(layer) = super::deciding(layers, "hooksConfig.enabled") {
        if layer.get("hooksConfig.enabled") == Some(&serde_json::Value::Bool(false)) {
            return Some(super::off_by_layer("gemini", layer, "hooksConfig.enabled"));
        }
    }
    layers
        .iter()
        .find(|l| {
            l.get("hooksConfig.disabled")
                .and_then(|d| d.as_array())
                .is_some_and(|names| names.iter().any(|n| n == OUR_NAME))
        })
        .map(|layer| super::off_by_layer("gemini", layer, "hooksConfig.disabled"))
}
