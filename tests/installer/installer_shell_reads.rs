//! Where the user's shells really read, through the real binary and the real zsh, bash and fish: a zsh
//! whose `.zshenv` moves ZDOTDIR gets the block in `$ZDOTDIR/.zshrc` (asked of zsh itself; a zsh too slow
//! to answer is read instead, with a warning), an rc file that `exec`s another shell gets the block before
//! the `exec` and the exec'd shell gets its own; a real interactive shell on a terminal runs each block
//! once; `status` names who reads each file and warns of a block never run; `remove` takes every copy
//! out byte-exact.

use crate::installer_common::shell::*;
use crate::installer_common::*;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::{Command, Stdio};

/// How many times each shell's line ran in `login` started interactively on a terminal (util-linux
/// `script`) in the sandbox's HOME, in a pane, until it read `exit` (typed ahead: no shell reads its
/// terminal before its rc files are done).
fn runs_on_a_terminal(s: &Sandbox, login: &str) -> [usize; 3] {
    use std::io::Write as _;
    let mut child = Command::new("timeout")
        .args(["60", "script", "-qec", login, "/dev/null"])
        .env_clear()
        .env("HOME", s.home())
        .env("PATH", "/usr/bin:/bin")
        .env("TERM", "dumb")
        .env("TMUX_PANE", "%1")
        .current_dir(s.home())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("script (util-linux) runs");
    child.stdin.take().unwrap().write_all(b"exit\n").unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{login}: {}", text(&out.stderr));
    let all = text(&out.stdout);
    ["zsh", "bash", "fish"].map(|sh| all.matches(&format!("snippet ran: init {sh}")).count())
}

fn shell_rows(s: &Sandbox, login: &str, bin: &Path) -> Vec<serde_json::Value> {
    let out = run_as(s, login, bin, &["installer", "status", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    v["targets"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["target"] == "shell")
        .cloned()
        .collect()
}

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
