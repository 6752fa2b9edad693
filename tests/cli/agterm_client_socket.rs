//! The agterm client against a tiny scripted Unix-socket server in the test: exact request bytes (as
//! `agtermctl` sends them, research/agterm.md §1.3), agterm's answer quirks, and every failure mode.

use agterm_backup_agterm::{
    AgtermError, AgtermTerminal, Client, Launch, PaneSelector, PinAction, Request, TextRange,
    Timeouts,
};
use agterm_backup_core::pane::PaneRole;
use agterm_backup_core::terminal::{PaneRef, Terminal, TerminalError};
use std::io::{BufRead, BufReader, Write};
use std::os::unix::net::UnixListener;
use std::path::PathBuf;
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

/// What the scripted server does with one connection.
#[derive(Clone)]
enum Answer {
    /// Write this line (a `\n` is added).
    Line(String),
    /// Read the request, then never answer (until the test ends).
    Hang,
    /// Read the request, then close without a byte.
    Close,
}

/// A Unix socket in a temp dir that answers connections in order with `answers` and reports each
/// request line it read.
struct Scripted {
    _dir: agterm_backup_testkit::scratch::ScratchDir,
    path: PathBuf,
    requests: mpsc::Receiver<String>,
}

impl Scripted {
    fn start(answers: Vec<Answer>) -> Scripted {
        let dir = agterm_backup_testkit::scratch::tempdir();
        let path = dir.path().join("agterm.sock");
        let listener = UnixListener::bind(&path).unwrap();
        let (tx, rx) = mpsc::channel();
        thread::spawn(move || {
            let mut held = Vec::new();
            for answer in answers {
                let Ok((stream, _)) = listener.accept() else {
                    return;
                };
                let mut reader = BufReader::new(stream.try_clone().unwrap());
                let mut line = String::new();
                let _ = reader.read_line(&mut line);
                let _ = tx.send(line);
                let mut stream = stream;
                match answer {
                    Answer::Line(l) => {
                        let _ = stream.write_all(format!("{l}\n").as_bytes());
                    }
                    Answer::Hang => held.push(stream),
                    Answer::Close => drop(stream),
                }
            }
            thread::sleep(Duration::from_secs(5));
        });
        Scripted {
            _dir: dir,
            path,
            requests: rx,
        }
    }

    fn client(&self) -> Client {
        Client::new(&self.path, Timeouts::CLI)
    }

    fn next_request(&self) -> String {
        self.requests.recv_timeout(Duration::from_secs(5)).unwrap()
    }
}

fn ok_id() -> Answer {
    Answer::Line(r#"{"ok":true,"result":{"id":"6B1E"}}"#.into())
}

#[test]
fn requests_are_byte_for_byte_what_agtermctl_sends() {
    let sel_token = PaneSelector {
        pane: None,
        pane_id: Some("9A2F".into()),
    };
    let sel_right = PaneSelector {
        pane: Some("right".into()),
        pane_id: None,
    };
    let cases: Vec<(Request, &str)> = vec![
        (Request::tree(None), r#"{"cmd":"tree"}"#),
        (
            Request::tree(Some("5F0D")),
            r#"{"cmd":"tree","args":{"window":"5F0D"}}"#,
        ),
        (Request::window_list(), r#"{"cmd":"window.list"}"#),
        (Request::version(), r#"{"cmd":"version"}"#),
        (Request::restore_mode(), r#"{"cmd":"restore.mode"}"#),
        (Request::zmx_list(), r#"{"cmd":"zmx.list"}"#),
        (
            Request::restore_probe(),
            r#"{"cmd":"session.restore","args":{"mode":"probe"}}"#,
        ),
        (
            Request::session_restore(
                "6B1E",
                &sel_token,
                &PinAction::Set("claude --resume 0f0c".into()),
            ),
            r#"{"cmd":"session.restore","target":"6B1E","args":{"mode":"set","paneID":"9A2F","command":"claude --resume 0f0c"}}"#,
        ),
        (
            Request::session_restore("6B1E", &PaneSelector::default(), &PinAction::None),
            r#"{"cmd":"session.restore","target":"6B1E","args":{"mode":"none"}}"#,
        ),
        (
            Request::session_restore("active", &sel_right, &PinAction::Clear),
            r#"{"cmd":"session.restore","target":"active","args":{"mode":"clear","pane":"right"}}"#,
        ),
        (
            Request::session_type("6B1E", Some("left"), "claude --resume 0f0c\n"),
            r#"{"cmd":"session.type","target":"6B1E","args":{"text":"claude --resume 0f0c\n","select":false,"pane":"left"}}"#,
        ),
        (
            Request::session_text("6B1E", Some("left"), TextRange::Lines(40)),
            r#"{"cmd":"session.text","target":"6B1E","args":{"pane":"left","lines":40}}"#,
        ),
        (
            Request::session_text("6B1E", Some("right"), TextRange::All),
            r#"{"cmd":"session.text","target":"6B1E","args":{"pane":"right","all":true}}"#,
        ),
    ];
    let server = Scripted::start(cases.iter().map(|_| ok_id()).collect());
    let client = server.client();
    for (req, want) in &cases {
        client.call(req).unwrap();
        assert_eq!(server.next_request(), format!("{want}\n"));
    }
}

#[test]
fn answers_are_read_with_agterms_encoding_quirks() {
    let server = Scripted::start(vec![
        Answer::Line(
            r#"{"result":{"text":"saved, but \"Restore running commands on restart\" is off, so the override will not run","id":"6B1E0C2A-AAAA-BBBB-CCCC-0123456789AB"},"ok":true}"#.into(),
        ),
        Answer::Line(r#"{"ok":true,"result":{"text":"\/Users\/me\/src $ "}}"#.into()),
        Answer::Line(r#"{"ok":true}"#.into()),
        Answer::Line(r#"{"ok":false,"error":"no such session: 6B1E"}"#.into()),
        Answer::Line(r#"{"ok":false}"#.into()),
        Answer::Line("this is not json".into()),
    ]);
    let c = server.client();
    let r = c.call(&Request::version()).unwrap();
    assert_eq!(
        r.result.id.as_deref(),
        Some("6B1E0C2A-AAAA-BBBB-CCCC-0123456789AB")
    );
    assert!(r.result.text.unwrap().starts_with("saved, but"));
    let r = c.call(&Request::version()).unwrap();
    assert_eq!(r.result.text.as_deref(), Some("/Users/me/src $ "));
    let r = c.call(&Request::version()).unwrap();
    assert_eq!(
        r.result,
        Default::default(),
        "omitted result reads as empty"
    );
    match c.call(&Request::version()) {
        Err(AgtermError::Refused(e)) => assert_eq!(e, "no such session: 6B1E"),
        other => panic!("{other:?}"),
    }
    let e = c.call(&Request::version()).unwrap_err();
    assert!(e.to_string().contains("without saying why"), "{e}");
    let e = c.call(&Request::version()).unwrap_err();
    assert!(matches!(e, AgtermError::Malformed { .. }), "{e:?}");
    assert!(
        e.to_string().contains(&server.path.display().to_string()),
        "{e}"
    );
}

#[test]
fn no_socket_says_is_agterm_running() {
    let dir = agterm_backup_testkit::scratch::tempdir();
    let path = dir.path().join("agterm.sock");
    let e = Client::new(&path, Timeouts::HOOK)
        .call(&Request::version())
        .unwrap_err();
    let msg = e.to_string();
    assert!(
        msg.starts_with(&format!("connect({}) failed: ", path.display())),
        "{msg}"
    );
    assert!(msg.ends_with("— is agterm running?"), "{msg}");
    // A stale socket file with nobody listening says the same.
    drop(UnixListener::bind(&path).unwrap());
    let msg = Client::new(&path, Timeouts::HOOK)
        .call(&Request::version())
        .unwrap_err()
        .to_string();
    assert!(msg.contains("is agterm running?"), "{msg}");
    // An instance that could not own the socket advertises `<path>.unavailable`.
    let marker = dir.path().join("agterm.sock.unavailable");
    let msg = Client::new(&marker, Timeouts::HOOK)
        .call(&Request::version())
        .unwrap_err()
        .to_string();
    assert!(msg.contains("another agterm instance holds it"), "{msg}");
}

#[test]
fn a_server_that_never_answers_costs_at_most_the_read_budget() {
    let server = Scripted::start(vec![Answer::Hang, Answer::Hang]);
    let timeouts = Timeouts {
        connect: Duration::from_millis(300),
        write: Duration::from_millis(300),
        read: Duration::from_millis(250),
    };
    let started = Instant::now();
    let e = Client::new(&server.path, timeouts)
        .call(&Request::version())
        .unwrap_err();
    let took = started.elapsed();
    assert!(
        matches!(
            e,
            AgtermError::Timeout {
                step: "reading the answer",
                ..
            }
        ),
        "{e:?}"
    );
    assert!(
        took >= Duration::from_millis(240) && took < Duration::from_millis(700),
        "{took:?}"
    );
    assert!(e.to_string().contains("did not answer in time"), "{e}");
    // An overall deadline cuts the step timeouts short.
    let started = Instant::now();
    let client = Client::new(&server.path, Timeouts::CLI)
        .with_deadline(Instant::now() + Duration::from_millis(100));
    assert!(client.call(&Request::version()).is_err());
    assert!(
        started.elapsed() < Duration::from_millis(400),
        "{:?}",
        started.elapsed()
    );
}

#[test]
fn a_server_that_closes_without_answering_is_reported() {
    let server = Scripted::start(vec![Answer::Close]);
    let e = server.client().call(&Request::version()).unwrap_err();
    assert!(
        e.to_string()
            .contains("closed the connection without answering"),
        "{e}"
    );
}

#[test]
fn a_deadline_already_past_never_connects() {
    let server = Scripted::start(vec![ok_id()]);
    let client = server.client().with_deadline(Instant::now());
    assert!(matches!(
        client.call(&Request::version()),
        Err(AgtermError::Timeout { .. })
    ));
    assert!(server
        .requests
        .recv_timeout(Duration::from_millis(100))
        .is_err());
}

#[test]
fn oversized_requests_are_refused_before_sending() {
    let server = Scripted::start(vec![ok_id()]);
    let huge = "x".repeat((1 << 20) + 1);
    let e = server
        .client()
        .call(&Request::session_type("6B1E", None, &huge))
        .unwrap_err();
    assert!(matches!(e, AgtermError::RequestTooLarge { .. }), "{e:?}");
}

#[test]
fn the_peer_is_this_process_and_its_launch_is_known() {
    let server = Scripted::start(vec![ok_id()]);
    let client = server.client();
    client.call(&Request::version()).unwrap();
    let pid = client
        .last_peer_pid()
        .expect("SO_PEERCRED names the server");
    assert_eq!(pid, std::process::id());
    let launch = Launch::of_pid(pid).unwrap();
    let age = chrono::Utc::now() - launch.started_at;
    assert!(
        age.num_seconds() >= -1 && age.num_minutes() < 60,
        "{launch:?}"
    );
}

#[test]
fn the_terminal_reads_only_open_windows_and_joins_their_trees() {
    let server = Scripted::start(vec![
        Answer::Line(
            r#"{"ok":true,"result":{"windows":[{"id":"W1","name":"main","open":true,"active":true},{"id":"W2","name":"old","open":false,"active":false},{"id":"W3","name":"b","open":true,"active":false}]}}"#.into(),
        ),
        Answer::Line(
            r#"{"ok":true,"result":{"tree":{"workspaces":[{"id":"WS","name":"dev","active":true,"sessions":[{"id":"6B1E0C2A-AAAA-BBBB-CCCC-0123456789AB","name":"api","cwd":"\/w\/api","active":true,"split":true,"hasSplit":true,"overlay":false,"scratch":false,"flagged":false,"splitRestoreCommand":"cd '\/w' && 'claude'"}]}]}}}"#.into(),
        ),
        Answer::Line(r#"{"ok":false,"error":"window not open — window.select it first"}"#.into()),
        // features(): version refused (pre-0.25), probe says 0.16+, restore.mode refused.
        Answer::Line(r#"{"ok":false,"error":"invalid request: The data couldn’t be read because it isn’t in the correct format."}"#.into()),
        Answer::Line(r#"{"ok":false,"error":"invalid restore mode: probe (set|none|clear)"}"#.into()),
        Answer::Line(r#"{"ok":false,"error":"invalid request: unknown command"}"#.into()),
    ]);
    let mut term = AgtermTerminal::new(server.client());
    let panes = term.panes().unwrap();
    assert_eq!(server.next_request(), "{\"cmd\":\"window.list\"}\n");
    assert_eq!(
        server.next_request(),
        "{\"cmd\":\"tree\",\"args\":{\"window\":\"W1\"}}\n"
    );
    assert_eq!(
        server.next_request(),
        "{\"cmd\":\"tree\",\"args\":{\"window\":\"W3\"}}\n"
    );
    assert_eq!(panes.len(), 2);
    assert_eq!(panes[0].cwd.as_deref(), Some("/w/api"));
    assert_eq!(panes[1].role, PaneRole::Right);
    assert_eq!(panes[1].pin.as_deref(), Some("cd '/w' && 'claude'"));
    assert_eq!(panes[0].pin, None);
    assert!(panes.iter().all(|p| p.live.is_none()));
}

#[test]
fn the_terminal_maps_refusals_and_notes() {
    let server = Scripted::start(vec![
        Answer::Line(r#"{"ok":true,"result":{"id":"6B1E","text":"saved, but \"Restore running commands on restart\" is off, so the override will not run"}}"#.into()),
        Answer::Line(r#"{"ok":false,"error":"invalid request: no session.restore"}"#.into()),
        Answer::Line(r#"{"ok":false,"error":"session not realized"}"#.into()),
        Answer::Line(r#"{"ok":true,"result":{"text":""}}"#.into()),
    ]);
    let mut term = AgtermTerminal::new(server.client());
    let pane = PaneRef {
        session_id: "6B1E".into(),
        role: PaneRole::Right,
        pane_id: Some("9A2F".into()),
    };
    let note = term.pin(&pane, "cd '/w' && 'claude'").unwrap();
    assert!(note.unwrap().contains("is off"));
    assert_eq!(
        server.next_request(),
        "{\"cmd\":\"session.restore\",\"target\":\"6B1E\",\"args\":{\"mode\":\"set\",\"pane\":\"right\",\"paneID\":\"9A2F\",\"command\":\"cd '/w' && 'claude'\"}}\n"
    );
    assert!(matches!(
        term.pin(&pane, "x"),
        Err(TerminalError::Unsupported(_))
    ));
    match term.type_text(&pane, "ls\n") {
        Err(TerminalError::Refused(e)) => assert_eq!(e, "session not realized"),
        other => panic!("{other:?}"),
    }
    let screen = term
        .screen(&pane, agterm_backup_core::terminal::ScreenRange::Visible)
        .unwrap();
    assert_eq!(screen, "");
}
