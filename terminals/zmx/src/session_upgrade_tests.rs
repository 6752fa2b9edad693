//! Upgrades keep working: the stems and records of zmx sessions exactly as the release before this
//! crate owned them wrote them (`tests/corpus/state-today/keys/zmx.tsv`, see its README) read back as
//! the same sessions, and this release writes them again byte for byte.

use super::*;
use agterm_backup_core::record::LiveRecord;

const CORPUS: &str = include_str!("../../../tests/corpus/state-today/keys/zmx.tsv");

/// Each line: socket dir, session name, the file stem, the record line.
fn corpus() -> Vec<(ZmxSession, &'static str, &'static str)> {
    CORPUS
        .lines()
        .map(|line| {
            let f: Vec<&str> = line.split('\t').collect();
            assert_eq!(f.len(), 4, "{line}");
            let session = ZmxSession {
                socket_dir: f[0].into(),
                name: f[1].into(),
                started: Some(1_800_000_000),
            };
            (session, f[2], f[3])
        })
        .collect()
}

#[test]
fn todays_stems_parse_as_the_same_sessions_and_are_written_byte_for_byte() {
    let all = corpus();
    assert_eq!(all.len(), 4);
    for (session, stem, _) in &all {
        let key = ZmxSession::parse_key(stem).unwrap_or_else(|| panic!("{stem} no longer reads"));
        assert_eq!((key.terminal(), key.to_string()), (NAME, stem.to_string()));
        assert_eq!(session.key(), key, "{stem}");
        assert_eq!(session.key_name(), *stem);
    }
}

#[test]
fn todays_records_read_as_their_session_and_write_back_byte_for_byte() {
    for (session, stem, line) in corpus() {
        let mut rec: LiveRecord = serde_json::from_str(line).unwrap();
        assert_eq!(rec.terminal, "zmx");
        assert_eq!(ZmxSession::of_record(&rec), Some(session.clone()), "{stem}");
        assert_eq!(
            ZmxSession::record_key(&rec)
                .map(|k| k.to_string())
                .as_deref(),
            Some(stem)
        );
        assert_eq!(rec.to_json_line(), line);
        // Stamped as the hook stamps the record it built from the pane's environment (the agterm
        // pane the multiplexer was started from filled in, another identity under another name):
        // the same bytes.
        rec.agterm_session = "6B1E0C2A-AAAA-BBBB-CCCC-0123456789AB".into();
        rec.role = agterm_backup_core::pane::PaneRole::Right;
        rec.pane_id = Some("9A2F0000-0000-0000-0000-000000000001".into());
        rec.window_id = Some("W1".into());
        rec.workspace_id = Some("S1".into());
        rec.terminal = "agterm".into();
        rec.set_zmx(&session);
        assert_eq!(rec.to_json_line(), line);
    }
}
