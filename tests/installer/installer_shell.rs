//! The login shell's rc files through the real binary and the real shells: `installer apply --shell` writes
//! exactly the line `init`'s contract names, in a marked block of the file the login shell reads (zsh, bash
//! as a login shell and not, fish); the shells source it and evaluate the line exactly once (a stub in the
//! binary's place prints a known line), and not at all after `remove`, which gives back the bytes; a block
//! the login shell no longer reads moves to the file it reads. tests/installer/installer_shell_files.rs has the rest.

use crate::installer_common::shell::*;
use crate::installer_common::*;
use std::path::Path;

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
        let line = rc_line(&bin, shell, file.ends_with(".profile"));
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
            let guarded = rc_line(&bin, "bash", true);
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
    let line = rc_line(&bin, "fish", false);
    assert_eq!(std::fs::read_to_string(&config).unwrap(), block(&line));
    stub_in(&bin);
    assert_eq!(evaluations(&s, &["fish", "-i", "-c", "exit"], "fish"), 1);
    ok(&run_as(&s, "/usr/bin/fish", &bin, &["installer", "remove"]));
    assert!(!config.exists());
    assert!(!agterm_backup_installer::fsio::backup_path(&config).exists());
}
