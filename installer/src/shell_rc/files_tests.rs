//! Where the user's shells really read: zsh's ZDOTDIR as its start-up files set it (asked, else read
//! from them), and the shells an `exec` starts.

use super::files::{self, ZSHRC};
use crate::fake_lookup::{fake, Fake};
use std::path::Path;

const BIN: &str = "/opt/b/agterm-backup";

fn wired(f: &Fake) -> Vec<String> {
    files::wiring(f)
        .unwrap()
        .files
        .iter()
        .map(|w| w.path.display().to_string())
        .collect()
}

/// (the `.zshenv` line, the folder zsh then reads `.zshrc` from), with HOME=/h and XDG_CONFIG_HOME unset.
const ZSHENV: &[(&str, &str)] = &[
    ("ZDOTDIR=~/.config/zsh", "/h/.config/zsh"),
    ("export ZDOTDIR=~/.config/zsh", "/h/.config/zsh"),
    ("export ZDOTDIR=\"$HOME/.config/zsh\"", "/h/.config/zsh"),
    ("export ZDOTDIR='/h/dots/zsh'", "/h/dots/zsh"),
    ("ZDOTDIR=${HOME}/.zsh/", "/h/.zsh"),
    (
        "export ZDOTDIR=\"${XDG_CONFIG_HOME:-$HOME/.config}/zsh\"",
        "/h/.config/zsh",
    ),
    (
        "export ZDOTDIR=${XDG_CONFIG_HOME:-~/.config}/zsh",
        "/h/.config/zsh",
    ),
    ("typeset -gx ZDOTDIR=$HOME/.config/zsh", "/h/.config/zsh"),
    (
        "[[ -d ~/.config/zsh ]] && export ZDOTDIR=~/.config/zsh",
        "/h/.config/zsh",
    ),
    (
        "if [[ -z $ZDOTDIR ]]; then\n  export ZDOTDIR=$HOME/.config/zsh\nfi",
        "/h/.config/zsh",
    ),
    ("ZDOTDIR=/a\nZDOTDIR=/b", "/b"),
    ("# ZDOTDIR=/nowhere", "/h"),
    ("export PATH=$HOME/bin:$PATH", "/h"),
];

#[test]
fn zdotdir_from_zshenv_when_zsh_cannot_be_asked() {
    for (line, dir) in ZSHENV {
        let text = format!("{line}\n");
        let f = fake(
            &[("HOME", "/h"), ("SHELL", "/bin/zsh")],
            &[("/h/.zshenv", &text)],
        );
        assert_eq!(wired(&f), [format!("{dir}/.zshrc")], "{line:?}");
        let warnings = files::wiring(&f).unwrap().warnings;
        assert!(
            warnings[0].contains("could not ask /bin/zsh"),
            "{warnings:?}"
        );
    }
    // XDG_CONFIG_HOME set: the default is not taken.
    let f = fake(
        &[
            ("HOME", "/h"),
            ("SHELL", "/bin/zsh"),
            ("XDG_CONFIG_HOME", "/x"),
        ],
        &[(
            "/h/.zshenv",
            "export ZDOTDIR=${XDG_CONFIG_HOME:-$HOME/.config}/zsh\n",
        )],
    );
    assert_eq!(wired(&f), ["/x/zsh/.zshrc"]);
    // Only a command could tell: kept as it was, and said.
    let f = fake(
        &[("HOME", "/h"), ("SHELL", "/bin/zsh")],
        &[("/h/.zshenv", "export ZDOTDIR=$(mktemp -d)\n")],
    );
    assert_eq!(wired(&f), ["/h/.zshrc"]);
    assert!(files::wiring(&f).unwrap().warnings[0].contains("cannot be known"));
}

#[test]
fn zdotdir_from_the_system_zshenv_then_the_users_there() {
    // Debian's /etc/zsh/zshenv (macOS: /etc/zshenv) sets it; the user's .zshenv is then read there.
    for system in ["zsh/zshenv", "zshenv"] {
        let etc_file = format!("/e/{system}");
        let mut f = fake(
            &[("HOME", "/h"), ("SHELL", "/bin/zsh")],
            &[(&etc_file, "export ZDOTDIR=\"$HOME/.zsh\"\n")],
        );
        f.etc = "/e";
        assert_eq!(wired(&f), ["/h/.zsh/.zshrc"], "{system}");
        f.files
            .insert("/h/.zsh/.zshenv".into(), "ZDOTDIR=$ZDOTDIR/conf\n".into());
        assert_eq!(wired(&f), ["/h/.zsh/conf/.zshrc"], "{system}");
    }
}

#[test]
fn zsh_asked_wins_over_its_files_and_the_environment() {
    let mut f = fake(
        &[("HOME", "/h"), ("SHELL", "/bin/zsh"), ("ZDOTDIR", "/env")],
        &[("/h/.zshenv", "ZDOTDIR=/static\n")],
    );
    f.zsh = Some(Some("/asked"));
    let wiring = files::wiring(&f).unwrap();
    assert_eq!(wired(&f), ["/asked/.zshrc"]);
    assert!(wiring.warnings.is_empty());
    assert!(wiring.files[0]
        .how
        .contains("as /bin/zsh's start-up files set it"));
    f.zsh = Some(None);
    assert_eq!(wired(&f), ["/h/.zshrc"]);
}

/// Files by path, with their text.
type Files<'a> = &'a [(&'a str, &'a str)];

#[test]
fn the_shell_an_exec_starts_gets_its_own_file() {
    let env = [("HOME", "/h"), ("SHELL", "/bin/bash")];
    let debian = "if [ -f ~/.bashrc ]; then . ~/.bashrc; fi\n";
    let cases: &[(Files, &[&str])] = &[
        (
            &[
                ("/h/.profile", debian),
                ("/h/.bashrc", "alias l=ls\nexec zsh\n"),
            ],
            &["/h/.bashrc", "/h/.zshrc"],
        ),
        (
            &[(
                "/h/.bash_profile",
                "[ -x /usr/bin/fish ] && exec /usr/bin/fish -l\n",
            )],
            &[
                "/h/.bashrc",
                "/h/.bash_profile",
                "/h/.config/fish/config.fish",
            ],
        ),
        // ZDOTDIR exported before the exec, and zsh's own .zshenv there.
        (
            &[
                ("/h/.profile", debian),
                ("/h/.bashrc", "export ZDOTDIR=~/.config/zsh\nexec zsh\n"),
            ],
            &["/h/.bashrc", "/h/.config/zsh/.zshrc"],
        ),
        (
            &[
                ("/h/.profile", debian),
                ("/h/.bashrc", "exec zsh\n"),
                ("/h/.zshenv", "export ZDOTDIR=\"$HOME/.config/zsh\"\n"),
                ("/h/.config/zsh/.zshrc", "exec fish\n"),
            ],
            &[
                "/h/.bashrc",
                "/h/.config/zsh/.zshrc",
                "/h/.config/fish/config.fish",
            ],
        ),
        // `exec "$SHELL"` with SHELL set before it; `exec bash` is bash again; tmux is no shell.
        (
            &[
                ("/h/.profile", debian),
                (
                    "/h/.bashrc",
                    "export SHELL=/usr/bin/zsh\nexec \"$SHELL\" -l\n",
                ),
            ],
            &["/h/.bashrc", "/h/.zshrc"],
        ),
        (
            &[
                ("/h/.profile", debian),
                ("/h/.bashrc", "exec bash --norc\n"),
            ],
            &["/h/.bashrc"],
        ),
        (
            &[
                ("/h/.profile", debian),
                ("/h/.bashrc", "[ -z \"$TMUX\" ] && exec tmux\n"),
            ],
            &["/h/.bashrc"],
        ),
    ];
    for (files, want) in cases {
        let f = fake(&env, files);
        assert_eq!(wired(&f), *want, "{files:?}");
    }
}

#[test]
fn remove_and_status_find_the_zshrc_zdotdir_bypasses() {
    let block = ZSHRC.block(BIN);
    let f = fake(
        &[("HOME", "/h"), ("SHELL", "/bin/zsh")],
        &[
            ("/h/.zshenv", "export ZDOTDIR=~/.config/zsh\n"),
            ("/h/.zshrc", &block),
            ("/h/.config/zsh/.zshrc", &block),
        ],
    );
    let held: Vec<String> = files::holders(&f, Path::new(BIN))
        .iter()
        .map(|t| t.path.display().to_string())
        .collect();
    assert_eq!(held, ["/h/.zshrc", "/h/.config/zsh/.zshrc"]);
    let wiring = files::wiring(&f).unwrap();
    let stale = files::who_reads(&f, &wiring, ZSHRC, Path::new("/h/.zshrc")).unwrap_err();
    assert!(
        stale.contains("zsh never reads this file: it reads /h/.config/zsh/.zshrc"),
        "{stale}"
    );
    let read = files::who_reads(&f, &wiring, ZSHRC, Path::new("/h/.config/zsh/.zshrc"));
    assert!(read
        .unwrap()
        .starts_with("zsh: ZDOTDIR=/h/.config/zsh set in /h/.zshenv"));
}
