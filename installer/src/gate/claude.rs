//! Claude Code: does it run our hook (from `settings.json`, or our plugin's)?
//!
//! Its hook loader (Claude Code 2.1.332; `hooksConfigSnapshot` in its source), in order:
//! 1. managed `disableAllHooks: true` — no hook runs at all;
//! 2. managed `allowManagedHooksOnly: true` — only the managed settings' own hooks, and the hooks of
//!    plugins the managed `enabledPlugins` force on (since 2.1.101);
//! 3. managed `strictPluginOnlyCustomization` (`true`, or a list naming `"hooks"`) — settings files'
//!    hooks are blocked, plugins' hooks still run;
//! 4. `disableAllHooks: true` in the user's, a project's or its local settings, merged as every setting
//!    is (local over project over user: the last that sets it wins) — only managed hooks run.

use super::claude_managed::{self, Source};
use super::{below_home, in_project, Facts, Format, Layer, LayerKind, Off, Place, Row, WayOut};
use serde_json::Value;
use std::path::PathBuf;

pub const ROW: Row = Row {
    agent: "claude",
    layers,
    decide,
};

fn layers(place: &Place<'_>) -> Vec<(LayerKind, PathBuf, Format)> {
    let mut out = Vec::new();
    let user = match place
        .lookup
        .env("CLAUDE_CONFIG_DIR")
        .filter(|d| !d.is_empty())
    {
        Some(dir) => Some(PathBuf::from(dir).join("settings.json")),
        None => below_home(place, ".claude/settings.json"),
    };
    out.extend(user.map(|p| (LayerKind::User, p, Format::Json)));
    out.extend(
        in_project(place, ".claude/settings.json").map(|p| (LayerKind::Project, p, Format::Json)),
    );
    out.extend(
        in_project(place, ".claude/settings.local.json")
            .map(|p| (LayerKind::Local, p, Format::Json)),
    );
    out.extend(claude_managed::sources(place));
    out
}

const AGENT: &str = "claude";

fn decide(layers: &[Layer], facts: &Facts) -> Option<Off> {
    let managed: Vec<&Layer> = layers
        .iter()
        .filter(|l| l.kind == LayerKind::Managed)
        .collect();
    if let Some(policy) = claude_managed::in_force(&managed) {
        if let Some(off) = by_policy(&policy, facts) {
            return Some(off);
        }
    }
    let own: Vec<Layer> = layers
        .iter()
        .filter(|l| l.kind != LayerKind::Managed)
        .cloned()
        .collect();
    let layer = super::deciding(&own, "disableAllHooks")?;
    (layer.get("disableAllHooks") == Some(&Value::Bool(true)))
        .then(|| Off::new(AGENT, layer, "disableAllHooks", WayOut::RemoveKey, ""))
}

fn is_true(policy: &Source<'_>, key: &str) -> bool {
    policy.keys.get(key) == Some(&Value::Bool(true))
}

fn by_policy(policy: &Source<'_>, facts: &Facts) -> Option<Off> {
    let off = |key: &str, way_out, why: &str| {
        policy
            .layer_of(key)
            .map(|layer| Off::new(AGENT, layer, key, way_out, why))
    };
    if is_true(policy, "disableAllHooks") {
        return off("disableAllHooks", WayOut::AskAdministrator, "");
    }
    if is_true(policy, "allowManagedHooksOnly") && !forces_our_plugin(policy, facts) {
        return off(
            "allowManagedHooksOnly",
            WayOut::AskAdministrator,
            " (only managed hooks run: they can add our hook to the managed settings, or force our \
             plugin on with `\"enabledPlugins\": {\"agterm-backup@agterm-backup\": true}` there)",
        );
    }
    let plugin_only = match policy.keys.get("strictPluginOnlyCustomization") {
        Some(Value::Bool(true)) => true,
        Some(Value::Array(surfaces)) => surfaces.iter().any(|s| s == "hooks"),
        _ => false,
    };
    if plugin_only && !facts.claude_plugin {
        return off(
            "strictPluginOnlyCustomization",
            WayOut::InstallPlugin,
            " (only plugins' hooks run here); then `agterm-backup installer remove --agents claude` \
             takes ours out of settings.json",
        );
    }
    None
}

/// The managed `enabledPlugins` force our plugin on, and it is installed.
fn forces_our_plugin(policy: &Source<'_>, facts: &Facts) -> bool {
    facts.claude_plugin
        && policy
            .keys
            .get("enabledPlugins")
            .and_then(Value::as_object)
            .is_some_and(|m| {
                m.iter().any(|(k, v)| {
                    v == &Value::Bool(true)
                        && k.split('@').next() == Some(crate::claude_plugin::PLUGIN_NAME)
                })
            })
}
