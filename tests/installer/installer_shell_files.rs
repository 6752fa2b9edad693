//! The login shell's rc files as files: `remove` is byte-exact through a symlink and after the user's edits
//! around the block; a read-only file, an unsupported login shell and a plain non-interactive `apply` write
//! nothing; the question on a terminal decides; `status` and `--dry-run` show the change.

use crate::installer_common::shell::*;
use crate::installer_common::*;
use std::os::unix::fs::PermissionsExt;

#[test]
fn remove_is_byte_exact_through_a_symlink_after_edits_around_the_block() {
    let s = Sandbox::new();
    let bin = bin_dir(&s, "bin");
    let dots = s.dir.path().join("dotfiles/zshrc");
    std::fs::create_dir_all(dots.parent().unwrap()).unwrap();
    let original = corpus("zshrc/p10k-instant-prompt.zshrc");
    std::fs::write(&dots, &original).unwrap();
    std::fs::set_permissions(&dots, std::fs::Permissions::from_mode(0o640)).unwrap();
    let rc = s.home().join(".zshrc");
    std::os::unix::fs::symlink("../dotfiles/zshrc", &rc).unwrap();
    ok(&run_as(&s, "/bin/zsh", &bin, &apply_shell_only()));
    assert!(std::fs::symlink_metadata(&rc)
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(mode(&dots), Some(0o640));
    let applied = std::fs::read_to_string(&dots).unwrap();
    assert!(applied.contains(&zsh_line(&bin)));
    // The user edits above and below our block (a dotfile manager's sync would do the same).
    let edited = format!("export FIRST=1\n{applied}alias after=1\n");
    std::fs::write(&dots, &edited).unwrap();
    ok(&run_as(&s, "/bin/zsh", &bin, &["installer", "remove"]));
    let want = format!(
        "export FIRST=1\n{}alias after=1\n",
        String::from_utf8(original).unwrap()
    );
    assert_eq!(std::fs::read_to_string(&dots).unwrap(), want);
    assert!(std::fs::symlink_metadata(&rc)
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(mode(&dots), Some(0o640));
}

#[test]
fn a_read_only_rc_file_is_left_alone_and_the_agents_are_wired() {
    let s = Sandbox::new();
    let bin = bin_dir(&s, "bin");
    let rc = s.home().join(".zshrc");
    std::fs::write(&rc, "setopt autocd\n").unwrap();
    std::fs::set_permissions(&rc, std::fs::Permissions::from_mode(0o444)).unwrap();
    let out = run_as(
        &s,
        "/bin/zsh",
        &bin,
        &[
            "installer",
            "apply",
            "--agents",
            "claude",
            "--no-tmux",
            "--shell",
        ],
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let err = text(&out.stderr);
    assert!(
        err.contains(&format!("{}: is read-only", rc.display())),
        "{err}"
    );
    assert!(err.contains("add our block by hand"), "{err}");
    assert_eq!(std::fs::read_to_string(&rc).unwrap(), "setopt autocd\n");
    assert!(
        s.claude_settings().exists(),
        "the agents are wired all the same"
    );
}

#[test]
fn an_unsupported_login_shell_gets_a_message_and_nothing_is_written() {
    for login in ["/usr/bin/nu", "/bin/tcsh", "/bin/sh", "/usr/bin/dash"] {
        let s = Sandbox::new();
        let bin = bin_dir(&s, "bin");
        let out = run_as(&s, login, &bin, &apply_shell_only());
        assert_eq!(out.status.code(), Some(1), "{login}: {}", text(&out.stderr));
        let err = text(&out.stderr);
        assert!(
            err.contains(login) && err.contains("zsh, bash, fish"),
            "{err}"
        );
        // Without --shell and not at a terminal: nothing said, nothing written.
        let out = run_as(&s, login, &bin, &apply_shell_only()[..6]);
        assert!(out.status.success() && !text(&out.stdout).contains("shell"));
        let left: Vec<_> = std::fs::read_dir(s.home()).unwrap().collect();
        assert!(left.is_empty(), "{login}: {left:?}");
    }
}

#[test]
fn a_plain_apply_adds_no_line_but_refreshes_one_there_and_no_shell_leaves_it() {
    let s = Sandbox::new();
    let (old, new, third) = (bin_dir(&s, "old"), bin_dir(&s, "new"), bin_dir(&s, "third"));
    let rc = s.home().join(".zshrc");
    let plain = &apply_shell_only()[..6];
    ok(&run_as(&s, "/bin/zsh", &old, plain));
    assert!(!rc.exists(), "a plain apply does not edit rc files");
    ok(&run_as(&s, "/bin/zsh", &old, &apply_shell_only()));
    assert_eq!(
        std::fs::read_to_string(&rc).unwrap(),
        block(&zsh_line(&old))
    );
    // The binary moved: a plain apply refreshes the line in place.
    let out = ok(&run_as(&s, "/bin/zsh", &new, plain));
    assert!(out.contains(".zshrc: updated"), "{out}");
    assert_eq!(
        std::fs::read_to_string(&rc).unwrap(),
        block(&zsh_line(&new))
    );
    let mut no_shell = plain.to_vec();
    no_shell.push("--no-shell");
    ok(&run_as(&s, "/bin/zsh", &third, &no_shell));
    assert_eq!(
        std::fs::read_to_string(&rc).unwrap(),
        block(&zsh_line(&new))
    );
    let out = run_as(
        &s,
        "/bin/zsh",
        &third,
        &["installer", "apply", "--shell", "--no-shell"],
    );
    assert_eq!(out.status.code(), Some(2), "clap refuses both");
}

#[test]
fn the_question_on_a_terminal_decides_and_enter_says_yes() {
    use std::io::Write as _;
    use std::process::{Command, Stdio};
    for (answer, written) in [("n\n", false), ("\n", true), ("yes\n", true)] {
        let s = Sandbox::new();
        let bin = bin_dir(&s, "bin");
        let apply = format!(
            "'{}/agterm-backup' installer apply --agents gemini --no-denylist --no-tmux",
            bin.display()
        );
        // util-linux `script` runs the installer on a terminal and types our answer into it.
        let sandbox_env: Vec<_> = s
            .command(&format!("{}:/usr/bin:/bin", bin.display()))
            .get_envs()
            .filter_map(|(k, v)| Some((k.to_owned(), v?.to_owned())))
            .collect();
        let mut child = Command::new("script")
            .env_clear()
            .envs(agterm_backup_testkit::hermetic::places())
            .envs(sandbox_env)
            .env("SHELL", "/bin/zsh")
            .env("TERM", "dumb")
            .args(["-qec", &apply, "/dev/null"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("script (util-linux) runs");
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(answer.as_bytes()).unwrap();
        let out = child.wait_with_output().unwrap();
        let seen = text(&out.stdout);
        assert!(seen.contains("[Y/n]"), "{answer:?}: {seen}");
        let zshrc = s.home().join(".zshrc");
        assert_eq!(zshrc.exists(), written, "{answer:?}: {seen}");
    }
}

#[test]
fn status_and_dry_run_show_the_shell_files() {
    let s = Sandbox::new();
    let bin = bin_dir(&s, "bin");
    std::fs::write(s.home().join(".bashrc"), "alias l=ls\n").unwrap();
    let mut dry = apply_shell_only();
    dry.push("--dry-run");
    let out = ok(&run_as(&s, "/bin/bash", &bin, &dry));
    assert!(out.contains(&format!("+{}", bash_line(&bin))), "{out}");
    assert!(
        out.contains("+++ b") && out.contains(".bash_profile"),
        "{out}"
    );
    assert_eq!(
        std::fs::read_to_string(s.home().join(".bashrc")).unwrap(),
        "alias l=ls\n"
    );
    assert!(!s.home().join(".bash_profile").exists());
    let shell_rows = |s: &Sandbox| -> Vec<(String, String)> {
        let out = run_as(s, "/bin/bash", &bin, &["installer", "status", "--json"]);
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        v["targets"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|t| t["target"] == "shell")
            .map(|t| {
                (
                    t["file"].as_str().unwrap().into(),
                    t["state"].as_str().unwrap().into(),
                )
            })
            .collect()
    };
    let absent = [
        (".bashrc".into(), "absent".into()),
        (".bash_profile".into(), "absent".into()),
    ];
    assert_eq!(shell_rows(&s), absent);
    ok(&run_as(&s, "/bin/bash", &bin, &apply_shell_only()));
    assert_eq!(
        shell_rows(&s),
        [
            (".bashrc".into(), "present".into()),
            (".bash_profile".into(), "present".into())
        ]
    );
    // Our block is found in a zsh file too, after a change of login shell, and taken out by remove.
    std::fs::write(s.home().join(".zshrc"), block(&zsh_line(&bin))).unwrap();
    assert!(shell_rows(&s).contains(&(".zshrc".into(), "present".into())));
    let text_status = ok(&run_as(&s, "/bin/bash", &bin, &["installer", "status"]));
    assert!(text_status.contains("shell     present"), "{text_status}");
    ok(&run_as(&s, "/bin/bash", &bin, &["installer", "remove"]));
    assert_eq!(
        std::fs::read_to_string(s.home().join(".bashrc")).unwrap(),
        "alias l=ls\n"
    );
    assert!(!s.home().join(".zshrc").exists() && !s.home().join(".bash_profile").exists());
}
