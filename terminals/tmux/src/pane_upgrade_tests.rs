//! Upgrades keep working: the stems and records of tmux panes exactly as the release before this crate
//! owned them wrote them (`tests/corpus/state-today/keys/tmux.tsv`, see its README) read back as the
//! same panes, and this release writes them again byte for byte.

use super::*;
use agterm_backup_core::fixtures::assert_own_pane_upgrades;

const CORPUS: &str = include_str!("../../../tests/corpus/state-today/keys/tmux.tsv");

/// Each line: socket, session, window, pane, the file stem, the record line.
fn corpus() -> Vec<(TmuxPane, &'static str, &'static str)> {
    CORPUS
        .lines()
        .map(|line| {
            let f: Vec<&str> = line.split('\t').collect();
            assert_eq!(f.len(), 6, "{line}");
            let pane = TmuxPane {
                socket: f[0].into(),
                session: f[1].into(),
                window: f[2].parse().unwrap(),
                pane: f[3].parse().unwrap(),
                pane_id: Some("%7".into()),
                server_pid: Some(4242),
                server_started: Some(1_700_000_000),
                cwd: Some("/w/p".into()),
            };
            (pane, f[4], f[5])
        })
        .collect()
}

#[test]
fn todays_stems_and_records_read_as_the_same_panes_and_are_written_byte_for_byte() {
    let all = corpus();
    assert_eq!(all.len(), 5);
    for (pane, stem, line) in &all {
        assert_own_pane_upgrades(pane, stem, line);
        assert_eq!(pane.key_name(), *stem);
    }
}
