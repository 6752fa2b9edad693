use super::*;

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
    assert_eq!(
        by_event,
        vec![
            ("SessionStart", 1),
            ("UserPromptSubmit", 0),
            ("PreToolUse", 0),
            ("Stop", 1),
            ("SessionEnd", 0)
        ]
    );
    // agterm's hooks keep group 0, so their trust keys still match.
    let doc = parse(&out).unwrap();
    assert_eq!(
        groups_of(&doc, "Stop")[0][0].as_deref(),
        Some("'/u/.config/agterm/agent-status/agterm-codex-status.sh' stop")
    );
    assert_eq!(trusted_keys(&out).len(), 2);
    assert_eq!(remove(&out).unwrap(), AGTERM_BLOCK);
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
    assert_eq!(remove(&trusted).unwrap(), "model = \"o3\"\n");
    // A record for someone else's position stays.
    let foreign = trusted.replace(":stop:0:0", ":stop:7:0");
    assert_eq!(
        remove(&foreign).unwrap(),
        "model = \"o3\"\n\n[hooks.state.\"/h/config.toml:stop:7:0\"]\ntrusted_hash = \"sha256:ccc\"\n"
    );
}

#[test]
fn absent_and_unterminated_files() {
    let created = apply(None, CMD).unwrap();
    assert!(created.starts_with(BLOCK_START));
    assert_eq!(remove(&created).unwrap(), "");
    let no_newline = apply(Some("model = \"o3\""), CMD).unwrap();
    assert!(no_newline.starts_with("model = \"o3\"\n\n# >>>"));
}

#[test]
fn refuses_broken_toml_with_position() {
    let r = apply(Some("model = \"o3\"\n[features\nhooks = true\n"), CMD).unwrap_err();
    assert_eq!(r.line, 2, "{r:?}");
    let r = apply(Some(&format!("a = 1\n{BLOCK_START}\n")), CMD).unwrap_err();
    assert_eq!((r.line, r.column), (2, 1));
}

#[test]
fn refuses_inline_hooks_it_cannot_join() {
    let inline = "hooks = { Stop = [{ hooks = [{ type = \"command\", command = \"x\" }] }] }\n";
    let r = apply(Some(inline), CMD).unwrap_err();
    assert_eq!(r.line, 1);
    assert!(r.reason.contains("hooks.json"), "{r:?}");
}

#[test]
fn hooks_feature_switch_is_detected() {
    assert_eq!(
        hooks_disabled_by("[features]\nhooks = false\n"),
        Some("features.hooks")
    );
    assert_eq!(
        hooks_disabled_by("[features]\ncodex_hooks = false\n"),
        Some("features.codex_hooks")
    );
    assert_eq!(hooks_disabled_by("[features]\nhooks = true\n"), None);
    assert_eq!(hooks_disabled_by("model = 1\n"), None);
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
    assert_eq!(remove(&trusted).unwrap(), AGTERM_BLOCK);
}

#[test]
fn crlf_files_get_a_crlf_block() {
    let original = "model = \"o3\"\r\n[tui]\r\nnotifications = true\r\n";
    let out = apply(Some(original), CMD).unwrap();
    assert!(out.starts_with(original));
    assert!(!out.replace("\r\n", "").contains('\n'), "{out:?}");
    assert_eq!(apply(Some(&out), CMD).unwrap(), out);
    assert_eq!(remove(&out).unwrap(), original);
}
