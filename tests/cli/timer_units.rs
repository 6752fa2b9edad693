//! `timer install|status|uninstall` with HOME pointed at a temp dir and no usable `systemctl --user`:
//! the units are written (and verify), the error says what to run, uninstall removes them.

use std::path::Path;
use std::process::{Command, Output};

#[cfg(target_os = "linux")]
fn run(home: &Path, path: &str, args: &[&str]) -> Output {
    run_with_tmpdir(home, path, &home.join("tmp"), args)
}

/// `TMPDIR` is set apart from the checkout: the built binary may itself live under /tmp (a CI clone),
/// and `timer install` refuses a binary inside the temporary directory.
fn run_with_tmpdir(home: &Path, path: &str, tmpdir: &Path, args: &[&str]) -> Output {
    Command::new(agterm_backup_testkit::agterm_backup_bin!())
        .args(args)
        .env_clear()
        .envs(agterm_backup_testkit::hermetic::places())
        .env("HOME", home)
        .env("PATH", path)
        .env("TMPDIR", tmpdir)
        .env("AGTERM_BACKUP_HOME", home.join("state"))
        // Managed policy files (`/etc/claude-code`, …) never from the machine.
        .env(
            "AGTERM_BACKUP_SYSTEM_ROOT",
            std::path::Path::new(&home.join("state")).join("system-root"),
        )
        .output()
        .unwrap()
}

#[test]
fn a_binary_inside_the_temporary_directory_is_refused() {
    let home = agterm_backup_testkit::scratch::tempdir();
    let exe = std::fs::canonicalize(agterm_backup_testkit::agterm_backup_bin!()).unwrap();
    let tmpdir = exe.parent().unwrap();
    let out = run_with_tmpdir(home.path(), "/usr/bin:/bin", tmpdir, &["timer", "install"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stdout));
    assert!(
        text(&out.stderr).contains("inside the temporary directory"),
        "{}",
        text(&out.stderr)
    );
    assert!(
        !home.path().join(".config/systemd").exists(),
        "nothing written"
    );
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
#[cfg(target_os = "linux")]
fn install_without_systemctl_then_uninstall() {
    let home = agterm_backup_testkit::scratch::tempdir();
    // A PATH with a `systemctl` that fails like one without a user bus.
    let bin = home.path().join("bin");
    std::fs::create_dir(&bin).unwrap();
    let fake = bin.join("systemctl");
    std::fs::write(
        &fake,
        "#!/bin/sh\necho 'Failed to connect to bus: No medium found' >&2\nexit 1\n",
    )
    .unwrap();
    std::fs::set_permissions(&fake, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let path = format!("{}:/usr/bin:/bin", bin.display());

    let out = run(home.path(), &path, &["timer", "install", "--every", "600"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
    let err = text(&out.stderr);
    assert!(err.contains("Failed to connect to bus"), "{err}");
    assert!(err.contains("systemctl --user daemon-reload && systemctl --user enable --now agterm-backup-snap.timer"), "{err}");
    let units = home.path().join(".config/systemd/user");
    let service = std::fs::read_to_string(units.join("agterm-backup-snap.service")).unwrap();
    let exe = std::fs::canonicalize(agterm_backup_testkit::agterm_backup_bin!()).unwrap();
    assert!(
        service.contains(&format!("ExecStart=\"{}\" snap", exe.display())),
        "{service}"
    );
    assert!(service.contains("AGTERM_BACKUP_HOME="), "{service}");
    let timer = std::fs::read_to_string(units.join("agterm-backup-snap.timer")).unwrap();
    assert!(timer.contains("OnUnitActiveSec=600s"));

    let status = text(&run(home.path(), &path, &["timer", "status"]).stdout);
    assert!(status.contains("present"), "{status}");
    assert!(status.contains("OnUnitActiveSec=600s"), "{status}");

    // No systemctl at all: uninstall still removes the files and says so.
    let out = run(home.path(), "/nonexistent", &["timer", "uninstall"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("removed"),
        "{}",
        text(&out.stdout)
    );
    assert!(!units.join("agterm-backup-snap.service").exists());
    assert!(!units.join("agterm-backup-snap.timer").exists());
    let out = run(
        home.path(),
        "/nonexistent",
        &["timer", "install", "--every", "0"],
    );
    assert_eq!(out.status.code(), Some(2));
}

/// The service passes on our state folder and what locates each terminal's instance where its records
/// do not (agterm's `AGTERM_STATE_DIR`, its socket's folder), as set at install time: no pane's own
/// variables (`$TMUX`, `$ZMX_SESSION`, `$AGTERM_SOCKET` name the pane `timer install` ran in), and
/// nothing set empty.
#[test]
#[cfg(target_os = "linux")]
fn the_service_passes_on_what_locates_each_terminal() {
    let home = agterm_backup_testkit::scratch::tempdir();
    let bin = home.path().join("bin");
    std::fs::create_dir(&bin).unwrap();
    let fake = bin.join("systemctl");
    std::fs::write(&fake, "#!/bin/sh\nexit 1\n").unwrap();
    std::fs::set_permissions(&fake, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let units = home.path().join(".config/systemd/user");
    let state_dir = home.path().join("agterm-state").display().to_string();
    for (agterm_state_dir, passed) in [(state_dir.as_str(), true), ("", false)] {
        let out = Command::new(agterm_backup_testkit::agterm_backup_bin!())
            .args(["timer", "install"])
            .env_clear()
            .envs(agterm_backup_testkit::hermetic::places())
            .env("HOME", home.path())
            .env("PATH", format!("{}:/usr/bin:/bin", bin.display()))
            .env("TMPDIR", home.path().join("tmp"))
            .env("AGTERM_BACKUP_HOME", home.path().join("state"))
            .env("AGTERM_STATE_DIR", agterm_state_dir)
            .env("AGTERM_SOCKET", "/pane/agterm.sock")
            .env("TMUX", "/tmp/tmux-1/default,1,0")
            .env("TMUX_PANE", "%1")
            .env("ZMX_SESSION", "api")
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
        let service = std::fs::read_to_string(units.join("agterm-backup-snap.service")).unwrap();
        let env: Vec<&str> = service
            .lines()
            .filter(|l| l.starts_with("Environment="))
            .collect();
        let mut want = vec![format!(
            "Environment=\"AGTERM_BACKUP_HOME={}\"",
            home.path().join("state").display()
        )];
        if passed {
            want.push(format!("Environment=\"AGTERM_STATE_DIR={state_dir}\""));
        }
        assert_eq!(env, want, "{service}");
    }
}
