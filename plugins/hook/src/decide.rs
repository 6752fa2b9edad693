//! The hook's decision, pure over plain data: given the pane, the environment, the payload, what the
//! process walk found and the pane's previous record, what (if anything) to write.

use crate::agent_cwd::{choose_agent_cwd, CwdFacts};
use crate::pane_env::Env;
use crate::payload::Payload;
use crate::skip::Skip;
use agterm_backup_core::agent::AgentSpec;
use agterm_backup_core::flags::{filter_launch_args, LaunchArgs};
use agterm_backup_core::id::is_valid_session_id;
use agterm_backup_core::process::{agent_args, AgentProcess, Located};
use agterm_backup_core::record::{LiveRecord, PinOutcome, RECORD_VERSION};
use agterm_backup_terminals::pane::RecordPane;
use chrono::{DateTime, Utc};
use serde_json::Value;

/// A record that differs from the previous one only in `event`, `ts` and `hook_cwd` is rewritten at most
/// this often. Nothing the restore needs changes between such events, and every rewrite is an fsync (the
/// dominant cost of a hook); a PreToolUse storm then costs a read of the record per event.
pub const REFRESH_AFTER_SECS: i64 = 15;

/// Record key holding the agent process's start time (Unix seconds), to tell it from a reused pid.
pub const AGENT_START_KEY: &str = "agent_start";

/// What the process inspection found about the agent.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ProcessFacts {
    pub located: Located,
    /// The agent process's real cwd.
    pub cwd: Option<String>,
    /// The agent process's start time, Unix seconds.
    pub start_time: Option<i64>,
    /// Whether the agent's stdin is a raw terminal (read only for agents whose TUI is told apart that
    /// way, [`AgentSpec::tui_raw_terminal`]).
    pub stdin_raw_terminal: Option<bool>,
}

/// Everything the decision looks at.
#[derive(Debug, Clone)]
pub struct HookInput<'a> {
    pub spec: &'static AgentSpec,
    pub env: &'a Env,
    pub payload: &'a Payload,
    pub process: &'a ProcessFacts,
    /// The pane's current record, read under the pane lock.
    pub previous: Option<&'a LiveRecord>,
    /// The pane the event comes from (the registry's `pane::find`, innermost first, resolved): it
    /// stamps the record with its terminal's fields.
    pub pane: &'a dyn RecordPane,
    /// The time of this event (written as `ts`).
    pub now: DateTime<Utc>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Decision {
    Skip(Skip),
    /// The previous record is recent and nothing but `event`, `ts` and `hook_cwd` would change.
    Fresh,
    Write {
        record: Box<LiveRecord>,
        /// A journal line is due (agent, session id or agent cwd changed).
        journal: bool,
    },
}

/// Which facts about the agent process this event needs read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProcessReads {
    /// The agent's cwd can decide `agent_cwd` (Claude: the transcript changed; others: no payload cwd).
    pub cwd: bool,
    /// The start time the previous record holds for this very pid, when it does (no need to read it).
    pub known_start_time: Option<i64>,
}

pub fn process_reads(
    spec: &AgentSpec,
    payload: &Payload,
    previous: Option<&LiveRecord>,
    agent_pid: Option<u32>,
) -> ProcessReads {
    let same_agent = previous.filter(|p| p.agent == spec.name);
    let cwd = match spec.name {
        "claude" => match same_agent {
            Some(p) => p.transcript_path != payload.transcript_path,
            None => true,
        },
        _ => payload.cwd.is_none(),
    };
    let known_start_time = same_agent
        .filter(|p| agent_pid.is_some() && p.agent_pid == agent_pid)
        .and_then(|p| p.extra.get(AGENT_START_KEY))
        .and_then(Value::as_i64);
    ProcessReads {
        cwd,
        known_start_time,
    }
}

/// The process facts the previous record already holds, when this event comes from the very agent
/// process it names (`agent_pid` is `pid`): its argv cannot have changed, its flags are the recorded
/// ones, and it was neither headless nor nested (else it would have no record). With these, [`decide`]
/// can answer [`Decision::Fresh`] for the hot path (a tool-call storm) without walking the process
/// table — which on macOS means spawning `ps`. Any other answer sends the caller to the full walk.
pub fn facts_from_previous(
    spec: &AgentSpec,
    previous: &LiveRecord,
    pid: u32,
) -> Option<ProcessFacts> {
    if previous.agent != spec.name || previous.agent_pid != Some(pid) {
        return None;
    }
    let argv = std::iter::once(spec.name.to_string())
        .chain(previous.flags.iter().cloned())
        .collect();
    Some(ProcessFacts {
        located: Located {
            agent: Some(AgentProcess { pid, argv }),
            enclosing: None,
        },
        cwd: None,
        start_time: previous.extra.get(AGENT_START_KEY).and_then(Value::as_i64),
        // The pid already has a record: it was not headless.
        stdin_raw_terminal: None,
    })
}

/// Decides what this hook run writes.
pub fn decide(input: &HookInput<'_>) -> Decision {
    match build_record(input) {
        Ok(record) => {
            let journal = LiveRecord::journal_worthy_change(input.previous, &record);
            match input.previous {
                Some(p)
                    if !journal
                        && !once_per_turn(input.spec, input.payload)
                        && is_fresh_copy(p, &record, input.now) =>
                {
                    Decision::Fresh
                }
                _ => Decision::Write {
                    record: Box::new(record),
                    journal,
                },
            }
        }
        Err(skip) => Decision::Skip(skip),
    }
}

/// Events that come once per session or once per turn always write the record, so that it says where
/// each turn ended (`event`, `ts`, `hook_cwd`) at the cost of one write per turn; only the per-tool-call
/// events (PreToolUse, the storm) are held to [`REFRESH_AFTER_SECS`].
fn once_per_turn(spec: &AgentSpec, payload: &Payload) -> bool {
    matches!(
        payload.hook_event_name.as_deref().map(|e| spec.moment(e)),
        Some("SessionStart" | "UserPromptSubmit" | "Stop" | "SessionEnd")
    )
}

/// True when `next` equals `previous` but for the per-event fields, `previous` was written less than
/// [`REFRESH_AFTER_SECS`] ago, and no failed pin is due for a retry (its terminal's backoff rule,
/// [`agterm_backup_terminals::pinning::retry_due`]: with the terminal gone, a tool-call storm must not
/// retry the pin, rewrite the record and log at every call).
fn is_fresh_copy(previous: &LiveRecord, next: &LiveRecord, now: DateTime<Utc>) -> bool {
    let age = previous.written_at().map(|t| (now - t).num_seconds());
    if !age.is_some_and(|a| (0..REFRESH_AFTER_SECS).contains(&a))
        || (previous.pin == Some(PinOutcome::Error)
            && agterm_backup_terminals::pinning::retry_due(previous, now))
    {
        return false;
    }
    let mut same = next.clone();
    same.event.clone_from(&previous.event);
    same.ts.clone_from(&previous.ts);
    same.hook_cwd.clone_from(&previous.hook_cwd);
    same == *previous
}

/// A TUI told by its raw terminal fires the SessionStart of a resumed conversation before it puts the
/// terminal in raw mode (Kimi Code: at start, before its editor mounts): a `resume` SessionStart of the
/// very conversation the pane's record holds is that TUI coming back, and moves the record onto its new
/// process. (A headless `kimi -p -S <id>` of that same conversation in the pane would pass too: the
/// record then names a process that ends, and still the same conversation and directory.)
fn resumes_the_panes_conversation(input: &HookInput<'_>) -> bool {
    let payload = input.payload;
    payload
        .hook_event_name
        .as_deref()
        .is_some_and(|e| input.spec.moment(e) == "SessionStart")
        && payload.source.as_deref() == Some("resume")
        && input
            .previous
            .is_some_and(|p| p.agent == input.spec.name && p.session_id == payload.session_id)
}

/// The record of this event: is it one to record → how the agent was launched → the record → stamped
/// by its pane's terminal.
fn build_record(input: &HookInput<'_>) -> Result<LiveRecord, Skip> {
    recordable(input)?;
    let launch = launch(input)?;
    let mut record = record(input, launch);
    input.pane.stamp(&mut record);
    Ok(record)
}

/// Why this event is none to record, from the payload, the environment and the process walk alone.
fn recordable(input: &HookInput<'_>) -> Result<(), Skip> {
    let HookInput {
        spec,
        env,
        payload,
        process,
        ..
    } = input;
    if !is_valid_session_id(&payload.session_id) {
        return Err(Skip::BadSessionId(payload.session_id.clone()));
    }
    if let Some((var, interactive)) = spec.interactive_entrypoint {
        if let Some(v) = env.get(var).filter(|v| v.as_str() != interactive) {
            return Err(Skip::Headless(format!("{var}={v}")));
        }
    }
    if spec.tui_raw_terminal
        && process.stdin_raw_terminal == Some(false)
        && !resumes_the_panes_conversation(input)
    {
        return Err(Skip::Headless(
            "its stdin is not a raw terminal (no TUI)".into(),
        ));
    }
    if let Some((pid, name)) = process.located.enclosing {
        return Err(Skip::Nested(pid, name));
    }
    Ok(())
}

/// The agent process's launch flags (`None`: no agent process found), or a headless launch's skip.
fn launch(input: &HookInput<'_>) -> Result<Option<LaunchArgs>, Skip> {
    let spec = input.spec;
    let launch = input.process.located.agent.as_ref().map(|a| {
        // A pinned pid ($CLAUDE_PID) may run under a name the table does not know (a versioned binary):
        // its arguments are still everything after argv[0].
        let args = agent_args(spec, &a.argv).unwrap_or(a.argv.get(1..).unwrap_or(&[]));
        filter_launch_args(spec, args)
    });
    if let Some(l) = launch.as_ref().filter(|l| l.headless) {
        let what = l
            .subcommand
            .clone()
            .unwrap_or_else(|| "a headless flag".into());
        return Err(Skip::Headless(format!("launched with {what}")));
    }
    Ok(launch)
}

/// The record of this event, all but its pane: its fields (`terminal` and where the pane is named)
/// are the pane's terminal's to stamp.
fn record(input: &HookInput<'_>, launch: Option<LaunchArgs>) -> LiveRecord {
    let HookInput {
        spec,
        env,
        payload,
        process,
        previous,
        ..
    } = input;
    let same_session =
        previous.filter(|p| p.agent == spec.name && p.session_id == payload.session_id);
    let (flags, dropped) = match (launch, same_session) {
        (Some(l), _) => (l.flags, l.dropped),
        (None, Some(p)) => (p.flags.clone(), p.dropped_flags()),
        (None, None) => (Vec::new(), Vec::new()),
    };
    let agent_cwd = choose_agent_cwd(&CwdFacts {
        agent: spec.name,
        transcript_path: payload.transcript_path.as_deref(),
        process_cwd: process.cwd.as_deref(),
        project_dir: env.get("CLAUDE_PROJECT_DIR").map(String::as_str),
        payload_cwd: payload.cwd.as_deref(),
        previous: *previous,
    });

    // Unknown keys and the pin outcome of the previous record survive the rewrite.
    let mut extra = previous.map(|p| p.extra.clone()).unwrap_or_default();
    match process.start_time {
        Some(t) => extra.insert(AGENT_START_KEY.into(), Value::from(t)),
        None => extra.remove(AGENT_START_KEY),
    };
    let mut record = LiveRecord {
        v: RECORD_VERSION,
        agent: spec.name.to_string(),
        session_id: payload.session_id.clone(),
        transcript_path: payload.transcript_path.clone(),
        agent_cwd,
        hook_cwd: payload.cwd.clone().unwrap_or_default(),
        flags,
        agent_pid: process.located.agent.as_ref().map(|a| a.pid),
        event: payload
            .hook_event_name
            .clone()
            .unwrap_or_else(|| "unknown".into()),
        ts: input
            .now
            .to_rfc3339_opts(chrono::SecondsFormat::Millis, true),
        // SessionStart carries `source`; later events of the same session keep it.
        source: payload
            .source
            .clone()
            .or_else(|| same_session.and_then(|p| p.source.clone())),
        pin: previous.and_then(|p| p.pin),
        pinned_line: previous.and_then(|p| p.pinned_line.clone()),
        extra,
        ..LiveRecord::default()
    };
    // Flags the table does not know were dropped, not replayed: `status` names them.
    record.set_dropped_flags(&dropped);
    // Only the SessionEnd event's own record carries the end: any later event (a `--resume` of the
    // same conversation, a new one in the pane) means it is not ended any more.
    record.set_end_reason(session_end_reason(spec, payload).as_deref());
    record
}

/// The end this event reports: a SessionEnd's `reason` (`"unknown"` when it names none, so the end is
/// still recorded and the agent's table in `record::ended_by_user` decides what it means).
fn session_end_reason(spec: &AgentSpec, payload: &Payload) -> Option<String> {
    (payload.hook_event_name.as_deref().map(|e| spec.moment(e)) == Some("SessionEnd"))
        .then(|| payload.reason.clone().unwrap_or_else(|| "unknown".into()))
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod agy_tests;
#[cfg(test)]
mod kimi_tests;
#[cfg(test)]
mod more_tests;
#[cfg(test)]
mod record_bytes_tests;
