use super::*;
use std::cell::RefCell;

fn spec() -> TimerSpec {
    TimerSpec {
        binary: PathBuf::from("/opt/my tools/agterm-backup"),
        every_secs: 600,
        env: vec![("AGTERM_BACKUP_HOME".into(), "/h/50% $state & <x>".into())],
    }
}

#[test]
fn systemd_units_quote_specifiers_and_variables() {
    let svc = systemd_service(&spec());
    assert!(
        svc.contains("ExecStart=\"/opt/my tools/agterm-backup\" snap\n"),
        "{svc}"
    );
    assert!(
        svc.contains("Environment=\"AGTERM_BACKUP_HOME=/h/50%% $$state & <x>\"\n"),
        "{svc}"
    );
    let timer = systemd_timer(&spec());
    assert!(timer.contains("OnUnitActiveSec=600s\n"));
    assert!(timer.contains(&format!("Unit={UNIT}.service\n")));
    assert!(timer.contains("WantedBy=timers.target"));
    assert_eq!(systemd_quote(r#"a"b\c"#), r#""a\"b\\c""#);
}

#[test]
fn plist_is_escaped_and_parses_as_a_plist() {
    let text = launchd_plist(&spec(), Path::new("/h/timer.log"));
    assert!(text.contains("<integer>600</integer>"));
    assert!(text.contains("<string>/h/50% $state &amp; &lt;x&gt;</string>"));
    let Ok(out) = std::process::Command::new("python3")
        .args(["-c", "import plistlib,sys; d=plistlib.loads(sys.stdin.buffer.read()); print(d['Label'], d['ProgramArguments'][1], d['StartInterval'], d['EnvironmentVariables']['AGTERM_BACKUP_HOME'])"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut c| {
            use std::io::Write;
            c.stdin.take().unwrap().write_all(text.as_bytes())?;
            c.wait_with_output()
        })
    else {
        eprintln!("SKIPPED: python3 not available to parse the plist");
        return;
    };
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        format!("{LABEL} snap 600 /h/50% $state & <x>")
    );
}

#[test]
fn systemd_analyze_verifies_the_units() {
    if which("systemd-analyze").is_none() {
        eprintln!("SKIPPED: systemd-analyze not installed");
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let bin = tmp.path().join("agterm-backup");
    std::fs::write(&bin, "#!/bin/sh\n").unwrap();
    std::fs::set_permissions(&bin, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let s = TimerSpec {
        binary: bin,
        every_secs: 900,
        env: vec![],
    };
    let svc = tmp.path().join(format!("{UNIT}.service"));
    let tim = tmp.path().join(format!("{UNIT}.timer"));
    std::fs::write(&svc, systemd_service(&s)).unwrap();
    std::fs::write(&tim, systemd_timer(&s)).unwrap();
    let out = std::process::Command::new("systemd-analyze")
        // System mode: `--user` needs a running user manager; the unit syntax checks are the same.
        .args(["verify"])
        .arg(&svc)
        .arg(&tim)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    // Unknown keys and bad values are reported as lines naming the file.
    let ours: Vec<&str> = err.lines().filter(|l| l.contains(UNIT)).collect();
    assert!(ours.is_empty() && out.status.success(), "{err}");
}

fn which(name: &str) -> Option<PathBuf> {
    std::env::var_os("PATH").and_then(|p| {
        std::env::split_paths(&p)
            .map(|d| d.join(name))
            .find(|p| p.is_file())
    })
}

#[test]
fn binary_resolution_follows_links_and_refuses_temp_dirs() {
    let tmp = tempfile::tempdir().unwrap();
    let real = tmp.path().join("real");
    std::fs::write(&real, "").unwrap();
    let link = tmp.path().join("link");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let got = resolve_binary(&link, &[]).unwrap();
    assert_eq!(got, std::fs::canonicalize(&real).unwrap());
    let e = resolve_binary(&link, &[tmp.path().to_path_buf()]).unwrap_err();
    assert!(e.contains("temporary directory"), "{e}");
    assert!(resolve_binary(&tmp.path().join("absent"), &[]).is_err());
}

struct Recorder {
    calls: RefCell<Vec<String>>,
    fail: bool,
}

impl Runner for Recorder {
    fn run(&self, program: &str, args: &[&str]) -> Result<(), String> {
        self.calls
            .borrow_mut()
            .push(format!("{program} {}", args.join(" ")));
        if self.fail {
            Err(format!(
                "`{program}` could not be run: No such file or directory"
            ))
        } else {
            Ok(())
        }
    }
}

#[test]
fn install_and_uninstall_under_a_temp_home() {
    let home = tempfile::tempdir().unwrap();
    let paths = unit_paths(Platform::Systemd, home.path(), None);
    assert!(paths[0].ends_with(".config/systemd/user/agterm-backup-snap.service"));
    let files = unit_files(Platform::Systemd, &spec(), &paths, Path::new("/l"));
    let ok = Recorder {
        calls: RefCell::new(vec![]),
        fail: false,
    };
    install(Platform::Systemd, &files, 501, &ok).unwrap();
    assert_eq!(
        std::fs::read_to_string(&paths[1]).unwrap(),
        systemd_timer(&spec())
    );
    assert!(ok
        .calls
        .borrow()
        .last()
        .unwrap()
        .contains("enable --now agterm-backup-snap.timer"));
    // No systemctl: the files stay, and the error says what to run.
    let bad = Recorder {
        calls: RefCell::new(vec![]),
        fail: true,
    };
    let e = install(Platform::Systemd, &files, 501, &bad).unwrap_err();
    assert!(
        e.contains("systemctl --user daemon-reload && systemctl --user enable --now"),
        "{e}"
    );
    assert!(paths[0].exists());
    let done = uninstall(Platform::Systemd, &paths, 501, &bad).unwrap();
    assert!(done.iter().any(|d| d.starts_with("note:")));
    assert!(!paths[0].exists() && !paths[1].exists());
    // launchd: a failed bootout (not loaded) is fine, bootstrap is what matters.
    let lpaths = unit_paths(Platform::Launchd, home.path(), None);
    let lfiles = unit_files(Platform::Launchd, &spec(), &lpaths, Path::new("/l"));
    install(Platform::Launchd, &lfiles, 501, &ok).unwrap();
    assert!(ok
        .calls
        .borrow()
        .last()
        .unwrap()
        .starts_with("launchctl bootstrap gui/501 "));
    assert!(lpaths[0].ends_with("Library/LaunchAgents/io.github.agterm-backup.snap.plist"));
}
