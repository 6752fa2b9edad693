//! The fake zmx against zmx's source (ea45749): create-if-missing, the command ignored for a live
//! session, one session out of racing creators, raw `send`, `history`, `kill`, and a reboot leaving
//! stale sockets that `list` reports once and `attach` recreates over.

use agterm_backup_testkit::agents::is_running;
use agterm_backup_testkit::fake_zmx::{FakeZmx, Row};
use agterm_backup_testkit::tmux::Tmux;
use std::process::Output;
use std::time::Duration;

const WAIT: Duration = Duration::from_secs(10);
const CLEAR: &str = "\x1b[2J\x1b[H";
const RESTORE: &str = "\x1bc\x1b]110\x1b\\\x1b]111\x1b\\\x1b]112\x1b\\";

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn ok(out: &Output) -> String {
    assert!(out.status.success(), "zmx failed: {out:?}");
    text(&out.stdout)
}

fn argv(pid: u32) -> Vec<String> {
    let raw = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
    raw.split(|&b| b == 0)
        .filter(|a| !a.is_empty())
        .map(text)
        .collect()
}

/// `pid`'s argv once it is `want` (a pane's process is forked before it execs the command).
fn wait_argv(pid: u32, want: &[&str]) {
    Tmux::wait_for(WAIT, &format!("pid {pid} to run {want:?}"), || {
        (argv(pid) == want).then_some(())
    })
}

fn environ(pid: u32) -> Vec<String> {
    let raw = std::fs::read(format!("/proc/{pid}/environ")).expect("environ");
    raw.split(|&b| b == 0).map(text).collect()
}

fn hostname() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .unwrap()
        .trim()
        .to_string()
}

/// A fake zmx in a fresh temp dir (dropped after the fake: its sessions die first).
fn fake() -> (tempfile::TempDir, FakeZmx) {
    let dir = tempfile::tempdir().unwrap();
    let zmx = FakeZmx::new(dir.path());
    (dir, zmx)
}

fn started(zmx: &FakeZmx, name: &str) -> (Row, u32) {
    let row = zmx.wait_for_session(name, WAIT);
    let pid = row.pid().expect("pid");
    (row, pid)
}

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
        .any(|v| v.starts_with("TMUX") || v.starts_with("CI=")));
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

/// Racing `attach <name> <cmd>` calls (the user's and ours): one creates, the rest attach to it or lose
/// the bind; the command runs once. Also over a stale socket after a reboot.
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
    }
}

#[test]
fn send_writes_raw_bytes_and_appends_nothing() {
    let (dir, zmx) = fake();
    zmx.attach_detached("s", dir.path(), &["cat", "-v"]);
    zmx.wait_for_session("s", WAIT);
    assert_eq!(ok(&zmx.send("s", "one")), "");
    assert_eq!(ok(&zmx.run(&["send", "s", "two", "words"])), "");
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(
        zmx.history("s"),
        "onetwo words\n",
        "echoed, not entered: no newline was sent"
    );
    zmx.send("s", "\x01\r");
    // The tty echoes the line, then cat prints it: each byte arrived once, as sent.
    let h = zmx.wait_for_history("s", "onetwo words^A\nonetwo words^A\n", WAIT);
    assert_eq!(h, "onetwo words^A\nonetwo words^A\n");
    let piped = zmx
        .command(&["send", "s"])
        .stdin(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    piped
        .stdin
        .as_ref()
        .unwrap()
        .write_all(b"tail\r\n")
        .unwrap();
    assert!(piped.wait_with_output().unwrap().status.success());
    zmx.wait_for_history("s", "\ntail\n", WAIT);
}

#[test]
fn errors_for_missing_sessions_and_arguments_are_zmxs() {
    let (_dir, zmx) = fake();
    let cases: [(&[&str], &str, &str, i32); 7] = [
        (&["send"], "", "error: SessionNameRequired\n", 1),
        (&["send", "x"], "", "error: TextRequired\n", 1),
        (
            &["send", "x", "hi"],
            "session x is unresponsive (Unexpected)\ndaemon may be busy: try again\n",
            "",
            0,
        ),
        (
            &["history", "x"],
            "",
            "error: session \"x\" does not exist\nerror: SessionNotFound\n",
            1,
        ),
        (&["kill", "x"], "", "", 0),
        (&["kill"], "", "error: SessionNameRequired\n", 1),
        (&["attach", "a/b"], "", "error: InvalidSessionName\n", 1),
    ];
    for (args, stdout, stderr, code) in cases {
        let out = zmx.run(args);
        let got = (text(&out.stdout), text(&out.stderr), out.status.code());
        assert_eq!(
            got,
            (stdout.into(), stderr.into(), Some(code)),
            "zmx {args:?}"
        );
    }
    let long = "n".repeat(120);
    let out = zmx.run(&["attach", &long]);
    assert!(text(&out.stderr).starts_with("error: session name is too long (120 bytes, max "));
    assert_eq!(out.status.code(), Some(0), "zmx returns after printing it");
}

#[test]
fn history_is_the_plain_scrollback() {
    let (dir, zmx) = fake();
    let script = "for i in $(seq 1 80); do printf '\\033[1mline %s\\033[0m\\n' $i; done; sleep 300";
    zmx.attach_detached("h", dir.path(), &["sh", "-c", script]);
    zmx.wait_for_session("h", WAIT);
    let h = zmx.wait_for_history("h", "line 80", WAIT);
    let want: String = (1..=80).map(|i| format!("line {i}\n")).collect();
    assert_eq!(
        h, want,
        "beyond the screen, no escapes, no trailing blank lines"
    );
    let inside = zmx
        .command(&["history"])
        .env("ZMX_SESSION", "h")
        .output()
        .unwrap();
    assert_eq!(ok(&inside), want, "the name defaults to $ZMX_SESSION");
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
fn labels_are_set_at_attach_and_listed() {
    let (dir, zmx) = fake();
    let bad = zmx.run(&["attach", "--labels", "cmd=x", "l"]);
    assert_eq!(
        text(&bad.stderr),
        "error: \"cmd\" is a read-only built-in field\n"
    );
    assert_eq!(bad.status.code(), Some(1));
    assert!(
        zmx.stale_sockets().is_empty() && zmx.list().is_empty(),
        "nothing created"
    );
    zmx.attach_detached("l", dir.path(), &[]);
    let labelled = zmx.run(&["attach", "--labels=z=9 a=1", "l"]);
    ok(&labelled);
    let row = zmx.wait_for_session("l", WAIT);
    let tail: Vec<_> = row.fields[5..].to_vec();
    assert_eq!(tail, [("a".into(), "1".into()), ("z".into(), "9".into())]);
    assert_eq!(ok(&zmx.run(&["get", "l"])), "a=1 z=9");
    assert_eq!(ok(&zmx.run(&["get", "l", "z"])), "9");
    ok(&zmx.run(&["set", "l", "z="]));
    assert_eq!(ok(&zmx.run(&["get", "l"])), "a=1");
}

#[test]
fn run_types_the_command_and_records_its_exit_code() {
    let (_dir, zmx) = fake();
    let out = zmx.run(&["run", "t", "-d", "sh", "-c", "exit 3"]);
    assert_eq!(ok(&out), "session \"t\" created\ncommand sent!\n");
    let (_, pid) = started(&zmx, "t");
    wait_argv(pid, &["-bash"]); // run's shell is bash
    let row = Tmux::wait_for(WAIT, "the task's end", || {
        zmx.session("t").filter(|r| r.get("ended").is_some())
    });
    assert_eq!(row.get("exit_code"), Some("3"));
    let again = zmx.run(&["run", "t", "true"]);
    assert_eq!(
        (text(&again.stdout), again.status.code()),
        (String::new(), Some(0))
    );
}

/// An outer terminal (a pane of another tmux server) running `zmx attach`: it counts as a client, sees
/// the session, and `ctrl+\` detaches it.
#[test]
fn a_user_attaches_from_an_outer_terminal_and_detaches_with_ctrl_backslash() {
    let (dir, zmx) = fake();
    let (outer, pane) = outer_terminal(dir.path(), &zmx);
    zmx.attach_detached("u", dir.path(), &["sh", "-c", "echo inside-u; sleep 300"]);
    zmx.wait_for_history("u", "inside-u", WAIT);
    zmx.attach_in(&outer, &pane, "u");
    clients(&zmx, "u", "1");
    Tmux::wait_for(WAIT, "u on the outer screen", || {
        outer
            .capture(&pane, false)
            .contains("inside-u")
            .then_some(())
    });
    outer.ok(&["send-keys", "-t", &pane, "C-\\"]);
    clients(&zmx, "u", "0");
    zmx.session("u").expect("detaching keeps the session");
}

/// `zmx attach <other>` inside a session moves that session's client instead of nesting; with no
/// client attached zmx's daemon fails its switch and the session ends (`NoLeaderFound`).
#[test]
fn attach_inside_a_session_switches_its_client_instead_of_nesting() {
    let (dir, zmx) = fake();
    let (outer, pane) = outer_terminal(dir.path(), &zmx);
    zmx.attach_in(&outer, &pane, "a");
    let (_, pa) = started(&zmx, "a");
    clients(&zmx, "a", "1");
    let inner = format!("'{}' attach b sleep 300\r", zmx.zmx().display());
    zmx.send("a", &inner);
    let b = moved_to(&zmx, "b", &outer, &pane);
    assert_eq!(b.get("cmd"), None, "the switch target starts a shell");
    let a = zmx.session("a").expect("a lives on");
    assert_eq!((a.get("clients"), a.pid()), (Some("0"), Some(pa)));

    let out = zmx
        .command(&["attach", "c", "sleep", "300"])
        .env("ZMX_SESSION", "a")
        .output()
        .unwrap();
    assert_eq!(ok(&out), "", "no session created, nothing printed");
    zmx.wait_gone("a", WAIT);
    assert!(zmx.session("c").is_none());
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

/// Waits until session `target` has the one client (moved there by a switch); on timeout panics with
/// what every session, screen and log shows.
fn moved_to(zmx: &FakeZmx, target: &str, outer: &Tmux, pane: &str) -> Row {
    let deadline = std::time::Instant::now() + WAIT;
    loop {
        let row = zmx.session(target);
        if let Some(row) = row.filter(|r| r.get("clients") == Some("1")) {
            return row;
        }
        if std::time::Instant::now() > deadline {
            let logs: Vec<String> = std::fs::read_dir(zmx.log_dir())
                .unwrap()
                .flatten()
                .map(|e| std::fs::read_to_string(e.path()).unwrap_or_default())
                .collect();
            panic!(
                "no client moved to {target}: {:?}\nouter: {}\nlogs: {logs:#?}",
                zmx.list(),
                outer.capture(pane, true)
            );
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// A user's terminal outside zmx: a bash in a pane of another tmux server, with the fake's env.
fn outer_terminal(dir: &std::path::Path, zmx: &FakeZmx) -> (Tmux, String) {
    let outer = Tmux::new(dir.join("outer.sock"));
    let shell = ["bash", "--norc", "--noprofile"];
    let pane = outer.spawn("outer", dir, &zmx.env(), &shell);
    (outer, pane)
}

/// Waits until session `name` lists `n` clients.
fn clients(zmx: &FakeZmx, name: &str, n: &str) -> Row {
    Tmux::wait_for(WAIT, &format!("{n} client(s) on {name}"), || {
        zmx.session(name).filter(|r| r.get("clients") == Some(n))
    })
}
