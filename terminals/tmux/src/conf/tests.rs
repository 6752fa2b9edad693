use super::*;

const BIN: &str = "/opt/agterm backup/bin/agterm-backup";

#[test]
fn apply_appends_and_remove_gives_back_every_byte() {
    for original in [
        "set -g mouse on\nset -g @plugin 'tmux-plugins/tpm'\n",
        "",
        "\r\n# only a comment\r\n",
    ] {
        let applied = apply(Some(original), BIN).unwrap();
        assert!(applied.starts_with(original), "{applied:?}");
        assert!(has_ours(&applied));
        assert_eq!(apply(Some(&applied), BIN).unwrap(), applied, "idempotent");
        let removed = remove(&applied);
        let expected = if original.ends_with('\n') || original.is_empty() {
            original.to_string()
        } else {
            format!("{original}\n")
        };
        assert_eq!(removed, expected);
    }
    assert_eq!(apply(None, BIN).unwrap(), our_block(BIN));
}

#[test]
fn the_block_goes_above_the_first_plugin_line_and_comes_out_byte_exact() {
    let cases = [
        (
            "set -g mouse on\n\nrun '~/.tmux/plugins/tpm/tpm'\n",
            "run '~",
        ),
        (
            "a\r\nrun -b \"$HOME/.tmux/plugins/tpm/tpm\"\r\nz\r\n",
            "run -b",
        ),
        (
            "x\nrun-shell ~/r/resurrect.tmux\nrun-shell ~/c/continuum.tmux\n",
            "run-shell ~/r",
        ),
        ("\u{feff}run '~/.tmux/plugins/tpm/tpm'", "run '~"),
        (
            "# run '~/.tmux/plugins/tpm/tpm'\nrun-shell '/p/continuum.tmux'\n",
            "run-shell '/p",
        ),
    ];
    for (original, line) in cases {
        let applied = apply(Some(original), BIN).unwrap();
        let block = our_block_above(BIN);
        let at = applied.find(&block).expect("the block, whole");
        let after = applied[at + block.len()..].trim_start_matches('\u{feff}');
        assert!(after.starts_with(line), "{applied:?}");
        assert_eq!(remove(&applied), original, "byte-exact: {applied:?}");
        assert_eq!(apply(Some(&applied), BIN).unwrap(), applied, "idempotent");
    }
    // A block an older release appended after TPM's line moves above it.
    let old = format!("{}\n{}", cases[0].0, our_block(BIN));
    let moved = apply(Some(&old), BIN).unwrap();
    assert!(moved.find(BLOCK_START) < moved.find("run '~"), "{moved}");
    assert_eq!(remove(&moved), cases[0].0);
}

#[test]
fn a_moved_binary_refreshes_the_block_in_place() {
    let old = apply(Some("a\n"), "/old/agterm-backup").unwrap();
    let with_tail = format!("{old}set -g b on\n");
    let new = apply(Some(&with_tail), BIN).unwrap();
    assert!(new.contains(&tmux_double_quoted(&hook_line(BIN))));
    assert!(!new.contains("/old/"));
    assert!(new.ends_with("set -g b on\n"));
}

#[test]
fn a_users_own_restore_hook_is_refused_with_its_place_and_a_save_hook_kept() {
    let text = "set -g mouse on\nset -g @resurrect-hook-post-restore-all 'my-script'\n";
    let e = apply(Some(text), BIN).unwrap_err();
    assert_eq!((e.line, e.column), (2, 1));
    assert!(e.reason.contains("already set"), "{}", e.reason);
    // A post-save hook of the user's stays theirs: the block goes without ours, the rest in place.
    let text = "set -g @resurrect-hook-post-save-all \"save-geometry\"\n";
    let applied = apply(Some(text), BIN).unwrap();
    assert!(applied.starts_with(text), "{applied}");
    assert!(!applied.contains("tmux-layout --saved"), "{applied}");
    assert!(applied.contains(&tmux_double_quoted(&hook_line(BIN))));
    assert_eq!(apply(Some(&applied), BIN).unwrap(), applied, "idempotent");
    assert_eq!(remove(&applied), text, "byte-exact");
}

#[test]
fn option_values_as_tmux_reads_them() {
    let text = "set -g @resurrect-processes 'ssh psql'\n\
                # set -g @resurrect-processes 'claude'\n\
                set-option -g @resurrect-processes \"vim \\\"~claude->claude --continue\\\"\"\n";
    assert_eq!(
        option_value(text, "@resurrect-processes").as_deref(),
        Some("vim \"~claude->claude --continue\"")
    );
    assert_eq!(
        option_value("set -g mouse on\n", "@resurrect-processes"),
        None
    );
}

#[test]
fn the_file_tmux_reads_first_that_exists() {
    let env = |k: &str| match k {
        "HOME" => Some("/h".to_string()),
        "XDG_CONFIG_HOME" => Some("/x".to_string()),
        _ => None,
    };
    assert_eq!(target_path(env, |_| false), Some("/h/.tmux.conf".into()));
    let xdg = |p: &Path| p == Path::new("/x/tmux/tmux.conf");
    assert_eq!(target_path(env, xdg), Some("/x/tmux/tmux.conf".into()));
    let both = |p: &Path| p != Path::new("/x/tmux/tmux.conf");
    assert_eq!(target_path(env, both), Some("/h/.tmux.conf".into()));
    assert_eq!(target_path(|_| None, |_| true), None);
}

#[test]
fn the_installer_writes_the_config_where_tmux_is_installed_or_our_block_already_is() {
    let env = |path: &'static str| {
        move |k: &str| match k {
            "HOME" => Some("/h".to_string()),
            "PATH" => Some(path.to_string()),
            _ => None,
        }
    };
    let nothing = |_: &Path| None;
    let installed = |p: &Path| p == Path::new("/usr/bin/tmux");
    assert_eq!(
        installer_target(&env("/opt:/usr/bin"), &nothing, &installed),
        Ok(Some("/h/.tmux.conf".into()))
    );
    assert_eq!(
        installer_target(&env("/opt"), &nothing, &installed),
        Ok(None)
    );
    let ours = our_block(BIN);
    let with_block = |p: &Path| (p == Path::new("/h/.tmux.conf")).then(|| ours.clone());
    assert_eq!(
        installer_target(&env("/opt"), &with_block, &|_| false),
        Ok(Some("/h/.tmux.conf".into()))
    );
    assert_eq!(
        installer_target(&|_| None, &with_block, &installed),
        Ok(None)
    );
}
