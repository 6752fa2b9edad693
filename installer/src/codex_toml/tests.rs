use super::*;

fn src(path: &str) -> Vec<String> {
    vec![path.to_string()]
}

const CMD: &str = "'/opt/bin/agterm-backup' hook codex";

const AGTERM_BLOCK: &str = "model = \"o3\"\n\n# >>> agterm agent-status >>>\n[[hooks.SessionStart]]\n[[hooks.SessionStart.hooks]]\ntype = \"command\"\ncommand = \"'/u/.config/agterm/agent-status/agterm-codex-status.sh' session-start\"\n\n[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = \"command\"\ncommand = \"'/u/.config/agterm/agent-status/agterm-codex-status.sh' stop\"\n\n[hooks.state.\"/u/.codex/config.toml:session_start:0:0\"]\ntrusted_hash = \"sha256:aaa\"\n\n[hooks.state.\"/u/.codex/config.toml:stop:0:0\"]\ntrusted_hash = \"sha256:bbb\"\n# <<< agterm agent-status <<<\n";

#[test]
fn appends_after_agterm_block_and_keeps_its_trust_positions() {
    let out = apply(Some(AGTERM_BLOCK), CMD).unwrap();
    assert!(
        out.starts_with(AGTERM_BLOCK),
        "everything before stays byte for byte"
    );
    let states = inspect(Some(&out), CMD).unwrap();
    let by_event: Vec<(&str, usize)> = states
        .iter()
        .map(|s| (s.event, s.place.as_ref().unwrap().group))
        .collect();
    // agterm's block has SessionStart and Stop groups: ours come after them, first everywhere else.
    let want: Vec<(&str, usize)> = OUR_EVENTS
        .iter()
        .map(|&e| (e, usize::from(e == "SessionStart" || e == "Stop")))
        .collect();
    assert_eq!(by_event, want);
    // agterm's hooks keep group 0, so their trust keys still match.
    let doc = parse(&out).unwrap();
    assert_eq!(
        groups_of(&doc, "Stop")[0][0].as_deref(),
        Some("'/u/.config/agterm/agent-status/agterm-codex-status.sh' stop")
    );
    assert_eq!(trusted_keys(&out).len(), 2);
    assert_eq!(
        remove(&out, &src("/u/.codex/config.toml")).unwrap(),
        AGTERM_BLOCK
    );
}

#[test]
fn reinstall_is_byte_stable_and_keeps_trust_tables_codex_put_in_our_block() {
    let once = apply(Some("model = \"o3\"\n"), CMD).unwrap();
    assert_eq!(apply(Some(&once), CMD).unwrap(), once);
    // Codex appends trust tables at EOF: inside our block when the end marker is a trailing comment.
    let trusted = once.replace(
        &format!("{BLOCK_END}\n"),
        &format!("\n[hooks.state.\"/h/config.toml:stop:0:0\"]\ntrusted_hash = \"sha256:ccc\"\n{BLOCK_END}\n"),
    );
    assert_eq!(apply(Some(&trusted), CMD).unwrap(), trusted);
    let moved = "'/elsewhere/agterm-backup' hook codex";
    let refreshed = apply(Some(&trusted), moved).unwrap();
    assert_eq!(refreshed, trusted.replace(CMD, moved));
    // Our Stop hook is group 0 here, so that trust record is ours and goes with it.
    assert_eq!(
        remove(&trusted, &src("/h/config.toml")).unwrap(),
        "model = \"o3\"\n"
    );
    // A record for someone else's position stays.
    let foreign = trusted.replace(":stop:0:0", ":stop:7:0");
    assert_eq!(
        remove(&foreign, &src("/h/config.toml")).unwrap(),
        "model = \"o3\"\n\n[hooks.state.\"/h/config.toml:stop:7:0\"]\ntrusted_hash = \"sha256:ccc\"\n"
    );
}

#[test]
fn absent_and_unterminated_files() {
    let created = apply(None, CMD).unwrap();
    assert!(created.starts_with(BLOCK_START));
    assert_eq!(remove(&created, &[]).unwrap(), "");
    let no_newline = apply(Some("model = \"o3\""), CMD).unwrap();
    assert!(no_newline.starts_with("model = \"o3\"\n\n# >>>"));
}

#[test]
fn refuses_broken_toml_with_position() {
    let r = apply(Some("model = \"o3\"\n[features\nhooks = true\n"), CMD).unwrap_err();
    assert_eq!(r.line, 2, "{r:?}");
}

#[test]
fn damaged_markers_and_foreign_tables_inside_them_stay_the_users() {
    // A lone start marker (an end deleted by hand) is a comment of the user's: kept, and a real block
    // follows; the next apply finds that block and changes nothing.
    let lone = format!("a = 1\n{BLOCK_START}\n");
    let once = apply(Some(&lone), CMD).unwrap();
    assert!(once.starts_with(&lone), "{once}");
    assert_eq!(apply(Some(&once), CMD).unwrap(), once);
    assert_eq!(notes(&once).len(), 1, "{:?}", notes(&once));
    assert_eq!(remove(&once, &[]).unwrap(), lone);
    // A lone end marker above our block does not make each apply add another block.
    let stray_end = format!("a = 1\n{BLOCK_END}\n");
    let once = apply(Some(&stray_end), CMD).unwrap();
    assert_eq!(apply(Some(&once), CMD).unwrap(), once);
    assert_eq!(once.matches(BLOCK_START).count(), 1);
    // A group of the user's placed between our markers is theirs: kept on refresh and on remove.
    let applied = apply(Some("model = \"o3\"\n"), CMD).unwrap();
    let theirs = "[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = \"command\"\ncommand = \"notify-send done\"\n";
    let with_theirs = applied.replace(&format!("{BLOCK_END}\n"), &format!("{theirs}{BLOCK_END}\n"));
    assert_eq!(apply(Some(&with_theirs), CMD).unwrap(), with_theirs);
    assert!(notes(&with_theirs)[0].contains("kept as yours"));
    assert_eq!(
        remove(&with_theirs, &[]).unwrap(),
        format!("model = \"o3\"\n{theirs}")
    );
}

#[test]
fn our_hook_written_by_hand_is_taken_in_once() {
    // Plain [[hooks.Stop]] tables naming our binary (no markers), one with an old path and one bare.
    let by_hand = "model = \"o3\"\n\n[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = \"command\"\ncommand = \"agterm-backup hook codex\"\n\n[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = \"command\"\ncommand = \"notify-send done\"\n[[hooks.Stop.hooks]]\ncommand = \"'/old/agterm-backup' hook codex\"\n";
    let out = apply(Some(by_hand), CMD).unwrap();
    let states = inspect(Some(&out), CMD).unwrap();
    assert!(states.iter().all(|s| s.runs == 1), "{out}");
    assert!(out.contains("notify-send done"), "{out}");
    assert_eq!(
        inspect(Some(by_hand), CMD)
            .unwrap()
            .iter()
            .find(|s| s.event == "Stop")
            .unwrap()
            .runs,
        2
    );
    assert_eq!(apply(Some(&out), CMD).unwrap(), out);
    let removed = remove(&out, &[]).unwrap();
    assert!(!has_ours(&removed), "{removed}");
    assert!(removed.contains("notify-send done"));
}

#[test]
fn trust_records_of_other_sources_are_not_ours() {
    let applied = apply(Some("model = \"o3\"\n"), CMD).unwrap();
    // Same positions as our hooks, but filed for another hooks source (a plugin's hooks.json).
    let other =
        "\n[hooks.state.\"/h/plugins/x/hooks.json:stop:0:0\"]\ntrusted_hash = \"sha256:p\"\n";
    let ours = "\n[hooks.state.\"/h/config.toml:stop:0:0\"]\ntrusted_hash = \"sha256:o\"\n";
    let trusted = format!("{applied}{other}{ours}");
    assert_eq!(
        remove(&trusted, &src("/h/config.toml")).unwrap(),
        format!("model = \"o3\"\n{other}")
    );
    assert_eq!(
        remove_trust_of(
            &format!("{other}{ours}"),
            &src("/h/plugins/x/hooks.json"),
            &[("Stop", 0, 0)]
        )
        .unwrap(),
        ours
    );
}

#[test]
fn refuses_inline_hooks_it_cannot_join() {
    let inline = "hooks = { Stop = [{ hooks = [{ type = \"command\", command = \"x\" }] }] }\n";
    let r = apply(Some(inline), CMD).unwrap_err();
    assert_eq!(r.line, 1);
    assert!(r.reason.contains("hooks.json"), "{r:?}");
}

#[test]
fn generated_groups_parse_to_our_commands_even_with_quotes_in_the_path() {
    let cmd =
        crate::command::hook_command(std::path::Path::new("/a \"b\"/c\\d/agterm-backup"), "codex");
    let out = apply(None, &cmd).unwrap();
    let states = inspect(Some(&out), &cmd).unwrap();
    assert!(
        states
            .iter()
            .all(|s| s.place.as_ref().is_some_and(|p| p.current)),
        "{out}"
    );
}

#[test]
fn our_trust_records_filed_inside_agterms_block_go_on_remove() {
    // What Codex's config/batchWrite does: new hooks.state tables land next to the existing ones, here
    // inside agterm's block.
    let applied = apply(Some(AGTERM_BLOCK), CMD).unwrap();
    let ours =
        "\n[hooks.state.\"/u/.codex/config.toml:stop:1:0\"]\ntrusted_hash = \"sha256:ours\"\n";
    let trusted = applied.replacen(
        "trusted_hash = \"sha256:bbb\"\n",
        &format!("trusted_hash = \"sha256:bbb\"\n{ours}"),
        1,
    );
    assert_ne!(trusted, applied);
    assert_eq!(
        remove(&trusted, &src("/u/.codex/config.toml")).unwrap(),
        AGTERM_BLOCK
    );
}

#[test]
fn crlf_files_get_a_crlf_block() {
    let original = "model = \"o3\"\r\n[tui]\r\nnotifications = true\r\n";
    let out = apply(Some(original), CMD).unwrap();
    assert!(out.starts_with(original));
    assert!(!out.replace("\r\n", "").contains('\n'), "{out:?}");
    assert_eq!(apply(Some(&out), CMD).unwrap(), out);
    assert_eq!(remove(&out, &[]).unwrap(), original);
}

#[test]
fn nesting_is_refused_where_codex_refuses_it() {
    // toml_edit stops where Codex's own TOML reader stops (checked with the real Codex: 50 levels load,
    // 100 give "max recursion depth met").
    let nested = |depth: usize| format!("x = {}1{}\n", "[".repeat(depth), "]".repeat(depth));
    assert!(apply(Some(&nested(50)), CMD).is_ok());
    let r = apply(Some(&nested(100)), CMD).unwrap_err();
    assert!(r.reason.contains("recursion"), "{r:?}");
}
