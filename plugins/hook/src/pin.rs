//! Pinning the pane's resume line with agterm at SessionStart (and whenever the id or directory changes),
//! so agterm itself types it after its next restart (rerun mode).
//!
//! The pin is `session.restore` mode `set` on `$AGTERM_SOCKET`, target `$AGTERM_SESSION_ID`, with the
//! pane's persistent token `paneID` = `$AGTERM_PANE_ID` and `pane` = `$AGTERM_PANE` as the fallback when
//! agterm no longer knows the token. The line always carries `cd`: nobody knows where the restored
//! shell will start. agterm's answer is the feature test: `invalid request: …` means a build without pins
//! (before 0.16); `result.text` means stored, but the rerun setting is off (or Live/Fresh mode is active).

use agterm_backup_core::agent;
use agterm_backup_core::agterm::{
    AgtermError, Client, PaneSelector, PinAction, Reply, Request, Timeouts,
};
use agterm_backup_core::record::{LiveRecord, PinOutcome};
use agterm_backup_core::resume::ResumeLine;
use agterm_backup_core::state::StateDir;
use std::time::{Duration, Instant};

/// Where to pin: the pane's identity from its environment.
#[derive(Debug, Clone)]
pub struct PinTarget {
    /// `$AGTERM_SOCKET`.
    pub socket: Option<String>,
    /// `$AGTERM_SESSION_ID`, upper-case.
    pub agterm_session: String,
    /// `$AGTERM_PANE` (`left`/`right`), sent as the fallback when the token is unknown.
    pub pane: String,
    /// `$AGTERM_PANE_ID`.
    pub pane_id: Option<String>,
}

/// Each socket step's own limit inside the hook (connect, write, read), on top of the overall deadline.
pub const PIN_STEP_TIMEOUT: Duration = Duration::from_millis(300);

/// What to do about the pin for this event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PinPlan {
    /// The pinned line is already this one: keep the previous outcome.
    Unchanged,
    /// Nothing can be pinned (no valid id, unknown agent, a word a line cannot carry): keep what agterm
    /// holds, say why in the log.
    Refused(String),
    /// Send this line.
    Send(String),
}

/// Decides from the record's resume line (already made typable) and the previous record.
pub fn plan(previous: Option<&LiveRecord>, line: Result<String, String>) -> PinPlan {
    match line {
        Err(why) => PinPlan::Refused(why),
        Ok(line) if previous.and_then(|p| p.pinned_line.as_deref()) == Some(line.as_str()) => {
            PinPlan::Unchanged
        }
        Ok(line) => PinPlan::Send(line),
    }
}

/// Reads agterm's answer to `session.restore set`.
pub fn outcome(answer: &Result<Reply, AgtermError>) -> PinOutcome {
    match answer {
        Ok(r) if r.result.text.as_deref().is_some_and(|t| !t.is_empty()) => PinOutcome::SettingOff,
        Ok(_) => PinOutcome::Ok,
        Err(e) if e.is_unknown_request() => PinOutcome::Unsupported,
        Err(_) => PinOutcome::Error,
    }
}

/// The pin request exactly as `agtermctl session restore <line> --target … --pane-id … --pane …` sends it.
pub fn request(target: &PinTarget, line: &str) -> Request {
    let selector = PaneSelector {
        pane: Some(target.pane.clone()),
        pane_id: target.pane_id.clone(),
    };
    Request::session_restore(
        &target.agterm_session,
        &selector,
        &PinAction::Set(line.to_string()),
    )
}

/// Pins `record`'s resume line when it differs from the last pinned one (`previous.pinned_line`), and
/// writes the outcome into `record.pin` / `record.pinned_line`. Gives up at `deadline`. Never prints.
pub fn pin_if_changed(
    target: &PinTarget,
    previous: Option<&LiveRecord>,
    record: &mut LiveRecord,
    deadline: Instant,
) {
    pin_with_state(
        target,
        previous,
        record,
        deadline,
        StateDir::from_env().as_ref(),
    );
}

/// [`pin_if_changed`] with the state directory given (where over-long lines' scripts and the log go).
pub fn pin_with_state(
    target: &PinTarget,
    previous: Option<&LiveRecord>,
    record: &mut LiveRecord,
    deadline: Instant,
    state: Option<&StateDir>,
) {
    let line = typable_line(record, state);
    match plan(previous, line) {
        PinPlan::Unchanged => copy_previous(previous, record),
        PinPlan::Refused(why) => {
            copy_previous(previous, record);
            log(state, &format!("not pinning: {why}"));
        }
        PinPlan::Send(line) => {
            let Some(socket) = target.socket.as_deref().filter(|s| !s.is_empty()) else {
                record.pin = Some(PinOutcome::Error);
                record.pinned_line = None;
                log(state, "not pinning: AGTERM_SOCKET is not set in the pane");
                return;
            };
            let timeouts = Timeouts {
                connect: PIN_STEP_TIMEOUT,
                write: PIN_STEP_TIMEOUT,
                read: PIN_STEP_TIMEOUT,
            };
            let client = Client::new(socket, timeouts).with_deadline(deadline);
            let answer = client.call(&request(target, &line));
            let result = outcome(&answer);
            record.pin = Some(result);
            record.pinned_line =
                matches!(result, PinOutcome::Ok | PinOutcome::SettingOff).then_some(line);
            if let (PinOutcome::Error, Err(e)) = (result, &answer) {
                log(
                    state,
                    &format!("pin failed (will retry at the next event): {e}"),
                );
            }
        }
    }
}

/// The record's resume line, always with `cd`; an over-long one becomes `sh '<script>'` (the script is
/// rewritten whenever its content changes, so an unchanged script path still runs the newest line).
fn typable_line(record: &LiveRecord, state: Option<&StateDir>) -> Result<String, String> {
    let spec = agent::agent(&record.agent)
        .ok_or_else(|| format!("unknown agent {:?} in the record", record.agent))?;
    let line = ResumeLine::build(
        spec,
        &record.session_id,
        &record.flags,
        &record.agent_cwd,
        None,
    )
    .map_err(|e| e.to_string())?;
    if line.fits() {
        return Ok(line.line);
    }
    let state = state.ok_or(
        "the resume line is over 1024 bytes and there is no state directory for its script",
    )?;
    let name = record
        .pane_key()
        .map(|k| k.to_string())
        .unwrap_or_else(|| record.session_id.clone());
    let script = agterm_backup_core::resume::script_path(state, &name);
    if std::fs::read_to_string(&script).ok().as_deref() == Some(line.script().as_str()) {
        return Ok(format!(
            "sh {}",
            agterm_backup_core::quote::quote(&script.to_string_lossy())
        ));
    }
    line.into_typable(state, &name)
        .map_err(|e| format!("cannot write the resume script {}: {e}", script.display()))
}

fn copy_previous(previous: Option<&LiveRecord>, record: &mut LiveRecord) {
    record.pin = previous.and_then(|p| p.pin);
    record.pinned_line = previous.and_then(|p| p.pinned_line.clone());
}

fn log(state: Option<&StateDir>, message: &str) {
    if let Some(s) = state {
        s.log(&format!("hook: {message}"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use agterm_backup_core::agterm::wire::ControlResult;

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

    #[test]
    fn plan_pins_only_changes() {
        let mut prev: LiveRecord = serde_json::from_value(serde_json::json!({
            "v":1,"agent":"claude","session_id":"a","agterm_session":"6B1E","role":"left","pane_id":null,
            "transcript_path":null,"agent_cwd":"/w","hook_cwd":"/w","flags":[],"agent_pid":null,
            "event":"SessionStart","ts":"2026-12-01T00:00:00Z","terminal":"agterm","pinned_line":"L1","pin":"ok"
        }))
        .unwrap();
        assert_eq!(plan(Some(&prev), Ok("L1".into())), PinPlan::Unchanged);
        assert_eq!(
            plan(Some(&prev), Ok("L2".into())),
            PinPlan::Send("L2".into())
        );
        assert_eq!(plan(None, Ok("L1".into())), PinPlan::Send("L1".into()));
        prev.pinned_line = None;
        assert_eq!(
            plan(Some(&prev), Ok("L1".into())),
            PinPlan::Send("L1".into())
        );
        assert!(matches!(
            plan(None, Err("bad id".into())),
            PinPlan::Refused(_)
        ));
    }
}
