//! rc files that `exec`: our block goes before the statement holding the first `exec` that starts a
//! program, comes out byte-exact, moves there from after it, and the `exec`'d shell is named.

use super::exec::first;
use super::files::{BASHRC, BASH_LOGIN, FISH_CONFIG, ZSHRC};
use super::*;

const BIN: &str = "/opt/b/agterm-backup";

/// (rc, file text with `@` where our block must go (a line start), the program the `exec` starts).
const PLACED: &[(RcFile, &str, &str)] = &[
    (BASHRC, "alias l=ls\n@exec zsh\n", "zsh"),
    (BASHRC, "@exec zsh\n", "zsh"),
    (BASHRC, "export A=1\n@exec -l zsh\nalias never=1\n", "zsh"),
    (
        BASHRC,
        "x=1\n@[ -x /usr/bin/zsh ] && exec /usr/bin/zsh -l\n",
        "/usr/bin/zsh",
    ),
    (
        BASHRC,
        "@command -v fish >/dev/null 2>&1 && exec fish\n",
        "fish",
    ),
    (
        BASHRC,
        "@if [[ $- == *i* ]]; then\n  exec fish\nfi\n",
        "fish",
    ),
    (
        BASHRC,
        "a=1\n@if [ -x /bin/zsh ]\nthen\n    SHELL=/bin/zsh exec /bin/zsh\nfi\nb=2\n",
        "/bin/zsh",
    ),
    (
        BASHRC,
        "export SHELL=/usr/bin/zsh\n@exec \"$SHELL\" -l\n",
        "$SHELL",
    ),
    (BASHRC, "@exec env ZDOTDIR=/z SHELL=/bin/zsh zsh\n", "zsh"),
    (BASHRC, "@exec -a -zsh zsh\n", "zsh"),
    (BASHRC, "@exec \"$(command -v zsh)\"\n", "$(command -v zsh)"),
    // An `exec` of redirections only keeps the shell: the next one counts.
    (BASHRC, "exec 2>>/tmp/log\nexec 3>&1\n@exec zsh\n", "zsh"),
    // A named descriptor closed, a process substitution: no program; the lines after are read on.
    (
        BASHRC,
        "if true; then\n  exec {fd}<&-\n  exec 3<&-\nfi\nexec {fd}< <(echo; exec zsh)\n@exec zsh\n",
        "zsh",
    ),
    // zsh: an array of reserved words, `} always {`, `() { … }`, `[[ … ]]` with parentheses, `$'…'`.
    (
        ZSHRC,
        "w=( do done esac '{' )\n{ a } always { b }\n() { local x }\n[[ $a = (#b)(x) ]] && y=$'it\\'s'\n@exec fish\n",
        "fish",
    ),
    // A function's `exec` and a subshell's do not run as the file is read.
    (
        BASHRC,
        "z() { exec zsh; }\nfunction f {\n  exec fish\n}\n(exec true)\n@exec tmux\n",
        "tmux",
    ),
    // Quotes, here-documents, substitutions and comments hide the word.
    (
        BASHRC,
        "echo 'exec zsh'\ncat <<EOF\nexec zsh\nEOF\nx=$(echo exec zsh)\n# exec zsh\n@exec zsh\n",
        "zsh",
    ),
    // A statement spanning lines is kept whole: the block goes before the `case`.
    (
        BASHRC,
        "@case $TERM in\n  xterm*) exec zsh ;;\nesac\n",
        "zsh",
    ),
    (
        BASHRC,
        "@for s in zsh; do\n  [ -x /bin/$s ] && exec /bin/$s\ndone\n",
        "/bin/$s",
    ),
    (BASHRC, "@if true; then :\nfi; exec zsh\n", "zsh"),
    (BASHRC, "@[ -t 0 ] &&\n  exec zsh\n", "zsh"),
    (
        BASH_LOGIN[2],
        "export PATH=$HOME/bin:$PATH\n@exec zsh -l\n",
        "zsh",
    ),
    (
        BASH_LOGIN[0],
        "@[[ -z $TMUX ]] && exec tmux new -A -s main\n",
        "tmux",
    ),
    (
        ZSHRC,
        "setopt autocd\n@if [[ -o interactive ]]; then exec fish; fi\n",
        "fish",
    ),
    (
        FISH_CONFIG,
        "set -gx A 1\n@if status is-interactive\n    exec zsh\nend\n",
        "zsh",
    ),
    (
        FISH_CONFIG,
        "@test -x /usr/bin/bash; and exec bash\n",
        "bash",
    ),
    (
        FISH_CONFIG,
        "function f\n  exec zsh\nend\nif true\nelse if false\nend\n@exec tmux\n",
        "tmux",
    ),
];

#[test]
fn the_block_goes_before_the_statement_holding_the_first_exec() {
    for (rc, marked, program) in PLACED {
        let at = marked.find('@').unwrap();
        let original = marked.replacen('@', "", 1);
        let exec = first(*rc, &original).unwrap().expect(marked);
        assert_eq!(exec.before, at, "{marked:?}");
        assert_eq!(&exec.program, program, "{marked:?}");
        let applied = apply(*rc, Some(&original), BIN).unwrap();
        let want = format!("{}{}\n{}", &original[..at], rc.block(BIN), &original[at..]);
        assert_eq!(applied, want, "{marked:?}");
        assert_eq!(apply(*rc, Some(&applied), BIN).unwrap(), applied, "again");
        assert_eq!(remove(*rc, &applied).unwrap(), original, "{marked:?}");
        // A block an earlier release appended after the exec moves before it.
        let appended =
            agterm_backup_core::marked_block::appended(&original, &rc.block("/old/agterm-backup"));
        assert_eq!(
            apply(*rc, Some(&appended), BIN).unwrap(),
            want,
            "{marked:?}"
        );
        let mut report = crate::status::target_report(
            &files::target(*rc, "/h/f".into(), std::path::Path::new(BIN)),
            Some(&appended),
            None,
        );
        assert!(
            report
                .warnings
                .pop()
                .is_some_and(|w| w.contains("sits after `exec")),
            "{marked:?}"
        );
    }
}

#[test]
fn files_without_an_exec_that_starts_a_program_get_the_block_at_the_end() {
    for (rc, text) in [
        (BASHRC, "alias l=ls\n"),
        (BASHRC, "exec >/dev/null 2>&1\n"),
        (BASHRC, "# exec zsh\necho \"exec zsh\"\n"),
        (BASHRC, "execute() { :; }\nexecute\n"),
        (ZSHRC, "zsh_exec=1\n"),
        (FISH_CONFIG, "function z\n    exec zsh\nend\n"),
    ] {
        assert_eq!(first(rc, text).unwrap(), None, "{text:?}");
        assert_eq!(
            apply(rc, Some(text), BIN).unwrap(),
            agterm_backup_core::marked_block::appended(text, &rc.block(BIN))
        );
    }
}

#[test]
fn a_file_with_an_exec_we_cannot_read_around_is_refused() {
    for (text, line) in [
        ("echo 'open\nexec zsh\n", 1),
        ("if true; then\n  exec zsh\n", 3),
        ("cat <<EOF\nexec zsh\n", 1),
        ("exec zsh\nfi\n", 2),
    ] {
        let e = apply(BASHRC, Some(text), BIN).unwrap_err();
        assert_eq!(e.line, line, "{text:?}: {e:?}");
        assert!(e.reason.contains("our block must go before it"), "{e:?}");
    }
    // Without an `exec` such a file gets the block at its end, as before.
    assert!(apply(BASHRC, Some("echo 'open\n"), BIN).is_ok());
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]

    /// Any file of well-formed lines with an `exec` line somewhere: the block goes right before it, `remove`
    /// gives back every byte, and a refresh changes only our line.
    #[test]
    fn before_any_exec_and_back_byte_exact(
        lines in proptest::collection::vec(proptest::prop_oneof![
            // Well-formed: a file with a stray quote before an `exec` is refused (tested above).
            "(export|alias|setopt) [A-Za-z_]{1,8}='[a-z0-9 \"$~/{}()-]{0,20}'",
            "# [ -~]{0,30}",
            "if true; then [a-z]{1,5}=1; fi",
            proptest::strategy::Just(String::new()),
            "[ \t]{1,3}",
        ], 0..10),
        exec in proptest::prop_oneof![
            proptest::strategy::Just("exec zsh"),
            proptest::strategy::Just("[ -x /bin/fish ] && exec fish -l"),
            proptest::strategy::Just("exec \"$SHELL\""),
        ],
        at in 0usize..10,
        rc in proptest::prop_oneof![
            proptest::strategy::Just(BASHRC),
            proptest::strategy::Just(ZSHRC),
            proptest::strategy::Just(BASH_LOGIN[2]),
        ],
    ) {
        let at = at.min(lines.len());
        let head: String = lines[..at].iter().map(|l| format!("{l}\n")).collect();
        let tail: String = lines[at..].iter().map(|l| format!("{l}\n")).collect();
        let original = format!("{head}{exec}\n{tail}");
        let applied = apply(rc, Some(&original), BIN).unwrap();
        proptest::prop_assert_eq!(&applied, &format!("{head}{}\n{exec}\n{tail}", rc.block(BIN)));
        proptest::prop_assert_eq!(remove(rc, &applied).unwrap(), original.clone());
        let moved = apply(rc, Some(&applied), "/x y/agterm-backup").unwrap();
        proptest::prop_assert_eq!(moved, applied.replace(&rc.line(BIN), &rc.line("/x y/agterm-backup")));
    }
}
