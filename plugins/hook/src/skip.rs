//! Why a hook run writes nothing.

use agterm_backup_core::found_pane::clip;
use agterm_backup_terminals::pane::NoPane;
use std::fmt;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Skip {
    /// The environment names no terminal's pane worth recording, in that terminal's words (see the
    /// registry's `pane::find`).
    NoPane(NoPane),
    /// The payload's session id fails validation.
    BadSessionId(String),
    /// A headless run (`-p`, `exec`, an SDK entrypoint); the string says which marker.
    Headless(String),
    /// The agent runs inside another agent (pid, agent name).
    Nested(u32, &'static str),
}

impl From<NoPane> for Skip {
    fn from(why: NoPane) -> Skip {
        Skip::NoPane(why)
    }
}

impl Skip {
    /// Skips that are normal operation stay out of the log; the others point at a misconfiguration or
    /// a bad input someone may want to look into.
    pub fn worth_logging(&self) -> bool {
        match self {
            Skip::NoPane(why) => why.worth_logging,
            Skip::BadSessionId(_) => true,
            _ => false,
        }
    }
}

impl fmt::Display for Skip {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Skip::NoPane(why) => f.write_str(&why.why),
            Skip::BadSessionId(s) => write!(
                f,
                "payload session_id {} is not a valid session id \
                 (^[A-Za-z0-9][A-Za-z0-9._-]{{0,127}}$); nothing recorded",
                clip(s)
            ),
            Skip::Headless(why) => write!(f, "headless run ({why})"),
            Skip::Nested(pid, name) => write!(f, "nested inside {name} (pid {pid})"),
        }
    }
}
