//! Kimi Code's `config.toml` (`$KIMI_CODE_HOME`, default `~/.kimi-code`): our hooks are five `[[hooks]]`
//! tables (`event`, `command`, `timeout`: Kimi refuses any other key) in one block between our marker
//! comments, appended after everything else, like Codex's block ([`crate::codex_toml`]).
//!
//! `apply` refreshes the block in place or appends it after one blank line; `remove` cuts the block and
//! that blank line, so apply then remove gives back the file byte for byte. Kimi rewrites `config.toml`
//! itself when its settings change (`/login`, `kimi provider …`), which drops comments: hooks of ours
//! found outside a block are taken out table by table (`toml_edit` keeps the rest of the document). A
//! file that is not TOML, or keeps `hooks` in a form `[[hooks]]` tables cannot join (`hooks = [ … ]`), is
//! refused untouched.

use crate::codex_toml::{parse, BLOCK_END, BLOCK_START};
use crate::command::our_binary_in;
use crate::refusal::Refusal;
use crate::{EventState, HookPlace, OUR_EVENTS};
use toml_edit::{DocumentMut, Item};

const BLOCK_NOTE: &str =
    "# Added by `agterm-backup installer apply`; `agterm-backup installer remove` takes it out.";

/// Our block in the line ending `nl`: byte-stable for a given command.
fn block_text(command: &str, nl: &str) -> String {
    let literal = toml_edit::Value::from(command).to_string();
    let tables: Vec<String> = OUR_EVENTS
        .iter()
        .map(|event| {
            format!(
                "[[hooks]]{nl}event = \"{event}\"{nl}command = {}{nl}timeout = 10{nl}",
                literal.trim()
            )
        })
        .collect();
    format!(
        "{BLOCK_START}{nl}{BLOCK_NOTE}{nl}{}{BLOCK_END}{nl}",
        tables.join(nl)
    )
}

fn newline_of(text: &str) -> &'static str {
    match text.find('\n') {
        Some(i) if text[..i].ends_with('\r') => "\r\n",
        _ => "\n",
    }
}

/// The byte range of our block (from the start line through the end line and its newline).
fn block_range(text: &str) -> Option<std::ops::Range<usize>> {
    let mut at = 0;
    let mut start = None;
    for line in text.split_inclusive('\n') {
        let body = line.trim_end_matches(['\n', '\r']);
        if body == BLOCK_START && start.is_none() {
            start = Some(at);
        } else if body == BLOCK_END {
            if let Some(s) = start {
                return Some(s..at + line.len());
            }
        }
        at += line.len();
    }
    None
}

fn form_refusal(text: &str) -> Refusal {
    let offset = text
        .find("hooks")
        .and_then(|i| text[..i].rfind('\n').map(|n| n + 1).or(Some(0)))
        .unwrap_or(0);
    Refusal::at_offset(
        text,
        offset,
        "hooks are kept in a form our [[hooks]] tables cannot join (an inline array?); \
         write them as [[hooks]] tables first",
    )
}

/// Each `[[hooks]]` entry's `(event, command)`; `Err` when `hooks` is there in another form.
fn entries(doc: &DocumentMut) -> Result<Vec<(String, Option<String>)>, ()> {
    match doc.get("hooks") {
        None => Ok(Vec::new()),
        Some(Item::ArrayOfTables(aot)) => Ok(aot
            .iter()
            .map(|t| {
                let text = |k: &str| t.get(k).and_then(|v| v.as_str()).map(str::to_string);
                (text("event").unwrap_or_default(), text("command"))
            })
            .collect()),
        Some(_) => Err(()),
    }
}

/// `doc` without the `[[hooks]]` tables that run our hook (any binary path).
fn without_ours(mut doc: DocumentMut) -> String {
    if let Some(Item::ArrayOfTables(aot)) = doc.get_mut("hooks") {
        aot.retain(|t| {
            t.get("command")
                .and_then(|c| c.as_str())
                .is_none_or(|c| our_binary_in(c, "kimi").is_none())
        });
        if aot.is_empty() {
            doc.remove("hooks");
        }
    }
    doc.to_string()
}

/// `original` (None = no file) with our block: refreshed in place, else appended after one blank line.
pub fn apply(original: Option<&str>, command: &str) -> Result<String, Refusal> {
    let text = original.unwrap_or("");
    let doc = parse(text)?;
    entries(&doc).map_err(|_| form_refusal(text))?;
    let nl = newline_of(text);
    let out = match block_range(text) {
        Some(r) => format!(
            "{}{}{}",
            &text[..r.start],
            block_text(command, nl),
            &text[r.end..]
        ),
        None => {
            let mut out = if has_ours(text) {
                without_ours(doc)
            } else {
                text.to_string()
            };
            if !out.is_empty() && !out.ends_with('\n') {
                out.push_str(nl);
            }
            if !out.trim().is_empty() {
                out.push_str(nl);
            }
            out.push_str(&block_text(command, nl));
            out
        }
    };
    let states = inspect(Some(&out), command).map_err(|_| form_refusal(text))?;
    if states
        .iter()
        .any(|s| s.runs != 1 || !s.place.as_ref().is_some_and(|p| p.current))
    {
        return Err(form_refusal(text));
    }
    Ok(out)
}

/// `current` without our hooks: the block and the blank line we put before it, else (Kimi rewrote the
/// file) each table of ours.
pub fn remove(current: &str) -> Result<String, Refusal> {
    let doc = parse(current)?;
    if let Some(r) = block_range(current) {
        let mut head = &current[..r.start];
        if let Some(h) = head.strip_suffix("\r\n\r\n") {
            head = &current[..h.len() + 2];
        } else if let Some(h) = head.strip_suffix("\n\n") {
            head = &current[..h.len() + 1];
        }
        return Ok(format!("{head}{}", &current[r.end..]));
    }
    Ok(if has_ours(current) {
        without_ours(doc)
    } else {
        current.to_string()
    })
}

/// Whether `text` holds our block or any hook of ours.
pub fn has_ours(text: &str) -> bool {
    block_range(text).is_some()
        || parse(text).is_ok_and(|doc| {
            entries(&doc).is_ok_and(|e| {
                e.iter().any(|(_, c)| {
                    c.as_deref()
                        .and_then(|c| our_binary_in(c, "kimi"))
                        .is_some()
                })
            })
        })
}

/// Where each of our events stands in `text` (None = no file).
pub fn inspect(text: Option<&str>, command: &str) -> Result<Vec<EventState>, Refusal> {
    let text = text.unwrap_or("");
    let doc = parse(text)?;
    let entries = entries(&doc).map_err(|_| form_refusal(text))?;
    Ok(OUR_EVENTS
        .iter()
        .map(|&event| {
            let mut place = None;
            let mut runs = 0;
            for (i, (e, cmd)) in entries.iter().enumerate() {
                let Some(binary) = cmd.as_deref().and_then(|c| our_binary_in(c, "kimi")) else {
                    continue;
                };
                if e == event {
                    runs += 1;
                    place.get_or_insert(HookPlace {
                        group: i,
                        handler: 0,
                        binary,
                        current: cmd.as_deref() == Some(command),
                    });
                }
            }
            EventState { event, place, runs }
        })
        .collect())
}

#[cfg(test)]
mod tests;
