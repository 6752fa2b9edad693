use super::*;
use crate::wire::ControlResult;

fn reply(text: Option<&str>) -> Result<Reply, AgtermError> {
    Ok(Reply {
        result: ControlResult {
            id: Some("6B1E".into()),
            text: text.map(str::to_string),
            ..Default::default()
        },
        peer_pid: None,
    })
}

#[test]
fn outcomes_follow_agterms_answer() {
    assert_eq!(outcome(&reply(None)), PinOutcome::Ok);
    assert_eq!(outcome(&reply(Some(""))), PinOutcome::Ok);
    assert_eq!(
        outcome(&reply(Some(
            "saved, but \"Restore running commands on restart\" is off"
        ))),
        PinOutcome::SettingOff
    );
    let refused = |s: &str| Err(AgtermError::Refused(s.into()));
    assert_eq!(
        outcome(&refused("invalid request: The data")),
        PinOutcome::Unsupported
    );
    assert_eq!(
        outcome(&refused("no such session: 6B1E")),
        PinOutcome::Error
    );
    assert_eq!(
        outcome(&refused("unknown pane id: 9A2F")),
        PinOutcome::Error
    );
}

#[test]
fn request_carries_token_and_role() {
    let t = PinTarget {
        socket: None,
        agterm_session: "6B1E".into(),
        pane: "right".into(),
        pane_id: Some("9A2F".into()),
    };
    assert_eq!(
        request(&t, "cd '/w' && 'claude'").to_line(),
        "{\"cmd\":\"session.restore\",\"target\":\"6B1E\",\"args\":{\"mode\":\"set\",\"pane\":\"right\",\"paneID\":\"9A2F\",\"command\":\"cd '/w' && 'claude'\"}}\n"
    );
}

fn record(id: &str) -> LiveRecord {
    serde_json::from_value(serde_json::json!({
        "v":1,"agent":"claude","session_id":id,"agterm_session":"6B1E0C2A-AAAA-BBBB-CCCC-0123456789AB",
        "role":"left","pane_id":null,"transcript_path":null,"agent_cwd":"/w","hook_cwd":"/w","flags":[],
        "agent_pid":null,"event":"SessionStart","ts":"2026-12-01T00:00:00Z","terminal":"agterm"
    }))
    .unwrap()
}

#[test]
fn invalid_ids_never_reach_agterm() {
    let dir = tempfile::tempdir().unwrap();
    let sock = dir.path().join("agterm.sock");
    let listener = std::os::unix::net::UnixListener::bind(&sock).unwrap();
    listener.set_nonblocking(true).unwrap();
    let target = PinTarget {
        socket: Some(sock.to_string_lossy().into_owned()),
        agterm_session: "6B1E0C2A-AAAA-BBBB-CCCC-0123456789AB".into(),
        pane: "left".into(),
        pane_id: None,
    };
    let mut previous = record("good-id");
    previous.pin = Some(PinOutcome::Ok);
    previous.pinned_line = Some("cd '/w' && 'claude' '--resume' 'good-id'".into());
    let state = StateDir::at(dir.path().join("state"));
    for bad in ["", "-rf", "a'b", "x y"] {
        let mut r = record(bad);
        let deadline = Instant::now() + Duration::from_secs(1);
        pin_with_state(&target, Some(&previous), &mut r, deadline, Some(&state));
        assert!(listener.accept().is_err(), "{bad:?} was sent to agterm");
        assert_eq!(
            r.pin,
            Some(PinOutcome::Ok),
            "{bad:?}: agterm still holds the old pin"
        );
        assert_eq!(r.pinned_line, previous.pinned_line);
    }
}

fn at(ts: &str) -> DateTime<Utc> {
    ts.parse().unwrap()
}

#[test]
fn plan_pins_only_changes() {
    let now = at("2026-12-01T00:00:00Z");
    let mut prev = record("a");
    prev.pinned_line = Some("L1".into());
    prev.pin = Some(PinOutcome::Ok);
    let plan = |p: Option<&LiveRecord>, l: &str| plan(p, Ok(l.into()), false, now);
    assert_eq!(plan(Some(&prev), "L1"), PinPlan::Unchanged);
    assert_eq!(plan(Some(&prev), "L2"), PinPlan::Send("L2".into()));
    assert_eq!(plan(None, "L1"), PinPlan::Send("L1".into()));
    prev.pinned_line = None;
    assert_eq!(plan(Some(&prev), "L1"), PinPlan::Send("L1".into()));
    assert!(matches!(
        super::plan(None, Err("bad id".into()), false, now),
        PinPlan::Refused(_)
    ));
}

#[test]
fn a_failed_pin_waits_out_its_backoff_step_unless_the_line_changes() {
    let t0 = at("2026-12-01T00:00:00Z");
    let mut r = record("a");
    r.pin = Some(PinOutcome::Error);
    let mut steps = Vec::new();
    let mut now = t0;
    for _ in 0..8 {
        let (n, step) = note_failure(&mut r, "L1", now);
        steps.push((n, step));
        assert_eq!(plan(Some(&r), Ok("L1".into()), false, now), PinPlan::Wait);
        let just_before = now + chrono::Duration::seconds(step - 1);
        assert_eq!(
            plan(Some(&r), Ok("L1".into()), false, just_before),
            PinPlan::Wait
        );
        assert_eq!(
            plan(Some(&r), Ok("L2".into()), false, just_before),
            PinPlan::Send("L2".into()),
            "a new line is tried at once"
        );
        now += chrono::Duration::seconds(step);
        assert!(retry_due(&r, now));
        assert_eq!(
            plan(Some(&r), Ok("L1".into()), false, now),
            PinPlan::Send("L1".into())
        );
    }
    let secs: Vec<i64> = steps.iter().map(|s| s.1).collect();
    assert_eq!(secs, [10, 20, 40, 80, 160, 320, 600, 600]);
    assert_eq!(steps.last().unwrap().0, 8);
    // Another line starts the count again.
    assert_eq!(note_failure(&mut r, "L2", now), (1, 10));
    // Not a failure: always due.
    r.pin = Some(PinOutcome::Ok);
    assert!(retry_due(&r, t0));
}

#[test]
fn the_users_end_clears_a_held_pin_and_nothing_else() {
    let now = at("2026-12-01T00:00:00Z");
    let mut prev = record("a");
    assert_eq!(
        plan(Some(&prev), Ok("L".into()), true, now),
        PinPlan::Unchanged
    );
    assert_eq!(plan(None, Ok("L".into()), true, now), PinPlan::Unchanged);
    prev.pinned_line = Some("L".into());
    prev.pin = Some(PinOutcome::SettingOff);
    assert_eq!(plan(Some(&prev), Ok("L".into()), true, now), PinPlan::Clear);
}

/// A socket that answers every request line with `answer`, recording what it got.
fn answering(
    dir: &std::path::Path,
    answer: &'static str,
) -> (String, std::sync::mpsc::Receiver<String>) {
    use std::io::{BufRead, BufReader, Write};
    let sock = dir.join("agterm.sock");
    let listener = std::os::unix::net::UnixListener::bind(&sock).unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for conn in listener.incoming().flatten() {
            let mut line = String::new();
            let _ = BufReader::new(&conn).read_line(&mut line);
            let _ = tx.send(line);
            let _ = (&conn).write_all(answer.as_bytes());
        }
    });
    (sock.to_string_lossy().into_owned(), rx)
}

#[test]
fn an_ended_conversation_has_its_pin_cleared_and_a_failure_backs_off() {
    let dir = tempfile::tempdir().unwrap();
    let (socket, got) = answering(dir.path(), "{\"ok\":true,\"result\":{\"id\":\"6B1E\"}}\n");
    let target = PinTarget {
        socket: Some(socket),
        agterm_session: "6B1E0C2A-AAAA-BBBB-CCCC-0123456789AB".into(),
        pane: "left".into(),
        pane_id: Some("9A2F".into()),
    };
    let state = StateDir::at(dir.path().join("state"));
    state.ensure().unwrap();
    let deadline = || Instant::now() + Duration::from_secs(2);
    let mut prev = record("good-id");
    prev.pin = Some(PinOutcome::Ok);
    prev.pinned_line = Some("cd '/w' && 'claude' '--resume' 'good-id'".into());
    let mut ended = record("good-id");
    ended.set_end_reason(Some("prompt_input_exit"));
    pin_with_state(&target, Some(&prev), &mut ended, deadline(), Some(&state));
    let sent = got.recv_timeout(Duration::from_secs(2)).unwrap();
    assert!(sent.contains("\"mode\":\"clear\""), "{sent}");
    assert_eq!((ended.pin, ended.pinned_line), (None, None));

    // agterm gone: the first failure is logged with its step, the events inside it do nothing.
    let gone = PinTarget {
        socket: Some(dir.path().join("gone.sock").to_string_lossy().into_owned()),
        ..target
    };
    let mut first = record("good-id");
    pin_with_state(&gone, None, &mut first, deadline(), Some(&state));
    assert_eq!(first.pin, Some(PinOutcome::Error));
    let mut next = first.clone();
    next.ts = "2026-12-01T00:00:05Z".into();
    pin_with_state(&gone, Some(&first), &mut next, deadline(), Some(&state));
    assert_eq!(next.pin, Some(PinOutcome::Error));
    assert_eq!(
        next.extra.get(PIN_RETRY_KEY),
        first.extra.get(PIN_RETRY_KEY)
    );
    let log = std::fs::read_to_string(state.log_path()).unwrap();
    assert_eq!(log.matches("pin failed").count(), 1, "{log}");
    assert!(log.contains("next try in 10 s"), "{log}");
    let mut later = next.clone();
    later.ts = "2026-12-01T00:00:11Z".into();
    pin_with_state(&gone, Some(&next), &mut later, deadline(), Some(&state));
    let log = std::fs::read_to_string(state.log_path()).unwrap();
    assert_eq!(log.matches("pin failed").count(), 2, "{log}");
    assert!(log.contains("2 in a row; next try in 20 s"), "{log}");
}
