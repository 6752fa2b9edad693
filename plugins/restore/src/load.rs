//! Reading what the hook captured, for the planner.
//!
//! A journal only matters from its end: the planner needs the newest entry written at or before the
//! cutoff. So journals are read **backwards**, parsing one line at a time until an entry qualifies
//! (usually the last line) — a pane with a long history costs the same as one with a short one. The
//! journal handed to the planner holds that entry and everything after it, oldest first.

use crate::plan::CapturedPane;
use agterm_backup_core::pane::PaneKey;
use agterm_backup_core::record::LiveRecord;
use agterm_backup_core::state::{guard, StateDir};
use chrono::{DateTime, Utc};
use std::collections::BTreeMap;
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

/// How much of a journal's end is read first; the whole file only when no entry there qualifies.
const TAIL_BYTES: u64 = 64 * 1024;

/// The tail of a journal's text that the planner needs: the newest entry at or before `cutoff` and
/// every later entry, oldest first. Without a cutoff, the last entry. Torn lines are skipped.
pub fn journal_tail(text: &str, cutoff: Option<DateTime<Utc>>) -> (Vec<LiveRecord>, bool) {
    let mut tail = Vec::new();
    for line in text.lines().rev().filter(|l| !l.trim().is_empty()) {
        let Ok(rec) = serde_json::from_str::<LiveRecord>(line) else {
            continue;
        };
        let qualifies = match cutoff {
            None => true,
            Some(c) => rec.written_at().is_some_and(|t| t <= c),
        };
        tail.push(rec);
        if qualifies {
            tail.reverse();
            return (tail, true);
        }
    }
    tail.reverse();
    (tail, false)
}

/// Reads a journal file's tail (see [`journal_tail`]): the last 64 KiB first, the whole file only if no
/// entry there qualifies.
pub fn read_journal_tail(path: &Path, cutoff: Option<DateTime<Utc>>) -> Vec<LiveRecord> {
    // A link in the journal's place is broken, never read through (`status` names it).
    let Ok(mut f) = guard::open_read(path) else {
        return Vec::new();
    };
    let len = f.metadata().map(|m| m.len()).unwrap_or(0);
    if len > TAIL_BYTES && f.seek(SeekFrom::Start(len - TAIL_BYTES)).is_ok() {
        let mut buf = Vec::new();
        if f.read_to_end(&mut buf).is_ok() {
            // Drop the partial first line of the window.
            let start = buf
                .iter()
                .position(|&b| b == b'\n')
                .map_or(buf.len(), |i| i + 1);
            let (tail, found) = journal_tail(&String::from_utf8_lossy(&buf[start..]), cutoff);
            if found {
                return tail;
            }
        }
    }
    guard::read(path)
        .map(|b| journal_tail(&String::from_utf8_lossy(&b), cutoff).0)
        .unwrap_or_default()
}

/// Every pane with a record or a journal in the state directory, plus harvested snapshot entries for panes
/// that have neither (a snapshot id never overrides a live one).
pub fn captured_panes(state: &StateDir, cutoff: Option<DateTime<Utc>>) -> Vec<CapturedPane> {
    let mut out: BTreeMap<PaneKey, CapturedPane> = BTreeMap::new();
    for key in agterm_backup_terminals::pane_keys(state) {
        let record = state.read_record(&key);
        let journal = read_journal_tail(&state.journal_path(&key), cutoff);
        out.insert(
            key.clone(),
            CapturedPane {
                key,
                record,
                journal,
            },
        );
    }
    for rec in harvested(state) {
        let Some(key) = agterm_backup_terminals::record_key(&rec) else {
            continue;
        };
        out.entry(key.clone()).or_insert(CapturedPane {
            key,
            record: Some(rec),
            journal: Vec::new(),
        });
    }
    let mut captured: Vec<CapturedPane> = out.into_values().collect();
    // A terminal's panes may move without an agent event: its row has each record follow its pane.
    agterm_backup_terminals::join::follow(&mut captured, state.root());
    captured
}

/// The harvested records in the latest snapshot (`snapshot.json` → `harvested`).
pub fn harvested(state: &StateDir) -> Vec<LiveRecord> {
    let Ok(bytes) = guard::read(&state.latest_snapshot()) else {
        return Vec::new();
    };
    let text = String::from_utf8_lossy(&bytes);
    let Ok(v) = serde_json::from_str::<serde_json::Value>(&text) else {
        return Vec::new();
    };
    v.get("harvested")
        .and_then(|h| h.as_array())
        .map(|a| {
            a.iter()
                .filter_map(|r| serde_json::from_value(r.clone()).ok())
                .collect()
        })
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::{record, ts, ID_A, ID_B};
    use agterm_backup_core::pane::PaneRole;

    fn text(recs: &[LiveRecord]) -> String {
        recs.iter().map(|r| r.to_json_line() + "\n").collect()
    }

    #[test]
    fn tail_stops_at_the_newest_entry_before_the_cutoff() {
        let a = record(ID_A, PaneRole::Left, "2026-11-30T10:00:00Z");
        let b = record(ID_B, PaneRole::Left, "2026-12-01T09:00:00Z");
        let t = format!(
            "{}{{torn\n{}",
            text(&[a.clone(), a.clone()]),
            text(std::slice::from_ref(&b))
        );
        let (tail, found) = journal_tail(&t, Some(ts("2026-12-01T00:00:00Z")));
        assert!(found);
        assert_eq!(tail, vec![a, b.clone()]);
        assert_eq!(journal_tail(&t, None).0, vec![b]);
        assert!(!journal_tail(&t, Some(ts("2026-01-01T00:00:00Z"))).1);
    }

    #[test]
    fn long_journal_files_are_read_from_the_end_and_fall_back_to_the_whole() {
        let tmp = tempfile::tempdir().unwrap();
        let p = tmp.path().join("j.jsonl");
        let old = record(ID_A, PaneRole::Left, "2026-11-01T00:00:00Z");
        let new = record(ID_B, PaneRole::Left, "2026-12-01T09:00:00Z");
        let mut body = text(std::slice::from_ref(&old));
        body.push_str(&text(&vec![new.clone(); 400])); // > 64 KiB of entries after the cutoff
        std::fs::write(&p, body).unwrap();
        let tail = read_journal_tail(&p, Some(ts("2026-11-15T00:00:00Z")));
        assert_eq!(tail.first(), Some(&old));
        assert_eq!(tail.len(), 401);
        assert_eq!(read_journal_tail(&p, None), vec![new]);
        assert!(read_journal_tail(&tmp.path().join("absent"), None).is_empty());
    }

    proptest::proptest! {
        /// Reading backwards finds exactly what a full parse + filter finds, torn lines or not.
        #[test]
        fn tail_agrees_with_a_full_parse(
            minutes in proptest::collection::vec(0i64..500, 0..40),
            torn in proptest::collection::vec(proptest::bool::ANY, 0..40),
            cut in 0i64..600,
        ) {
            let base = ts("2026-11-01T00:00:00Z");
            let mut t = String::new();
            let mut sorted = minutes.clone();
            sorted.sort();
            for (i, m) in sorted.iter().enumerate() {
                let at = (base + chrono::Duration::minutes(*m)).to_rfc3339();
                t.push_str(&record(ID_A, PaneRole::Left, &at).to_json_line());
                t.push('\n');
                if torn.get(i).copied().unwrap_or(false) {
                    t.push_str("{\"v\":1,\"agent\n");
                }
            }
            let cutoff = base + chrono::Duration::minutes(cut);
            let all = agterm_backup_core::record::parse_journal(&t);
            let want = all.iter().rposition(|r| r.written_at().unwrap() <= cutoff);
            let (tail, found) = journal_tail(&t, Some(cutoff));
            proptest::prop_assert_eq!(found, want.is_some());
            if let Some(i) = want {
                proptest::prop_assert_eq!(&tail[..], &all[i..]);
            }
        }
    }

    #[test]
    fn harvested_entries_never_override_live_records() {
        let tmp = tempfile::tempdir().unwrap();
        let s = StateDir::at(tmp.path());
        s.ensure().unwrap();
        let live = record(ID_A, PaneRole::Left, "2026-11-30T10:00:00Z");
        agterm_backup_terminals::write_record(&s, &live).unwrap();
        let mut h1 = record(ID_B, PaneRole::Left, "2026-11-30T11:00:00Z");
        h1.event = "harvest".into();
        let h2 = record(ID_B, PaneRole::Right, "2026-11-30T11:00:00Z");
        let snap =
            serde_json::json!({"v": 1, "taken_at": "2026-11-30T11:00:00Z", "harvested": [h1, h2]});
        std::fs::write(s.latest_snapshot(), snap.to_string()).unwrap();
        let got = captured_panes(&s, None);
        assert_eq!(got.len(), 2);
        assert_eq!(got[0].record.as_ref().unwrap().session_id, ID_A);
        assert_eq!(
            agterm_backup_agterm::key::split(&got[1].key).unwrap().role,
            PaneRole::Right
        );
        assert_eq!(got[1].record.as_ref().unwrap().session_id, ID_B);
    }

    #[test]
    fn a_linked_record_or_journal_is_broken_never_read_through() {
        let tmp = tempfile::tempdir().unwrap();
        let s = StateDir::at(tmp.path().join("st"));
        s.ensure().unwrap();
        let r = record(ID_A, PaneRole::Left, "2026-11-30T10:00:00Z");
        let key = agterm_backup_terminals::record_key(&r).unwrap();
        // Whole, valid files elsewhere: read only when the link is followed.
        let (rec, jour) = (tmp.path().join("rec.json"), tmp.path().join("j.jsonl"));
        std::fs::write(&rec, serde_json::to_vec(&r).unwrap()).unwrap();
        std::fs::write(&jour, text(std::slice::from_ref(&r))).unwrap();
        std::os::unix::fs::symlink(&rec, s.record_path(&key)).unwrap();
        std::os::unix::fs::symlink(&jour, s.journal_path(&key)).unwrap();
        let got = captured_panes(&s, None);
        assert_eq!(got.len(), 1);
        assert_eq!((&got[0].record, got[0].journal.len()), (&None, 0));
        assert_eq!(s.broken_files(&agterm_backup_terminals::parse_key).len(), 2);
    }
}
