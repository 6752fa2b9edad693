//! What of a `config.toml` is ours: our handlers (and the groups that hold nothing else), our block's
//! markers and note, and the trust records Codex keeps for our hooks' positions.

use super::groups_of;
use super::sections::{Owner, Section};
use crate::command::is_ours;
use crate::{codex_event_label, OUR_EVENTS};
use toml_edit::DocumentMut;

/// Where our block sits among `secs`: the first start marker that an end marker follows with no other
/// start marker between (a lone marker of either kind is the user's comment and stays).
pub(super) fn block(secs: &[Section]) -> Option<(usize, usize)> {
    let mut open = None;
    for (i, s) in secs.iter().enumerate() {
        match s.owner {
            Owner::Start => open = Some(i),
            Owner::End => {
                if let Some(start) = open {
                    return Some((start, i));
                }
            }
            _ => {}
        }
    }
    None
}

/// Every handler of ours that Codex would load: (event, group, handler), positions as in its trust keys.
pub(super) fn our_handlers(doc: &DocumentMut) -> Vec<(&'static str, usize, usize)> {
    let mut out = Vec::new();
    for event in OUR_EVENTS {
        for (g, handlers) in groups_of(doc, event).iter().enumerate() {
            for (h, cmd) in handlers.iter().enumerate() {
                if cmd.as_deref().is_some_and(|c| is_ours(c, "codex")) {
                    out.push((event, g, h));
                }
            }
        }
    }
    out
}

/// What of the file is ours: our handlers (and groups that hold nothing else), our block's markers and
/// note, and, when `trust` is given, the trust records keyed by one of `trust`'s sources at one of our
/// handlers' positions.
pub(super) struct Ours {
    pub handlers: Vec<(&'static str, usize, usize)>,
    groups: Vec<Vec<usize>>,
    pub block: Option<(usize, usize)>,
    trust_keys: Vec<String>,
}

impl Ours {
    pub(super) fn new(doc: &DocumentMut, secs: &[Section], trust_sources: &[String]) -> Ours {
        let handlers = our_handlers(doc);
        let groups = OUR_EVENTS
            .iter()
            .map(|&event| {
                groups_of(doc, event)
                    .iter()
                    .enumerate()
                    .filter(|(g, hs)| {
                        !hs.is_empty() && (0..hs.len()).all(|h| handlers.contains(&(event, *g, h)))
                    })
                    .map(|(g, _)| g)
                    .collect()
            })
            .collect();
        let trust_keys = trust_sources
            .iter()
            .flat_map(|src| {
                handlers
                    .iter()
                    .map(move |(e, g, h)| format!("{src}:{}:{g}:{h}", codex_event_label(e)))
            })
            .collect();
        Ours {
            handlers,
            groups,
            block: block(secs),
            trust_keys,
        }
    }

    fn group_is_ours(&self, event: &str, group: usize) -> bool {
        let e = OUR_EVENTS
            .iter()
            .position(|x| *x == event)
            .expect("our event");
        self.groups[e].contains(&group)
    }

    pub(super) fn owns(&self, i: usize, section: &Section) -> bool {
        match &section.owner {
            Owner::Group { event, group } => self.group_is_ours(event, *group),
            Owner::Handler {
                event,
                group,
                handler,
            } => {
                self.group_is_ours(event, *group)
                    || self.handlers.contains(&(*event, *group, *handler))
            }
            Owner::Start | Owner::End => self.block.is_some_and(|(a, b)| i == a || i == b),
            Owner::Note => true,
            Owner::Trust(key) => self.trust_keys.contains(key),
            Owner::Loose | Owner::Other => false,
        }
    }
}

/// The text of the sections in `range` that are not ours.
pub(super) fn kept(
    text: &str,
    secs: &[Section],
    ours: &Ours,
    range: std::ops::Range<usize>,
) -> String {
    range
        .filter(|&i| !ours.owns(i, &secs[i]))
        .map(|i| &text[secs[i].range.clone()])
        .collect()
}
