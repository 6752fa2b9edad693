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
use jsonc_parser::cst::{
    CstInputValue, CstNode, CstObject, CstObjectProp, CstRootNode, CstStringLit,
};
use jsonc_parser::ParseOptions;

/// Plain JSON, as `JSON.parse` (Claude) and serde (Codex) read it: every JSON5/JSONC extension off.
fn strict() -> ParseOptions {
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
    jsonc_parser::parse_to_value(text, &strict()).map_err(refuse)?;
    let root = CstRootNode::parse(text, &strict()).map_err(refuse)?;
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
fn offset_of(text: &str, node: &CstNode) -> usize {
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
    let Some(prop) = only_one(text, &obj, "hooks")? else {
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
        if let Some(ev) = only_one(text, &hooks, event)? {
            let v = ev.value().expect("a parsed property has a value");
            if v.as_array().is_none() {
                let reason = format!("\"hooks\".\"{event}\" is not an array");
                return Err(Refusal::at_offset(text, offset_of(text, &v), reason));
            }
        }
    }
    Ok(Some(hooks))
}

/// The property `name` of `obj`, refused when it is there more than once: the agents' parsers keep the last
/// one, so an edit of the first would be inert.
fn only_one(text: &str, obj: &CstObject, name: &str) -> Result<Option<CstObjectProp>, Refusal> {
    let mut same = obj.properties().into_iter().filter(|p| {
        p.name()
            .and_then(|n| n.decoded_value().ok())
            .is_some_and(|n| n == name)
    });
    let first = same.next();
    if let Some(again) = same.next() {
        let node = CstNode::Container(again.into());
        return Err(Refusal::at_offset(
            text,
            offset_of(text, &node),
            format!(
                "the key \"{name}\" is here a second time; the agent reads only the last one, so merge the \
                 two into one and run again"
            ),
        ));
    }
    Ok(first)
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
    // An empty or whitespace-only file counts as `{}`, as agterm and Claude treat it; its whitespace
    // stays after the object.
    let blank;
    let text = match original {
        Some(t) if !t.trim_start_matches('\u{feff}').trim().is_empty() => t,
        Some(t) if !t.is_empty() => {
            blank = format!("{{}}{t}");
            &blank
        }
        _ => "{}\n",
    };
    let Doc { bom, root, hooks } = read(text, agent)?;
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
                if let Some(hooks) = &hooks {
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
    Ok(format!("{bom}{}", keep_on_one_line(body, root.to_string())))
}

/// A file written on one line stays on one line: the JSON tree spreads what it inserts over indented lines,
/// and in a file without a newline every newline (with the indent after it) is one it inserted. Kept as the
/// tree wrote it when that would drop a byte of the user's.
fn keep_on_one_line(original: &str, edited: String) -> String {
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
    let Doc { bom, root, hooks } = read(current, agent)?;
    let Some(hooks) = hooks else {
        return Ok(current.to_string());
    };
    let ours = find_ours(&hooks, agent);
    if ours.is_empty() {
        return Ok(current.to_string());
    }
    let mut emptied_an_event = false;
    for event in OUR_EVENTS {
        let on_event: Vec<&Found> = ours.iter().filter(|f| f.event == event).collect();
        if remove_found(&hooks, event, &on_event) {
            hooks.get(event).expect("still there").remove();
            emptied_an_event = true;
        }
    }
    if emptied_an_event && hooks.properties().is_empty() {
        if let Some(prop) = root.object_value().and_then(|o| o.get("hooks")) {
            prop.remove();
        }
    }
    Ok(format!("{bom}{root}"))
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

/// A hooks file as the agent reads it: its BOM (kept as it was), the tree, and the `hooks` object.
struct Doc<'a> {
    bom: &'a str,
    root: CstRootNode,
    hooks: Option<CstObject>,
}

/// Parses `text` as `agent` would, refusing what the agent would not load.
fn read<'a>(text: &'a str, agent: &str) -> Result<Doc<'a>, Refusal> {
    let (bom, body) = split_bom(text, agent)?;
    let root = parse(body)?;
    if agent == "codex" {
        codex_top_level_keys(body, &root)?;
    }
    let hooks = hooks_object(body, &root)?;
    Ok(Doc { bom, root, hooks })
}

/// Codex reads `hooks.json` with unknown fields denied: a top-level key other than `description` and
/// `hooks` makes it ignore the whole file (with a warning), our hooks included.
fn codex_top_level_keys(text: &str, root: &CstRootNode) -> Result<(), Refusal> {
    let Some(obj) = root.object_value() else {
        return Ok(());
    };
    for prop in obj.properties() {
        let name = prop
            .name()
            .and_then(|n| n.decoded_value().ok())
            .unwrap_or_default();
        if name != "hooks" && name != "description" {
            let node = CstNode::Container(prop.into());
            return Err(Refusal::at_offset(
                text,
                offset_of(text, &node),
                format!(
                    "Codex reads only \"description\" and \"hooks\" here and ignores the whole file because of \
                     \"{}\"; move that key out first",
                    name.escape_debug()
                ),
            ));
        }
    }
    Ok(())
}

/// The file's UTF-8 byte-order mark (kept as it was) and the JSON after it. Claude Code strips a BOM before
/// parsing; Codex's serde does not and rejects such a `hooks.json`, so we refuse it too.
fn split_bom<'a>(text: &'a str, agent: &str) -> Result<(&'a str, &'a str), Refusal> {
    match text.strip_prefix('\u{feff}') {
        Some(_) if agent != "claude" => Err(Refusal::at(
            1,
            1,
            "starts with a UTF-8 byte-order mark, which Codex cannot read (it would ignore the file); \
             save it as UTF-8 without a BOM first",
        )),
        Some(body) => Ok(("\u{feff}", body)),
        None => Ok(("", text)),
    }
}

/// Whether Claude Code's `"disableAllHooks": true` switches every hook off, ours included.
pub fn all_hooks_disabled(text: &str) -> bool {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
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
