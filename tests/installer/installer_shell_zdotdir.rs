//! zsh's ZDOTDIR as its own start-up files set it, through the real binary and the real zsh: a `.zshenv`
//! that moves it gets the block in `$ZDOTDIR/.zshrc` (asked of zsh itself; a zsh too slow to answer, or
//! one that exits first, is read instead, with a warning), a real interactive zsh on a terminal runs it
//! once, `status` names it and warns of a `~/.zshrc` it bypasses, `remove` takes every copy out
//! byte-exact.

use crate::installer_common::shell::*;
use crate::installer_common::*;
use std::os::unix::fs::PermissionsExt;
use std::process::Command;

/// `.zshenv` layouts that move ZDOTDIR, each with the folder (under HOME) zsh then reads `.zshrc` from.
const ZSHENVS: &[(&str, &str)] = &[
    ("export ZDOTDIR=~/.config/zsh\n", ".config/zsh"),
    ("ZDOTDIR=\"$HOME/.config/zsh\"\n", ".config/zsh"),
    ("export ZDOTDIR='ZHOME/dots'\n", "dots"),
    (
        "export ZDOTDIR=\"${XDG_CONFIG_HOME:-$HOME/.config}/zsh\"\n[[ -r $ZDOTDIR/.zshenv ]] && . $ZDOTDIR/.zshenv\n",
        ".config/zsh",
    ),
    (
        "echo hello from zshenv\n[[ -d ~/.zsh ]] && export ZDOTDIR=~/.zsh\n",
        ".zsh",
    ),
];

#[test]
fn a_zdotdir_set_in_zshenv_gets_the_block_and_the_real_zsh_runs_it() {
    for (zshenv, dir) in ZSHENVS {
        let s = Sandbox::new();
        let bin = bin_dir(&s, "bin");
        let zshenv = zshenv.replace("ZHOME", &s.home().display().to_string());
        std::fs::write(s.home().join(".zshenv"), &zshenv).unwrap();
        let zdotdir = s.home().join(dir);
        std::fs::create_dir_all(&zdotdir).unwrap();
        // Their .zshrc is a dotfile manager's symlink, mode 0640.
        let dots = s.dir.path().join("dotfiles/zshrc");
        std::fs::create_dir_all(dots.parent().unwrap()).unwrap();
        std::fs::write(&dots, "setopt autocd\n").unwrap();
        std::fs::set_permissions(&dots, std::fs::Permissions::from_mode(0o640)).unwrap();
        std::os::unix::fs::symlink(&dots, zdotdir.join(".zshrc")).unwrap();
        let out = ok(&run_as(&s, "/usr/bin/zsh", &bin, &apply_shell_only()));
        assert!(!out.contains("hello from zshenv"), "{out}");
        assert!(!s.home().join(".zshrc").exists(), "{zshenv}: {out}");
        let want = format!("setopt autocd\n\n{}", block(&zsh_line(&bin)));
        assert_eq!(std::fs::read_to_string(&dots).unwrap(), want, "{zshenv}");
        assert_eq!(mode(&dots), Some(0o640));
        let rows = shell_rows(&s, "/usr/bin/zsh", &bin);
        assert_eq!(rows.len(), 1, "{rows:?}");
        assert_eq!(rows[0]["state"], "present");
        let read_by = rows[0]["read_by"].as_str().unwrap();
        assert!(read_by.starts_with("zsh: ZDOTDIR="), "{read_by}");
        stub_in(&bin);
        assert_eq!(runs_on_a_terminal(&s, "zsh"), [1, 0, 0], "{zshenv}");
        // The user edits their file; remove gives back their bytes exactly, symlink and mode kept.
        let edited = format!("alias g=git\n{}", std::fs::read_to_string(&dots).unwrap());
        std::fs::write(&dots, edited).unwrap();
        ok(&run_as(&s, "/usr/bin/zsh", &bin, &["installer", "remove"]));
        assert_eq!(
            std::fs::read_to_string(&dots).unwrap(),
            "alias g=git\nsetopt autocd\n"
        );
        assert!(std::fs::symlink_metadata(zdotdir.join(".zshrc"))
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(runs_on_a_terminal(&s, "zsh"), [0, 0, 0]);
    }
}

#[test]
fn a_zshrc_zdotdir_bypasses_is_named_then_emptied_and_remove_takes_every_copy() {
    let s = Sandbox::new();
    let bin = bin_dir(&s, "bin");
    std::fs::write(s.home().join(".zshenv"), "export ZDOTDIR=~/.config/zsh\n").unwrap();
    std::fs::create_dir_all(s.home().join(".config/zsh")).unwrap();
    // An earlier release wrote ~/.zshrc, which this zsh never reads.
    let home_zshrc = s.home().join(".zshrc");
    let theirs = "# history settings\nHISTSIZE=1000\n";
    std::fs::write(&home_zshrc, format!("{theirs}\n{}", block(&zsh_line(&bin)))).unwrap();
    let rows = shell_rows(&s, "/usr/bin/zsh", &bin);
    let stale = rows
        .iter()
        .find(|r| r["file"] == ".zshrc" && r["path"] == home_zshrc.display().to_string());
    let warnings = stale.unwrap()["warnings"].to_string();
    assert!(warnings.contains("zsh never reads this file"), "{rows:?}");
    assert!(warnings.contains(".config/zsh/.zshrc"), "{warnings}");
    let human = ok(&run_as(&s, "/usr/bin/zsh", &bin, &["installer", "status"]));
    assert!(
        human.contains("warning: zsh never reads this file"),
        "{human}"
    );
    // apply moves the block where zsh reads; a copy put back in ~/.zshrc by hand goes with remove.
    ok(&run_as(&s, "/usr/bin/zsh", &bin, &apply_shell_only()));
    assert_eq!(std::fs::read_to_string(&home_zshrc).unwrap(), theirs);
    let real = s.home().join(".config/zsh/.zshrc");
    assert_eq!(
        std::fs::read_to_string(&real).unwrap(),
        block(&zsh_line(&bin))
    );
    std::fs::write(&home_zshrc, format!("{theirs}\n{}", block(&zsh_line(&bin)))).unwrap();
    ok(&run_as(&s, "/usr/bin/zsh", &bin, &["installer", "remove"]));
    assert_eq!(std::fs::read_to_string(&home_zshrc).unwrap(), theirs);
    assert!(!real.exists());
}

#[test]
fn a_zsh_too_slow_to_answer_is_read_instead_with_a_warning() {
    let s = Sandbox::new();
    let bin = bin_dir(&s, "bin");
    let marker = format!("{}", std::process::id());
    let zshenv = format!("export ZDOTDIR=~/.config/zsh\nsleep 4{marker}\n");
    std::fs::write(s.home().join(".zshenv"), zshenv).unwrap();
    std::fs::create_dir_all(s.home().join(".config/zsh")).unwrap();
    let started = std::time::Instant::now();
    let out = run_as(&s, "/usr/bin/zsh", &bin, &apply_shell_only());
    let took = started.elapsed();
    ok(&out);
    let err = text(&out.stderr);
    assert!(
        err.contains("could not ask /usr/bin/zsh") && err.contains("took longer than 3 s"),
        "{err}"
    );
    assert!(took < std::time::Duration::from_secs(20), "{took:?}");
    assert!(s.home().join(".config/zsh/.zshrc").exists());
    assert!(!s.home().join(".zshrc").exists());
    // The zsh and its sleep were killed with their group.
    let left = Command::new("pgrep")
        .args(["-f", &format!("sleep 4{marker}")])
        .output()
        .unwrap();
    assert!(left.stdout.is_empty(), "{}", text(&left.stdout));
}

#[test]
fn a_zshenv_that_exits_is_read_instead_with_a_warning() {
    let s = Sandbox::new();
    let bin = bin_dir(&s, "bin");
    let zshenv = "export ZDOTDIR=\"$HOME/.zsh\"\n[[ -o interactive ]] || exit 0\n";
    std::fs::write(s.home().join(".zshenv"), zshenv).unwrap();
    std::fs::create_dir_all(s.home().join(".zsh")).unwrap();
    let out = run_as(&s, "/usr/bin/zsh", &bin, &apply_shell_only());
    ok(&out);
    let err = text(&out.stderr);
    assert!(err.contains("stopped before it ran our question"), "{err}");
    assert!(err.contains(".zshenv"), "{err}");
    assert!(s.home().join(".zsh/.zshrc").exists());
    stub_in(&bin);
    assert_eq!(runs_on_a_terminal(&s, "zsh"), [1, 0, 0]);
}
