//! The hook files of the agents wired after Claude Code and Codex, as rows of data ([`HookFile`]), and one
//! editor for all of them: Gemini CLI's and Qwen Code's `settings.json` (Claude's nested shape, their own
//! event names, timeouts in ms) and Copilot CLI's `~/.copilot/hooks/agterm-backup.json` (version 1, one
//! handler per event entry, `bash` and `timeoutSec`).
//!
//! Edits go through the same strict JSON CST as [`crate::json_hooks`], with the same guarantees: every byte
//! outside our entries keeps its spelling, a file that is not strict JSON is refused untouched, our
//! handler is refreshed in place (only its command string changes) or appended at the end of its event.
//! Adding the next agent with JSON command hooks is one more row here.

use crate::command::our_binary_in;
use crate::json_hooks::{keep_on_one_line, object_text, offset_of, only_one, parse_with, strict};
use crate::refusal::Refusal;
use crate::{EventState, HookPlace};
use jsonc_parser::cst::{CstInputValue, CstObject, CstRootNode, CstStringLit};
use std::path::PathBuf;

/// How an event's array holds handlers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Nesting {
    /// `[{"matcher": "*", "hooks": [handler, …]}, …]` (Gemini, Qwen, Claude).
    Grouped,
    /// `[handler, …]` (Copilot).
    Flat,
}

/// One agent's hook file, as data.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HookFile {
    /// The agent (`hook <agent>`, `--agents`, status).
    pub agent: &'static str,
    /// The top-level key whose object maps event names to their entries: `hooks`, or for agy's
    /// `hooks.json` (a name per hook set) our own name.
    pub hooks_key: &'static str,
    /// The file, below the agent's config folder (also its name in status).
    pub file_name: &'static str,
    /// The agent's config folder below `$HOME` (its existence means the agent is set up here).
    pub config_dir: &'static str,
    /// The variable that moves the config folder, and where the folder is below it (`GEMINI_CLI_HOME`
    /// stands for HOME; `QWEN_HOME` and `COPILOT_HOME` are the folder itself).
    pub home_env: Option<(&'static str, &'static str)>,
    /// The events we wire, in the agent's own names: session start, prompt, tool call, turn end, and —
    /// where the agent has one and we read it — the session's end (Gemini, Qwen, Copilot: issue 22, the
    /// end's terminal tells a quit from a dying pane). A file an older release wrote without it gains it
    /// at the next `apply` (appended at the end of `hooks`), and `remove` takes it out with the rest.
    pub events: &'static [&'static str],
    pub nesting: Nesting,
    /// The handler key holding the command (`command`, or Copilot's `bash`).
    pub command_key: &'static str,
    /// The handler's other fields, after `type` and the command: `(key, JSON text)`.
    pub extra: &'static [(&'static str, &'static str)],
    /// Top-level fields the file must have, written first when absent (Copilot's `"version": 1`).
    pub required_top: &'static [(&'static str, &'static str)],
    /// The agent strips `//` and `/* */` comments before `JSON.parse` (Gemini, Qwen): a file with
    /// comments is theirs to have, and the comments stay. Trailing commas are refused, as they refuse them.
    pub comments: bool,
}

/// `~/.gemini/settings.json`: BeforeAgent is the prompt, AfterAgent the turn's end, SessionEnd (`exit` for
/// a `/quit` and a hangup alike, `clear` for `/clear`) the session's end. The handler's `name` is what
/// Gemini shows in its "Executing Hooks" line.
pub const GEMINI: HookFile = HookFile {
    agent: "gemini",
    hooks_key: "hooks",
    file_name: "settings.json",
    config_dir: ".gemini",
    home_env: Some(("GEMINI_CLI_HOME", ".gemini")),
    events: &[
        "SessionStart",
        "BeforeAgent",
        "BeforeTool",
        "AfterAgent",
        "SessionEnd",
    ],
    nesting: Nesting::Grouped,
    command_key: "command",
    extra: &[("name", "\"agterm-backup\""), ("timeout", "10000")],
    required_top: &[],
    comments: true,
};

/// `~/.qwen/settings.json` (`$QWEN_HOME/settings.json`): Claude's event names, timeouts in ms.
pub const QWEN: HookFile = HookFile {
    agent: "qwen",
    hooks_key: "hooks",
    file_name: "settings.json",
    config_dir: ".qwen",
    home_env: Some(("QWEN_HOME", "")),
    events: &[
        "SessionStart",
        "UserPromptSubmit",
        "PreToolUse",
        "Stop",
        "SessionEnd",
    ],
    nesting: Nesting::Grouped,
    command_key: "command",
    extra: &[("name", "\"agterm-backup\""), ("timeout", "10000")],
    required_top: &[],
    comments: true,
};

/// `~/.copilot/hooks/agterm-backup.json` (`$COPILOT_HOME/hooks/…`): a file of our own. With the Claude
/// (PascalCase) event names Copilot sends Claude-style snake_case payloads.
pub const COPILOT: HookFile = HookFile {
    agent: "copilot",
    hooks_key: "hooks",
    file_name: "hooks/agterm-backup.json",
    config_dir: ".copilot",
    home_env: Some(("COPILOT_HOME", "")),
    events: &[
        "SessionStart",
        "UserPromptSubmit",
        "PreToolUse",
        "Stop",
        "SessionEnd",
    ],
    nesting: Nesting::Flat,
    command_key: "bash",
    extra: &[("timeoutSec", "10")],
    required_top: &[("version", "1")],
    comments: false,
};

/// `~/.gemini/config/hooks.json`, Antigravity CLI's global hooks (built from its documentation, unverified
/// against the real CLI: no registry carries it). The file maps a hook set's name to its events, each a
/// flat list of command handlers (`timeout` in seconds); our set is `"agterm-backup"`, removed whole. Its
/// `SessionStart` fires at every model call: the hook answers the repeats from the record it has.
/// `~/.gemini/config` is agy's own folder (Gemini CLI keeps `settings.json` in `~/.gemini`).
pub const AGY: HookFile = HookFile {
    agent: "agy",
    hooks_key: "agterm-backup",
    file_name: "hooks.json",
    config_dir: ".gemini/config",
    home_env: None,
    events: &["SessionStart", "PreInvocation", "PreToolUse", "Stop"],
    nesting: Nesting::Flat,
    command_key: "command",
    extra: &[("timeout", "10")],
    required_top: &[],
    comments: false,
};

/// Every row, in the order the installer lists them.
pub const HOOK_FILES: [&HookFile; 4] = [&GEMINI, &COPILOT, &QWEN, &AGY];

/// The row of `agent`, if it has one.
pub fn hook_file(agent: &str) -> Option<&'static HookFile> {
    HOOK_FILES.iter().copied().find(|h| h.agent == agent)
}

impl HookFile {
    /// The agent's config folder: below the folder `home_env` names when set, else below `home`.
    pub fn folder(&self, env: impl Fn(&str) -> Option<String>, home: &std::path::Path) -> PathBuf {
        match self
            .home_env
            .and_then(|(var, sub)| env(var).filter(|v| !v.is_empty()).map(|v| (v, sub)))
        {
            Some((dir, "")) => PathBuf::from(dir),
            Some((dir, sub)) => PathBuf::from(dir).join(sub),
            None => home.join(self.config_dir),
        }
    }

    /// Where the hook file is.
    pub fn path(&self, env: impl Fn(&str) -> Option<String>, home: &std::path::Path) -> PathBuf {
        self.folder(env, home).join(self.file_name)
    }
}

/// One handler of ours in the file.
struct Found {
    event: &'static str,
    group: usize,
    handler: usize,
    command: CstStringLit,
    binary: String,
}

fn value(text: &str) -> CstInputValue {
    let v: serde_json::Value = serde_json::from_str(text).expect("row values are JSON");
    to_input(&v)
}

fn to_input(v: &serde_json::Value) -> CstInputValue {
    match v {
        serde_json::Value::Null => CstInputValue::Null,
        serde_json::Value::Bool(b) => CstInputValue::Bool(*b),
        serde_json::Value::Number(n) => CstInputValue::Number(n.to_string()),
        serde_json::Value::String(s) => CstInputValue::String(s.clone()),
        serde_json::Value::Array(a) => CstInputValue::Array(a.iter().map(to_input).collect()),
        serde_json::Value::Object(o) => {
            CstInputValue::Object(o.iter().map(|(k, v)| (k.clone(), to_input(v))).collect())
        }
    }
}

/// The `hooks` object, if any; refuses when it or one of our event keys has the wrong type.
fn hooks_object(
    row: &HookFile,
    text: &str,
    root: &CstRootNode,
) -> Result<Option<CstObject>, Refusal> {
    let Some(obj) = root.object_value() else {
        return Ok(None);
    };
    // A key given twice: the agent reads the last, an edit of the first would be lost on it.
    let Some(prop) = only_one(text, &obj, row.hooks_key)? else {
        return Ok(None);
    };
    let v = prop.value().expect("a parsed property has a value");
    let Some(hooks) = v.as_object() else {
        return Err(Refusal::at_offset(
            text,
            offset_of(text, &v),
            format!("\"{}\" is not an object", row.hooks_key),
        ));
    };
    for &event in row.events {
        if let Some(ev) = only_one(text, &hooks, event)?.and_then(|p| p.value()) {
            if ev.as_array().is_none() {
                let reason = format!("\"{}\".\"{event}\" is not an array", row.hooks_key);
                return Err(Refusal::at_offset(text, offset_of(text, &ev), reason));
            }
        }
    }
    Ok(Some(hooks))
}

/// The handler objects of an event entry: the group's `hooks` (Grouped) or the entry itself (Flat).
fn handlers_of(
    row: &HookFile,
    entry: &jsonc_parser::cst::CstNode,
) -> Vec<jsonc_parser::cst::CstNode> {
    match row.nesting {
        Nesting::Grouped => entry
            .as_object()
            .and_then(|o| o.array_value("hooks"))
            .map(|a| a.elements())
            .unwrap_or_default(),
        Nesting::Flat => vec![entry.clone()],
    }
}

fn find_ours(row: &HookFile, hooks: &CstObject) -> Vec<Found> {
    let mut found = Vec::new();
    for &event in row.events {
        let Some(entries) = hooks.get(event).and_then(|p| p.array_value()) else {
            continue;
        };
        for (group, entry) in entries.elements().iter().enumerate() {
            for (handler, h) in handlers_of(row, entry).iter().enumerate() {
                let Some(lit) = h
                    .as_object()
                    .and_then(|o| o.get(row.command_key))
                    .and_then(|p| p.value())
                    .and_then(|v| v.as_string_lit())
                else {
                    continue;
                };
                let Ok(command) = lit.decoded_value() else {
                    continue;
                };
                if let Some(binary) = our_binary_in(&command, row.agent) {
                    found.push(Found {
                        event,
                        group,
                        handler,
                        command: lit,
                        binary,
                    });
                }
            }
        }
    }
    found
}

fn our_entry(row: &HookFile, command: &str) -> CstInputValue {
    let mut handler = vec![
        ("type".to_string(), CstInputValue::String("command".into())),
        (
            row.command_key.to_string(),
            CstInputValue::String(command.into()),
        ),
    ];
    handler.extend(row.extra.iter().map(|(k, v)| (k.to_string(), value(v))));
    let handler = CstInputValue::Object(handler);
    match row.nesting {
        Nesting::Flat => handler,
        Nesting::Grouped => CstInputValue::Object(vec![
            ("matcher".into(), CstInputValue::String("*".into())),
            ("hooks".into(), CstInputValue::Array(vec![handler])),
        ]),
    }
}

fn parse_hooks(row: &HookFile, text: &str) -> Result<(CstRootNode, Option<CstObject>), Refusal> {
    let options = jsonc_parser::ParseOptions {
        allow_comments: row.comments,
        ..strict()
    };
    let root = parse_with(text, &options)?;
    let hooks = hooks_object(row, text, &root)?;
    Ok((root, hooks))
}

/// `original` (None = no file) with our handler on each of the row's events.
pub fn apply(row: &HookFile, original: Option<&str>, command: &str) -> Result<String, Refusal> {
    let text = object_text(original);
    let text = text.as_ref();
    let (root, hooks) = parse_hooks(row, text)?;
    let existing = hooks.map(|h| find_ours(row, &h)).unwrap_or_default();
    let obj = root.object_value_or_set();
    for (i, (key, v)) in row.required_top.iter().enumerate() {
        if obj.get(key).is_none() {
            obj.insert(i, key, value(v));
        }
    }
    let encoded = serde_json::to_string(command).expect("a string encodes");
    for &event in row.events {
        match existing.iter().find(|f| f.event == event) {
            Some(found) if found.command.decoded_value().ok().as_deref() == Some(command) => {}
            Some(found) => found.command.set_raw_value(encoded.clone()),
            None => {
                let hooks = obj
                    .object_value_or_create(row.hooks_key)
                    .expect("checked to be an object");
                let entries = hooks
                    .array_value_or_create(event)
                    .expect("checked to be an array");
                entries.append(our_entry(row, command));
            }
        }
    }
    Ok(keep_on_one_line(text, root.to_string()))
}

/// `current` without our handlers: a group left empty goes, then an event array we emptied, then a
/// `hooks` object we emptied; anything that was already empty stays.
pub fn remove(row: &HookFile, current: &str) -> Result<String, Refusal> {
    if current.trim().is_empty() {
        return Ok(current.to_string());
    }
    let (root, Some(hooks)) = parse_hooks(row, current)? else {
        return Ok(current.to_string());
    };
    let ours = find_ours(row, &hooks);
    if ours.is_empty() {
        return Ok(current.to_string());
    }
    let mut emptied_an_event = false;
    for &event in row.events {
        let Some(entries) = hooks.get(event).and_then(|p| p.array_value()) else {
            continue;
        };
        let mut removed_an_entry = false;
        // Back to front, so that the indexes still to remove do not move.
        for found in ours.iter().rev().filter(|f| f.event == event) {
            let entry = entries.elements()[found.group].clone();
            match row.nesting {
                Nesting::Flat => {
                    entry.remove();
                    removed_an_entry = true;
                }
                Nesting::Grouped => {
                    let group = entry.as_object().expect("found in an object");
                    let handlers = group.array_value("hooks").expect("found in an array");
                    handlers.elements()[found.handler].clone().remove();
                    if handlers.elements().is_empty() {
                        group.remove();
                        removed_an_entry = true;
                    }
                }
            }
        }
        if removed_an_entry && entries.elements().is_empty() {
            hooks.get(event).expect("still there").remove();
            emptied_an_event = true;
        }
    }
    if emptied_an_event && hooks.properties().is_empty() {
        if let Some(prop) = root.object_value().and_then(|o| o.get(row.hooks_key)) {
            prop.remove();
        }
    }
    Ok(root.to_string())
}

/// Where each of the row's events stands in `text` (None = no file).
pub fn inspect(
    row: &HookFile,
    text: Option<&str>,
    command: &str,
) -> Result<Vec<EventState>, Refusal> {
    let found = match text {
        Some(t) if !t.trim().is_empty() => match parse_hooks(row, t)? {
            (_, Some(hooks)) => find_ours(row, &hooks),
            (_, None) => Vec::new(),
        },
        _ => Vec::new(),
    };
    Ok(row
        .events
        .iter()
        .map(|&event| EventState {
            event,
            place: found.iter().find(|f| f.event == event).map(|f| HookPlace {
                group: f.group,
                handler: f.handler,
                binary: f.binary.clone(),
                current: f.command.decoded_value().ok().as_deref() == Some(command),
            }),
            // Counted as the agent may run them: every handler of ours (more than one is a duplicate).
            runs: found.iter().filter(|f| f.event == event).count(),
        })
        .collect())
}

/// Whether `text` holds any handler of ours (whatever binary it names).
pub fn has_ours(row: &HookFile, text: &str) -> bool {
    inspect(row, Some(text), "").is_ok_and(|s| s.iter().any(|e| e.place.is_some()))
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod agy_tests;
