//! A PreToolUse storm: many hooks of one pane at once never corrupt the record, never tear or duplicate a
//! journal line.

use crate::hook_common::*;

fn storm(w: &World, payloads: &[Vec<u8>]) {
    let argv = [
        hook_bin().display().to_string(),
        "hook".into(),
        "claude".into(),
    ];
    let runs: Vec<_> = payloads
        .iter()
        .map(|p| w.start(&argv, w.path(), &Stdin::Bytes(p)))
        .collect();
    for r in runs {
        r.wait_silent();
    }
}

#[test]
fn fifty_concurrent_hooks_of_one_session_leave_one_record_and_one_journal_line() {
    let w = World::new();
    let a: Vec<_> = (0..50)
        .map(|i| {
            claude_payload(
                if i == 0 { "SessionStart" } else { "PreToolUse" },
                ID_A,
                "/w/p",
                "/w/p",
            )
        })
        .collect();
    storm(&w, &a);
    let r = w.record().expect("a valid record");
    assert_eq!(r.session_id, ID_A);
    assert_eq!(w.journal().len(), 1, "journal:\n{}", w.journal_text());
    // A new session arrives in a storm: exactly one more line.
    let b: Vec<_> = (0..50)
        .map(|_| claude_payload("PreToolUse", ID_B, "/w/p", "/w/p"))
        .collect();
    storm(&w, &b);
    assert_eq!(w.record().unwrap().session_id, ID_B);
    let ids: Vec<_> = w.journal().into_iter().map(|r| r.session_id).collect();
    assert_eq!(ids, [ID_A, ID_B]);
    assert_no_torn_lines(&w);
    // Hooks that waited longer than the lock budget gave up (allowed: the holder writes the same
    // session); they must say so in the log and nowhere else.
    let gave_up = log_text(&w).matches("held").count();
    eprintln!("{gave_up} of 100 hooks gave up on the pane lock");
}

#[test]
fn interleaved_sessions_journal_every_change_and_nothing_else() {
    let w = World::new();
    let mixed: Vec<_> = (0..50)
        .map(|i| {
            claude_payload(
                "PreToolUse",
                if i % 2 == 0 { ID_A } else { ID_B },
                "/w/p",
                "/w/p",
            )
        })
        .collect();
    storm(&w, &mixed);
    let journal = w.journal();
    assert!(!journal.is_empty());
    // Each line is a change from the one before, and the last line is the current record.
    for pair in journal.windows(2) {
        assert_ne!(
            pair[0].session_id, pair[1].session_id,
            "duplicate journal line"
        );
    }
    assert_eq!(
        journal.last().unwrap().session_id,
        w.record().unwrap().session_id
    );
    assert_no_torn_lines(&w);
}

fn assert_no_torn_lines(w: &World) {
    let text = w.journal_text();
    assert!(text.ends_with('\n'));
    for line in text.lines() {
        serde_json::from_str::<agterm_backup_core::record::LiveRecord>(line)
            .unwrap_or_else(|e| panic!("torn journal line ({e}): {line}"));
    }
}
