//! The init file (issue 20: no process where there is nothing to do): `installer apply --shell` writes
//! `init`'s snippet for zsh and bash into the state folder, the rc line sources it instead of running
//! `init` at every shell start, `shell-start` refreshes it after an upgrade, and `remove` deletes it.

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
        .env("HOME", s.home())
        .env("PATH", format!("{}:/usr/bin:/bin", bin.display()))
        .env("TERM", "dumb")
        .env("AGTERM_BACKUP_HOME", s.backup_home())
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

        // The line sources the file: the snippet's hook is defined, and no process of ours ran.
        let log = s.dir.path().join("calls.log");
        logging_stub(&bin, &log);
        let defined = match shell {
            "zsh" => "(( ${+functions[__agterm_backup_start]} )) && echo hook-defined",
            _ => "declare -F __agterm_backup_start >/dev/null && echo hook-defined",
        };
        let out = start(&s, &bin, &[shell, "-i", "-c", defined]);
        assert_eq!(
            text(&out.stdout).trim(),
            "hook-defined",
            "{shell}: {}",
            text(&out.stderr)
        );
        assert_eq!(read_opt(&log), None, "{shell}: the line started the binary");

        // Without the file, the line runs `init` as before.
        std::fs::remove_file(&init).unwrap();
        start(&s, &bin, &[shell, "-i", "-c", "exit"]);
        assert_eq!(
            text(&std::fs::read(&log).unwrap()),
            format!("init {shell}\n")
        );

        // A binary deleted without `remove`: the file is there, the line says nothing and runs nothing.
        std::fs::write(&init, want).unwrap();
        std::fs::remove_file(&log).unwrap();
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

#[test]
fn shell_start_refreshes_an_old_init_file_and_remove_deletes_it() {
    let s = Sandbox::new();
    let bin = bin_dir(&s, "bin");
    ok(&run_as(&s, "/bin/zsh", &bin, &apply_shell_only()));
    let init = s.backup_home().join("init.zsh");
    let today = std::fs::read_to_string(&init).unwrap();
    // An older release's snippet; the new binary at the same path.
    let old = "# agterm-backup 0.1 init for zsh\nprint old-snippet\n";
    std::fs::write(&init, old).unwrap();
    let shell_start = [
        &format!("{}/agterm-backup", bin.display()) as &str,
        "shell-start",
        "--shell",
        "zsh",
    ];
    let out = start(&s, &bin, &shell_start);
    assert!(out.status.success());
    assert_eq!(text(&out.stdout), "", "nothing to resume: nothing printed");
    assert_eq!(std::fs::read_to_string(&init).unwrap(), today);
    assert_eq!(mode(&init), Some(0o644));
    // No file, none written: a hand-written `eval "$(agterm-backup init zsh)"` needs none.
    let bash_init = s.backup_home().join("init.bash");
    start(
        &s,
        &bin,
        &[shell_start[0], "shell-start", "--shell", "bash"],
    );
    assert_eq!(read_opt(&bash_init), None);

    ok(&run_as(&s, "/bin/zsh", &bin, &["installer", "remove"]));
    assert_eq!(read_opt(&init), None, "remove deletes the init file");
}
