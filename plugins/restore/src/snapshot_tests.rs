use super::*;
use crate::fixtures::{pane, record, ts, ID_A};
use agterm_backup_core::pane::PaneRole;
use std::os::unix::fs::PermissionsExt;

fn snap(records: Vec<LiveRecord>) -> Snapshot {
    Snapshot {
        v: 1,
        taken_at: "2026-12-01T09:00:00Z".into(),
        terminal: None,
        error: None,
        terminals: vec![],
        panes: vec![pane(PaneRole::Left)],
        records,
        harvested: vec![],
    }
}

#[test]
fn writes_both_files_0600_and_keeps_the_newest() {
    let tmp = tempfile::tempdir().unwrap();
    let s = StateDir::at(tmp.path().join("st"));
    let s1 = snap(vec![record(ID_A, PaneRole::Left, "2026-11-30T10:00:00Z")]);
    for i in 0..5 {
        write(&s, &s1, ts(&format!("2026-12-01T09:00:0{i}Z")), 3).unwrap();
    }
    let mut names: Vec<String> = std::fs::read_dir(s.snapshots_dir())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(
        names,
        vec![
            "20261201T090002.000Z.json",
            "20261201T090003.000Z.json",
            "20261201T090004.000Z.json"
        ]
    );
    let latest = s.latest_snapshot();
    assert_eq!(
        std::fs::metadata(&latest).unwrap().permissions().mode() & 0o777,
        0o600
    );
    let back: Snapshot = serde_json::from_str(&std::fs::read_to_string(latest).unwrap()).unwrap();
    assert_eq!(back, s1);
    assert_eq!(
        crate::cutoff::snapshot_time(&serde_json::to_string(&back).unwrap()),
        Some(ts("2026-12-01T09:00:00Z"))
    );
}

#[test]
fn scrollback_ids_in_order() {
    let text = format!("foo\nSession ID: {ID_A}\nbar Session ID:  77E8CA85-2B1C-4A8E-9D0B-0C1D2E3F4A5C\nSession ID: nope\n");
    assert_eq!(
        scrollback_ids(&text),
        vec![
            ID_A.to_string(),
            "77e8ca85-2b1c-4a8e-9d0b-0c1d2e3f4a5c".to_string()
        ]
    );
}

#[test]
fn harvest_needs_a_transcript_and_never_overrides_a_live_record() {
    let tmp = tempfile::tempdir().unwrap();
    let claude = tmp.path().join(".claude");
    let proj = claude.join("projects/-w-p");
    std::fs::create_dir_all(&proj).unwrap();
    std::fs::write(
        proj.join(format!("{ID_A}.jsonl")),
        "{\"type\":\"x\"}\n{\"cwd\":\"/w/p\",\"sessionId\":\"x\"}\n",
    )
    .unwrap();
    let p = pane(PaneRole::Left);
    let ghost = "00000000-0000-4000-8000-000000000000";
    // The newest id has no transcript: the older one with a transcript wins.
    let text = format!("Session ID: {ID_A}\n…\nSession ID: {ghost}\n");
    let at = ts("2026-12-01T09:00:00Z");
    let r = harvest_pane(&p, &text, &HashSet::new(), &claude, at).unwrap();
    assert_eq!(r.session_id, ID_A);
    assert_eq!(r.agent_cwd, "/w/p");
    assert_eq!(r.event, "harvest");
    assert_eq!(
        agterm_backup_terminals::record_key(&r),
        agterm_backup_agterm::key::key(&p.session_id, PaneRole::Left)
    );
    assert!(harvest_pane(
        &p,
        &format!("Session ID: {ghost}"),
        &HashSet::new(),
        &claude,
        at
    )
    .is_none());
    let live: HashSet<PaneKey> =
        [agterm_backup_agterm::key::key(&p.session_id, PaneRole::Left).unwrap()].into();
    assert!(harvest_pane(&p, &text, &live, &claude, at).is_none());
}
