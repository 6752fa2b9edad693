//! The login shell's rc files through the real binary and the real shells: `installer apply --shell` writes
//! exactly the line `init`'s contract names, in a marked block of the file the login shell reads (zsh, bash
//! as a login shell and not, fish); the shells source it and evaluate the line once (a stub in the
//! binary's place prints a known line); `remove` gives back the bytes, through a symlink and after the
//! user's edits around the block; a read-only file, an unsupported login shell and a plain non-interactive
//! `apply` write nothing; the question on a terminal decides; `status` and `--dry-run` show the change.

mod installer_common;

use installer_common::*;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const NOTE: &str = "# agterm-backup: a pane rebuilt after a restart resumes its conversation when its shell starts (AGTERM_BACKUP_AUTO=0 turns it off); `agterm-backup installer remove` takes this block out.";

/// A folder whose `agterm-backup` is this build (a symlink), first on `PATH`: apply names that path in
/// the line, and [`stub_in`] can then stand in for the binary there.
fn bin_dir(s: &Sandbox, name: &str) -> PathBuf {
    let dir = s.dir.path().join(name);
    std::fs::create_dir_all(&dir).unwrap();
    std::os::unix::fs::symlink(binary(), dir.join("agterm-backup")).unwrap();
    dir
}

/// `agterm-backup <args>` with `shell` as the login shell and `bin`'s binary on `PATH` (the only agent
/// asked for, Gemini, is not installed: the rc files are all apply writes).
fn run_as(s: &Sandbox, shell: &str, bin: &Path, args: &[&str]) -> Output {
    s.command(&format!("{}:/usr/bin:/bin", bin.display()))
        .env("SHELL", shell)
        .args(args)
        .output()
        .unwrap()
}

fn ok(out: &Output) -> String {
    assert!(
        out.status.success(),
        "exit {:?}: {}{}",
        out.status.code(),
        text(&out.stdout),
        text(&out.stderr)
    );
    text(&out.stdout)
}

/// Replaces the binary in `bin` by a script whose `init <shell>` prints one command that says it ran.
fn stub_in(bin: &Path) {
    let path = bin.join("agterm-backup");
    std::fs::remove_file(&path).unwrap();
    std::fs::write(
        &path,
        "#!/bin/sh\n[ \"$1\" = init ] || exit 64\necho \"echo 'snippet ran: init $2'\"\n",
    )
    .unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// How many times a shell started as `argv` in the sandbox's HOME evaluates our line for `shell`.
fn evaluations(s: &Sandbox, argv: &[&str], shell: &str) -> usize {
    let out = Command::new(argv[0])
        .args(&argv[1..])
        .env_clear()
        .env("HOME", s.home())
        .env("PATH", "/usr/bin:/bin")
        .env("TERM", "dumb")
        .current_dir(s.home())
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    let all = format!("{}{}", text(&out.stdout), text(&out.stderr));
    all.matches(&format!("snippet ran: init {shell}")).count()
}

fn block(line: &str) -> String {
    format!("# >>> agterm-backup >>>\n{NOTE}\n{line}\n# <<< agterm-backup <<<\n")
}

fn zsh_line(bin: &Path) -> String {
    format!("eval \"$('{}/agterm-backup' init zsh)\"", bin.display())
}

fn bash_line(bin: &Path) -> String {
    format!("eval \"$('{}/agterm-backup' init bash)\"", bin.display())
}

fn corpus(name: &str) -> Vec<u8> {
    std::fs::read(corpus_dir().join(name)).unwrap()
}

#[test]
fn each_login_shell_sources_the_contract_line_once() {
    let cases: [(&str, &str, &str, &[&[&str]]); 5] = [
        (
            "/bin/zsh",
            ".zshrc",
            "zshrc/oh-my-zsh.zshrc",
            &[
                &["zsh", "-i", "-c", "exit"],
                &["zsh", "-l", "-i", "-c", "exit"],
            ],
        ),
        (
            "/usr/bin/zsh",
            ".zshrc",
            "zshrc/crlf.zshrc",
            &[&["zsh", "-i", "-c", "exit"]],
        ),
        (
            "/bin/bash",
            ".bashrc",
            "bashrc/set-u.bashrc",
            &[
                &["bash", "-i", "-c", "exit"],
                &["bash", "-l", "-i", "-c", "exit"],
            ],
        ),
        (
            "/bin/bash",
            ".bashrc",
            "bashrc/no-trailing-newline.bashrc",
            &[&["bash", "-i", "-c", "exit"]],
        ),
        (
            "/usr/bin/fish",
            ".config/fish/config.fish",
            "fish/config.fish",
            &[&["fish", "-i", "-c", "exit"], &["fish", "-l", "-c", "exit"]],
        ),
    ];
    for (login, file, original, starts) in cases {
        let s = Sandbox::new();
        let bin = bin_dir(&s, "my bin");
        let rc = s.home().join(file);
        std::fs::create_dir_all(rc.parent().unwrap()).unwrap();
        let original = corpus(original);
        std::fs::write(&rc, &original).unwrap();
        ok(&run_as(&s, login, &bin, &apply_shell_only()));
        let shell = Path::new(login).file_name().unwrap().to_str().unwrap();
        let line = match shell {
            "fish" => format!("'{}/agterm-backup' init fish | source", bin.display()),
            _ => format!("eval \"$('{}/agterm-backup' init {shell})\"", bin.display()),
        };
        let mut want = String::from_utf8(original.clone()).unwrap();
        if !want.ends_with('\n') {
            want.push('\n');
        }
        want.push('\n');
        want.push_str(&block(&line));
        assert_eq!(std::fs::read_to_string(&rc).unwrap(), want, "{file}");
        stub_in(&bin);
        for argv in starts {
            assert_eq!(evaluations(&s, argv, shell), 1, "{argv:?} with {file}");
        }
        ok(&run_as(&s, login, &bin, &["installer", "remove"]));
        assert_eq!(std::fs::read(&rc).unwrap(), original, "{file}");
        for argv in starts {
            assert_eq!(evaluations(&s, argv, shell), 0, "{argv:?} after remove");
        }
    }
}

/// A login file bash reads, by name, with its text, before apply (`None`: none exists).
type Profile = Option<(&'static str, &'static str)>;

#[test]
fn a_login_bash_runs_the_line_once_whatever_profile_it_reads() {
    let debian_profile = "# ~/.profile: executed by the command interpreter for login shells.\nif [ -n \"$BASH_VERSION\" ]; then\n    # include .bashrc if it exists\n    if [ -f \"$HOME/.bashrc\" ]; then\n\t. \"$HOME/.bashrc\"\n    fi\nfi\n";
    let cases: [(Profile, &[&str]); 3] = [
        // macOS with nothing yet: a new ~/.bash_profile, as a login bash reads nothing else.
        (None, &[".bashrc", ".bash_profile"]),
        // Debian: ~/.profile sources ~/.bashrc already.
        (Some((".profile", debian_profile)), &[".bashrc"]),
        // A ~/.profile of its own, which dash reads too: the line runs under bash only.
        (
            Some((".profile", "export EDITOR=vi\n")),
            &[".bashrc", ".profile"],
        ),
    ];
    for (profile, written) in cases {
        let s = Sandbox::new();
        let bin = bin_dir(&s, "bin");
        if let Some((name, body)) = profile {
            std::fs::write(s.home().join(name), body).unwrap();
        }
        ok(&run_as(&s, "/bin/bash", &bin, &apply_shell_only()));
        for name in [".bashrc", ".bash_profile", ".profile"] {
            let holds = std::fs::read_to_string(s.home().join(name))
                .is_ok_and(|t| t.contains("# >>> agterm-backup >>>"));
            assert_eq!(holds, written.contains(&name), "{name} in {profile:?}");
        }
        if written.contains(&".profile") {
            let profile = std::fs::read_to_string(s.home().join(".profile")).unwrap();
            let guarded = format!(
                "if [ -n \"${{BASH_VERSION-}}\" ]; then {}; fi",
                bash_line(&bin)
            );
            assert!(profile.contains(&guarded), "{profile}");
        }
        stub_in(&bin);
        assert_eq!(
            evaluations(&s, &["bash", "-l", "-i", "-c", "exit"], "bash"),
            1,
            "{profile:?}"
        );
        assert_eq!(
            evaluations(&s, &["bash", "-i", "-c", "exit"], "bash"),
            1,
            "{profile:?}"
        );
        assert_eq!(
            evaluations(&s, &["dash", "-l", "-c", "exit"], "bash"),
            0,
            "{profile:?}"
        );
        ok(&run_as(&s, "/bin/bash", &bin, &["installer", "remove"]));
        for name in [".bashrc", ".bash_profile", ".profile"] {
            let now = std::fs::read_to_string(s.home().join(name)).ok();
            let before = profile.filter(|p| p.0 == name).map(|p| p.1.to_string());
            assert_eq!(now, before, "{name} after remove");
        }
    }
}

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
    for (answer, written) in [("n\n", false), ("\n", true), ("yes\n", true)] {
        let s = Sandbox::new();
        let bin = bin_dir(&s, "bin");
        let command = format!(
            "'{}/agterm-backup' installer apply --agents gemini --no-denylist --no-tmux",
            bin.display()
        );
        // `script` gives the installer a terminal as stdin and feeds it our answer.
        let mut child = s
            .command(&format!("{}:/usr/bin:/bin", bin.display()))
            .env("SHELL", "/bin/zsh")
            .env("TERM", "dumb")
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn_script(&command);
        use std::io::Write as _;
        child
            .stdin
            .take()
            .unwrap()
            .write_all(answer.as_bytes())
            .unwrap();
        let out = child.wait_with_output().unwrap();
        let seen = text(&out.stdout);
        assert!(seen.contains("[Y/n]"), "{answer:?}: {seen}");
        assert_eq!(
            s.home().join(".zshrc").exists(),
            written,
            "{answer:?}: {seen}"
        );
    }
}

/// Runs a shell command line under `script`, which gives it a terminal.
trait SpawnScript {
    fn spawn_script(&mut self, command: &str) -> std::process::Child;
}

impl SpawnScript for Command {
    fn spawn_script(&mut self, command: &str) -> std::process::Child {
        let envs: Vec<_> = self
            .get_envs()
            .filter_map(|(k, v)| Some((k.to_owned(), v?.to_owned())))
            .collect();
        Command::new("script")
            .env_clear()
            .envs(envs)
            .args(["-qec", command, "/dev/null"])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("script (util-linux) runs")
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

#[test]
fn a_block_the_login_shell_no_longer_reads_once_moves_to_the_file_it_reads() {
    let s = Sandbox::new();
    let bin = bin_dir(&s, "bin");
    let plain = &apply_shell_only()[..6];
    ok(&run_as(&s, "/bin/bash", &bin, &apply_shell_only()));
    let profile = s.home().join(".bash_profile");
    assert!(std::fs::read_to_string(&profile)
        .unwrap()
        .contains(&bash_line(&bin)));
    // The user makes the profile source ~/.bashrc: a login bash would now run the line twice.
    let sourcing = format!(
        "[[ -r ~/.bashrc ]] && . ~/.bashrc\n{}",
        std::fs::read_to_string(&profile).unwrap()
    );
    std::fs::write(&profile, &sourcing).unwrap();
    let out = ok(&run_as(&s, "/bin/bash", &bin, plain));
    assert!(out.contains(".bash_profile: updated"), "{out}");
    assert_eq!(
        std::fs::read_to_string(&profile).unwrap(),
        "[[ -r ~/.bashrc ]] && . ~/.bashrc\n"
    );
    // zsh: a new $ZDOTDIR takes the block from ~/.zshrc.
    std::fs::write(s.home().join(".zshrc"), block(&zsh_line(&bin))).unwrap();
    let zdot = s.dir.path().join("zdot");
    std::fs::create_dir_all(&zdot).unwrap();
    let out = s
        .command(&format!("{}:/usr/bin:/bin", bin.display()))
        .env("SHELL", "/bin/zsh")
        .env("ZDOTDIR", &zdot)
        .args(plain)
        .output()
        .unwrap();
    ok(&out);
    assert!(!s.home().join(".zshrc").exists());
    assert_eq!(
        std::fs::read_to_string(zdot.join(".zshrc")).unwrap(),
        block(&zsh_line(&bin))
    );
    stub_in(&bin);
    assert_eq!(
        evaluations(&s, &["bash", "-l", "-i", "-c", "exit"], "bash"),
        1
    );
}

#[test]
fn a_missing_rc_file_is_created_0644_and_goes_again_with_remove() {
    let s = Sandbox::new();
    let bin = bin_dir(&s, "bin");
    let config = s.home().join(".config/fish/config.fish");
    let out = ok(&run_as(&s, "/usr/bin/fish", &bin, &apply_shell_only()));
    assert!(out.contains("config.fish: created"), "{out}");
    assert_eq!(mode(&config), Some(0o644));
    let line = format!("'{}/agterm-backup' init fish | source", bin.display());
    assert_eq!(std::fs::read_to_string(&config).unwrap(), block(&line));
    stub_in(&bin);
    assert_eq!(evaluations(&s, &["fish", "-i", "-c", "exit"], "fish"), 1);
    ok(&run_as(&s, "/usr/bin/fish", &bin, &["installer", "remove"]));
    assert!(!config.exists());
    assert!(!agterm_backup_installer::fsio::backup_path(&config).exists());
}
