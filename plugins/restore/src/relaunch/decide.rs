//! Which agent panes `restart` may restart now: one pure function from plain data to one verdict per pane.
//!
//! Precedence, first match wins:
//!
//! | #  | condition                                                                           | verdict                 |
//! |----|-------------------------------------------------------------------------------------|-------------------------|
//! | 1  | the pane lives on another machine (its terminal's remote session)                   | skip `remote`           |
//! | 2  | no record for the pane                                                              | skip `no-record`        |
//! | 3  | the record's agent is not in the agent table                                        | skip `unknown-agent`    |
//! | 4  | a restart of this conversation died after the quit: shell back in front, marker     | `finish` (type resume)  |
//! | 5  | the user ended the conversation (its `SessionEnd`)                                  | skip `ended`            |
//! | 6  | the pane's foreground is not the record's agent (a shell, vim, another agent)       | skip `not-running`      |
//! | 7  | we know no way to quit this agent the way its user would                            | skip `no-quit`          |
//! | 8  | the screen asks a permission question (allow this tool?)                            | wait `permission`       |
//! | 9  | the record's last event is not `Stop` (or `SessionStart`): a prompt or tool call since | wait `mid-turn`         |
//! | 10 | the agent's input box holds text the user is typing                                 | wait `typing`           |
//! | 11 | otherwise (idle: last event `Stop`, an empty input box)                             | `restart`               |
//!
//! A `wait` row is left alone; with `--wait` it is asked again until it turns idle or the timeout ends.
//! The screen rows (8, 10) come from [`super::screen`]; the row's agent decides what its screen means.

use super::screen::{asks_permission, quit_keys, typed_in_input};
use crate::plan::foreground_agent_args;
use agterm_backup_core::agent::agent;
use agterm_backup_core::record::{ended_by_user_at, LiveRecord};
use agterm_backup_core::restarting::RestartMarker;
use serde::Serialize;

/// What is known about one pane right now.
#[derive(Debug, Clone, Copy)]
pub struct PaneFacts<'a> {
    pub remote: bool,
    pub record: Option<&'a LiveRecord>,
    /// The pane's foreground argv; `None` at a shell prompt.
    pub foreground: Option<&'a [String]>,
    /// The terminal sees a shell in front (`None`: it does not say).
    pub shell_in_front: Option<bool>,
    /// The visible screen, when it could be read.
    pub screen: Option<&'a str>,
    /// The pane's restart marker, left by a restart that quit this pane's agent.
    pub marker: Option<&'a RestartMarker>,
}

/// Why a pane is not restarted now, though it may be later (`--wait`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "wait", content = "detail")]
pub enum WaitReason {
    /// The agent asks whether it may run a tool.
    Permission,
    /// A prompt or tool call came after the last `Stop` (the event named).
    MidTurn(String),
    /// The input box holds text (shown).
    Typing(String),
}

/// Why a pane is never restarted by this run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "skip", content = "detail")]
pub enum SkipWhy {
    Remote,
    NoRecord,
    UnknownAgent(String),
    Ended,
    /// What holds the pane instead (`a shell`, the program's name).
    NotRunning(String),
    NoQuit(String),
}

/// The verdict for one pane.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Quit the agent with `quit` (then Return), wait for the shell, type the resume line.
    Restart {
        quit: &'static str,
    },
    /// The agent is already gone (a restart died after its quit): type the resume line.
    Finish,
    Wait(WaitReason),
    Skip(SkipWhy),
}

impl WaitReason {
    pub fn describe(&self) -> String {
        match self {
            WaitReason::Permission => "waiting on a permission question".into(),
            WaitReason::MidTurn(event) => {
                format!("in the middle of a turn (its last event is {event}, not Stop)")
            }
            WaitReason::Typing(text) => format!("the input box holds `{text}`"),
        }
    }
}

impl SkipWhy {
    pub fn describe(&self) -> String {
        match self {
            SkipWhy::Remote => "the pane lives on another machine".into(),
            SkipWhy::NoRecord => "no agent captured in this pane".into(),
            SkipWhy::UnknownAgent(a) => format!("unknown agent `{a}`"),
            SkipWhy::Ended => "the conversation was ended by the user".into(),
            SkipWhy::NotRunning(what) => format!("the agent does not run here now ({what} does)"),
            SkipWhy::NoQuit(a) => format!("no known way to quit {a}; restart it by hand"),
        }
    }
}

/// The events after which an agent waits for its user: a turn's end, or a start (a new or resumed
/// conversation before its first prompt).
const IDLE_EVENTS: &[&str] = &["Stop", "SessionStart"];

/// The verdict for one pane (the table above).
pub fn decide(f: &PaneFacts<'_>) -> Verdict {
    if f.remote {
        return Verdict::Skip(SkipWhy::Remote);
    }
    let Some(record) = f.record else {
        return Verdict::Skip(SkipWhy::NoRecord);
    };
    let Some(spec) = agent(&record.agent) else {
        return Verdict::Skip(SkipWhy::UnknownAgent(record.agent.clone()));
    };
    let shell_back = f.foreground.is_none() && f.shell_in_front != Some(false);
    let ours = f
        .marker
        .is_some_and(|m| m.agent == record.agent && m.session_id == record.session_id);
    if ours && shell_back && record.end_reason().is_none() {
        return Verdict::Finish;
    }
    if record
        .end_reason()
        .is_some_and(|r| ended_by_user_at(&record.agent, r, record.end_terminal()))
    {
        return Verdict::Skip(SkipWhy::Ended);
    }
    let running = f
        .foreground
        .is_some_and(|fg| foreground_agent_args(spec, fg).is_some());
    if !running {
        let what = match f.foreground.and_then(|fg| fg.first()) {
            Some(p) => format!("`{}`", p.rsplit('/').next().unwrap_or(p)),
            None => "a shell".into(),
        };
        return Verdict::Skip(SkipWhy::NotRunning(what));
    }
    let Some(quit) = quit_keys(spec.name) else {
        return Verdict::Skip(SkipWhy::NoQuit(spec.name.into()));
    };
    let screen = f.screen.unwrap_or_default();
    if asks_permission(spec.name, screen) {
        return Verdict::Wait(WaitReason::Permission);
    }
    let event = spec.moment(&record.event);
    if !IDLE_EVENTS.contains(&event) {
        return Verdict::Wait(WaitReason::MidTurn(event.to_string()));
    }
    if let Some(text) = typed_in_input(spec.name, screen) {
        return Verdict::Wait(WaitReason::Typing(text));
    }
    Verdict::Restart { quit }
}

#[cfg(test)]
#[path = "decide_tests.rs"]
mod tests;
