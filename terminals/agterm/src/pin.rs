//! Pinning the pane's resume line with agterm at SessionStart (and whenever the id or directory changes),
//! so agterm itself types it after its next restart (rerun mode).
//!
//! The pin is `session.restore` mode `set` on `$AGTERM_SOCKET`, target `$AGTERM_SESSION_ID`, with the
//! pane's persistent token `paneID` = `$AGTERM_PANE_ID` and `pane` = `$AGTERM_PANE` as the fallback when
//! agterm no longer knows the token. The line always carries `cd`: nobody knows where the restored
//! shell will start. agterm's answer is the feature test: `invalid request: …` means a build without pins
//! (before 0.16); `result.text` means stored, but the rerun setting is off (or Live/Fresh mode is active).
//!
//! The hook reaches it through agterm's registry row ([`pin_pane`]): a multiplexer's pane pins nothing
//! (its layout restorer runs restore through its own hook).

use crate::pane_env::{Env, PaneEnv};
use crate::{AgtermError, Client, PaneSelector, PinAction, Reply, Request, Timeouts};
use agterm_backup_core::agent;
use agterm_backup_core::record::{LiveRecord, PinOutcome};
use agterm_backup_core::resume::ResumeLine;
use agterm_backup_core::state::StateDir;
use chrono::{DateTime, SecondsFormat, Utc};
use serde_json::{json, Value};
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

impl PinTarget {
    /// The pin's target for the agterm pane `pane`.
    pub fn of(pane: &PaneEnv) -> PinTarget {
        PinTarget {
            socket: pane.socket.clone(),
            agterm_session: pane.session.clone(),
            pane: pane.pane.clone(),
            pane_id: pane.pane_id.clone(),
        }
    }
}

/// agterm's row's pin: [`pin_if_changed`] for the agterm pane the hook's environment `env` names (the
/// environment the hook found its pane in; nothing when it names none).
pub fn pin_pane(
    env: &Env,
    previous: Option<&LiveRecord>,
    record: &mut LiveRecord,
    deadline: Instant,
) {
    if let Ok(pane) = PaneEnv::from_env(env) {
        pin_if_changed(&PinTarget::of(&pane), previous, record, deadline);
    }
}

/// Each socket step's own limit inside the hook (connect, write, read), on top of the overall deadline.
pub const PIN_STEP_TIMEOUT: Duration = Duration::from_millis(300);

/// Record key of a failed pin's backoff, kept in [`LiveRecord::extra`]:
/// `{"failures": n, "retry_at": "<RFC 3339>", "line": "<the line that failed>"}`. Removed once a pin
/// goes through.
pub const PIN_RETRY_KEY: &str = "pin_retry";
/// The first backoff step after a failed pin, in seconds; each further failure doubles it.
pub const RETRY_FIRST_SECS: i64 = 10;
/// The longest backoff step (agterm quit while Live daemons keep the agents running can last days).
pub const RETRY_MAX_SECS: i64 = 600;

/// What to do about the pin for this event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PinPlan {
    /// The pinned line is already this one: keep the previous outcome.
    Unchanged,
    /// Nothing can be pinned (no valid id, unknown agent, a word a line cannot carry): keep what agterm
    /// holds, say why in the log.
    Refused(String),
    /// This very line failed to pin and its backoff step is not over: keep the failure, touch nothing.
    Wait,
    /// The user ended the conversation: make agterm forget the line it holds for the pane.
    Clear,
    /// Send this line.
    Send(String),
}

/// Decides from the record's resume line (already made typable), whether the user ended the
/// conversation, the previous record and the time of this event.
pub fn plan(
    previous: Option<&LiveRecord>,
    line: Result<String, String>,
    ended_by_user: bool,
    now: DateTime<Utc>,
) -> PinPlan {
    if ended_by_user {
        return match previous.and_then(|p| p.pinned_line.as_ref()) {
            Some(_) => PinPlan::Clear,
            None => PinPlan::Unchanged,
        };
    }
    match line {
        Err(why) => PinPlan::Refused(why),
        Ok(line) if previous.and_then(|p| p.pinned_line.as_deref()) == Some(line.as_str()) => {
            PinPlan::Unchanged
        }
        Ok(line)
            if previous
                .is_some_and(|p| failed_line(p) == Some(line.as_str()) && !retry_due(p, now)) =>
        {
            PinPlan::Wait
        }
        Ok(line) => PinPlan::Send(line),
    }
}

/// Whether a pin may be tried now: always, unless `previous` holds a failed pin whose backoff step is
/// not over. A failed pin without backoff state (written by an older release) is due at once.
pub fn retry_due(previous: &LiveRecord, now: DateTime<Utc>) -> bool {
    if previous.pin != Some(PinOutcome::Error) {
        return true;
    }
    retry_state(previous)
        .and_then(|s| s.get("retry_at")?.as_str().map(str::to_string))
        .and_then(|t| DateTime::parse_from_rfc3339(&t).ok())
        .is_none_or(|at| now >= at)
}

/// The backoff step after `failures` failed pins in a row: 10 s, 20 s, 40 s, … up to 10 minutes.
pub fn backoff_secs(failures: u32) -> i64 {
    let doublings = failures.saturating_sub(1).min(16);
    (RETRY_FIRST_SECS << doublings).min(RETRY_MAX_SECS)
}

/// Counts one more failed pin of `line` into `record`; returns the new count and the step in seconds.
pub fn note_failure(record: &mut LiveRecord, line: &str, now: DateTime<Utc>) -> (u32, i64) {
    let before = retry_state(record)
        .filter(|s| s.get("line").and_then(Value::as_str) == Some(line))
        .and_then(|s| s.get("failures")?.as_u64())
        .unwrap_or(0);
    let failures = u32::try_from(before + 1).unwrap_or(u32::MAX);
    let step = backoff_secs(failures);
    let at = (now + chrono::Duration::seconds(step)).to_rfc3339_opts(SecondsFormat::Millis, true);
    record.extra.insert(
        PIN_RETRY_KEY.into(),
        json!({"failures": failures, "retry_at": at, "line": line}),
    );
    (failures, step)
}

fn retry_state(record: &LiveRecord) -> Option<&serde_json::Map<String, Value>> {
    record.extra.get(PIN_RETRY_KEY)?.as_object()
}

fn failed_line(record: &LiveRecord) -> Option<&str> {
    if record.pin != Some(PinOutcome::Error) {
        return None;
    }
    retry_state(record)?.get("line")?.as_str()
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
    request_for(target, &PinAction::Set(line.to_string()))
}

/// `session.restore` with `action` for the pane (token first, role as the fallback).
fn request_for(target: &PinTarget, action: &PinAction) -> Request {
    let selector = PaneSelector {
        pane: Some(target.pane.clone()),
        pane_id: target.pane_id.clone(),
    };
    Request::session_restore(&target.agterm_session, &selector, action)
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
    let now = record.written_at().unwrap_or_else(Utc::now);
    let ended = record.ended_by_user();
    let line = if ended {
        Err("the user ended the conversation".to_string())
    } else {
        typable_line(record, state)
    };
    match plan(previous, line, ended, now) {
        PinPlan::Unchanged | PinPlan::Wait => copy_previous(previous, record),
        PinPlan::Refused(why) => {
            copy_previous(previous, record);
            log(state, &format!("not pinning: {why}"));
        }
        PinPlan::Clear => {
            copy_previous(previous, record);
            let answer = call(target, &PinAction::Clear, deadline);
            match answer {
                Ok(_) => {
                    record.pin = None;
                    record.pinned_line = None;
                    record.extra.remove(PIN_RETRY_KEY);
                }
                Err(e) => log(
                    state,
                    &format!(
                        "the user ended the conversation, but agterm still holds its pin \
                         (clearing it failed: {e}); `agtermctl session restore --clear` forgets it"
                    ),
                ),
            }
        }
        PinPlan::Send(line) => {
            let answer = call(target, &PinAction::Set(line.clone()), deadline);
            let result = outcome(&answer);
            record.pin = Some(result);
            if result == PinOutcome::Error {
                record.pinned_line = None;
                let (failures, step) = note_failure(record, &line, now);
                let why = match &answer {
                    Err(e) => e.to_string(),
                    Ok(_) => "no answer".into(),
                };
                // One line per backoff step: the events in between do not try, so do not log.
                log(
                    state,
                    &format!(
                        "pin failed ({failures} in a row; next try in {step} s or when the line \
                         changes): {why}"
                    ),
                );
            } else {
                record.extra.remove(PIN_RETRY_KEY);
                record.pinned_line =
                    matches!(result, PinOutcome::Ok | PinOutcome::SettingOff).then_some(line);
            }
        }
    }
}

/// One `session.restore` call for the pane, within `deadline`.
fn call(target: &PinTarget, action: &PinAction, deadline: Instant) -> Result<Reply, AgtermError> {
    let Some(socket) = target.socket.as_deref().filter(|s| !s.is_empty()) else {
        return Err(AgtermError::Refused(
            "AGTERM_SOCKET is not set in the pane".into(),
        ));
    };
    let timeouts = Timeouts {
        connect: PIN_STEP_TIMEOUT,
        write: PIN_STEP_TIMEOUT,
        read: PIN_STEP_TIMEOUT,
    };
    Client::new(socket, timeouts)
        .with_deadline(deadline)
        .call(&request_for(target, action))
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
    let name = crate::key::record_key(record)
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
mod tests;
