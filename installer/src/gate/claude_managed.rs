//! Claude Code's managed (policy) settings: which of its sources is in force.
//!
//! Read from Claude Code 2.1.332 (`bin/claude.exe`, the bundled JS) and its docs: the managed tier comes
//! from one source, the first that says anything — on macOS the MDM profile
//! (`/Library/Managed Preferences/<user>/com.anthropic.claudecode.plist`, then the device-wide
//! `/Library/Managed Preferences/com.anthropic.claudecode.plist`), then the file source
//! (`managed-settings.json` in `/etc/claude-code` or `/Library/Application Support/ClaudeCode`, with the
//! drop-ins of `managed-settings.d/` — names ending `.json`, not starting with `.`, sorted — each merged
//! over it). A source whose keys are only `managedSourcesBehavior`/`wslInheritsWindowsSettings` says
//! nothing. With `"managedSourcesBehavior": "merge"` the sources are combined instead, the higher one
//! winning a key. Server-managed settings (fetched from claude.ai) and Windows' registry are not read.

use super::{Format, Layer, LayerKind, Os, Place};
use serde_json::{Map, Value};
use std::path::PathBuf;

/// Keys that alone make a source say nothing.
const NOT_POLICY: [&str; 2] = ["managedSourcesBehavior", "wslInheritsWindowsSettings"];

/// The managed layers to read, highest priority first: (path, format). Drop-ins follow their base file.
pub fn sources(place: &Place<'_>) -> Vec<(LayerKind, PathBuf, Format)> {
    let mut out = Vec::new();
    let dir = match place.os {
        Os::MacOs => {
            let prefs = place.system("/Library/Managed Preferences");
            if let Some(user) = &place.user {
                out.push(prefs.join(user).join("com.anthropic.claudecode.plist"));
            }
            out.push(prefs.join("com.anthropic.claudecode.plist"));
            place.system("/Library/Application Support/ClaudeCode")
        }
        Os::Linux => place.system("/etc/claude-code"),
    };
    let mut specs: Vec<_> = out
        .into_iter()
        .map(|p| (LayerKind::Managed, p, Format::Plist))
        .collect();
    specs.push((
        LayerKind::Managed,
        dir.join("managed-settings.json"),
        Format::Json,
    ));
    let drop_ins = dir.join("managed-settings.d");
    let mut names: Vec<String> = place
        .lookup
        .list(&drop_ins)
        .into_iter()
        .filter(|n| n.ends_with(".json") && !n.starts_with('.'))
        .collect();
    names.sort();
    specs.extend(
        names
            .into_iter()
            .map(|n| (LayerKind::Managed, drop_ins.join(n), Format::Json)),
    );
    specs
}

/// One managed source: its files (a plist alone, or the base file and its drop-ins in merge order) and
/// the settings they make together, each key with the file that set it.
#[derive(Debug, Clone)]
pub struct Source<'a> {
    pub keys: Map<String, Value>,
    pub files: Vec<(&'a str, &'a Layer)>,
}

impl<'a> Source<'a> {
    /// The layer that set `key` in this source (the last file that has it).
    pub fn layer_of(&self, key: &str) -> Option<&'a Layer> {
        self.files
            .iter()
            .rev()
            .find(|(k, _)| *k == key)
            .map(|(_, l)| *l)
    }

    fn says_something(&self) -> bool {
        self.keys.keys().any(|k| !NOT_POLICY.contains(&k.as_str()))
    }
}

fn source_of<'a>(layers: &[&'a Layer]) -> Source<'a> {
    let mut keys = Map::new();
    let mut files = Vec::new();
    for &layer in layers {
        if let Value::Object(map) = &layer.value {
            for (k, v) in map {
                keys.insert(k.clone(), v.clone());
                files.push((k.as_str(), layer));
            }
        }
    }
    Source { keys, files }
}

/// The policy in force from the managed layers (highest priority first, as [`sources`] lists them),
/// or `None` when no managed source says anything.
pub fn in_force<'a>(managed: &[&'a Layer]) -> Option<Source<'a>> {
    let plists: Vec<Source<'a>> = managed
        .iter()
        .filter(|l| l.path.extension().is_some_and(|e| e == "plist"))
        .map(|l| source_of(&[l]))
        .collect();
    let file_layers: Vec<&'a Layer> = managed
        .iter()
        .filter(|l| l.path.extension().is_none_or(|e| e != "plist"))
        .copied()
        .collect();
    let mut all = plists;
    all.push(source_of(&file_layers));
    let speaking: Vec<Source<'a>> = all.into_iter().filter(Source::says_something).collect();
    let merge = speaking
        .iter()
        .any(|s| s.keys.get("managedSourcesBehavior") == Some(&Value::from("merge")));
    if !merge {
        return speaking.into_iter().next();
    }
    // Combined: lowest first, so a higher source's key comes last and wins.
    let mut keys = Map::new();
    let mut files = Vec::new();
    for s in speaking.into_iter().rev() {
        keys.extend(s.keys);
        files.extend(s.files);
    }
    Some(Source { keys, files })
}
