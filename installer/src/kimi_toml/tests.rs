use super::*;

const CMD: &str = "'/opt/agterm backup/bin/agterm-backup' hook kimi";

const USER: &str = "# my kimi settings\ndefault_model = \"k2\"\n\n[providers.moonshot]\ntype = \"kimi\"\napi_key = \"sk-x\"\n\n[[hooks]]\nevent = \"Stop\"\ncommand = \"notify-send done\"\n";

#[test]
fn apply_appends_one_block_that_kimi_reads_and_remove_gives_back_every_byte() {
    let applied = apply(Some(USER), CMD).unwrap();
    assert!(
        applied.starts_with(USER),
        "the user's bytes stay first:\n{applied}"
    );
    let doc = parse(&applied).unwrap();
    let all = entries(&doc).unwrap();
    assert_eq!(all.len(), 1 + OUR_EVENTS.len(), "{all:?}");
    for event in OUR_EVENTS {
        assert!(all
            .iter()
            .any(|(e, c)| e == event && c.as_deref() == Some(CMD)));
    }
    // Only the four keys Kimi's schema allows (it refuses the file otherwise).
    if let Some(Item::ArrayOfTables(aot)) = doc.get("hooks") {
        for t in aot.iter() {
            assert!(t
                .iter()
                .all(|(k, _)| ["event", "matcher", "command", "timeout"].contains(&k)));
        }
    }
    assert_eq!(remove(&applied).unwrap(), USER);
    assert_eq!(apply(Some(&applied), CMD).unwrap(), applied, "idempotent");
}

#[test]
fn a_new_file_is_only_our_block_and_crlf_files_stay_crlf() {
    let fresh = apply(None, CMD).unwrap();
    assert!(fresh.starts_with(BLOCK_START));
    assert_eq!(remove(&fresh).unwrap(), "");
    let crlf = USER.replace('\n', "\r\n");
    let applied = apply(Some(&crlf), CMD).unwrap();
    assert!(!applied.replace("\r\n", "").contains('\n'), "{applied:?}");
    assert_eq!(remove(&applied).unwrap(), crlf);
}

#[test]
fn a_new_binary_path_refreshes_the_block_in_place() {
    let first = apply(Some(USER), "/old/agterm-backup hook kimi").unwrap();
    let moved = format!("{first}\n[extra]\nx = 1\n");
    let refreshed = apply(Some(&moved), CMD).unwrap();
    assert!(refreshed.contains(CMD) && !refreshed.contains("/old/"));
    assert!(refreshed.ends_with("\n[extra]\nx = 1\n"));
    let states = inspect(Some(&refreshed), CMD).unwrap();
    assert!(states
        .iter()
        .all(|s| s.runs == 1 && s.place.as_ref().unwrap().current));
    let outdated = inspect(Some(&first), CMD).unwrap();
    assert!(outdated.iter().all(|s| !s.place.as_ref().unwrap().current));
}

/// Kimi rewrites its config itself (comments, our markers, gone): our tables are still found and taken out
/// one by one, the user's hook stays.
#[test]
fn hooks_of_ours_without_markers_are_taken_out_table_by_table() {
    let applied = apply(Some(USER), CMD).unwrap();
    let rewritten: String = applied
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| format!("{l}\n"))
        .collect();
    assert!(has_ours(&rewritten));
    let cut = remove(&rewritten).unwrap();
    assert!(!has_ours(&cut));
    assert!(cut.contains("notify-send done"));
    let again = apply(Some(&rewritten), CMD).unwrap();
    assert_eq!(
        inspect(Some(&again), CMD)
            .unwrap()
            .iter()
            .map(|s| s.runs)
            .sum::<usize>(),
        5
    );
}

#[test]
fn broken_toml_and_inline_hook_arrays_are_refused() {
    assert!(apply(Some("default_model = \n"), CMD).is_err());
    let inline = "hooks = [{ event = \"Stop\", command = \"x\" }]\n";
    assert!(apply(Some(inline), CMD).is_err());
    assert!(!has_ours(inline));
}
