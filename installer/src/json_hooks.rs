//! Surgical edits of a JSON hooks file: Claude Code's `settings.json` and Codex's `hooks.json`, which share
//! the shape `{"hooks": {"<Event>": [{"matcher"?: …, "hooks": [{"type": "command", "command": …}]}]}}`.
//!
//! Edits go through `jsonc-parser`'s concrete syntax tree, so every byte outside our own entries keeps its
//! spelling (key order, indentation, tabs, CRLF, `1e400`, `\/` escapes, the trailing newline). Both agents
//! read these files as strict JSON (Claude drops a file with comments entirely), so a file with comments or
//! trailing commas is refused, untouched, with its line and column.

use crate::command::our_binary_in;
use crate::refusal::Refusal;
use crate::{EventState, HookPlace, OUR_EVENTS};
use jsonc_parser::cst::{CstInputValue, CstNode, CstObject, CstRootNode, CstStringLit};
use jsonc_parser::ParseOptions;

/// Plain JSON, as `JSON.parse` (Claude) and serde (Codex) read it: every JSON5/JSONC extension off.
pub(crate) fn strict() -> ParseOptions {
    ParseOptions {
        allow_comments: false,
        allow_loose_object_property_names: false,
        allow_trailing_commas: false,
        allow_missing_commas: false,
        allow_single_quoted_strings: false,
        allow_hexadecimal_numbers: false,
        allow_unary_plus_numbers: false,
        allow_bare_decimal_point_numbers: false,
        allow_non_finite_numbers: false,
        allow_extended_string_escapes: false,
    }
}

/// One handler of ours found in the file.
struct Found {
    event: &'static str,
    group: usize,
    handler: usize,
    command: CstStringLit,
    binary: String,
}

/// Parses `text` strictly; the top level must be an object (or nothing at all).
fn parse(text: &str) -> Result<CstRootNode, Refusal> {
    parse_with(text, &strict())
}

/// Parses `text` with `options` (strict JSON, or with comments for agents that strip them first); the
/// top level must be an object (or nothing at all).
pub(crate) fn parse_with(text: &str, options: &ParseOptions) -> Result<CstRootNode, Refusal> {
    let refuse = |e: jsonc_parser::errors::ParseError| {
        Refusal::at(
            e.line_display(),
            e.column_display(),
            format!(
                "not strict JSON ({}); the agent would ignore this file too, fix it first",
                e.kind()
            ),
        )
    };
    jsonc_parser::parse_to_value(text, options).map_err(refuse)?;
    let root = CstRootNode::parse(text, options).map_err(refuse)?;
    refuse_raw_control_characters(text, &CstNode::Container(root.clone().into()))?;
    if let Some(value) = root.value() {
        if value.as_object().is_none() {
            let offset = text.len() - text.trim_start().len();
            return Err(Refusal::at_offset(
                text,
                offset,
                "the top level is not a JSON object",
            ));
        }
    }
    Ok(root)
}

/// JSON forbids raw control characters inside strings (a literal tab, say); the parser lets them through.
fn refuse_raw_control_characters(text: &str, node: &CstNode) -> Result<(), Refusal> {
    if let Some(lit) = node.as_string_lit() {
        let raw = lit.raw_value();
        if let Some(at) = raw.find(|c: char| (c as u32) < 0x20) {
            let offset = offset_of(text, node) + at;
            return Err(Refusal::at_offset(
                text,
                offset,
                "not strict JSON (a raw control character inside a string; write it as an escape such as \\t)",
            ));
        }
    }
    for child in node.children() {
        refuse_raw_control_characters(text, &child)?;
    }
    Ok(())
}

/// Where a node starts, for refusals.
pub(crate) fn offset_of(text: &str, node: &CstNode) -> usize {
    // The CST does not expose ranges; the text before the node is the concatenation of its previous
    // siblings and ancestors' previous siblings. Counting is cheap enough for config files.
    let mut offset = 0;
    let mut current = node.clone();
    loop {
        for sibling in current.previous_siblings() {
            offset += sibling.to_string().len();
        }
        match current.parent() {
            Some(parent) => current = CstNode::Container(parent),
            None => break,
        }
    }
    offset.min(text.len())
}

/// The `hooks` object, if any; refuses when `hooks` or one of our event keys has the wrong type.
fn hooks_object(text: &str, root: &CstRootNode) -> Result<Option<CstObject>, Refusal> {
    let Some(obj) = root.object_value() else {
        return Ok(None);
    };
    let Some(prop) = obj.get("hooks") else {
        return Ok(None);
    };
    let value = prop.value().expect("a parsed property has a value");
    let Some(hooks) = value.as_object() else {
        return Err(Refusal::at_offset(
            text,
            offset_of(text, &value),
            "\"hooks\" is not an object",
        ));
    };
    for event in OUR_EVENTS {
        if let Some(ev) = hooks.get(event) {
            let v = ev.value().expect("a parsed property has a value");
            if v.as_array().is_none() {
                let reason = format!("\"hooks\".\"{event}\" is not an array");
                return Err(Refusal::at_offset(text, offset_of(text, &v), reason));
            }
        }
    }
    Ok(Some(hooks))
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
/// ours exists (only its command string changes), else appended as a new group at the end of the event.
pub fn apply(original: Option<&str>, agent: &str, command: &str) -> Result<String, Refusal> {
    let text = match original {
        Some(t) if !t.trim().is_empty() => t,
        // An empty or whitespace-only file counts as `{}`, as agterm and Claude treat it.
        _ => "{}\n",
    };
    let root = parse(text)?;
    let existing = match hooks_object(text, &root)? {
        Some(hooks) => find_ours(&hooks, agent),
        None => Vec::new(),
    };
    let encoded = serde_json::to_string(command).expect("a string encodes");
    for event in OUR_EVENTS {
        match existing.iter().find(|f| f.event == event) {
            Some(found) => {
                if found.command.decoded_value().ok().as_deref() != Some(command) {
                    found.command.set_raw_value(encoded.clone());
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
    Ok(root.to_string())
}

/// `current` without our handlers. A group left without handlers goes, then an event array we emptied,
/// then a `hooks` object we emptied; anything that was already empty stays.
pub fn remove(current: &str, agent: &str) -> Result<String, Refusal> {
    if current.trim().is_empty() {
        return Ok(current.to_string());
    }
    let root = parse(current)?;
    let Some(hooks) = hooks_object(current, &root)? else {
        return Ok(current.to_string());
    };
    let ours = find_ours(&hooks, agent);
    if ours.is_empty() {
        return Ok(current.to_string());
    }
    let mut emptied_an_event = false;
    for event in OUR_EVENTS {
        let Some(groups) = hooks.get(event).and_then(|p| p.array_value()) else {
            continue;
        };
        let mut removed_a_group = false;
        // Back to front, so that the indexes of the handlers still to remove do not move.
        for found in ours.iter().rev().filter(|f| f.event == event) {
            let group = groups.elements()[found.group]
                .as_object()
                .expect("found in an object");
            let handlers = group.array_value("hooks").expect("found in an array");
            handlers.elements()[found.handler].clone().remove();
            if handlers.elements().is_empty() {
                group.remove();
                removed_a_group = true;
            }
        }
        if removed_a_group && groups.elements().is_empty() {
            hooks.get(event).expect("still there").remove();
            emptied_an_event = true;
        }
    }
    if emptied_an_event && hooks.properties().is_empty() {
        if let Some(prop) = root.object_value().and_then(|o| o.get("hooks")) {
            prop.remove();
        }
    }
    Ok(root.to_string())
}

/// Where each of our events stands in `text` (None = no file).
pub fn inspect(text: Option<&str>, agent: &str, command: &str) -> Result<Vec<EventState>, Refusal> {
    let found = match text {
        Some(t) if !t.trim().is_empty() => {
            let root = parse(t)?;
            match hooks_object(t, &root)? {
                Some(hooks) => find_ours(&hooks, agent),
                None => Vec::new(),
            }
        }
        _ => Vec::new(),
    };
    Ok(OUR_EVENTS
        .iter()
        .map(|&event| {
            let place = found.iter().find(|f| f.event == event).map(|f| HookPlace {
                group: f.group,
                handler: f.handler,
                binary: f.binary.clone(),
                current: f.command.decoded_value().ok().as_deref() == Some(command),
            });
            EventState { event, place }
        })
        .collect())
}

/// Whether Claude Code's `"disableAllHooks": true` switches every hook off, ours included.
pub fn all_hooks_disabled(text: &str) -> bool {
    let Ok(root) = CstRootNode::parse(text, &strict()) else {
        return false;
    };
    root.object_value()
        .and_then(|o| o.get("disableAllHooks"))
        .and_then(|p| p.value())
        .and_then(|v| v.as_boolean_lit())
        .is_some_and(|b| b.value())
}

#[cfg(test)]
mod tests;
