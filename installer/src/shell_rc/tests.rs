use super::files::{self, BASHRC, BASH_LOGIN, FISH_CONFIG, ZSHRC};
use super::*;
use crate::fake_lookup::{fake, Fake};
use std::path::Path;

const BIN: &str = "/opt/it's here/agterm-backup";

#[test]
fn the_lines_are_the_contract_with_init() {
    assert_eq!(
        ZSHRC.line("/usr/local/bin/agterm-backup"),
        "if [ -n \"${TMUX_PANE-}${ZMX_SESSION-}${AGTERM_PANE-}\" ] && [ -x '/usr/local/bin/agterm-backup' ]; \
         then if [ -r \"${AGTERM_BACKUP_HOME:-${HOME-}/.agterm-backup}/init.zsh\" ]; then . \"${AGTERM_BACKUP_HOME:-${HOME-}/.agterm-backup}/init.zsh\"; \
         else eval \"$('/usr/local/bin/agterm-backup' init zsh)\"; fi; fi"
    );
    assert_eq!(
        BASHRC.line("/a b/agterm-backup"),
        "if [ -n \"${TMUX_PANE-}${ZMX_SESSION-}${AGTERM_PANE-}\" ] && [ -x '/a b/agterm-backup' ]; \
         then if [ -r \"${AGTERM_BACKUP_HOME:-${HOME-}/.agterm-backup}/init.bash\" ]; then . \"${AGTERM_BACKUP_HOME:-${HOME-}/.agterm-backup}/init.bash\"; \
         else eval \"$('/a b/agterm-backup' init bash)\"; fi; fi"
    );
    assert_eq!(
        FISH_CONFIG.line("/a b/agterm-backup"),
        "if test -n \"$TMUX_PANE$ZMX_SESSION$AGTERM_PANE\" -a -x '/a b/agterm-backup'; \
         set -l __agterm_backup_state \"$AGTERM_BACKUP_HOME\"; test -n \"$__agterm_backup_state\"; \
         or set __agterm_backup_state \"$HOME/.agterm-backup\"; \
         if test -r \"$__agterm_backup_state/init.fish\"; source \"$__agterm_backup_state/init.fish\"; \
         else; '/a b/agterm-backup' init fish | source; end; end"
    );
    assert_eq!(
        BASH_LOGIN[2].line("/b/agterm-backup"),
        "if [ -n \"${BASH_VERSION-}\" ] && [ -n \"${TMUX_PANE-}${ZMX_SESSION-}${AGTERM_PANE-}\" ] && \
         [ -x '/b/agterm-backup' ]; then if [ -r \"${AGTERM_BACKUP_HOME:-${HOME-}/.agterm-backup}/init.bash\" ]; then . \"${AGTERM_BACKUP_HOME:-${HOME-}/.agterm-backup}/init.bash\"; \
         else eval \"$('/b/agterm-backup' init bash)\"; fi; fi"
    );
    // The lines earlier releases wrote stay ours: an upgrade's `apply` refreshes them, `remove` takes
    // them out.
    for (rc, old) in [
        (ZSHRC, "eval \"$('/b/agterm-backup' init zsh)\""),
        // The guarded line of the release before the init file.
        (
            ZSHRC,
            "if [ -n \"${TMUX_PANE-}${ZMX_SESSION-}${AGTERM_PANE-}\" ] && [ -x '/b/agterm-backup' ]; \
             then eval \"$('/b/agterm-backup' init zsh)\"; fi",
        ),
        (BASHRC, "eval \"$('/b/agterm-backup' init bash)\""),
        (FISH_CONFIG, "'/b/agterm-backup' init fish | source"),
        // fish's guarded line of the release before its init file.
        (
            FISH_CONFIG,
            "if test -n \"$TMUX_PANE$ZMX_SESSION$AGTERM_PANE\" -a -x '/b/agterm-backup'; \
             '/b/agterm-backup' init fish | source; end",
        ),
        (
            BASH_LOGIN[2],
            "if [ -n \"${BASH_VERSION-}\" ]; then eval \"$('/b/agterm-backup' init bash)\"; fi",
        ),
    ] {
        assert_eq!(
            rc.binary_in(old).as_deref(),
            Some("/b/agterm-backup"),
            "{old}"
        );
        let block = format!("{BLOCK_START}\n{BLOCK_NOTE}\n{old}\n{BLOCK_END}\n");
        assert_eq!(apply(rc, Some(&block), BIN).unwrap(), rc.block(BIN));
        assert_eq!(remove(rc, &block).unwrap(), "");
    }
    // A `~/.profile` line without its bash guard would run under sh: not ours there.
    assert_eq!(
        BASH_LOGIN[2].binary_in("eval \"$('/b/agterm-backup' init bash)\""),
        None
    );
    for rc in [ZSHRC, BASHRC, FISH_CONFIG, BASH_LOGIN[0], BASH_LOGIN[2]] {
        assert_eq!(rc.binary_in(&rc.line(BIN)).as_deref(), Some(BIN), "{rc:?}");
    }
    // Another shell's line, or ours with more on it, is not ours here.
    assert_eq!(BASHRC.binary_in(&ZSHRC.line(BIN)), None);
    assert_eq!(
        ZSHRC.binary_in("eval \"$('/b/agterm-backup' init zsh)\" 2>/dev/null"),
        None
    );
    assert_eq!(ZSHRC.binary_in("eval \"$('/b/other' init zsh)\""), None);
}

#[test]
fn apply_appends_refreshes_in_place_and_remove_gives_back_the_text() {
    for original in [
        "export PATH=~/bin:$PATH\n",
        "alias ll='ls -l'",
        "",
        "# windows\r\nset -u\r\n",
    ] {
        let applied = apply(ZSHRC, Some(original), BIN).unwrap();
        assert!(applied.starts_with(original), "{applied:?}");
        assert!(applied.ends_with(&ZSHRC.block(BIN)));
        assert_eq!(apply(ZSHRC, Some(&applied), BIN).unwrap(), applied);
        let want = if original.is_empty() || original.ends_with('\n') {
            original.to_string()
        } else {
            format!("{original}\n")
        };
        assert_eq!(remove(ZSHRC, &applied).unwrap(), want);
    }
    assert_eq!(apply(ZSHRC, None, BIN).unwrap(), ZSHRC.block(BIN));
    // A moved binary: the line is replaced where it is, the user's comment inside the block stays.
    let old = apply(BASHRC, Some("a=1\n"), "/old/agterm-backup").unwrap();
    let edited = old.replace(BLOCK_END, &format!("# mine\n{BLOCK_END}")) + "b=2\n";
    let new = apply(BASHRC, Some(&edited), BIN).unwrap();
    assert_eq!(
        new,
        edited.replace(&BASHRC.line("/old/agterm-backup"), &BASHRC.line(BIN))
    );
    assert_eq!(remove(BASHRC, &new).unwrap(), "a=1\n\n# mine\nb=2\n");
}

#[test]
fn markers_that_do_not_pair_up_are_refused_with_their_line() {
    let block = ZSHRC.block(BIN);
    let cases = [
        (format!("a\n{BLOCK_START}\nb\n"), 2, "no `# <<<"),
        (format!("a\n{BLOCK_END}\n"), 2, "without"),
        (
            format!("{block}x\n{block}"),
            6,
            "second agterm-backup block",
        ),
        (format!("{BLOCK_START}\n{block}"), 2, "second `# >>>"),
    ];
    for (text, line, why) in cases {
        for result in [apply(ZSHRC, Some(&text), BIN), remove(ZSHRC, &text)] {
            let e = result.unwrap_err();
            assert_eq!(e.line, line, "{text:?}: {e:?}");
            assert!(e.reason.contains(why), "{e:?}");
        }
    }
    // A command of the user's between our markers: apply refuses, remove keeps it.
    let theirs = block.replace(BLOCK_END, &format!("export X=1\n{BLOCK_END}"));
    let e = apply(ZSHRC, Some(&theirs), BIN).unwrap_err();
    assert_eq!(e.line, 4);
    assert_eq!(remove(ZSHRC, &theirs).unwrap(), "export X=1\n");
}

fn paths_of(f: &Fake) -> Result<Vec<String>, String> {
    files::login_targets(f, Path::new(BIN)).map(|t| {
        t.iter()
            .map(|t| t.path.display().to_string())
            .collect::<Vec<_>>()
    })
}

#[test]
fn each_login_shell_gets_the_file_it_reads() {
    let zsh = fake(&[("HOME", "/h"), ("SHELL", "/bin/zsh")], &[]);
    assert_eq!(paths_of(&zsh).unwrap(), ["/h/.zshrc"]);
    let zdot = fake(
        &[("HOME", "/h"), ("SHELL", "/usr/bin/zsh"), ("ZDOTDIR", "/z")],
        &[],
    );
    assert_eq!(paths_of(&zdot).unwrap(), ["/z/.zshrc"]);
    let fish = fake(&[("HOME", "/h"), ("SHELL", "/opt/homebrew/bin/fish")], &[]);
    assert_eq!(paths_of(&fish).unwrap(), ["/h/.config/fish/config.fish"]);
    let xdg = fake(
        &[("HOME", "/h"), ("SHELL", "fish"), ("XDG_CONFIG_HOME", "/x")],
        &[],
    );
    assert_eq!(paths_of(&xdg).unwrap(), ["/x/fish/config.fish"]);
    // No $SHELL: the password database.
    let mut passwd = fake(&[("HOME", "/h")], &[]);
    passwd.passwd = Some("/bin/zsh");
    assert_eq!(paths_of(&passwd).unwrap(), ["/h/.zshrc"]);
    passwd.passwd = None;
    assert!(paths_of(&passwd).unwrap_err().contains("set SHELL"));
    for other in ["/usr/bin/nu", "/bin/tcsh", "/bin/sh", "/usr/bin/dash"] {
        let mut f = fake(&[("HOME", "/h")], &[]);
        f.env.insert("SHELL", other);
        let e = paths_of(&f).unwrap_err();
        assert!(e.contains(other) && e.contains("zsh, bash, fish"), "{e}");
    }
}

#[test]
fn bash_login_files_get_the_block_unless_they_source_bashrc() {
    let env = [("HOME", "/h"), ("SHELL", "/bin/bash")];
    // macOS with nothing yet: a login bash reads only ~/.bash_profile, which we create.
    assert_eq!(
        paths_of(&fake(&env, &[])).unwrap(),
        ["/h/.bashrc", "/h/.bash_profile"]
    );
    // Debian's ~/.profile sources ~/.bashrc: the .bashrc alone.
    let debian = "if [ -n \"$BASH_VERSION\" ]; then\n    if [ -f \"$HOME/.bashrc\" ]; then\n\t. \"$HOME/.bashrc\"\n    fi\nfi\n";
    assert_eq!(
        paths_of(&fake(&env, &[("/h/.profile", debian)])).unwrap(),
        ["/h/.bashrc"]
    );
    // A ~/.profile of its own: it takes the bash-only line.
    let f = fake(&env, &[("/h/.profile", "export EDITOR=vi\n")]);
    let t = files::login_targets(&f, Path::new(BIN)).unwrap();
    assert_eq!(t[1].kind, crate::TargetKind::ShellRc(BASH_LOGIN[2]));
    // ~/.bash_profile wins over ~/.profile; it sources ~/.profile, which sources ~/.bashrc.
    let f = fake(
        &env,
        &[
            ("/h/.bash_profile", "source ~/.profile\n"),
            ("/h/.profile", debian),
        ],
    );
    assert_eq!(paths_of(&f).unwrap(), ["/h/.bashrc"]);
    // A commented-out source line does not count.
    let f = fake(
        &env,
        &[("/h/.bash_login", "# [[ -r ~/.bashrc ]] && . ~/.bashrc\n")],
    );
    assert_eq!(paths_of(&f).unwrap(), ["/h/.bashrc", "/h/.bash_login"]);
    for line in [
        "[[ -r ~/.bashrc ]] && . ~/.bashrc",
        "if [ -f ~/.bashrc ]; then source ~/.bashrc; fi",
        "test -f \"${HOME}/.bashrc\" && source \"${HOME}/.bashrc\"",
    ] {
        assert!(files::sources_bashrc(line, |_| None), "{line}");
    }
    assert!(!files::sources_bashrc("echo . ~/.bashrc_old.bak", |_| None));
}

#[test]
fn remove_looks_in_every_shells_files() {
    let block = ZSHRC.block(BIN);
    let f = fake(
        &[("HOME", "/h"), ("SHELL", "/bin/bash")],
        &[
            ("/h/.zshrc", &block),
            ("/h/.bashrc", "x=1\n"),
            ("/h/.config/fish/config.fish", &block),
        ],
    );
    let held: Vec<String> = files::holders(&f, Path::new(BIN))
        .iter()
        .map(|t| t.path.display().to_string())
        .collect();
    assert_eq!(held, ["/h/.zshrc", "/h/.config/fish/config.fish"]);
}

#[test]
fn status_words() {
    let target = files::target(ZSHRC, "/h/.zshrc".into(), Path::new(BIN));
    let word = |text: &str| crate::status::target_report(&target, Some(text), None).state;
    let block = ZSHRC.block(BIN);
    assert_eq!(word("a\n"), "absent");
    assert_eq!(word(&block), "present");
    assert_eq!(word(&ZSHRC.block("/old/agterm-backup")), "outdated");
    let twice = block.replace(BLOCK_END, &format!("{}\n{BLOCK_END}", ZSHRC.line(BIN)));
    assert_eq!(word(&twice), "duplicate");
    assert_eq!(word(&format!("{BLOCK_START}\n{BLOCK_END}\n")), "partial");
    assert_eq!(word(&format!("{BLOCK_START}\n")), "unreadable");
    let r = crate::status::target_report(&target, Some(&format!("{BLOCK_START}\n")), None);
    assert!(r.error.unwrap().starts_with("/h/.zshrc:1:1: "));
}

/// Blocks exactly as this release's `installer apply` wrote them (bytes, not `block()`), in files with
/// the user's lines around them: the generated pane test must keep recognising them, and a line written
/// for more terminals than today's rows (a later release's) is ours too.
#[test]
fn blocks_written_by_this_release_and_by_other_rows_are_refreshed_and_removed() {
    const NOTE: &str = "# agterm-backup: a pane rebuilt after a restart resumes its conversation when its shell starts (AGTERM_BACKUP_AUTO=0 turns it off); `agterm-backup installer remove` takes this block out.";
    let written = [
        (
            ZSHRC,
            "if [ -n \"${TMUX_PANE-}${ZMX_SESSION-}${AGTERM_PANE-}\" ] && [ -x '/old/agterm-backup' ]; then if [ -r \"${AGTERM_BACKUP_HOME:-${HOME-}/.agterm-backup}/init.zsh\" ]; then . \"${AGTERM_BACKUP_HOME:-${HOME-}/.agterm-backup}/init.zsh\"; else eval \"$('/old/agterm-backup' init zsh)\"; fi; fi",
        ),
        (
            BASH_LOGIN[2],
            "if [ -n \"${BASH_VERSION-}\" ] && [ -n \"${TMUX_PANE-}${ZMX_SESSION-}${AGTERM_PANE-}\" ] && [ -x '/old/agterm-backup' ]; then if [ -r \"${AGTERM_BACKUP_HOME:-${HOME-}/.agterm-backup}/init.bash\" ]; then . \"${AGTERM_BACKUP_HOME:-${HOME-}/.agterm-backup}/init.bash\"; else eval \"$('/old/agterm-backup' init bash)\"; fi; fi",
        ),
        (
            FISH_CONFIG,
            "if test -n \"$TMUX_PANE$ZMX_SESSION$AGTERM_PANE\" -a -x '/old/agterm-backup'; set -l __agterm_backup_state \"$AGTERM_BACKUP_HOME\"; test -n \"$__agterm_backup_state\"; or set __agterm_backup_state \"$HOME/.agterm-backup\"; if test -r \"$__agterm_backup_state/init.fish\"; source \"$__agterm_backup_state/init.fish\"; else; '/old/agterm-backup' init fish | source; end; end",
        ),
    ];
    let mut rows = agterm_backup_terminals::shell_pane_test::of_rows();
    rows.push(&["LATER_PANE"]);
    for (rc, line) in written {
        // Today's rows write it byte for byte.
        assert_eq!(rc.line("/old/agterm-backup"), line, "{rc:?}");
        let later = rc.line_for("/old/agterm-backup", &rows);
        assert!(later.contains("LATER_PANE"), "{later}");
        for line in [line.to_string(), later] {
            let text = format!(
                "export A=1\n\n{BLOCK_START}\n{NOTE}\n# mine\n{line}\n{BLOCK_END}\nalias b=c\n"
            );
            let want = format!(
                "export A=1\n\n{BLOCK_START}\n{NOTE}\n# mine\n{}\n{BLOCK_END}\nalias b=c\n",
                rc.line(BIN)
            );
            assert_eq!(apply(rc, Some(&text), BIN).unwrap(), want, "{rc:?}");
            assert_eq!(
                remove(rc, &text).unwrap(),
                "export A=1\n\n# mine\nalias b=c\n"
            );
        }
    }
}
