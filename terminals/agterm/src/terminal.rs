//! agterm as a [`Terminal`]: the seam's operations as control requests.

use super::client::{AgtermError, Client};
use super::features::{self, Features};
use super::panes::{join_panes, JoinContext, WindowTree};
use super::wire::{PaneSelector, PinAction, Request, TextRange};
use agterm_backup_core::terminal::{
    PaneRef, PaneView, Restarted, ScreenRange, Terminal, TerminalError, TerminalInfo,
};

/// agterm behind one control socket. Probed features are kept for as long as the same agterm launch
/// answers (see [`features`]).
#[derive(Debug)]
pub struct AgtermTerminal {
    client: Client,
    features: Option<Features>,
}

impl AgtermTerminal {
    pub fn new(client: Client) -> AgtermTerminal {
        AgtermTerminal {
            client,
            features: None,
        }
    }

    /// agterm at the socket resolved from `--socket` (`socket_override`) and the environment.
    pub fn from_env(
        socket_override: Option<&std::path::Path>,
        timeouts: super::client::Timeouts,
    ) -> Result<AgtermTerminal, String> {
        let path = super::socket_path::socket_path_from_env(socket_override).ok_or_else(|| {
            "cannot tell where agterm's control socket is: pass --socket PATH, or set AGTERM_SOCKET \
             or AGTERM_STATE_DIR (HOME is not set either)"
                .to_string()
        })?;
        Ok(AgtermTerminal::new(Client::new(path, timeouts)))
    }

    pub fn client(&self) -> &Client {
        &self.client
    }

    /// The raw probe answers (restore status included), refreshed when agterm was relaunched.
    pub fn features(&mut self) -> Result<&Features, AgtermError> {
        let fresh = features::probe(&self.client, self.features.as_ref())?;
        Ok(self.features.insert(fresh))
    }

    /// Every open window with its tree (`tree` covers one window, so one request per window).
    pub fn window_trees(&self) -> Result<Vec<WindowTree>, AgtermError> {
        let windows = self
            .client
            .call(&Request::window_list())?
            .result
            .windows
            .unwrap_or_default();
        let mut out = Vec::new();
        for window in windows.into_iter().filter(|w| w.open == Some(true)) {
            let Some(id) = window.id.clone() else {
                continue;
            };
            let tree = match self.client.call(&Request::tree(Some(&id))) {
                Ok(r) => r.result.tree.unwrap_or_default(),
                // Closed between the two requests: nothing to read there.
                Err(AgtermError::Refused(e)) if e.starts_with("window not open") => continue,
                Err(e) => return Err(e),
            };
            out.push(WindowTree { window, tree });
        }
        Ok(out)
    }
}

impl From<AgtermError> for TerminalError {
    fn from(e: AgtermError) -> TerminalError {
        match e {
            AgtermError::Refused(ref text) if e.is_unknown_request() => TerminalError::Unsupported(
                format!("this agterm build does not know the request ({text})"),
            ),
            AgtermError::Refused(text) => TerminalError::Refused(text),
            other => TerminalError::Unreachable(other.to_string()),
        }
    }
}

fn selector(pane: &PaneRef) -> PaneSelector {
    PaneSelector {
        pane: Some(pane.role.as_str().to_string()),
        pane_id: pane.pane_id.clone(),
    }
}

impl Terminal for AgtermTerminal {
    /// agterm is one instance, its launch the start of the process that answered (`peer.rs`): restore's
    /// once-per-launch folder for it is `agterm-<unix start>`.
    fn info(&mut self) -> Result<TerminalInfo, TerminalError> {
        Ok(self.features()?.to_info())
    }

    fn panes(&mut self) -> Result<Vec<PaneView>, TerminalError> {
        let windows = self.window_trees()?;
        let (live, reports_shell) = self
            .features()
            .map(|f| (f.supports_live, f.restore.is_some()))
            .unwrap_or((false, false));
        let zmx = if live {
            self.client
                .call(&Request::zmx_list())
                .ok()
                .and_then(|r| r.result.zmx)
        } else {
            None
        };
        // `restore.mode` answers from 0.26 on, the release that added `foregroundShell`.
        let ctx = JoinContext {
            zmx: zmx.as_ref(),
            reports_shell,
        };
        let mut panes = join_panes(&windows, ctx);
        // When each Live daemon's shell started: a daemon younger than this launch was created by it.
        for daemon in panes.iter_mut().filter_map(|p| p.live.as_mut()) {
            daemon.started_at = daemon.leader_pid.and_then(super::peer::process_start_time);
        }
        Ok(panes)
    }

    /// `session.type` sends `text` as key text: an escape sequence for an arrow key arrives as
    /// characters, not as an arrow press (so restore answers Claude's dialog with a digit alone).
    fn type_text(&mut self, pane: &PaneRef, text: &str) -> Result<(), TerminalError> {
        let req = Request::session_type(&pane.session_id, Some(pane.role.as_str()), text);
        self.client.call(&req)?;
        Ok(())
    }

    fn screen(&mut self, pane: &PaneRef, range: ScreenRange) -> Result<String, TerminalError> {
        let range = match range {
            ScreenRange::Visible => TextRange::Visible,
            ScreenRange::LastLines(n) => TextRange::Lines(n.max(1)),
            ScreenRange::All => TextRange::All,
        };
        let req = Request::session_text(&pane.session_id, Some(pane.role.as_str()), range);
        Ok(self.client.call(&req)?.result.text.unwrap_or_default())
    }

    fn pin(&mut self, pane: &PaneRef, line: &str) -> Result<Option<String>, TerminalError> {
        let req = Request::session_restore(
            &pane.session_id,
            &selector(pane),
            &PinAction::Set(line.to_string()),
        );
        let reply = self.client.call(&req)?;
        Ok(reply.result.text.filter(|t| !t.is_empty()))
    }

    fn restart(&mut self, pane: &PaneRef, line: &str) -> Result<Restarted, TerminalError> {
        let req = Request::session_restart(&pane.session_id, &selector(pane), line);
        let receipt = self.client.call(&req)?.result.restart.unwrap_or_default();
        Ok(Restarted {
            old_pid: receipt.old_pid,
            new_pid: receipt.new_pid,
        })
    }
}
