//! Upgrades keep working: the stems and records of tmux panes exactly as the release before this crate
//! owned them wrote them (`tests/corpus/state-today/keys/tmux.tsv`, see its README) read back as the
//! same panes, and this release writes them again byte for byte.

use super::*;
use agterm_backup_core::record::LiveRecord;

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
fn todays_stems_parse_as_the_same_panes_and_are_written_byte_for_byte() {
    let all = corpus();
    assert_eq!(all.len(), 5);
    for (pane, stem, _) in &all {
        let key = TmuxPane::parse_key(stem).unwrap_or_else(|| panic!("{stem} no longer reads"));
        assert_eq!((key.terminal(), key.to_string()), (NAME, stem.to_string()));
        assert_eq!(pane.key(), key, "{stem}");
        assert_eq!(pane.key_name(), *stem);
    }
}

#[test]
fn todays_records_read_as_their_pane_and_write_back_byte_for_byte() {
    for (pane, stem, line) in corpus() {
        let mut rec: LiveRecord = serde_json::from_str(line).unwrap();
        assert_eq!(rec.terminal, "tmux");
        assert_eq!(TmuxPane::of_record(&rec), Some(pane.clone()), "{stem}");
        assert_eq!(rec.tmux(), Some(pane.clone()));
        assert_eq!(
            TmuxPane::record_key(&rec).map(|k| k.to_string()).as_deref(),
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
        rec.set_tmux(&pane);
        assert_eq!(rec.to_json_line(), line);
    }
}
