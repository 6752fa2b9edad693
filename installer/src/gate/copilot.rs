//! Copilot CLI (1.0.102): `disableAllHooks: true` "disable[s] all hooks (repo-level and user-level)"
//! (`copilot help config`) — when a repository says it: its `.github/copilot/settings.json` and
//! `.github/copilot/settings.local.json` (at the repository's root; `copilot config --repo/--local
//! disableAllHooks true` writes there), the local file over the shared one. The same key in the user's
//! `~/.copilot/settings.json` (`$COPILOT_HOME`) is read by `copilot config` but does not stop the hooks:
//! the real CLI runs ours with it (`tests/installer/installer_gate_real_more.rs` holds both to it).

use super::{Facts, Format, Layer, LayerKind, Off, Place, Row};
use std::path::{Path, PathBuf};

pub const ROW: Row = Row {
    agent: "copilot",
    layers,
    decide,
};

fn layers(place: &Place<'_>) -> Vec<(LayerKind, PathBuf, Format)> {
    let Some(repo) = place.project.as_deref().map(|p| repository_root(place, p)) else {
        return Vec::new();
    };
    let dir = repo.join(".github/copilot");
    vec![
        (LayerKind::Project, dir.join("settings.json"), Format::Json),
        (
            LayerKind::Local,
            dir.join("settings.local.json"),
            Format::Json,
        ),
    ]
}

/// The nearest folder at or above `dir` holding `.git`, else `dir` itself.
fn repository_root(place: &Place<'_>, dir: &Path) -> PathBuf {
    dir.ancestors()
        .find(|d| place.lookup.exists(&d.join(".git")))
        .unwrap_or(dir)
        .to_path_buf()
}

fn decide(layers: &[Layer], _facts: &Facts) -> Option<Off> {
    let layer = super::deciding(layers, "disableAllHooks")?;
    (layer.get("disableAllHooks") == Some(&serde_json::Value::Bool(true)))
        .then(|| super::off_by_layer("copilot", layer, "disableAllHooks"))
}
