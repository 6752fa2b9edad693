//! Rows 1–3 and 5 of the plan's precedence table, computed for every captured pane before any row is decided:
//! the record in force at the cutoff (the journal rule), the agent, the pane it joins, and — across all
//! of them — which row holds each (agent, conversation).

use super::{CapturedPane, JoinedBy};
use agterm_backup_core::agent::{agent, AgentSpec};
use agterm_backup_core::id::is_valid_session_id;
use agterm_backup_core::pane::PaneRole;
use agterm_backup_core::record::LiveRecord;
use chrono::{DateTime, Utc};
use std::collections::HashMap;

/// Rows 1–3 for one captured pane: its record in force, the agent, and the pane it joined.
pub(super) struct Joined<'a> {
    pub record: Option<(&'a LiveRecord, bool)>,
    pub spec: Option<&'static AgentSpec>,
    pub pane: Option<(usize, JoinedBy)>,
}

pub(super) fn join<'a>(
    c: &'a CapturedPane,
    cut: Option<DateTime<Utc>>,
    by_id: &HashMap<String, usize>,
    by_session: &HashMap<(String, PaneRole), usize>,
) -> Joined<'a> {
    let record = record_at(c, cut);
    let spec = record
        .and_then(|(r, _)| agent(&r.agent))
        .filter(|_| record.is_some_and(|(r, _)| is_valid_session_id(&r.session_id)));
    let pane = record.and_then(|(rec, _)| {
        rec.pane_id
            .as_ref()
            .and_then(|id| by_id.get(&id.to_ascii_uppercase()))
            .map(|&i| (i, JoinedBy::PaneId))
            .or_else(|| {
                by_session
                    .get(&(c.key.session.clone(), c.key.role))
                    .map(|&i| (i, JoinedBy::SessionRole))
            })
    });
    Joined { record, spec, pane }
}

/// For each (agent, conversation) named by a joined row, the row that holds it: the newest record in
/// force, the first such row on a tie (input order).
pub(super) fn holders(joined: &[Joined<'_>]) -> HashMap<(String, String), usize> {
    let mut out: HashMap<(String, String), usize> = HashMap::new();
    for (i, j) in joined.iter().enumerate() {
        let (Some((rec, _)), Some(_), Some(_)) = (j.record, j.spec, j.pane) else {
            continue;
        };
        let key = (rec.agent.clone(), rec.session_id.to_ascii_lowercase());
        let newer = |held: &usize| {
            let old = joined[*held].record.and_then(|(r, _)| r.written_at());
            rec.written_at() > old
        };
        if out.get(&key).is_none_or(newer) {
            out.insert(key, i);
        }
    }
    out
}

/// The row that holds row `i`'s conversation, when that is another row.
pub(super) fn winner(
    holders: &HashMap<(String, String), usize>,
    joined: &[Joined<'_>],
    i: usize,
) -> Option<usize> {
    let (rec, _) = joined[i].record?;
    let key = (rec.agent.clone(), rec.session_id.to_ascii_lowercase());
    holders.get(&key).copied().filter(|&w| w != i)
}

/// The record in force at `cut`: the current one when written at or before it, else the newest journal
/// entry that was. The flag says whether the journal supplied it.
pub fn record_at(c: &CapturedPane, cut: Option<DateTime<Utc>>) -> Option<(&LiveRecord, bool)> {
    let Some(cut) = cut else {
        return c.record.as_ref().or(c.journal.last()).map(|r| (r, false));
    };
    let before = |r: &LiveRecord| r.written_at().is_some_and(|t| t <= cut);
    if let Some(r) = c.record.as_ref().filter(|r| before(r)) {
        return Some((r, false));
    }
    // The journal is append-only, so the newest qualifying entry is the last one.
    c.journal
        .iter()
        .rev()
        .find(|r| before(r))
        .map(|r| (r, true))
}
