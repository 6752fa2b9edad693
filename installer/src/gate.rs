//! Will our hook run? One answer per agent, from every layer of settings the agent itself reads (its
//! user file, a project's files, the machine's managed or system policy), with the agent's own
//! precedence — and, when it will not, the file and key that decide it and the way out.
//!
//! Shape: each agent is one file (`gate/<agent>.rs`) with two parts: where its layers are
//! ([`Place`] → paths, the thin edge that reads them through [`Lookup`]) and a pure `decide` over the
//! parsed layers. [`ROWS`] lists them; an agent without a row has no switch we know of (opencode, Kimi
//! Code, agy: see ARCHITECTURE.md). The machine's root (`/etc`, `/Library`) is
//! [`Place::root`], so tests never read the real one.

use crate::lookup::Lookup;
use serde::Serialize;
use serde_json::Value;
use std::path::PathBuf;

mod claude;
mod claude_managed;
mod codex;
mod copilot;
mod gemini;
mod launch;
pub use launch::{launched_without_hooks, LaunchSwitch, LAUNCH};
pub mod plist;
mod qwen;

/// The platform whose paths the agent reads (managed files live elsewhere on macOS).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Os {
    Linux,
    MacOs,
}

impl Os {
    pub fn current() -> Os {
        if cfg!(target_os = "macos") {
            Os::MacOs
        } else {
            Os::Linux
        }
    }
}

/// Where an agent's layers are read from.
pub struct Place<'a> {
    pub lookup: &'a dyn Lookup,
    /// The file system's root for the machine-wide files (`/`; a temporary folder in tests).
    pub root: PathBuf,
    pub os: Os,
    /// A project directory (a pane's): its project layers count too. `None`: the user-wide answer.
    pub project: Option<PathBuf>,
    /// The login name (macOS keeps per-user managed preferences under it).
    pub user: Option<String>,
}

impl Place<'_> {
    /// The real machine: `/` (`$AGTERM_BACKUP_SYSTEM_ROOT` in the tests, which must never read the
    /// machine's own `/etc`), this platform, `$USER`.
    pub fn machine(lookup: &dyn Lookup, project: Option<PathBuf>) -> Place<'_> {
        Place {
            lookup,
            root: crate::lookup::system_root(lookup),
            os: Os::current(),
            project,
            user: lookup.env("USER").filter(|u| !u.is_empty()),
        }
    }

    /// A machine-wide path (`/etc/…`) below [`Place::root`].
    pub fn system(&self, absolute: &str) -> PathBuf {
        self.root.join(absolute.trim_start_matches('/'))
    }

    fn home(&self) -> Option<PathBuf> {
        self.lookup
            .env("HOME")
            .filter(|h| !h.is_empty())
            .map(PathBuf::from)
    }
}

/// Which layer of the agent's settings a file is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum LayerKind {
    /// The machine's defaults, below the user's own file (Gemini's and Qwen's `system-defaults.json`).
    SystemDefaults,
    User,
    /// A project's shared file (`.claude/settings.json`, `.gemini/settings.json`).
    Project,
    /// A project's personal file (`.claude/settings.local.json`).
    Local,
    /// The machine's policy, above everything the user writes (managed settings, system settings,
    /// requirements).
    Managed,
}

/// One parsed layer: its file and what it says (`Null` when absent or unreadable as the agent reads it).
#[derive(Debug, Clone, PartialEq)]
pub struct Layer {
    pub kind: LayerKind,
    pub path: PathBuf,
    pub value: Value,
}

impl Layer {
    /// The value at a dotted key path (`hooksConfig.enabled`).
    pub fn get(&self, key: &str) -> Option<&Value> {
        key.split('.')
            .try_fold(&self.value, |v, k| v.get(k))
            .filter(|v| !v.is_null())
    }
}

/// What the user can do about it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum WayOut {
    /// The user's own file: take the key out (or set it back).
    RemoveKey,
    /// A file only the administrator writes.
    AskAdministrator,
    /// Only plugins' hooks run: install our Claude Code plugin, whose hook then counts.
    InstallPlugin,
}

/// Our hook will not run: which agent, the file and key that decide it, and the way out.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Off {
    pub agent: &'static str,
    pub file: String,
    pub key: String,
    /// The key's value as the file spells it (`true`, `false`, `["hooks"]`).
    pub value: String,
    pub layer: LayerKind,
    pub way_out: WayOut,
    /// Only in one project (a project's own file decided it).
    pub project_only: bool,
    /// One sentence: what keeps the hook from running, and what to do.
    pub says: String,
}

impl Off {
    fn new(agent: &'static str, layer: &Layer, key: &str, way_out: WayOut, why: &str) -> Off {
        let value = layer
            .get(key)
            .map(Value::to_string)
            .unwrap_or_else(|| "?".into());
        let file = layer.path.display().to_string();
        let project_only = matches!(layer.kind, LayerKind::Project | LayerKind::Local);
        let todo = match way_out {
            WayOut::RemoveKey => format!("remove `{key}` from {file} (or set it back)"),
            WayOut::AskAdministrator => {
                format!("this file is your administrator's (managed policy): ask them to allow it{why}")
            }
            WayOut::InstallPlugin => format!(
                "install our Claude Code plugin (`/plugin marketplace add <agterm-backup repo>`, then \
                 `/plugin install agterm-backup@agterm-backup`; it is plugins/claude-code) — its hook runs{why}"
            ),
        };
        let scope = if project_only { " in this project" } else { "" };
        // Spelled as the file spells it: `key = value` in TOML, `key: value` elsewhere.
        let setting = match layer.path.extension().is_some_and(|e| e == "toml") {
            true => format!("{key} = {value}"),
            false => format!("{key}: {value}"),
        };
        Off {
            agent,
            says: format!(
                "`{setting}` in {file} keeps {} from running our hook{scope}: {todo}",
                agent_name(agent)
            ),
            file,
            key: key.to_string(),
            value,
            layer: layer.kind,
            way_out,
            project_only,
        }
    }
}

fn agent_name(agent: &str) -> &str {
    match agent {
        "claude" => "Claude Code",
        "codex" => "Codex",
        "gemini" => "Gemini CLI",
        "qwen" => "Qwen Code",
        "copilot" => "Copilot CLI",
        other => other,
    }
}

/// What the gate knows besides the files: our Claude Code plugin is installed and enabled.
#[derive(Debug, Clone, Default)]
pub struct Facts {
    pub claude_plugin: bool,
}

/// One agent's switch: where its layers are, and the pure decision over them.
pub struct Row {
    pub agent: &'static str,
    pub layers: fn(&Place<'_>) -> Vec<(LayerKind, PathBuf, Format)>,
    pub decide: fn(&[Layer], &Facts) -> Option<Off>,
}

/// How a layer's file is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Strict JSON (`JSON.parse`).
    Json,
    /// JSON with `//` and `/* */` comments (Gemini, Qwen strip them first).
    JsonComments,
    /// The same, read only when no one but root can change it ([`Lookup::only_root_writes`]): Gemini's
    /// system files, which it skips otherwise ("Security Warning: Skipping system settings file").
    JsonCommentsRootOnly,
    Toml,
    /// A property list (XML; on macOS a binary one through `plutil`).
    Plist,
}

/// Every agent with a switch we know of.
pub const ROWS: &[Row] = &[
    claude::ROW,
    codex::ROW,
    gemini::ROW,
    qwen::ROW,
    copilot::ROW,
];

/// Whether `agent`'s hooks are switched off, from the layers it reads at `place`.
pub fn check(agent: &str, place: &Place<'_>, facts: &Facts) -> Option<Off> {
    let row = ROWS.iter().find(|r| r.agent == agent)?;
    let layers = read_layers(place, (row.layers)(place));
    (row.decide)(&layers, facts)
}

/// Reads each layer (a missing or unreadable file is an empty layer, as the agents treat it).
pub fn read_layers(place: &Place<'_>, specs: Vec<(LayerKind, PathBuf, Format)>) -> Vec<Layer> {
    specs
        .into_iter()
        .map(|(kind, path, format)| {
            let value = match format {
                Format::Plist => plist::read(place.lookup, &path),
                Format::JsonCommentsRootOnly if !place.lookup.only_root_writes(&path) => {
                    Value::Null
                }
                _ => place
                    .lookup
                    .read(&path)
                    .and_then(|t| parse(&t, format))
                    .unwrap_or(Value::Null),
            };
            Layer { kind, path, value }
        })
        .collect()
}

/// A settings file's text as a JSON value (`None`: not readable as the agent reads it).
pub fn parse(text: &str, format: Format) -> Option<Value> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    match format {
        Format::Toml => text
            .parse::<toml_edit::DocumentMut>()
            .ok()
            .map(|d| toml_table(d.as_table())),
        Format::Plist => plist::parse(text),
        Format::Json | Format::JsonComments | Format::JsonCommentsRootOnly => {
            let mut options = crate::json_hooks::strict();
            options.allow_comments = format != Format::Json;
            jsonc_parser::parse_to_value(text, &options)
                .ok()
                .flatten()
                .map(to_serde)
        }
    }
}

fn toml_table(table: &dyn toml_edit::TableLike) -> Value {
    Value::Object(
        table
            .iter()
            .map(|(k, item)| (k.to_string(), toml_item(item)))
            .collect(),
    )
}

fn toml_item(item: &toml_edit::Item) -> Value {
    if let Some(table) = item.as_table_like() {
        return toml_table(table);
    }
    if let Some(array) = item.as_array_of_tables() {
        return Value::Array(array.iter().map(|t| toml_table(t)).collect());
    }
    item.as_value().map_or(Value::Null, toml_value)
}

fn toml_value(value: &toml_edit::Value) -> Value {
    use toml_edit::Value as T;
    match value {
        T::String(s) => Value::String(s.value().clone()),
        T::Integer(i) => Value::from(*i.value()),
        T::Float(f) => serde_json::Number::from_f64(*f.value()).map_or(Value::Null, Value::Number),
        T::Boolean(b) => Value::Bool(*b.value()),
        T::Datetime(d) => Value::String(d.value().to_string()),
        T::Array(a) => Value::Array(a.iter().map(toml_value).collect()),
        T::InlineTable(t) => toml_table(t),
    }
}

fn to_serde(value: jsonc_parser::JsonValue<'_>) -> Value {
    use jsonc_parser::JsonValue as J;
    match value {
        J::String(s) => Value::String(s.into_owned()),
        J::Number(n) => n
            .parse::<serde_json::Number>()
            .map(Value::Number)
            .unwrap_or(Value::Null),
        J::Boolean(b) => Value::Bool(b),
        J::Null => Value::Null,
        J::Array(items) => Value::Array(items.into_iter().map(to_serde).collect()),
        J::Object(object) => Value::Object(
            object
                .into_iter()
                .map(|(k, v)| (k.to_string(), to_serde(v)))
                .collect(),
        ),
    }
}

/// The layer that decides a plain key, by the agent's precedence: `layers` from lowest to highest, the
/// last one that sets `key` wins.
pub fn deciding<'a>(layers: &'a [Layer], key: &str) -> Option<&'a Layer> {
    layers.iter().rev().find(|l| l.get(key).is_some())
}

/// Gemini's and Qwen's four layers, lowest first: the machine's defaults, the user's file, the project's,
/// the machine's settings.
fn layered_json(
    defaults: PathBuf,
    user: Option<PathBuf>,
    project: Option<PathBuf>,
    system: PathBuf,
    system_format: Format,
) -> Vec<(LayerKind, PathBuf, Format)> {
    let mut out = vec![(LayerKind::SystemDefaults, defaults, system_format)];
    out.extend(user.map(|p| (LayerKind::User, p, Format::JsonComments)));
    out.extend(project.map(|p| (LayerKind::Project, p, Format::JsonComments)));
    out.push((LayerKind::Managed, system, system_format));
    out
}

/// The hook is off by `key` in `layer`: the user's own files are theirs to change, the machine's are
/// the administrator's.
fn off_by_layer(agent: &'static str, layer: &Layer, key: &str) -> Off {
    let way_out = match layer.kind {
        LayerKind::Managed | LayerKind::SystemDefaults => WayOut::AskAdministrator,
        _ => WayOut::RemoveKey,
    };
    Off::new(agent, layer, key, way_out, "")
}

/// The user's config folder below `$HOME`, or `None` without a home.
fn below_home(place: &Place<'_>, rest: &str) -> Option<PathBuf> {
    place.home().map(|h| h.join(rest))
}

/// The project's file, when the question is about a project.
fn in_project(place: &Place<'_>, rest: &str) -> Option<PathBuf> {
    place.project.as_deref().map(|p| p.join(rest))
}

#[cfg(test)]
mod agents_tests;
#[cfg(test)]
mod tests;
