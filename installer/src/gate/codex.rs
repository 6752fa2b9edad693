//! Codex: `[features] hooks = false` (or the older `codex_hooks`) in any config layer it reads — the
//! machine's `/etc/codex/config.toml`, the user's `$CODEX_HOME/config.toml`, a trusted project's
//! `.codex/config.toml`, the administrator's `/etc/codex/managed_config.toml`, the last that sets it
//! winning — turns every hook off; the administrator's `/etc/codex/requirements.toml` forces it off with
//! the same key, or keeps only managed hooks with `allow_managed_hooks_only = true` (Codex 0.169.0:
//! the paths are in its binary; developers.openai.com/codex/hooks). Our hooks also run only once
//! trusted: that is `installer status`'s `trusted`, from `hooks.state` (see `crate::trust`).

use super::{below_home, in_project, Facts, Format, Layer, LayerKind, Off, Place, Row, WayOut};
use serde_json::Value;
use std::path::PathBuf;

pub const ROW: Row = Row {
    agent: "codex",
    layers,
    decide,
};

const REQUIREMENTS: &str = "requirements.toml";

fn layers(place: &Place<'_>) -> Vec<(LayerKind, PathBuf, Format)> {
    let user = match place.lookup.env("CODEX_HOME").filter(|d| !d.is_empty()) {
        Some(dir) => Some(PathBuf::from(dir).join("config.toml")),
        None => below_home(place, ".codex/config.toml"),
    };
    let mut out = vec![(
        LayerKind::SystemDefaults,
        place.system("/etc/codex/config.toml"),
        Format::Toml,
    )];
    out.extend(user.map(|p| (LayerKind::User, p, Format::Toml)));
    out.extend(
        in_project(place, ".codex/config.toml").map(|p| (LayerKind::Project, p, Format::Toml)),
    );
    out.push((
        LayerKind::Managed,
        place.system("/etc/codex/managed_config.toml"),
        Format::Toml,
    ));
    out.push((
        LayerKind::Managed,
        place.system("/etc/codex/requirements.toml"),
        Format::Toml,
    ));
    out
}

const SWITCHES: [&str; 2] = ["features.hooks", "features.codex_hooks"];

fn decide(layers: &[Layer], _facts: &Facts) -> Option<Off> {
    let (requirements, config): (Vec<&Layer>, Vec<&Layer>) = layers
        .iter()
        .partition(|l| l.path.file_name().is_some_and(|n| n == REQUIREMENTS));
    for layer in &requirements {
        if layer.get("allow_managed_hooks_only") == Some(&Value::Bool(true)) {
            return Some(Off::new(
                "codex",
                layer,
                "allow_managed_hooks_only",
                WayOut::AskAdministrator,
                " (only managed hooks run: they can add our hook to requirements.toml's [hooks])",
            ));
        }
        if let Some(key) = SWITCHES
            .iter()
            .find(|k| layer.get(k) == Some(&Value::Bool(false)))
        {
            return Some(Off::new("codex", layer, key, WayOut::AskAdministrator, ""));
        }
    }
    let (layer, key) = config.iter().rev().find_map(|l| {
        SWITCHES
            .iter()
            .find(|k| l.get(k).is_some())
            .map(|k| (*l, *k))
    })?;
    if layer.get(key) != Some(&Value::Bool(false)) {
        return None;
    }
    let way_out = match layer.kind {
        LayerKind::Managed | LayerKind::SystemDefaults => WayOut::AskAdministrator,
        _ => WayOut::RemoveKey,
    };
    Some(Off::new("codex", layer, key, way_out, ""))
}
