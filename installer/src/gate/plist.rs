//! A property list as JSON: the small part of Apple's XML plist format a managed-preferences profile
//! uses (`dict`, `array`, `key`, `string`, `true`, `false`, `integer`, `real`, `date`, `data`), for
//! Claude Code's MDM profile, which it reads as one settings object (`plutil -convert json`). The
//! profiles MDM writes to `/Library/Managed Preferences` are often binary: on macOS those go through
//! `plutil -convert xml1` first (the one platform call, [`to_xml`]); elsewhere a binary plist reads
//! as empty.

use crate::lookup::Lookup;
use serde_json::{Map, Value};
use std::path::Path;

/// The plist at `path` as JSON; `Null` when absent or unreadable.
pub fn read(lookup: &dyn Lookup, path: &Path) -> Value {
    let text = match lookup.read(path) {
        Some(t) if !t.starts_with("bplist") => Some(t),
        _ if lookup.exists(path) => to_xml(path),
        _ => None,
    };
    text.as_deref().and_then(parse).unwrap_or(Value::Null)
}

/// A binary plist in XML (macOS's own `plutil`, bounded in time).
#[cfg(target_os = "macos")]
fn to_xml(path: &Path) -> Option<String> {
    let done = agterm_backup_core::process::bounded::run_bounded(
        std::process::Command::new("/usr/bin/plutil")
            .args(["-convert", "xml1", "-o", "-"])
            .arg(path),
        std::time::Duration::from_secs(5),
    )
    .ok()?;
    done.status.success().then_some(done.stdout)
}

#[cfg(not(target_os = "macos"))]
fn to_xml(_path: &Path) -> Option<String> {
    None
}

/// An XML plist's top-level value as JSON (`None` when it is not a plist we can read).
pub fn parse(text: &str) -> Option<Value> {
    let start = text.find("<plist")?;
    let body = &text[start..];
    let body = &body[body.find('>')? + 1..];
    let mut tokens = Tokens { rest: body };
    let value = value(&mut tokens)?;
    Some(value)
}

struct Tokens<'a> {
    rest: &'a str,
}

#[derive(Debug, PartialEq)]
enum Token<'a> {
    Open(&'a str),
    Close(&'a str),
    Empty(&'a str),
}

impl<'a> Tokens<'a> {
    /// The next tag, skipping text, comments and processing instructions.
    fn next(&mut self) -> Option<Token<'a>> {
        loop {
            let at = self.rest.find('<')?;
            self.rest = &self.rest[at..];
            if let Some(after) = self.rest.strip_prefix("<!--") {
                self.rest = &after[after.find("-->")? + 3..];
                continue;
            }
            let end = self.rest.find('>')?;
            let tag = &self.rest[1..end];
            self.rest = &self.rest[end + 1..];
            if tag.starts_with('?') || tag.starts_with('!') {
                continue;
            }
            let name = |t: &'a str| t.split_whitespace().next().unwrap_or("");
            return Some(if let Some(t) = tag.strip_prefix('/') {
                Token::Close(name(t))
            } else if let Some(t) = tag.strip_suffix('/') {
                Token::Empty(name(t))
            } else {
                Token::Open(name(tag))
            });
        }
    }

    /// The text up to `</name>`, entities decoded.
    fn text(&mut self, name: &str) -> Option<String> {
        let close = format!("</{name}>");
        let at = self.rest.find(&close)?;
        let raw = &self.rest[..at];
        self.rest = &self.rest[at + close.len()..];
        Some(decode(raw))
    }
}

fn decode(raw: &str) -> String {
    raw.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&apos;", "'")
        .replace("&amp;", "&")
}

fn value(tokens: &mut Tokens<'_>) -> Option<Value> {
    match tokens.next()? {
        Token::Empty("true") => Some(Value::Bool(true)),
        Token::Empty("false") => Some(Value::Bool(false)),
        Token::Empty("dict") => Some(Value::Object(Map::new())),
        Token::Empty("array") => Some(Value::Array(Vec::new())),
        Token::Empty("string") => Some(Value::String(String::new())),
        Token::Open("dict") => dict(tokens),
        Token::Open("array") => array(tokens),
        Token::Open(name @ ("string" | "date" | "data")) => tokens.text(name).map(Value::String),
        Token::Open(name @ ("integer" | "real")) => {
            let text = tokens.text(name)?;
            Some(
                text.trim()
                    .parse::<serde_json::Number>()
                    .map(Value::Number)
                    .unwrap_or(Value::Null),
            )
        }
        _ => None,
    }
}

fn dict(tokens: &mut Tokens<'_>) -> Option<Value> {
    let mut map = Map::new();
    loop {
        match tokens.next()? {
            Token::Close("dict") => return Some(Value::Object(map)),
            Token::Open("key") => {
                let key = tokens.text("key")?;
                map.insert(key, value(tokens)?);
            }
            _ => return None,
        }
    }
}

fn array(tokens: &mut Tokens<'_>) -> Option<Value> {
    let mut items = Vec::new();
    loop {
        let before = tokens.rest;
        if let Some(Token::Close("array")) = tokens.next() {
            return Some(Value::Array(items));
        }
        tokens.rest = before;
        items.push(value(tokens)?);
    }
}
