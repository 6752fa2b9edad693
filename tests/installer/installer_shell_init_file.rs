//! The init file (issue 20: no process where there is nothing to do): `installer apply --shell` writes
//! `init`'s snippet for zsh, bash and fish into the state folder, the rc line sources it instead of
//! running `init` at every shell start, `shell-start` refreshes it after an upgrade, and `remove` deletes
//! it. An rc file holding the line of an earlier release (fish's ran `init` every time) gets today's.

use crate::installer_common;

use agterm_backup_core::quote::quote;
use installer_common::shell::*;
use installer_common::*;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::{Command, Output, Stdio};

/// The agterm pane a shell starts in (no terminal socket: nothing in the state folder to resume).
const PANE: [(&str, &str); 3] = [
    ("AGTERM_SESSION_ID", "6B1E0C2A-AAAA-BBBB-CCCC-0123456789AB"),
    ("AGTERM_PANE", "left"),
    ("AGTERM_SOCKET", "/nonexistent/agterm.sock"),
];

/// `argv` started in the sandbox's HOME, in an agterm pane, with the sandbox's state folder.
fn start(s: &Sandbox, bin: &Path, argv: &[&str]) -> Output {
    Command::new(argv[0])
        .args(&argv[1..])
        .env_clear()
        .envs(agterm_backup_testkit::hermetic::places())
        .env("HOME", s.home())
        .env("PATH", format!("{}:/usr/bin:/bin", bin.display()))
        .env("TERM", "dumb")
        .env("AGTERM_BACKUP_HOME", s.backup_home())
        // Managed policy files (`/etc/claude-code`, …) never from the machine.
        .env(
            "AGTERM_BACKUP_SYSTEM_ROOT",
            std::path::Path::new(&s.backup_home()).join("system-root"),
        )
        .envs(PANE)
        .current_dir(s.home())
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

/// What `init <shell>` prints for the binary at `path`.
fn init_output(bin: &Path, shell: &str) -> String {
    let out = Command::new(bin.join("agterm-backup"))
        .args(["init", shell])
        .output()
        .unwrap();
    text(&out.stdout)
}

/// Puts a script in the binary's place that logs its arguments and does nothing else.
fn logging_stub(bin: &Path, log: &Path) {
    let path = bin.join("agterm-backup");
    std::fs::remove_file(&path).unwrap();
    std::fs::write(
        &path,
        format!("#!/bin/sh\necho \"$*\" >> '{}'\n", log.display()),
    )
    .unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

#[test]
fn apply_writes_the_init_file_and_the_line_sources_it_without_running_init() {
    for (login, shell, file) in [
        ("/bin/zsh", "zsh", ".zshrc"),
        ("/bin/bash", "bash", ".bashrc"),
        ("/usr/bin/fish", "fish", ".config/fish/config.fish"),
    ] {
        let s = Sandbox::new();
        let bin = bin_dir(&s, "my bin");
        ok(&run_as(&s, login, &bin, &apply_shell_only()));
        let init = s.backup_home().join(format!("init.{shell}"));
        // The snippet calls the binary by the path the line names (a stable symlink survives upgrades).
        let want = init_output(&bin, shell).replace(
            &quote(&canonical_binary().display().to_string()),
            &quote(&format!("{}/agterm-backup", bin.display())),
        );
        assert_eq!(std::fs::read_to_string(&init).unwrap(), want, "{shell}");
        assert_eq!(mode(&init), Some(0o644), "{shell}");
        let rc = std::fs::read_to_string(s.home().join(file)).unwrap();
        assert!(rc.contains(&block(&rc_line(&bin, shell, false))), "{rc}");

        // The line sources the file, and no process of ours ran: zsh's and bash's snippet defines its
        // hook; fish's acts as it is read, only on a terminal, so a line added to the file says it was read.
        let log = s.dir.path().join("calls.log");
        logging_stub(&bin, &log);
        let probe = match shell {
            "zsh" => "(( ${+functions[__agterm_backup_start]} )) && echo hook-defined",
            "bash" => "declare -F __agterm_backup_start >/dev/null && echo hook-defined",
            _ => {
                std::fs::write(&init, format!("{want}echo hook-defined\n")).unwrap();
                "exit"
            }
        };
        let out = start(&s, &bin, &[shell, "-i", "-c", probe]);
        assert_eq!(
            text(&out.stdout).trim(),
            "hook-defined",
            "{shell}: {}",
            text(&out.stderr)
        );
        assert_eq!(read_opt(&log), None, "{shell}: the line started the binary");

        // Without the file, the line runs `init` as before; outside a pane, nothing.
        std::fs::remove_file(&init).unwrap();
        start(&s, &bin, &[shell, "-i", "-c", "exit"]);
        assert_eq!(
            text(&std::fs::read(&log).unwrap()),
            format!("init {shell}\n")
        );
        std::fs::remove_file(&log).unwrap();
        outside_a_pane(&s, &bin, &[shell, "-i", "-c", "exit"]);
        assert_eq!(read_opt(&log), None, "{shell}: outside a pane");

        // A binary deleted without `remove`: the file is there, the line says nothing and runs nothing.
        std::fs::write(&init, want).unwrap();
        std::fs::remove_file(bin.join("agterm-backup")).unwrap();
        let out = start(&s, &bin, &[shell, "-i", "-c", "exit"]);
        assert!(out.status.success(), "{shell}");
        assert_eq!(text(&out.stdout), "", "{shell}");
        // (bash -i off a terminal warns about job control: only what the line says counts.)
        let said = text(&out.stderr);
        for word in ["agterm", "init", "No such file", "not found"] {
            assert!(!said.contains(word), "{shell}: {said}");
        }
        assert_eq!(read_opt(&log), None, "{shell}");
    }
}

/// `argv` as [`start`] runs it, but outside any pane (no `AGTERM_*`, `TMUX_PANE`, `ZMX_SESSION`).
fn outside_a_pane(s: &Sandbox, bin: &Path, argv: &[&str]) {
    let out = Command::new(argv[0])
        .args(&argv[1..])
        .env_clear()
        .envs(agterm_backup_testkit::hermetic::places())
        .env("HOME", s.home())
        .env("PATH", format!("{}:/usr/bin:/bin", bin.display()))
        .env("TERM", "dumb")
        .env("AGTERM_BACKUP_HOME", s.backup_home())
        // Managed policy files (`/etc/claude-code`, …) never from the machine.
        .env(
            "AGTERM_BACKUP_SYSTEM_ROOT",
            std::path::Path::new(&s.backup_home()).join("system-root"),
        )
        .current_dir(s.home())
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(out.status.success(), "{argv:?}");
}

#[test]
fn shell_start_refreshes_an_old_init_file_and_remove_deletes_it() {
    for (login, shell, other) in [
        ("/bin/zsh", "zsh", "bash"),
        ("/usr/bin/fish", "fish", "zsh"),
    ] {
        let s = Sandbox::new();
        let bin = bin_dir(&s, "bin");
        ok(&run_as(&s, login, &bin, &apply_shell_only()));
        let init = s.backup_home().join(format!("init.{shell}"));
        let today = std::fs::read_to_string(&init).unwrap();
        // An older release's snippet; the new binary at the same path.
        let old = format!("# agterm-backup 0.1 init for {shell}\necho old-snippet\n");
        std::fs::write(&init, old).unwrap();
        let me = format!("{}/agterm-backup", bin.display());
        let out = start(&s, &bin, &[&me, "shell-start", "--shell", shell]);
        assert!(out.status.success());
        assert_eq!(text(&out.stdout), "", "nothing to resume: nothing printed");
        assert_eq!(std::fs::read_to_string(&init).unwrap(), today, "{shell}");
        assert_eq!(mode(&init), Some(0o644));
        // No file, none written: a hand-written `eval "$(agterm-backup init zsh)"` needs none.
        let other_init = s.backup_home().join(format!("init.{other}"));
        start(&s, &bin, &[&me, "shell-start", "--shell", other]);
        assert_eq!(read_opt(&other_init), None);

        ok(&run_as(&s, login, &bin, &["installer", "remove"]));
        assert_eq!(read_opt(&init), None, "remove deletes the init file");
    }
}

#[test]
fn apply_brings_an_earlier_fish_line_to_the_init_file() {
    let old = |b: &str| {
        [
            format!("{b} init fish | source"),
            format!(
                "if test -n \"$TMUX_PANE$ZMX_SESSION$AGTERM_PANE\" -a -x {b}; {b} init fish | source; end"
            ),
        ]
    };
    // This binary's path (an upgrade in place) and another (a moved binary).
    for (i, theirs) in [false, false, true, true].into_iter().enumerate() {
        let s = Sandbox::new();
        let bin = bin_dir(&s, "bin");
        let me = quote(&format!("{}/agterm-backup", bin.display()));
        let line = &old(if theirs {
            "'/old/bin/agterm-backup'"
        } else {
            &me
        })[i % 2];
        let config = s.home().join(".config/fish/config.fish");
        std::fs::create_dir_all(config.parent().unwrap()).unwrap();
        let original = format!("set -gx GOPATH ~/go\n\n{}", block(line));
        std::fs::write(&config, &original).unwrap();
        ok(&run_as(&s, "/usr/bin/fish", &bin, &apply_shell_only()));
        let applied = std::fs::read_to_string(&config).unwrap();
        assert_eq!(
            applied,
            format!(
                "set -gx GOPATH ~/go\n\n{}",
                block(&rc_line(&bin, "fish", false))
            ),
            "{line}"
        );
        assert!(s.backup_home().join("init.fish").exists(), "{line}");
        ok(&run_as(&s, "/usr/bin/fish", &bin, &["installer", "remove"]));
        assert_eq!(
            std::fs::read_to_string(&config).unwrap(),
            "set -gx GOPATH ~/go\n",
            "{line}"
        );
        assert!(!s.backup_home().join("init.fish").exists(), "{line}");
    }
}
