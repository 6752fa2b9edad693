use super::*;
use proptest::prelude::*;

const PADDING: [char; 3] = [' ', '\t', '\u{00A0}'];

#[test]
fn starter_denies_multiplexers_only() {
    assert_eq!(parse(STARTER), vec!["tmux", "screen", "zellij"]);
    assert!(STARTER.ends_with("# less\n"));
}

#[test]
fn trims_spaces_and_tabs_but_not_carriage_returns() {
    assert_eq!(parse(" \ttmux\t \n"), vec!["tmux"]);
    assert_eq!(parse("\u{3000}vim\u{00A0}\n"), vec!["vim"]);
    // `\r` is not trimmed: with CRLF the whole text is one line for agterm.
    assert_eq!(parse("tmux\r\nscreen\r\n"), vec!["tmux\r\nscreen\r\n"]);
    assert_eq!(parse("tmux\r\n"), vec!["tmux\r\n"]);
}

#[test]
fn comments_only_at_line_start_and_no_inline_comments() {
    assert_eq!(parse("# tmux\n  # screen\ntmux # x\n"), vec!["tmux # x"]);
    assert!(!denies("tmux # x\n", "tmux"));
}

#[test]
fn entries_are_verbatim_and_case_sensitive() {
    assert!(denies("Claude\nclaude\n", "claude"));
    assert!(!denies("Claude\n", "claude"));
    assert_eq!(parse("/usr/bin/vim\n"), vec!["/usr/bin/vim"]);
}

#[test]
fn absent_file_gets_starter_then_our_block() {
    let text = with_our_block(None);
    assert!(text.starts_with(STARTER));
    assert_eq!(
        parse(&text),
        vec!["tmux", "screen", "zellij", "claude", "codex", "kimi-code"]
    );
    assert!(!text.contains('\r'));
    assert!(has_our_block(&text));
}

#[test]
fn apply_is_idempotent_and_remove_restores() {
    for original in [
        "",
        "vim\n",
        "vim",
        "tmux\n\n",
        "# only comments\n",
        "a\r\nb\r\n",
    ] {
        let applied = with_our_block(Some(original));
        assert_eq!(with_our_block(Some(&applied)), applied, "{original:?}");
        assert!(
            denies(&applied, "claude") && denies(&applied, "codex"),
            "{applied:?}"
        );
        let removed = without_our_block(&applied);
        if original.ends_with('\n') || original.is_empty() {
            assert_eq!(removed, original);
        } else {
            assert_eq!(removed, format!("{original}\n"));
        }
    }
}

#[test]
fn refreshes_an_edited_block_in_place() {
    let text = format!("vim\n\n{BLOCK_START}\nclaude\n{BLOCK_END}\nless\n");
    let applied = with_our_block(Some(&text));
    assert!(applied.starts_with("vim\n\n"));
    assert!(applied.ends_with(&format!("{BLOCK_END}\nless\n")));
    assert!(denies(&applied, "codex"));
    assert_eq!(applied.matches(BLOCK_START).count(), 1);
}

#[test]
fn a_start_marker_without_end_is_not_a_block() {
    let text = format!("{BLOCK_START}\nclaude\n");
    assert_eq!(find_block(&text), None);
    let applied = with_our_block(Some(&text));
    assert!(has_our_block(&applied));
}

proptest! {
    /// Every parsed entry is non-empty, trimmed, not a comment, and appears in the text.
    #[test]
    fn parsed_entries_follow_agterm_rules(text in "[a-z #\t\r\n\u{00A0}]{0,60}") {
        for entry in parse(&text) {
            prop_assert!(!entry.is_empty());
            prop_assert!(!entry.starts_with('#'));
            prop_assert!(!entry.starts_with(PADDING));
            prop_assert!(!entry.ends_with(PADDING));
            prop_assert!(text.contains(entry));
        }
    }

    /// Adding our block never changes what agterm read before, except adding claude and codex at the end.
    #[test]
    fn our_block_only_appends_entries(text in "[a-z #\t\n]{0,60}") {
        let applied = with_our_block(Some(&text));
        let mut expected: Vec<&str> = parse(&text);
        expected.extend(OUR_ENTRIES);
        prop_assert_eq!(parse(&applied), expected);
        prop_assert_eq!(with_our_block(Some(&applied)), applied.clone());
        let removed = without_our_block(&applied);
        prop_assert_eq!(parse(&removed), parse(&text));
        prop_assert!(applied.starts_with(&text));
    }

    /// A line is an entry exactly when its trimmed form is non-empty and not a comment.
    #[test]
    fn one_line_entries(word in "[a-z][a-z._-]{0,10}", pad in "[ \t]{0,3}") {
        let line = format!("{pad}{word}{pad}\n");
        prop_assert_eq!(parse(&line), vec![word.as_str()]);
        let commented = format!("{pad}#{word}\n");
        prop_assert!(parse(&commented).is_empty());
    }
}

#[test]
fn a_lone_end_marker_does_not_make_every_apply_add_a_block() {
    let stray = format!("tmux\n{BLOCK_END}\nvim\n");
    let once = with_our_block(Some(&stray));
    assert_eq!(with_our_block(Some(&once)), once);
    assert_eq!(once.matches(BLOCK_START).count(), 1);
    assert!(has_our_block(&once));
    assert_eq!(notes(&once).len(), 1, "{:?}", notes(&once));
    assert_eq!(without_our_block(&once), stray);
}

#[test]
fn entries_the_user_put_between_our_markers_stay_theirs() {
    let applied = with_our_block(Some("tmux\n"));
    let with_vim = applied.replace("kimi-code\n", "kimi-code\nvim\n");
    assert_eq!(with_our_block(Some(&with_vim)), with_vim);
    assert!(
        notes(&with_vim)[0].contains("`vim`"),
        "{:?}",
        notes(&with_vim)
    );
    assert_eq!(without_our_block(&with_vim), "tmux\nvim\n");
    // A damaged block (our entry deleted by hand) is repaired, the user's line kept.
    let damaged = with_vim.replace("claude\n", "");
    assert_eq!(with_our_block(Some(&damaged)), with_vim);
}
