//! Upgrades keep working: the stems and records of zmx sessions exactly as the release before this
//! crate owned them wrote them (`tests/corpus/state-today/keys/zmx.tsv`, see its README) read back as
//! the same sessions, and this release writes them again byte for byte.

use super::*;
use agterm_backup_core::fixtures::assert_own_pane_upgrades;

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
fn todays_stems_and_records_read_as_the_same_sessions_and_are_written_byte_for_byte() {
    let all = corpus();
    assert_eq!(all.len(), 4);
    for (session, stem, line) in &all {
        assert_own_pane_upgrades(session, stem, line);
        assert_eq!(session.key_name(), *stem);
    }
}
