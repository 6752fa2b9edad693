//! The fake zmx's session lifecycle against zmx's source (ea45749): create-if-missing, the command
//! ignored for a live session, one session out of racing creators, `kill`, a crash, and a reboot leaving
//! stale sockets that `list` reports once and `attach` recreates over.

use crate::fake_zmx_common::*;
use agterm_backup_testkit::agents::is_running;
use agterm_backup_testkit::tmux::Tmux;
use std::process::Output;
use std::time::Duration;

#[test]
fn list_without_sessions_says_so_on_stderr_and_short_prints_nothing() {
    let (_dir, zmx) = fake();
    for args in [&["list"][..], &["ls"], &[]] {
        let out = zmx.run(args);
        assert_eq!(ok(&out), "");
        let want = format!("no sessions found in {}\n", zmx.socket_dir().display());
        assert_eq!(text(&out.stderr), want, "zmx {args:?}");
    }
    let out = zmx.run(&["list", "--short"]);
    assert_eq!(
        (ok(&out), text(&out.stderr)),
        (String::new(), String::new())
    );
    let version = ok(&zmx.run(&["version"]));
    let dir_line = format!("socket_dir\t{}\n", zmx.socket_dir().display());
    assert!(
        version.starts_with("zmx\t\t0.7.0\nghostty_vt\t"),
        "{version}"
    );
    assert!(version.contains(&dir_line), "{version}");
    assert!(version.ends_with(&format!("log_dir\t\t{}\n", zmx.log_dir().display())));
}

#[test]
fn socket_dir_falls_back_to_xdg_runtime_dir_then_tmpdir() {
    let (dir, zmx) = fake();
    let d = dir.path().display().to_string();
    let out = zmx
        .command(&["version"])
        .env_remove("ZMX_DIR")
        .env("XDG_RUNTIME_DIR", format!("{d}/run"))
        .output()
        .unwrap();
    assert!(ok(&out).contains(&format!("socket_dir\t{d}/run/zmx\n")));
    let uid = nix::unistd::getuid().as_raw();
    let out = zmx
        .command(&["version"])
        .env_remove("ZMX_DIR")
        .env_remove("XDG_RUNTIME_DIR")
        .env("TMPDIR", format!("{d}/t/"))
        .output()
        .unwrap();
    assert!(ok(&out).contains(&format!("socket_dir\t{d}/t/zmx-{uid}\n")));
    assert!(dir.path().join(format!("t/zmx-{uid}")).is_dir(), "made");
}

#[test]
fn attach_creates_a_login_shell_carrying_zmx_session_and_no_tmux() {
    let (dir, zmx) = fake();
    let cwd = dir.path().join("a dir");
    std::fs::create_dir(&cwd).unwrap();
    let before = chrono::Utc::now().timestamp() as u64;
    let out = zmx
        .command(&["attach", "work"])
        .current_dir(&cwd)
        .env("TMUX", "/tmp/outer,1,0")
        .env("TMUX_PANE", "%3")
        .env("CI", "true")
        .output()
        .unwrap();
    let want = format!("session \"work\" created\n{CLEAR}{RESTORE}");
    assert_eq!(ok(&out), want, "created, then attached and detached at EOF");
    let (row, pid) = started(&zmx, "work");
    wait_argv(pid, &["-bash"]); // $SHELL as a login shell
    let env = environ(pid);
    assert!(env.contains(&"ZMX_SESSION=work".to_string()), "{env:?}");
    assert!(!env
        .iter()
        .any(|v| v.starts_with("TMUX=") || v.starts_with("TMUX_PANE=") || v.starts_with("CI=")));
    let names: Vec<&str> = row.fields.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(names, ["name", "pid", "clients", "created", "cwd"]);
    assert_eq!(row.get("clients"), Some("0"));
    let created: u64 = row.get("created").unwrap().parse().unwrap();
    assert!((before..before + 30).contains(&created), "unix seconds");
    let cwd_field = format!("file://{}{}/a%20dir", hostname(), dir.path().display());
    assert_eq!(row.get("cwd"), Some(cwd_field.as_str()));
    let raw = ok(&zmx.run(&["list"]));
    assert!(
        raw.starts_with("  name=work\tpid="),
        "two spaces outside a session: {raw:?}"
    );
    let inside = zmx
        .command(&["list"])
        .env("ZMX_SESSION", "work")
        .output()
        .unwrap();
    assert!(ok(&inside).starts_with("→ name=work\t"));
    assert_eq!(ok(&zmx.run(&["ls", "--short"])), "work\n");
}

#[test]
fn a_command_is_execd_directly_and_ignored_while_the_session_lives() {
    let (dir, zmx) = fake();
    let first = zmx.attach_detached("job", dir.path(), &["sleep", "300"]);
    assert!(ok(&first).starts_with("session \"job\" created\n"));
    let (row, pid) = started(&zmx, "job");
    wait_argv(pid, &["sleep", "300"]); // no shell in between
    assert_eq!(row.get("cmd"), Some("sleep 300"));
    let again = zmx.attach_detached("job", dir.path(), &["sleep", "400"]);
    assert!(!ok(&again).contains("created"), "{again:?}");
    assert_eq!(zmx.session("job").unwrap().pid(), Some(pid));
    let log = std::fs::read_to_string(zmx.log_dir().join("zmx.log")).unwrap();
    assert!(
        log.contains("[warning] (default): session already exists, ignoring command session=job")
    );
    zmx.attach_detached("q", dir.path(), &["sh", "-c", "sleep 300; echo 'x y'"]);
    let row = zmx.wait_for_session("q", WAIT);
    assert_eq!(
        row.get("cmd"),
        Some("sh -c 'sleep 300; echo '\\''x y'\\'''"),
        "shell-quoted where needed"
    );
}

#[test]
fn a_session_ends_with_its_command_and_its_socket_goes() {
    let (dir, zmx) = fake();
    zmx.attach_detached("brief", dir.path(), &["sleep", "1"]);
    zmx.wait_for_session("brief", WAIT);
    zmx.wait_gone("brief", WAIT);
    assert!(!zmx.socket_dir().join("brief").exists());
    assert!(zmx.stale_sockets().is_empty());
    let missing = zmx.attach_detached("nope", dir.path(), &["no-such-command-zmx"]);
    assert!(ok(&missing).starts_with("session \"nope\" created"));
    zmx.wait_gone("nope", WAIT);
    let log = std::fs::read_to_string(zmx.log_dir().join("nope.log")).unwrap();
    assert!(log.contains("execvpe failed: cmd=no-such-command-zmx err=FileNotFound"));
}

/// Racing `attach <name> <cmd>` calls (the user's and ours) where no socket file is: the bind decides,
/// one creates, the rest attach to it or lose the bind; the command runs once. After a reboot the stale
/// socket is first removed by a `zmx list` (zmx's own cleanup): over the stale file itself zmx deletes,
/// then binds, so two racers can both create (see the module doc of `fake_zmx`).
#[test]
fn racing_attaches_start_one_session_running_the_command_once() {
    let (dir, zmx) = fake();
    let marks = dir.path().join("marks");
    let script = format!("echo run >> '{}'; sleep 300", marks.display());
    for round in 0..2 {
        let racers: Vec<_> = (0..4)
            .map(|_| {
                zmx.command(&["attach", "race", "sh", "-c", &script])
                    .current_dir(dir.path())
                    .stdout(std::process::Stdio::piped())
                    .stderr(std::process::Stdio::piped())
                    .spawn()
                    .unwrap()
            })
            .collect();
        let outs: Vec<Output> = racers
            .into_iter()
            .map(|c| c.wait_with_output().unwrap())
            .collect();
        let created = outs
            .iter()
            .filter(|o| text(&o.stdout).contains("session \"race\" created"))
            .count();
        assert_eq!(created, 1, "round {round}: {outs:?}");
        for o in &outs {
            let lost = text(&o.stderr) == "error: AddressInUse\n" && o.status.code() == Some(1);
            assert!(o.status.success() || lost, "{o:?}");
        }
        zmx.wait_for_session("race", WAIT);
        std::thread::sleep(Duration::from_millis(500));
        let runs = std::fs::read_to_string(&marks).unwrap();
        assert_eq!(runs, "run\n", "round {round}: ran once");
        assert_eq!(ok(&zmx.run(&["ls", "--short"])), "race\n");
        zmx.reboot();
        std::fs::remove_file(&marks).unwrap();
        assert_eq!(zmx.stale_sockets(), ["race"]);
        let listed = ok(&zmx.run(&["list"]));
        assert_eq!(
            listed,
            "  name=race\terr=ConnectionRefused\tstatus=cleaning up\n"
        );
        assert!(!zmx.socket_dir().join("race").exists());
    }
}

#[test]
fn kill_ends_the_session_and_frees_the_name() {
    let (dir, zmx) = fake();
    for name in ["k1", "k2", "other"] {
        zmx.attach_detached(name, dir.path(), &["sleep", "300"]);
    }
    let (_, pid) = started(&zmx, "k1");
    zmx.wait_for_session("k2", WAIT);
    zmx.wait_for_session("other", WAIT);
    let out = zmx.run(&["kill", "k*"]);
    let mut lines: Vec<String> = ok(&out).lines().map(str::to_string).collect();
    lines.sort();
    assert_eq!(lines, ["killed session k1", "killed session k2"]);
    assert!(
        !zmx.socket_dir().join("k1").exists(),
        "socket gone on return"
    );
    Tmux::wait_for(WAIT, "sleep killed", || (!is_running(pid)).then_some(()));
    assert_eq!(ok(&zmx.run(&["ls", "--short"])), "other\n");
    let again = zmx.attach_detached("k1", dir.path(), &["sleep", "301"]);
    assert!(ok(&again).starts_with("session \"k1\" created"));
}

#[test]
fn a_reboot_leaves_stale_sockets_listed_once_and_attach_recreates() {
    let (dir, zmx) = fake();
    zmx.attach_detached("a", dir.path(), &[]);
    zmx.attach_detached("b", dir.path(), &["sleep", "300"]);
    let (_, pa) = started(&zmx, "a");
    let (_, pb) = started(&zmx, "b");
    zmx.reboot();
    assert!(
        !is_running(pa) && !is_running(pb),
        "every session process is dead"
    );
    assert_eq!(zmx.stale_sockets(), ["a", "b"]);
    let again = zmx.attach_detached("b", dir.path(), &["sleep", "301"]);
    assert!(ok(&again).starts_with("session \"b\" created"), "{again:?}");
    // The first `list` after the reboot reports `a` (and deletes its socket); `b` is the new one.
    let listed = ok(&zmx.run(&["list"]));
    let (first, second) = listed.split_once('\n').unwrap();
    assert_eq!(first, "  name=a\terr=ConnectionRefused\tstatus=cleaning up");
    let row = agterm_backup_testkit::fake_zmx::parse_row(second.trim_end()).unwrap();
    let pid = row.pid().unwrap();
    assert_eq!((row.name(), row.get("cmd")), ("b", Some("sleep 301")));
    wait_argv(pid, &["sleep", "301"]);
    assert_eq!(
        ok(&zmx.run(&["ls", "--short"])),
        "b\n",
        "the stale row is gone"
    );
    assert!(!zmx.socket_dir().join("a").exists());
    let log = std::fs::read_to_string(zmx.log_dir().join("zmx.log")).unwrap();
    assert!(log.contains("stale socket found, cleaning up session=a"));
}

#[test]
fn a_crashed_daemon_leaves_its_socket_and_the_others_live_on() {
    let (dir, zmx) = fake();
    zmx.attach_detached("gone", dir.path(), &["sleep", "300"]);
    zmx.attach_detached("kept", dir.path(), &["sleep", "300"]);
    let (_, gone) = started(&zmx, "gone");
    let (_, kept) = started(&zmx, "kept");
    zmx.crash("gone");
    assert!(!is_running(gone) && is_running(kept));
    assert_eq!(zmx.stale_sockets(), ["gone"]);
    let out = zmx.send("gone", "x");
    assert_eq!(ok(&out), "cleaned up stale session gone\n");
    assert!(zmx.stale_sockets().is_empty(), "send deleted it");
    assert_eq!(ok(&zmx.run(&["ls", "--short"])), "kept\n");
}
