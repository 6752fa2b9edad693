//! `config.toml` as runs of lines, so that a table can be cut out without touching a byte of the others.
//!
//! A section is a table header with the key lines under it and the comment and blank lines just above it
//! (as `toml_edit` attaches them); our marker lines and note are sections of their own. Each table is
//! told apart by what it belongs to: a hook group (`[[hooks.<Event>]]`, counted per event as Codex counts
//! them in trust keys), a handler of a group (`[[hooks.<Event>.hooks]]`), a trust record
//! (`[hooks.state."<key>"]`), or something else.

use super::{BLOCK_END, BLOCK_NOTE, BLOCK_START};
use crate::OUR_EVENTS;
use std::ops::Range;

#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Owner {
    /// Lines before the first table, or stray lines after a marker.
    Loose,
    /// One of our marker lines or our note.
    Start,
    End,
    Note,
    /// The group `group` of `event` (its own header, matcher and sub-tables other than handlers).
    Group {
        event: &'static str,
        group: usize,
    },
    /// A handler of a group.
    Handler {
        event: &'static str,
        group: usize,
        handler: usize,
    },
    /// A `[hooks.state."<key>"]` trust record.
    Trust(String),
    Other,
}

#[derive(Debug, Clone)]
pub(super) struct Section {
    pub range: Range<usize>,
    pub owner: Owner,
}

fn body(line: &str) -> &str {
    line.trim_end_matches('\n').trim_end_matches('\r')
}

/// The dotted key of a table header (`[a."b c".d]` → `["a", "b c", "d"]`) and whether it is an array
/// table; `None` for a line that is not a header.
pub(super) fn header_path(line: &str) -> Option<(bool, Vec<String>)> {
    let t = line.trim();
    let (aot, inner) = if let Some(rest) = t.strip_prefix("[[") {
        (true, rest.split_once("]]")?.0)
    } else {
        (false, t.strip_prefix('[')?.split_once(']')?.0)
    };
    let mut parts = Vec::new();
    let mut chars = inner.trim().chars().peekable();
    loop {
        while chars.peek().is_some_and(|c| c.is_whitespace()) {
            chars.next();
        }
        let mut part = String::new();
        match chars.peek() {
            Some('"') => {
                chars.next();
                while let Some(c) = chars.next() {
                    match c {
                        '"' => break,
                        '\\' => part.push(chars.next()?),
                        c => part.push(c),
                    }
                }
            }
            Some('\'') => {
                chars.next();
                for c in chars.by_ref() {
                    if c == '\'' {
                        break;
                    }
                    part.push(c);
                }
            }
            _ => {
                while let Some(&c) = chars.peek() {
                    if c == '.' || c.is_whitespace() {
                        break;
                    }
                    part.push(c);
                    chars.next();
                }
            }
        }
        parts.push(part);
        while chars.peek().is_some_and(|c| c.is_whitespace()) {
            chars.next();
        }
        match chars.next() {
            Some('.') => continue,
            None => return Some((aot, parts)),
            Some(_) => return None,
        }
    }
}

/// Splits `text` into sections (contiguous, covering every byte) and tells each table's owner.
pub(super) fn sections(text: &str) -> Vec<Section> {
    let mut starts: Vec<(usize, Owner)> = vec![(0, Owner::Loose)];
    let mut pending: Option<usize> = None;
    let mut offset = 0;
    let mut counters: Vec<(usize, usize)> = vec![(0, 0); OUR_EVENTS.len()];
    // The group the tables seen last belong to: (event index, group).
    let mut current: Option<(usize, usize)> = None;
    for line in text.split_inclusive('\n') {
        let here = offset;
        offset += line.len();
        let b = body(line);
        let marker = match b {
            BLOCK_START => Some(Owner::Start),
            BLOCK_END => Some(Owner::End),
            BLOCK_NOTE => Some(Owner::Note),
            _ => None,
        };
        if let Some(owner) = marker {
            // Comment and blank lines above a marker belong to no table (a table's end marker, say).
            if let Some(p) = pending.take() {
                starts.push((p, Owner::Loose));
            }
            starts.push((here, owner));
            starts.push((offset, Owner::Loose));
            pending = None;
            continue;
        }
        let t = b.trim();
        if let Some((aot, path)) = t.starts_with('[').then(|| header_path(t)).flatten() {
            let owner = owner_of(aot, &path, &mut counters, &mut current);
            starts.push((pending.unwrap_or(here), owner));
            pending = None;
        } else if t.is_empty() || t.starts_with('#') {
            pending.get_or_insert(here);
        } else {
            pending = None;
        }
    }
    if let Some(p) = pending {
        starts.push((p, Owner::Loose));
    }
    let mut out: Vec<Section> = Vec::new();
    for (i, (start, owner)) in starts.iter().enumerate() {
        let end = starts.get(i + 1).map_or(text.len(), |(s, _)| *s);
        if end > *start {
            out.push(Section {
                range: *start..end,
                owner: owner.clone(),
            });
        }
    }
    out
}

fn owner_of(
    aot: bool,
    path: &[String],
    counters: &mut [(usize, usize)],
    current: &mut Option<(usize, usize)>,
) -> Owner {
    let event = |name: &str| OUR_EVENTS.iter().position(|e| *e == name);
    match path {
        [hooks, state, key] if hooks == "hooks" && state == "state" && !aot => {
            *current = None;
            Owner::Trust(key.clone())
        }
        [hooks, name] if hooks == "hooks" && aot && event(name).is_some() => {
            let e = event(name).expect("checked");
            let group = counters[e].0;
            counters[e] = (group + 1, 0);
            *current = Some((e, group));
            Owner::Group {
                event: OUR_EVENTS[e],
                group,
            }
        }
        [hooks, name, rest @ ..]
            if hooks == "hooks" && current.is_some_and(|(e, _)| Some(e) == event(name)) =>
        {
            let (e, group) = current.expect("checked");
            match rest {
                [h, ..] if h == "hooks" => {
                    if aot && rest.len() == 1 {
                        counters[e].1 += 1;
                    }
                    Owner::Handler {
                        event: OUR_EVENTS[e],
                        group,
                        handler: counters[e].1.saturating_sub(1),
                    }
                }
                _ => Owner::Group {
                    event: OUR_EVENTS[e],
                    group,
                },
            }
        }
        _ => {
            *current = None;
            Owner::Other
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_split_on_dots_outside_quotes() {
        assert_eq!(
            header_path("[hooks.state.\"/a b/config.toml:stop:0:0\"]"),
            Some((
                false,
                vec![
                    "hooks".into(),
                    "state".into(),
                    "/a b/config.toml:stop:0:0".into()
                ]
            ))
        );
        assert_eq!(
            header_path("[[ hooks . Stop . hooks ]]  # c"),
            Some((true, vec!["hooks".into(), "Stop".into(), "hooks".into()]))
        );
        assert_eq!(header_path("[a = 1"), None);
    }

    #[test]
    fn groups_and_handlers_are_counted_per_event() {
        let text = "a = 1\n# about stop\n[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ncommand = \"x\"\n[[hooks.Stop.hooks]]\ncommand = \"y\"\n[[hooks.Stop]]\n[[hooks.Stop.hooks]]\n[t]\n";
        let owners: Vec<Owner> = sections(text).into_iter().map(|s| s.owner).collect();
        let stop = "Stop";
        assert_eq!(
            owners,
            vec![
                Owner::Loose,
                Owner::Group {
                    event: stop,
                    group: 0
                },
                Owner::Handler {
                    event: stop,
                    group: 0,
                    handler: 0
                },
                Owner::Handler {
                    event: stop,
                    group: 0,
                    handler: 1
                },
                Owner::Group {
                    event: stop,
                    group: 1
                },
                Owner::Handler {
                    event: stop,
                    group: 1,
                    handler: 0
                },
                Owner::Other,
            ]
        );
        let s = sections(text);
        assert_eq!(&text[s[1].range.clone()], "# about stop\n[[hooks.Stop]]\n");
        assert_eq!(s.iter().map(|s| s.range.len()).sum::<usize>(), text.len());
    }
}
