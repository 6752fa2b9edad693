//! Reading a JSON hooks file the way the agent reads it: strict JSON, the BOM as each agent treats it, no
//! duplicate key where the agent would read another one than we edit, no key Codex would reject.

use crate::refusal::Refusal;
use crate::OUR_EVENTS;
use jsonc_parser::cst::{CstNode, CstObject, CstObjectProp, CstRootNode};
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

/// Parses `text` strictly; the top level must be an object (or nothing at all).
pub(super) fn parse(text: &str) -> Result<CstRootNode, Refusal> {
    parse_with(text, &strict())
}

/// Parses `text` with `options` (strict JSON, or with comments for the agents that strip them before
/// `JSON.parse`: Gemini, Qwen); the top level must be an object (or nothing at all).
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
pub(super) fn hooks_object(text: &str, root: &CstRootNode) -> Result<Option<CstObject>, Refusal> {
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
pub(crate) fn only_one(
    text: &str,
    obj: &CstObject,
    name: &str,
) -> Result<Option<CstObjectProp>, Refusal> {
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

/// A hooks file as the agent reads it: its BOM (kept as it was), the tree, and the `hooks` object.
pub(super) struct Doc<'a> {
    pub bom: &'a str,
    pub root: CstRootNode,
    pub hooks: Option<CstObject>,
    /// Values too deep for the tree, masked in it (see [`super::deep`]).
    masks: Vec<(String, String)>,
}

impl Doc<'_> {
    /// The file's text after edits of the tree: the BOM and every masked value as they were.
    pub fn text(&self) -> Result<String, Refusal> {
        Ok(format!("{}{}", self.bom, self.body()?))
    }

    /// The text after the BOM.
    pub fn body(&self) -> Result<String, Refusal> {
        super::deep::unmask(self.root.to_string(), &self.masks)
    }
}

/// Parses `text` as `agent` would, refusing what the agent would not load. Claude Code loads a file with a
/// value nested deeper than our tree parses (it skips that value); Codex's parser stops at 128 levels and
/// ignores the file, so only Claude's files are masked.
pub(super) fn read<'a>(text: &'a str, agent: &str) -> Result<Doc<'a>, Refusal> {
    let (bom, body) = split_bom(text, agent)?;
    let masked = match agent {
        "claude" => super::deep::mask(body)?,
        _ => super::deep::Masked {
            text: body.to_string(),
            masks: Vec::new(),
        },
    };
    let root = parse(&masked.text)?;
    if agent == "codex" {
        codex_can_read(body)?;
        codex_top_level_keys(&masked.text, &root)?;
    }
    let hooks = hooks_object(&masked.text, &root)?;
    Ok(Doc {
        bom,
        root,
        hooks,
        masks: masked.masks,
    })
}

/// Codex reads `hooks.json` through `serde_json`'s value tree, which stops at 128 levels of nesting (the
/// real Codex reads 127 and ignores a file nested one deeper, our hooks included).
fn codex_can_read(body: &str) -> Result<(), Refusal> {
    match super::deep::opening_at_depth(body, 128) {
        Some(at) => Err(Refusal::at_offset(
            body,
            at,
            "nested 128 levels deep here, deeper than Codex reads: it would ignore the whole file, our hooks \
             included; flatten it first",
        )),
        None => Ok(()),
    }
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
