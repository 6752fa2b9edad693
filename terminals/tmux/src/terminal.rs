//! tmux as a terminal: find the server, list its panes with their foreground, type into a pane
//! (`send-keys -l`, never key names, then `Enter`), read a pane's screen (`capture-pane`).

use crate::command::{TmuxError, TmuxServer};
use crate::foreground::tty_foreground_group;
use crate::pane::TmuxPart;
use crate::panes::{panes_now, parse_server_line, PaneNow, ServerNow, PANES_FORMAT, SERVER_FORMAT};
use agterm_backup_core::pane::PaneRole;
use agterm_backup_core::process::default_source;
use agterm_backup_core::terminal::{
    PaneRef, PaneView, ScreenRange, Terminal, TerminalError, TerminalInfo,
};
use chrono::DateTime;
use std::path::PathBuf;
use std::time::Duration;

/// How long one tmux command may take in restore (the hook uses its own, shorter budget).
pub const CLI_TIMEOUT: Duration = Duration::from_secs(5);

/// The socket restore talks to: `--socket`, else the server of `$TMUX` (set inside tmux and in
/// resurrect's `run-shell` hooks), else tmux's default (`$TMUX_TMPDIR` or `/tmp`, `tmux-<uid>/default`).
pub fn socket_path(explicit: Option<PathBuf>, env: impl Fn(&str) -> Option<String>) -> PathBuf {
    if let Some(p) = explicit {
        return p;
    }
    if let Some(socket) = crate::env::server_socket(&env) {
        return PathBuf::from(socket);
    }
    let dir = env("TMUX_TMPDIR")
        .filter(|d| !d.is_empty())
        .unwrap_or_else(|| "/tmp".into());
    // SAFETY: getuid has no preconditions and cannot fail.
    let uid = unsafe { libc::getuid() };
    PathBuf::from(dir)
        .join(format!("tmux-{uid}"))
        .join("default")
}

/// How much of a pane's screen to read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Range {
    Visible,
    LastLines(u32),
    All,
}

/// One tmux server as restore sees it.
#[derive(Debug, Clone)]
pub struct TmuxTerminal {
    server: TmuxServer,
}

impl TmuxTerminal {
    pub fn new(server: TmuxServer) -> TmuxTerminal {
        TmuxTerminal { server }
    }

    pub fn server(&self) -> &TmuxServer {
        &self.server
    }

    fn socket(&self) -> String {
        self.server.socket().display().to_string()
    }

    /// The server's pid, start time and version.
    pub fn server_now(&self) -> Result<ServerNow, TmuxError> {
        let out = self.server.run(&["display-message", "-p", SERVER_FORMAT])?;
        parse_server_line(&out)
            .ok_or_else(|| TmuxError::Refused(format!("unexpected server answer {out:?}")))
    }

    /// Every live pane with its foreground.
    pub fn panes(&self) -> Result<Vec<PaneNow>, TmuxError> {
        let server = self.server_now()?;
        let out = self.server.run(&["list-panes", "-a", "-F", PANES_FORMAT])?;
        let src = default_source();
        Ok(panes_now(
            &self.socket(),
            &server,
            &out,
            &*src,
            &tty_foreground_group,
        ))
    }

    /// Types `text` into the pane `%N` literally; each `\n` presses Enter.
    pub fn type_text(&self, pane_id: &str, text: &str) -> Result<(), TmuxError> {
        let mut parts = text.split('\n').peekable();
        while let Some(part) = parts.next() {
            if !part.is_empty() {
                self.server
                    .run(&["send-keys", "-t", pane_id, "-l", "--", part])?;
            }
            if parts.peek().is_some() {
                self.server.run(&["send-keys", "-t", pane_id, "Enter"])?;
            }
        }
        Ok(())
    }

    /// The pane's screen as text (wrapped lines joined).
    pub fn screen(&self, pane_id: &str, range: Range) -> Result<String, TmuxError> {
        let start = match range {
            Range::Visible => None,
            Range::LastLines(n) => Some(format!("-{n}")),
            Range::All => Some("-".to_string()),
        };
        let mut args = vec!["capture-pane", "-p", "-J", "-t", pane_id];
        if let Some(s) = start.as_deref() {
            args.extend(["-S", s]);
        }
        self.server.run(&args)
    }
}

/// tmux behind the seam restore, status and answer use. A pane is addressed by its `%N` (`PaneRef`'s
/// `pane_id`), which is exact while the server runs; records join on [`PaneView::tmux`] instead.
impl Terminal for TmuxTerminal {
    fn info(&mut self) -> Result<TerminalInfo, TerminalError> {
        let server = self.server_now().map_err(seam_error)?;
        Ok(TerminalInfo {
            version: Some(format!("tmux {}", server.version)),
            restore_mode: None,
            supports_pin: false,
            supports_live: false,
            supports_restart: false,
            // The server's start is its launch: restore's once-per-launch folder for it is
            // `tmux-<hash of the socket>-<unix server start>`.
            launched_at: DateTime::from_timestamp(server.started, 0),
            launch_stamp: None,
        })
    }

    fn panes(&mut self) -> Result<Vec<PaneView>, TerminalError> {
        Ok(TmuxTerminal::panes(self)
            .map_err(seam_error)?
            .into_iter()
            .map(pane_view)
            .collect())
    }

    fn type_text(&mut self, pane: &PaneRef, text: &str) -> Result<(), TerminalError> {
        TmuxTerminal::type_text(self, pane_target(pane)?, text).map_err(seam_error)
    }

    fn screen(&mut self, pane: &PaneRef, range: ScreenRange) -> Result<String, TerminalError> {
        let range = match range {
            ScreenRange::Visible => Range::Visible,
            ScreenRange::LastLines(n) => Range::LastLines(n),
            ScreenRange::All => Range::All,
        };
        TmuxTerminal::screen(self, pane_target(pane)?, range).map_err(seam_error)
    }

    fn pin(&mut self, _pane: &PaneRef, _line: &str) -> Result<Option<String>, TerminalError> {
        Err(TerminalError::Unsupported(
            "tmux has no pins: its layout restorer runs restore through the post-restore hook"
                .into(),
        ))
    }
}

/// A listed pane as the seam shows it.
pub fn pane_view(p: PaneNow) -> PaneView {
    let mut view = PaneView {
        session_id: String::new(),
        role: PaneRole::Left,
        pane_id: p.name.pane_id.clone(),
        window_id: None,
        session_name: Some(p.name.target()),
        cwd: p.name.cwd.clone(),
        shell_in_front: Some(p.foreground.is_none() && !p.starting),
        // A pane not yet running its command is up in a moment: planned again then, not typed blind
        // nor called busy (the foreground of the server's fork is the server, so none is shown).
        foreground: p.foreground.filter(|_| !p.starting),
        remote: false,
        realized: Some(!p.starting),
        pin: None,
        live: None,
        own: Default::default(),
    };
    view.set_tmux(&p.name);
    view
}

fn pane_target(pane: &PaneRef) -> Result<&str, TerminalError> {
    pane.pane_id
        .as_deref()
        .filter(|id| crate::env::is_pane_id(id))
        .ok_or_else(|| TerminalError::Refused("not a tmux pane (no %N id)".into()))
}

fn seam_error(e: TmuxError) -> TerminalError {
    match e {
        TmuxError::NotRunnable(_) | TmuxError::NoServer(_) | TmuxError::TimedOut => {
            TerminalError::Unreachable(e.to_string())
        }
        TmuxError::Refused(_) => TerminalError::Refused(e.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn socket_from_flag_then_tmux_then_default() {
        let none = |_: &str| None;
        assert_eq!(
            socket_path(Some("/x/s".into()), none),
            PathBuf::from("/x/s")
        );
        let inside = |k: &str| (k == "TMUX").then(|| "/tmp/tmux-5/work,99,0".to_string());
        assert_eq!(socket_path(None, inside), PathBuf::from("/tmp/tmux-5/work"));
        let tmpdir = |k: &str| (k == "TMUX_TMPDIR").then(|| "/run/t".to_string());
        let d = socket_path(None, tmpdir);
        assert!(d.starts_with("/run/t") && d.ends_with("default"), "{d:?}");
    }
}
