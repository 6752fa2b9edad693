//! Values nested deeper than the JSON tree parses (`jsonc-parser` stops at 512 levels). Claude Code loads
//! such a `settings.json` and only skips the deep value, so we must edit the file too: each top-level
//! value (other than `hooks`) nested that deep is checked here as strict JSON without recursion, and
//! masked for the tree by an empty array of the same length (every offset stays); the output gets the
//! original bytes back.

use crate::refusal::Refusal;
use std::ops::Range;

/// Deeper than this, a value is masked (below the tree's own limit, with room for the levels above it).
const TREE_DEPTH: usize = 500;

/// `body` with its too-deep values masked, and each mask with the bytes it stands for, in file order.
pub(super) struct Masked {
    pub text: String,
    pub masks: Vec<(String, String)>,
}

/// Masks the too-deep top-level values of `body` (a JSON object), refusing one that is not strict JSON.
pub(super) fn mask(body: &str) -> Result<Masked, Refusal> {
    let mut text = body.to_string();
    let mut masks = Vec::new();
    for range in deep_values(body) {
        check_value(body, range.clone()).map_err(|at| {
            Refusal::at_offset(
                body,
                at,
                "not strict JSON; the agent would ignore this file too, fix it first",
            )
        })?;
        let mask = format!("[{}]", " ".repeat(range.len() - 2));
        text.replace_range(range.clone(), &mask);
        masks.push((mask, body[range].to_string()));
    }
    Ok(Masked { text, masks })
}

/// `edited` (the tree's output of a masked text) with the masked bytes put back.
pub(super) fn unmask(edited: String, masks: &[(String, String)]) -> Result<String, Refusal> {
    let mut out = String::with_capacity(edited.len());
    let mut rest = edited.as_str();
    for (mask, original) in masks {
        let at = rest.find(mask.as_str()).ok_or_else(|| {
            Refusal::at(
                1,
                1,
                "a deeply nested value could not be kept; nothing written",
            )
        })?;
        out.push_str(&rest[..at]);
        out.push_str(original);
        rest = &rest[at + mask.len()..];
    }
    out.push_str(rest);
    Ok(out)
}

/// Where the top-level member values of `body` nest deeper than [`TREE_DEPTH`] (`hooks` excepted: our
/// edits go there, so it must go through the tree).
fn deep_values(body: &str) -> Vec<Range<usize>> {
    let bytes = body.as_bytes();
    let (mut depth, mut deepest, mut start) = (0usize, 0usize, 0usize);
    let (mut in_string, mut escaped) = (false, false);
    let mut key = Range::default();
    let mut key_start = 0;
    let mut out = Vec::new();
    for (i, &b) in bytes.iter().enumerate() {
        if in_string {
            match (escaped, b) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => {
                    in_string = false;
                    if depth == 1 {
                        key = key_start..i + 1;
                    }
                }
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => {
                in_string = true;
                key_start = i;
            }
            b'{' | b'[' => {
                depth += 1;
                if depth == 2 {
                    (start, deepest) = (i, 2);
                }
                deepest = deepest.max(depth);
            }
            b'}' | b']' => {
                if depth == 2 && deepest > TREE_DEPTH && &body[key.clone()] != "\"hooks\"" {
                    out.push(start..i + 1);
                }
                depth = depth.saturating_sub(1);
            }
            _ => {}
        }
    }
    out
}

/// Where the first `{` or `[` at nesting level `depth` (1 = the top-level value) opens, strings skipped.
pub(super) fn opening_at_depth(body: &str, depth: usize) -> Option<usize> {
    let (mut level, mut in_string, mut escaped) = (0usize, false, false);
    for (i, &b) in body.as_bytes().iter().enumerate() {
        match (in_string, escaped, b) {
            (true, true, _) => escaped = false,
            (true, false, b'\\') => escaped = true,
            (true, false, b'"') => in_string = false,
            (true, ..) => {}
            (false, _, b'"') => in_string = true,
            (false, _, b'{' | b'[') => {
                level += 1;
                if level == depth {
                    return Some(i);
                }
            }
            (false, _, b'}' | b']') => level = level.saturating_sub(1),
            _ => {}
        }
    }
    None
}

#[derive(Clone, Copy, PartialEq)]
enum Expect {
    Value,
    ValueOrClose,
    KeyOrClose,
    Key,
    Colon,
    CommaOrClose,
}

/// Checks `body[range]` as one strict JSON value without recursion; `Err` holds the offset of the fault.
fn check_value(body: &str, range: Range<usize>) -> Result<(), usize> {
    let b = body.as_bytes();
    let end = range.end;
    let mut stack: Vec<u8> = Vec::new();
    let mut expect = Expect::Value;
    let mut i = range.start;
    loop {
        while i < end && matches!(b[i], b' ' | b'\t' | b'\n' | b'\r') {
            i += 1;
        }
        if i >= end {
            return if stack.is_empty() && expect == Expect::CommaOrClose {
                Ok(())
            } else {
                Err(i)
            };
        }
        let c = b[i];
        let mut value_done = false;
        match (expect, c) {
            (Expect::Value | Expect::ValueOrClose, b'{') => {
                stack.push(b'{');
                expect = Expect::KeyOrClose;
                i += 1;
            }
            (Expect::Value | Expect::ValueOrClose, b'[') => {
                stack.push(b'[');
                expect = Expect::ValueOrClose;
                i += 1;
            }
            (Expect::ValueOrClose, b']') | (Expect::KeyOrClose, b'}') => {
                stack.pop();
                value_done = true;
                i += 1;
            }
            (Expect::CommaOrClose, b']' | b'}') => {
                let open = if c == b']' { b'[' } else { b'{' };
                if stack.pop() != Some(open) {
                    return Err(i);
                }
                value_done = true;
                i += 1;
            }
            (Expect::CommaOrClose, b',') if !stack.is_empty() => {
                expect = if stack.last() == Some(&b'{') {
                    Expect::Key
                } else {
                    Expect::Value
                };
                i += 1;
            }
            (Expect::KeyOrClose | Expect::Key, b'"') => {
                i = string_end(b, i, end)?;
                expect = Expect::Colon;
            }
            (Expect::Colon, b':') => {
                expect = Expect::Value;
                i += 1;
            }
            (Expect::Value | Expect::ValueOrClose, _) => {
                i = scalar_end(b, i, end)?;
                value_done = true;
            }
            _ => return Err(i),
        }
        if value_done {
            expect = Expect::CommaOrClose;
        }
    }
}

/// The end of the string opening at `i`: escapes as JSON has them, no raw control character.
fn string_end(b: &[u8], mut i: usize, end: usize) -> Result<usize, usize> {
    i += 1;
    while i < end {
        match b[i] {
            b'"' => return Ok(i + 1),
            b'\\' => match b.get(i + 1) {
                Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => i += 2,
                Some(b'u')
                    if b.get(i + 2..i + 6)
                        .is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit)) =>
                {
                    i += 6
                }
                _ => return Err(i),
            },
            c if c < 0x20 => return Err(i),
            _ => i += 1,
        }
    }
    Err(i)
}

/// The end of the string, number or literal starting at `i`.
fn scalar_end(b: &[u8], i: usize, end: usize) -> Result<usize, usize> {
    if b[i] == b'"' {
        return string_end(b, i, end);
    }
    for word in [&b"true"[..], b"false", b"null"] {
        if b[i..end].starts_with(word) {
            return Ok(i + word.len());
        }
    }
    let digits = |mut j: usize| {
        let from = j;
        while j < end && b[j].is_ascii_digit() {
            j += 1;
        }
        (j > from).then_some(j)
    };
    let mut j = i + usize::from(b[i] == b'-');
    j = match b.get(j) {
        Some(b'0') => j + 1,
        Some(b'1'..=b'9') => digits(j).ok_or(j)?,
        _ => return Err(i),
    };
    if b.get(j) == Some(&b'.') {
        j = digits(j + 1).ok_or(j)?;
    }
    if matches!(b.get(j), Some(b'e' | b'E')) {
        j += 1;
        if matches!(b.get(j), Some(b'+' | b'-')) {
            j += 1;
        }
        j = digits(j).ok_or(j)?;
    }
    Ok(j)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nested(n: usize, inner: &str) -> String {
        format!("{}{inner}{}", "[".repeat(n), "]".repeat(n))
    }

    #[test]
    fn strict_values_pass_and_faults_are_located() {
        for ok in [
            "[]",
            "{\"a\": [1, -2.5e+3, true, null, \"x\\u00e9\\n\"]}",
            " [ {} , [ ] ] ",
        ] {
            assert_eq!(check_value(ok, 0..ok.len()), Ok(()), "{ok}");
        }
        for (bad, at) in [
            ("[1,]", 3),
            ("[01]", 2),
            ("{\"a\" 1}", 5),
            ("[\"\t\"]", 2),
            ("[1] 2", 4),
            ("[[]", 3),
        ] {
            assert_eq!(check_value(bad, 0..bad.len()), Err(at), "{bad}");
        }
        let deep = nested(100_000, "{\"k\": [1, 2]}");
        assert_eq!(check_value(&deep, 0..deep.len()), Ok(()));
    }

    #[test]
    fn the_depth_codex_stops_at_is_found_outside_strings() {
        let at_127 = nested(127, "\"[[[\\\"{\"");
        assert_eq!(opening_at_depth(&at_127, 128), None);
        let at_128 = format!(" {}", nested(128, ""));
        assert_eq!(opening_at_depth(&at_128, 128), Some(128));
    }

    #[test]
    fn only_deep_top_level_values_other_than_hooks_are_masked() {
        let deep = nested(2000, "1");
        let body = format!("{{\"x\": {deep}, \"hooks\": {{}}, \"y\": [[1]]}}");
        let masked = mask(&body).unwrap();
        assert_eq!(masked.text.len(), body.len());
        assert_eq!(masked.masks.len(), 1);
        assert_eq!(unmask(masked.text.clone(), &masked.masks).unwrap(), body);
        let hooks_deep = format!("{{\"hooks\": {deep}}}");
        assert!(mask(&hooks_deep).unwrap().masks.is_empty());
        let broken = format!("{{\"x\": {}}}", nested(2000, "1,"));
        assert!(mask(&broken).is_err());
    }
}
