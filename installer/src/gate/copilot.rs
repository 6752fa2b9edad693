//! Copilot CLI (1.0.102): `disableAllHooks: true` "disable[s] all hooks (repo-level and user-level)"
//! (`copilot help config`). Its layers: the user's `settings.json` in `~/.copilot` (`$COPILOT_HOME`),
//! the repository's `.github/copilot/settings.json` and `.github/copilot/settings.local.json` (at the
//! repository's root; `copilot config --repo/--local disableAllHooks true` writes there, so a repository
//! may set it). The last that sets it wins, local over repository over user, as Claude Code merges the
//! same three (Copilot's merge order is not documented; `copilot config` reads one file at a time).

use super::{Facts, Format, Layer, LayerKind, Off, Place, Row};
use std::path::{Path, PathBuf};

pub const ROW: Row = Row {
    agent: "copilot",
    layers,
    decide,
};

fn layers(place: &Place<'_>) -> Vec<(LayerKind, PathBuf, Format)> {
    let user = match place.lookup.env("COPILOT_HOME").filter(|h| !h.is_empty()) {
        Some(dir) => Some(PathBuf::from(dir).join("settings.json")),
        None => super::below_home(place, ".copilot/settings.json"),
    };
    let mut out: Vec<_> = user
        .map(|p| (LayerKind::User, p, Format::Json))
        .into_iter()
        .collect();
    if let Some(repo) = place.project.as_deref().map(|p| repository_root(place, p)) {
        let dir = repo.join(".github/copilot");
        out.push((LayerKind::Project, dir.join("settings.json"), Format::Json));
        out.push((
            LayerKind::Local,
            dir.join("settings.local.json"),
            Format::Json,
        ));
    }
    out
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
