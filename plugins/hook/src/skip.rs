//! Why a hook run writes nothing.

use agterm_backup_terminals::agterm::pane_env::NotAPane;
use agterm_backup_terminals::pane::NoPane;
use std::fmt;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Skip {
    /// No `AGTERM_SESSION_ID`: not running inside agterm.
    NotInAgterm,
    /// A session id but no `AGTERM_PANE`: an overlay.
    Overlay,
    /// A scratch pane.
    Scratch,
    /// `AGTERM_PANE` is neither left nor right (nor an alias).
    UnknownPane(String),
    /// `AGTERM_SESSION_ID` is not agterm-shaped (could not be a file name in `live/`).
    BadAgtermSession(String),
    /// The payload's session id fails validation.
    BadSessionId(String),
    /// A headless run (`-p`, `exec`, an SDK entrypoint); the string says which marker.
    Headless(String),
    /// The agent runs inside another agent (pid, agent name).
    Nested(u32, &'static str),
    /// Inside tmux (`$TMUX`) but not in one of its panes (`run-shell`, a hook job) or a malformed one.
    NoTmuxPane,
}

impl From<NotAPane> for Skip {
    fn from(why: NotAPane) -> Skip {
        match why {
            NotAPane::NotInAgterm => Skip::NotInAgterm,
            NotAPane::Overlay => Skip::Overlay,
            NotAPane::Scratch => Skip::Scratch,
            NotAPane::UnknownPane(p) => Skip::UnknownPane(p),
            NotAPane::BadSession(s) => Skip::BadAgtermSession(s),
        }
    }
}

impl From<NoPane> for Skip {
    fn from(why: NoPane) -> Skip {
        match why {
            NoPane::Agterm(why) => why.into(),
            NoPane::NoTmuxPane => Skip::NoTmuxPane,
        }
    }
}

impl Skip {
    /// Skips that are normal operation stay out of the log; the others point at a misconfiguration or
    /// a bad input someone may want to look into.
    pub fn worth_logging(&self) -> bool {
        matches!(
            self,
            Skip::UnknownPane(_) | Skip::BadAgtermSession(_) | Skip::BadSessionId(_)
        )
    }
}

/// Shortens a possibly huge, hostile value for a log line.
fn clip(s: &str) -> String {
    let mut out: String = s.chars().take(80).collect();
    if out.len() < s.len() {
        out.push('…');
    }
    format!("{out:?}")
}

impl fmt::Display for Skip {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Skip::NotInAgterm => f.write_str("not in agterm (no AGTERM_SESSION_ID)"),
            Skip::Overlay => f.write_str("overlay (no AGTERM_PANE)"),
            Skip::Scratch => f.write_str("scratch pane"),
            Skip::UnknownPane(p) => {
                write!(f, "AGTERM_PANE={} is not left or right; nothing recorded", clip(p))
            }
            Skip::BadAgtermSession(s) => write!(
                f,
                "AGTERM_SESSION_ID={} is not an agterm session id (hex and dashes); nothing recorded",
                clip(s)
            ),
            Skip::BadSessionId(s) => write!(
                f,
                "payload session_id {} is not a valid session id \
                 (^[A-Za-z0-9][A-Za-z0-9._-]{{0,127}}$); nothing recorded",
                clip(s)
            ),
            Skip::Headless(why) => write!(f, "headless run ({why})"),
            Skip::Nested(pid, name) => write!(f, "nested inside {name} (pid {pid})"),
            Skip::NoTmuxPane => f.write_str("inside tmux but not in a pane ($TMUX_PANE unset or malformed)"),
        }
    }
}
