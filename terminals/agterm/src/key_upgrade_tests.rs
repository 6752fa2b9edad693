//! Upgrades keep working: agterm's stems and records exactly as the release before this crate owned
//! them wrote them (`tests/corpus/state-today/keys/agterm.tsv`, and the `live/` folder beside it, see
//! its README) read back as the same panes, and this release writes them again byte for byte.

use super::*;

const CORPUS: &str = include_str!("../../../tests/corpus/state-today/keys/agterm.tsv");
const LIVE_LEFT: &str = include_str!("../../../tests/corpus/state-today/live/SESSION-left.json");

/// Each line: the session id as agterm gave it, the role, the file stem, the record line.
fn corpus() -> Vec<(&'static str, PaneRole, &'static str, &'static str)> {
    CORPUS
        .lines()
        .map(|line| {
            let f: Vec<&str> = line.split('\t').collect();
            assert_eq!(f.len(), 4, "{line}");
            (f[0], f[1].parse().unwrap(), f[2], f[3])
        })
        .collect()
}

#[test]
fn todays_stems_parse_as_the_same_panes_and_are_written_byte_for_byte() {
    let all = corpus();
    assert_eq!(all.len(), 2);
    for (session, role, stem, _) in all {
        let parsed = parse_key(stem).unwrap_or_else(|| panic!("{stem} no longer reads"));
        assert_eq!(
            (parsed.terminal(), parsed.to_string()),
            (NAME, stem.to_string())
        );
        assert_eq!(key(session, role), Some(parsed.clone()));
        assert_eq!(
            split(&parsed),
            Some(AgtermPaneKey {
                session: session.to_ascii_uppercase(),
                role
            })
        );
    }
}

#[test]
fn todays_records_read_as_their_pane_and_write_back_byte_for_byte() {
    for (_, _, stem, line) in corpus() {
        let rec: LiveRecord = serde_json::from_str(line).unwrap();
        assert_eq!(
            record_key(&rec).map(|k| k.to_string()).as_deref(),
            Some(stem)
        );
        assert_eq!(rec.to_json_line(), line);
    }
    // The state folder's own record (its placeholder session filled in as the upgrade test does).
    let session = "6B1E0C2A-AAAA-BBBB-CCCC-0123456789AB";
    let text = LIVE_LEFT.replace("@SESSION@", session);
    let rec: LiveRecord = serde_json::from_str(&text).unwrap();
    let k = record_key(&rec).unwrap();
    assert_eq!(k.to_string(), format!("{session}-left"));
    assert_eq!(parse_key(&k.to_string()), Some(k));
    let mut again = serde_json::to_string_pretty(&rec).unwrap();
    again.push('\n');
    assert_eq!(again, text, "the record is written back byte for byte");
}
