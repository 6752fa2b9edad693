//! Rows 1–3 and 5 of the plan's precedence table, computed for every captured pane before any row is decided:
//! the record in force at the cutoff (the journal rule), the agent, the pane it joins, and — across all
//! of them — which row holds each (agent, conversation).

use super::{CapturedPane, JoinedBy, PlanInput};
use agterm_backup_core::agent::{agent, AgentSpec};
use agterm_backup_core::id::is_valid_session_id;
use agterm_backup_core::join::{Join, JoinInput, NotJoined};
use agterm_backup_core::record::LiveRecord;
use agterm_backup_core::terminal::PaneRef;
use agterm_backup_terminals::join as terminal_join;
use chrono::{DateTime, Utc};
use std::collections::HashMap;

/// Rows 1–3 for one captured pane: its record in force, the agent, and the pane its terminal's join
/// found (or why none).
pub(super) struct Joined<'a> {
    pub record: Option<(&'a LiveRecord, bool)>,
    pub spec: Option<&'static AgentSpec>,
    pub pane: Option<(usize, JoinedBy)>,
    pub not_joined: Option<NotJoined>,
    /// A pane the reboot took, to be created (row 3d): where.
    pub create: Option<PaneRef>,
    /// The newest word on the conversation in force: the current record when it names the same one
    /// (resumed again after the cutoff, or ended since), else the record in force.
    pub latest: Option<&'a LiveRecord>,
    /// The current record, when it was written in this launch (after the terminal's launch time) and names
    /// another conversation than the one in force: the pane holds that one now (resumed by hand), so no
    /// other pane may get it. A record between an `--as-of` and the launch holds nothing now.
    pub holds_now: Option<&'a LiveRecord>,
    /// The cutoff the journal rule used for this pane.
    pub cut: Option<DateTime<Utc>>,
}

pub(super) fn join<'a>(
    c: &'a CapturedPane,
    cut: Option<DateTime<Utc>>,
    launched_at: Option<DateTime<Utc>>,
    input: &PlanInput<'_>,
) -> Joined<'a> {
    // A pane that is its own terminal (its row says): its own start, or the boot once it is gone.
    let (cut, launched_at) = terminal_join::launch_of(c, input.panes)
        .map_or((cut, launched_at), |l| {
            (input.as_of.or(l).or(launched_at), l.or(launched_at))
        });
    let record = record_at(c, cut);
    let spec = record
        .and_then(|(r, _)| agent(&r.agent))
        .filter(|_| record.is_some_and(|(r, _)| is_valid_session_id(&r.session_id)));
    let same = |a: &LiveRecord, b: &LiveRecord| {
        a.agent == b.agent && a.session_id.eq_ignore_ascii_case(&b.session_id)
    };
    let in_this_launch = |r: &LiveRecord| launched_at.is_some_and(|l| r.written_at() > Some(l));
    // The current record, unless it is the agent dying with the old terminal (a `SessionEnd` that is
    // not the user's, landing after the new launch): that says nothing about who holds it now.
    let current = c
        .record
        .as_ref()
        .filter(|r| !(in_this_launch(r) && r.event == "SessionEnd" && !r.ended_by_user()));
    let latest = record.map(|(rec, _)| current.filter(|r| same(r, rec)).unwrap_or(rec));
    // Also a pane with nothing in force (its first record is from this launch) holds what it runs now.
    let holds_now =
        current.filter(|r| in_this_launch(r) && record.is_none_or(|(rec, _)| !same(r, rec)));
    let (mut pane, mut not_joined, mut create) = (None, None, None);
    if let Some(rec) = record.map(|(r, _)| r).or(holds_now) {
        match terminal_join::join(&JoinInput {
            panes: input.panes,
            captured: input.captured,
            pane: c,
            record: rec,
            cut,
        }) {
            Join::Pane(i, by) => pane = Some((i, by)),
            Join::Create(target) => create = Some(target),
            Join::Not(why) => not_joined = Some(why),
        }
    }
    Joined {
        record,
        spec,
        pane,
        not_joined,
        create,
        latest,
        holds_now,
        cut,
    }
}

/// For each (agent, conversation) named by a joined row, the row that holds it: the pane whose newest
/// word on it is newest, the first such row on a tie (input order). A pane's word is its newest record
/// naming the conversation, so the journal rule decides what a pane is restored to, not who held a
/// conversation last: a pane restore typed (or the user resumed it in) after the cutoff holds it now,
/// which a second restore must not hand to another pane.
pub(super) fn holders<'a>(
    joined: &[Joined<'a>],
) -> HashMap<(String, String), (usize, &'a LiveRecord)> {
    let mut newest: HashMap<(String, String), (usize, &'a LiveRecord)> = HashMap::new();
    for (i, j) in joined.iter().enumerate() {
        if j.pane.is_none() && j.create.is_none() {
            continue;
        }
        let in_force = j.latest.filter(|_| j.spec.is_some());
        for rec in in_force.into_iter().chain(j.holds_now) {
            let held = newest.entry(conversation(rec)).or_insert((i, rec));
            if rec.written_at() > held.1.written_at() {
                *held = (i, rec);
            }
        }
    }
    newest
}

fn conversation(rec: &LiveRecord) -> (String, String) {
    (rec.agent.clone(), rec.session_id.to_ascii_lowercase())
}

/// The row that holds row `i`'s conversation (possibly `i` itself), with its newest record naming it.
pub(super) fn holder<'a>(
    holders: &HashMap<(String, String), (usize, &'a LiveRecord)>,
    joined: &[Joined<'a>],
    i: usize,
) -> Option<(usize, &'a LiveRecord)> {
    let (rec, _) = joined[i].record?;
    holders.get(&conversation(rec)).copied()
}

/// The record in force at `cut`: the current one when written at or before it, else the newest journal
/// entry that was. The flag says whether the journal supplied it.
pub fn record_at(c: &CapturedPane, cut: Option<DateTime<Utc>>) -> Option<(&LiveRecord, bool)> {
    let Some(cut) = cut else {
        // A pane whose record is missing or broken falls back on its journal, and its row says so.
        return match &c.record {
            Some(r) => Some((r, false)),
            None => c.journal.last().map(|r| (r, true)),
        };
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
