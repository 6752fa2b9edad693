//! Surgical edits of a JSON hooks file: Claude Code's `settings.json` and Codex's `hooks.json`, which share
//! the shape `{"hooks": {"<Event>": [{"matcher"?: …, "hooks": [{"type": "command", "command": …}]}]}}`.
//!
//! Edits go through `jsonc-parser`'s concrete syntax tree, so every byte outside our own entries keeps its
//! spelling (key order, indentation, tabs, CRLF, `1e400`, `\/` escapes, the trailing newline). Both agents
//! read these files as strict JSON (Claude drops a file with comments entirely), so a file with comments or
//! trailing commas is refused, untouched, with its line and column.
//! A value nested deeper than the tree parses, which Claude Code loads, is checked and kept aside (`deep.rs`).

use crate::command::our_binary_in;
use crate::refusal::Refusal;
use crate::{EventState, HookPlace, OUR_EVENTS};
use jsonc_parser::cst::{CstInputValue, CstObject, CstStringLit};
use read::read;
pub(crate) use read::{offset_of, only_one, parse_with, strict};

/// One handler of ours found in the file.
struct Found {
    event: &'static str,
    group: usize,
    handler: usize,
    command: CstStringLit,
    binary: String,
}

/// Our handlers, in file order.
fn find_ours(hooks: &CstObject, agent: &str) -> Vec<Found> {
    let mut found = Vec::new();
    for event in OUR_EVENTS {
        let Some(groups) = hooks.get(event).and_then(|p| p.array_value()) else {
            continue;
        };
        for (group, g) in groups.elements().iter().enumerate() {
            let Some(handlers) = g.as_object().and_then(|o| o.array_value("hooks")) else {
                continue;
            };
            for (handler, h) in handlers.elements().iter().enumerate() {
                let Some(lit) = h
                    .as_object()
                    .and_then(|o| o.get("command"))
                    .and_then(|p| p.value())
                    .and_then(|v| v.as_string_lit())
                else {
                    continue;
                };
                let Ok(command) = lit.decoded_value() else {
                    continue;
                };
                if let Some(binary) = our_binary_in(&command, agent) {
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

fn our_group(command: &str) -> CstInputValue {
    CstInputValue::Object(vec![(
        "hooks".into(),
        CstInputValue::Array(vec![CstInputValue::Object(vec![
            ("type".into(), CstInputValue::String("command".into())),
            ("command".into(), CstInputValue::String(command.into())),
            ("timeout".into(), CstInputValue::Number("10".into())),
        ])]),
    )])
}

/// `original` (None = no file) with our handler on each of our events: refreshed in place where one of
/// ours exists (only its command string changes) and any further one of ours on that event removed (the
/// agent would run each), else appended as a new group at the end of the event.
pub fn apply(original: Option<&str>, agent: &str, command: &str) -> Result<String, Refusal> {
    let text = object_text(original);
    let text = text.as_ref();
    let doc = read(text, agent)?;
    let (bom, root, hooks) = (doc.bom, &doc.root, &doc.hooks);
    let existing = match &hooks {
        Some(hooks) => find_ours(hooks, agent),
        None => Vec::new(),
    };
    let encoded = serde_json::to_string(command).expect("a string encodes");
    for event in OUR_EVENTS {
        let mut ours = existing.iter().filter(|f| f.event == event);
        match ours.next() {
            Some(found) => {
                if found.command.decoded_value().ok().as_deref() != Some(command) {
                    found.command.set_raw_value(encoded.clone());
                }
                let extra: Vec<&Found> = ours.collect();
                if let Some(hooks) = hooks {
                    remove_found(hooks, event, &extra);
                }
            }
            None => {
                let obj = root.object_value_or_set();
                let hooks = obj
                    .object_value_or_create("hooks")
                    .expect("checked to be an object");
                let groups = hooks
                    .array_value_or_create(event)
                    .expect("checked to be an array");
                groups.append(our_group(command));
            }
        }
    }
    let body = text.strip_prefix(bom).unwrap_or(text);
    Ok(format!("{bom}{}", keep_on_one_line(body, doc.body()?)))
}

/// The text to edit: an empty or whitespace-only file counts as `{}`, as the agents (and the terminals
/// whose JSON settings we read) treat it;
/// its whitespace stays after the object. No file at all is `{}` and a newline.
pub(crate) fn object_text(original: Option<&str>) -> std::borrow::Cow<'_, str> {
    match original {
        Some(t) if !t.trim_start_matches('\u{feff}').trim().is_empty() => t.into(),
        Some(t) if !t.is_empty() => format!("{{}}{t}").into(),
        _ => "{}\n".into(),
    }
}

/// A file written on one line stays on one line: the JSON tree spreads what it inserts over indented lines,
/// and in a file without a newline every newline (with the indent after it) is one it inserted. Kept as the
/// tree wrote it when that would drop a byte of the user's.
pub(crate) fn keep_on_one_line(original: &str, edited: String) -> String {
    if original.contains('\n') {
        return edited;
    }
    let mut out = String::with_capacity(edited.len());
    let mut chars = edited.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\r' if chars.peek() == Some(&'\n') => {}
            '\n' => {
                while chars.peek().is_some_and(|c| *c == ' ' || *c == '\t') {
                    chars.next();
                }
            }
            c => out.push(c),
        }
    }
    let mut rest = out.chars();
    let kept_every_byte = original.chars().all(|c| rest.any(|o| o == c));
    if kept_every_byte {
        out
    } else {
        edited
    }
}

/// Removes the handlers `found` (all on `event`, in file order) and each group they leave empty; says
/// whether the event's array ended up empty because of it.
fn remove_found(hooks: &CstObject, event: &str, found: &[&Found]) -> bool {
    let Some(groups) = hooks.get(event).and_then(|p| p.array_value()) else {
        return false;
    };
    let mut removed_a_group = false;
    // Back to front, so that the indexes of the handlers still to remove do not move.
    for f in found.iter().rev() {
        let group = groups.elements()[f.group]
            .as_object()
            .expect("found in an object");
        let handlers = group.array_value("hooks").expect("found in an array");
        handlers.elements()[f.handler].clone().remove();
        if handlers.elements().is_empty() {
            group.remove();
            removed_a_group = true;
        }
    }
    removed_a_group && groups.elements().is_empty()
}

/// `current` without our handlers. A group left without handlers goes, then an event array we emptied,
/// then a `hooks` object we emptied. (Whether such a container was there before we came is known only
/// from the backup, which `engine::plan_remove` consults first.)
pub fn remove(current: &str, agent: &str) -> Result<String, Refusal> {
    if current.trim_start_matches('\u{feff}').trim().is_empty() {
        return Ok(current.to_string());
    }
    let doc = read(current, agent)?;
    let Some(hooks) = &doc.hooks else {
        return Ok(current.to_string());
    };
    let ours = find_ours(hooks, agent);
    if ours.is_empty() {
        return Ok(current.to_string());
    }
    let mut emptied_an_event = false;
    for event in OUR_EVENTS {
        let on_event: Vec<&Found> = ours.iter().filter(|f| f.event == event).collect();
        if remove_found(hooks, event, &on_event) {
            hooks.get(event).expect("still there").remove();
            emptied_an_event = true;
        }
    }
    if emptied_an_event && hooks.properties().is_empty() {
        if let Some(prop) = doc.root.object_value().and_then(|o| o.get("hooks")) {
            prop.remove();
        }
    }
    doc.text()
}

/// Every handler of ours in `text`: (event, group, handler), positions as in Codex's trust keys.
pub fn our_positions(
    text: &str,
    agent: &str,
) -> Result<Vec<(&'static str, usize, usize)>, Refusal> {
    if text.trim_start_matches('\u{feff}').trim().is_empty() {
        return Ok(Vec::new());
    }
    Ok(match read(text, agent)?.hooks {
        Some(hooks) => find_ours(&hooks, agent)
            .iter()
            .map(|f| (f.event, f.group, f.handler))
            .collect(),
        None => Vec::new(),
    })
}

/// Where each of our events stands in `text` (None = no file).
pub fn inspect(text: Option<&str>, agent: &str, command: &str) -> Result<Vec<EventState>, Refusal> {
    let found = match text {
        Some(t) if !t.trim_start_matches('\u{feff}').trim().is_empty() => {
            match read(t, agent)?.hooks {
                Some(hooks) => find_ours(&hooks, agent),
                None => Vec::new(),
            }
        }
        _ => Vec::new(),
    };
    Ok(OUR_EVENTS
        .iter()
        .map(|&event| {
            let on_event: Vec<&Found> = found.iter().filter(|f| f.event == event).collect();
            let place = on_event.first().map(|f| HookPlace {
                group: f.group,
                handler: f.handler,
                binary: f.binary.clone(),
                current: f.command.decoded_value().ok().as_deref() == Some(command),
            });
            EventState {
                event,
                place,
                runs: runs(agent, &on_event),
            }
        })
        .collect())
}

/// How many times the agent runs our hook on one event: Claude Code runs identical command strings once,
/// Codex runs every handler.
fn runs(agent: &str, found: &[&Found]) -> usize {
    if agent == "claude" {
        let mut commands: Vec<String> = found
            .iter()
            .filter_map(|f| f.command.decoded_value().ok())
            .collect();
        commands.sort();
        commands.dedup();
        commands.len()
    } else {
        found.len()
    }
}

/// The text of the top-level setting `key` of a Claude `settings.json`, read as Claude Code reads it (a
/// BOM, nesting deeper than `serde_json`'s 128 levels); `None` when absent or the file is refused.
pub fn claude_setting(text: &str, key: &str) -> Option<String> {
    let doc = read(text, "claude").ok()?;
    let value = doc.root.object_value()?.get(key)?.value()?;
    Some(value.to_string())
}

mod deep;
mod read;
#[cfg(test)]
mod tests;
