//! agterm's control protocol on the wire: the request `agtermctl` sends and the response agterm answers.
//!
//! Requests are built exactly as `agtermctl` builds them (`args` omitted when empty, `paneID` with a
//! capital `ID`, `select` always sent by `session.type`). The answers are in [`super::response`],
//! re-exported here.

use serde::Serialize;

pub use super::response::*;

/// One control request: `{"cmd":…,"target":…?,"args":{…}?}`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Request {
    pub cmd: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    #[serde(skip_serializing_if = "Args::is_empty")]
    pub args: Args,
}

/// The flat bag of optional arguments. Field order follows `agtermctl`'s output for the requests this
/// suite sends (agterm does not care about order; the tests compare bytes).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Args {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub window: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mode: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub select: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pane: Option<String>,
    #[serde(rename = "paneID", skip_serializing_if = "Option::is_none")]
    pub pane_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub all: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lines: Option<u32>,
}

impl Args {
    pub fn is_empty(&self) -> bool {
        *self == Args::default()
    }
}

/// What to do with a pane's pin (`session.restore` modes).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PinAction {
    /// Type this line on the next launch.
    Set(String),
    /// Restore the pane as a plain shell.
    None,
    /// Forget the pin; agterm's own capture applies again.
    Clear,
}

/// Which pane a request addresses: the persistent token first, the role as the fallback.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PaneSelector {
    /// `left`/`right` (`AGTERM_PANE`).
    pub pane: Option<String>,
    /// `AGTERM_PANE_ID`; empty counts as absent.
    pub pane_id: Option<String>,
}

impl Request {
    fn new(cmd: &str, target: Option<&str>, args: Args) -> Request {
        Request {
            cmd: cmd.to_string(),
            target: target.map(str::to_string),
            args,
        }
    }

    /// `{"cmd":"window.list"}`
    pub fn window_list() -> Request {
        Request::new("window.list", None, Args::default())
    }

    /// `{"cmd":"tree"}` or `{"cmd":"tree","args":{"window":…}}` (a tree covers one window).
    pub fn tree(window: Option<&str>) -> Request {
        let args = Args {
            window: window.map(str::to_string),
            ..Args::default()
        };
        Request::new("tree", None, args)
    }

    /// `{"cmd":"version"}` (agterm 0.25+).
    pub fn version() -> Request {
        Request::new("version", None, Args::default())
    }

    /// `{"cmd":"restore.mode"}`: read the restore mode (agterm 0.26+).
    pub fn restore_mode() -> Request {
        Request::new("restore.mode", None, Args::default())
    }

    /// `{"cmd":"zmx.list"}` (agterm 0.26+).
    pub fn zmx_list() -> Request {
        Request::new("zmx.list", None, Args::default())
    }

    /// `{"cmd":"session.restore","args":{"mode":"probe"}}`: the side-effect-free feature probe. The mode
    /// check runs before target resolution, so 0.16+ answers `invalid restore mode: …` and older builds
    /// `invalid request: …`.
    pub fn restore_probe() -> Request {
        let args = Args {
            mode: Some("probe".into()),
            ..Args::default()
        };
        Request::new("session.restore", None, args)
    }

    /// `session.restore` with mode `set`/`none`/`clear` for one pane of session `target`.
    pub fn session_restore(target: &str, pane: &PaneSelector, action: &PinAction) -> Request {
        let (mode, command) = match action {
            PinAction::Set(line) => ("set", Some(line.clone())),
            PinAction::None => ("none", None),
            PinAction::Clear => ("clear", None),
        };
        let args = Args {
            mode: Some(mode.into()),
            pane: pane.pane.clone().filter(|p| !p.is_empty()),
            pane_id: pane.pane_id.clone().filter(|p| !p.is_empty()),
            command,
            ..Args::default()
        };
        Request::new("session.restore", Some(target), args)
    }

    /// `session.restart` (after 0.34, Live panes only): replace the pane's shell with a new login shell
    /// running `command`, keeping the pane's identity, id, environment and pin.
    pub fn session_restart(target: &str, pane: &PaneSelector, command: &str) -> Request {
        let args = Args {
            pane: pane.pane.clone().filter(|p| !p.is_empty()),
            pane_id: pane.pane_id.clone().filter(|p| !p.is_empty()),
            command: Some(command.into()),
            ..Args::default()
        };
        Request::new("session.restart", Some(target), args)
    }

    /// `session.restart` for a session that cannot exist (the nil UUID): the side-effect-free feature
    /// probe. Builds that have the command resolve the target first and answer `no such session: …`
    /// (or another refusal); older builds answer `invalid request: …`.
    pub fn restart_probe() -> Request {
        Request::new(
            "session.restart",
            Some("00000000-0000-0000-0000-000000000000"),
            Args::default(),
        )
    }

    /// `session.type`: `text` is typed as keys; each `\n` presses Return. `select` is always sent (false).
    pub fn session_type(target: &str, pane: Option<&str>, text: &str) -> Request {
        let args = Args {
            text: Some(text.into()),
            select: Some(false),
            pane: pane.map(str::to_string),
            ..Args::default()
        };
        Request::new("session.type", Some(target), args)
    }

    /// `session.text`: the visible screen, the last `lines` lines, or everything (`all`).
    pub fn session_text(target: &str, pane: Option<&str>, range: TextRange) -> Request {
        let (all, lines) = match range {
            TextRange::Visible => (None, None),
            TextRange::Lines(n) => (None, Some(n)),
            TextRange::All => (Some(true), None),
        };
        let args = Args {
            pane: pane.map(str::to_string),
            all,
            lines,
            ..Args::default()
        };
        Request::new("session.text", Some(target), args)
    }

    /// The request as one JSON line, newline included.
    pub fn to_line(&self) -> String {
        let mut s = serde_json::to_string(self).expect("a request always serializes");
        s.push('\n');
        s
    }
}

/// How much of a pane `session.text` reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TextRange {
    Visible,
    Lines(u32),
    All,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_match_agtermctl_bytes() {
        assert_eq!(Request::tree(None).to_line(), "{\"cmd\":\"tree\"}\n");
        assert_eq!(
            Request::tree(Some("5F0D")).to_line(),
            "{\"cmd\":\"tree\",\"args\":{\"window\":\"5F0D\"}}\n"
        );
        let sel = PaneSelector {
            pane: None,
            pane_id: Some("9A2F".into()),
        };
        assert_eq!(
            Request::session_restore("6B1E", &sel, &PinAction::Set("claude --resume x".into()))
                .to_line(),
            "{\"cmd\":\"session.restore\",\"target\":\"6B1E\",\"args\":{\"mode\":\"set\",\"paneID\":\"9A2F\",\"command\":\"claude --resume x\"}}\n"
        );
        let right = PaneSelector {
            pane: Some("right".into()),
            pane_id: Some(String::new()),
        };
        assert_eq!(
            Request::session_restore("active", &right, &PinAction::Clear).to_line(),
            "{\"cmd\":\"session.restore\",\"target\":\"active\",\"args\":{\"mode\":\"clear\",\"pane\":\"right\"}}\n"
        );
        assert_eq!(
            Request::session_restart("6B1E", &sel, "cd /w && qwen --resume x").to_line(),
            "{\"cmd\":\"session.restart\",\"target\":\"6B1E\",\"args\":{\"paneID\":\"9A2F\",\"command\":\"cd /w && qwen --resume x\"}}\n"
        );
        assert_eq!(
            Request::session_text("6B1E", Some("left"), TextRange::Lines(40)).to_line(),
            "{\"cmd\":\"session.text\",\"target\":\"6B1E\",\"args\":{\"pane\":\"left\",\"lines\":40}}\n"
        );
    }
}
