//! Talking to the fake zmx's sessions, against zmx's source (ea45749): raw `send`, `history`, the error
//! texts and exit codes, labels, `run`, and clients — a user attaching from an outer terminal,
//! `ctrl+\` detaching, and `attach` inside a session switching instead of nesting.

use crate::fake_zmx_common::*;
use agterm_backup_testkit::tmux::Tmux;

#[test]
fn send_writes_raw_bytes_and_appends_nothing() {
    let (dir, zmx) = fake();
    zmx.attach_detached("s", dir.path(), &["cat", "-v"]);
    zmx.wait_for_session("s", WAIT);
    assert_eq!(ok(&zmx.send("s", "one")), "");
    assert_eq!(ok(&zmx.run(&["send", "s", "two", "words"])), "");
    // Both sends are echoed; had either appended a newline, `cat -v` would print a line after the echo.
    let echoed = zmx.wait_for_history("s", "onetwo words", WAIT);
    assert_eq!(
        echoed, "onetwo words",
        "echoed, not entered: no newline was sent"
    );
    zmx.send("s", "\x01\r");
    // The tty echoes the line, then cat prints it: each byte arrived once, as sent.
    let h = zmx.wait_for_history("s", "onetwo words^A\nonetwo words^A", WAIT);
    assert_eq!(h, "onetwo words^A\nonetwo words^A");
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
    // The piped text's trailing newline is dropped: `tail\r` is one line, echoed and printed.
    let h = zmx.wait_for_history("s", "\ntail\ntail", WAIT);
    assert!(h.ends_with("^A\ntail\ntail"), "{h:?}");
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

/// `zmx history`: ghostty's plain formatter over scrollback and screen — rows as drawn (a long line is
/// two rows at the session's 120 columns), no escapes, trailing spaces and blank rows dropped, leading
/// blank rows kept, no newline after the last row.
#[test]
fn history_is_the_plain_scrollback() {
    let (dir, zmx) = fake();
    let script = "printf '\\n\\n'; printf 'w%.0s' $(seq 1 130); printf '\\ntrail   \\n'; \
                  for i in $(seq 1 40); do printf '\\033[1mline %s\\033[0m\\n' $i; done; sleep 300";
    zmx.attach_detached("h", dir.path(), &["sh", "-c", script]);
    zmx.wait_for_session("h", WAIT);
    let h = zmx.wait_for_history("h", "line 40", WAIT);
    let lines: Vec<String> = (1..=40).map(|i| format!("line {i}")).collect();
    let want = format!(
        "\n\n{}\n{}\ntrail\n{}",
        "w".repeat(120),
        "w".repeat(10),
        lines.join("\n")
    );
    assert_eq!(h, want);
    let inside = zmx
        .command(&["history"])
        .env("ZMX_SESSION", "h")
        .output()
        .unwrap();
    assert_eq!(ok(&inside), want, "the name defaults to $ZMX_SESSION");
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

/// zmx's `cwd.bats`: the cwd a program reports with OSC 7 is what `list` shows, as sent (a remote host
/// stays visible); before any OSC 7 it is where the session started, in OSC 7 form.
#[test]
fn list_reports_the_osc7_cwd_as_sent() {
    let (dir, zmx) = fake();
    let script = "printf '\\033]7;file://some-remote-box/home/me\\007marker\\n'; sleep 300";
    zmx.attach_detached("remote", dir.path(), &["sh", "-c", script]);
    zmx.attach_detached("plain", dir.path(), &["sleep", "300"]);
    zmx.wait_for_history("remote", "marker", WAIT);
    Tmux::wait_for(WAIT, "the OSC 7 cwd", || {
        zmx.session("remote")
            .filter(|r| r.get("cwd") == Some("file://some-remote-box/home/me"))
    });
    let plain = zmx.wait_for_session("plain", WAIT);
    let want = format!("file://{}{}", hostname(), dir.path().display());
    assert_eq!(plain.get("cwd"), Some(want.as_str()));
}
