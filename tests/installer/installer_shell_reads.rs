//! Where the user's shells really read, through the real binary and the real bash, zsh and fish: an rc
//! file that `exec`s another shell gets the block before the `exec` and the exec'd shell gets its own; a
//! real interactive shell on a terminal runs each block once; `status` names who reads each file and
//! warns of a block after an `exec`; `remove` gives back every byte; an `exec` file we cannot read around
//! is refused. zsh's ZDOTDIR: tests/installer/installer_shell_zdotdir.rs.

use crate::installer_common::shell::*;
use crate::installer_common::*;

/// (the login shell, the files before apply, the file that gets the block before its `exec` (the
/// block goes before the line holding `@`), the exec'd shell's file, each shell's runs on a terminal
/// as [zsh, bash, fish]).
type ExecCase = (
    &'static str,
    &'static [(&'static str, &'static str)],
    &'static str,
    &'static str,
    [usize; 3],
);

const DEBIAN_PROFILE: &str = "if [ -n \"$BASH_VERSION\" ]; then\n    if [ -f \"$HOME/.bashrc\" ]; then\n\t. \"$HOME/.bashrc\"\n    fi\nfi\n";

const EXECS: &[ExecCase] = &[
    (
        "bash",
        &[
            (".profile", DEBIAN_PROFILE),
            (".bashrc", "alias l=ls\n@exec zsh\n"),
        ],
        ".bashrc",
        ".zshrc",
        [1, 1, 0],
    ),
    (
        "bash",
        &[
            (".profile", DEBIAN_PROFILE),
            (
                ".bashrc",
                "HISTSIZE=9\n@[ -x /usr/bin/zsh ] && exec /usr/bin/zsh -l\n",
            ),
        ],
        ".bashrc",
        ".zshrc",
        [1, 1, 0],
    ),
    (
        "bash",
        &[
            (".profile", DEBIAN_PROFILE),
            (".bashrc", "@if [[ $- == *i* ]]; then\n  exec fish\nfi\n"),
        ],
        ".bashrc",
        ".config/fish/config.fish",
        [0, 1, 1],
    ),
    (
        "bash",
        &[(".profile", "export EDITOR=vi\n@exec -l zsh\n")],
        ".profile",
        ".zshrc",
        [1, 1, 0],
    ),
    (
        "bash",
        &[
            (".profile", DEBIAN_PROFILE),
            (".bashrc", "export SHELL=/usr/bin/fish\n@exec \"$SHELL\"\n"),
        ],
        ".bashrc",
        ".config/fish/config.fish",
        [0, 1, 1],
    ),
    (
        "zsh",
        &[(
            ".zshrc",
            "setopt autocd\n@command -v fish >/dev/null && exec fish\n",
        )],
        ".zshrc",
        ".config/fish/config.fish",
        [1, 0, 1],
    ),
];

#[test]
fn an_rc_file_that_execs_another_shell_gets_the_block_before_the_exec_and_that_shell_its_own() {
    for (login, files, execs, other, runs) in EXECS {
        let s = Sandbox::new();
        let bin = bin_dir(&s, "bin");
        for (name, body) in *files {
            std::fs::write(s.home().join(name), body.replace('@', "")).unwrap();
        }
        let marked = files.iter().find(|f| f.0 == *execs).unwrap().1;
        let at = marked.find('@').unwrap();
        let original = marked.replace('@', "");
        let login_path = format!("/usr/bin/{login}");
        ok(&run_as(&s, &login_path, &bin, &apply_shell_only()));
        let rc = s.home().join(execs);
        let line = rc_line(&bin, login, *execs == ".profile");
        let want = format!("{}{}\n{}", &original[..at], block(&line), &original[at..]);
        assert_eq!(
            std::fs::read_to_string(&rc).unwrap(),
            want,
            "{login}: {marked}"
        );
        let shell = if other.ends_with(".fish") {
            "fish"
        } else {
            "zsh"
        };
        let other_rc = s.home().join(other);
        assert_eq!(
            std::fs::read_to_string(&other_rc).unwrap(),
            block(&rc_line(&bin, shell, false)),
            "{marked}"
        );
        let rows = shell_rows(&s, &login_path, &bin);
        let row = rows
            .iter()
            .find(|r| r["path"] == other_rc.display().to_string())
            .unwrap();
        assert!(
            row["read_by"]
                .as_str()
                .unwrap()
                .contains("started by `exec"),
            "{row}"
        );
        stub_in(&bin);
        assert_eq!(
            runs_on_a_terminal(&s, &format!("{login} -l")),
            *runs,
            "{marked}"
        );
        // The user edits above the block and after the exec; remove keeps their edits, byte for byte.
        let edited = format!("# mine\n{}# after\n", std::fs::read_to_string(&rc).unwrap());
        std::fs::write(&rc, edited).unwrap();
        ok(&run_as(&s, &login_path, &bin, &["installer", "remove"]));
        for (name, body) in *files {
            let now = std::fs::read_to_string(s.home().join(name)).unwrap();
            let mut want = body.replace('@', "");
            if name == execs {
                want = format!("# mine\n{want}# after\n");
            }
            assert_eq!(now, want, "{name} after remove");
        }
        assert!(!other_rc.exists());
    }
}

#[test]
fn a_block_an_earlier_release_appended_after_the_exec_is_warned_of_and_moved() {
    let s = Sandbox::new();
    let bin = bin_dir(&s, "bin");
    std::fs::write(s.home().join(".profile"), DEBIAN_PROFILE).unwrap();
    let original = "alias l=ls\nexec zsh\n";
    let bashrc = s.home().join(".bashrc");
    std::fs::write(&bashrc, format!("{original}\n{}", block(&bash_line(&bin)))).unwrap();
    let rows = shell_rows(&s, "/usr/bin/bash", &bin);
    let row = rows.iter().find(|r| r["file"] == ".bashrc").unwrap();
    assert!(
        row["warnings"]
            .to_string()
            .contains("sits after `exec zsh` (line 2)"),
        "{row}"
    );
    stub_in(&bin);
    assert_eq!(runs_on_a_terminal(&s, "bash -l"), [0, 0, 0]);
    let _ = std::fs::remove_file(bin.join("agterm-backup"));
    std::os::unix::fs::symlink(binary(), bin.join("agterm-backup")).unwrap();
    ok(&run_as(
        &s,
        "/usr/bin/bash",
        &bin,
        &[
            "installer",
            "apply",
            "--agents",
            "gemini",
            "--no-denylist",
            "--no-tmux",
        ],
    ));
    let want = format!("alias l=ls\n{}\nexec zsh\n", block(&bash_line(&bin)));
    assert_eq!(std::fs::read_to_string(&bashrc).unwrap(), want);
    assert_eq!(
        std::fs::read_to_string(s.home().join(".zshrc")).unwrap(),
        block(&zsh_line(&bin))
    );
    let rows = shell_rows(&s, "/usr/bin/bash", &bin);
    assert!(
        rows.iter()
            .all(|r| r["warnings"].as_array().unwrap().is_empty()),
        "{rows:?}"
    );
    stub_in(&bin);
    assert_eq!(runs_on_a_terminal(&s, "bash -l"), [1, 1, 0]);
}

#[test]
fn a_file_with_an_exec_we_cannot_read_around_is_refused_and_left_alone() {
    let s = Sandbox::new();
    let bin = bin_dir(&s, "bin");
    std::fs::write(s.home().join(".profile"), DEBIAN_PROFILE).unwrap();
    let broken = "if [ -x /usr/bin/zsh ]; then\n  exec zsh\n";
    std::fs::write(s.home().join(".bashrc"), broken).unwrap();
    let out = run_as(&s, "/usr/bin/bash", &bin, &apply_shell_only());
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    let err = text(&out.stderr);
    assert!(
        err.contains(".bashrc:3:") && err.contains("must go before it"),
        "{err}"
    );
    assert_eq!(
        std::fs::read_to_string(s.home().join(".bashrc")).unwrap(),
        broken
    );
    assert!(!s.home().join(".zshrc").exists());
}
