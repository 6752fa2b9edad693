//! Running `tmux -S <socket> …` with a deadline: a wedged server must not hold the hook or restore.

use agterm_backup_core::process::bounded::{run_bounded, BoundedError};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// One tmux server, addressed by its socket.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TmuxServer {
    socket: PathBuf,
    timeout: Duration,
}

/// Why a tmux command gave no answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TmuxError {
    /// tmux is not installed, or could not be started.
    NotRunnable(String),
    /// No server on the socket ("no server running", "error connecting").
    NoServer(String),
    /// tmux answered with an error (its own text).
    Refused(String),
    TimedOut,
}

impl std::fmt::Display for TmuxError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TmuxError::NotRunnable(e) => write!(f, "cannot run tmux: {e}"),
            TmuxError::NoServer(e) => write!(f, "no tmux server: {e}"),
            TmuxError::Refused(e) => write!(f, "tmux: {e}"),
            TmuxError::TimedOut => f.write_str("tmux did not answer in time"),
        }
    }
}

impl TmuxServer {
    pub fn new(socket: impl Into<PathBuf>, timeout: Duration) -> TmuxServer {
        TmuxServer {
            socket: socket.into(),
            timeout,
        }
    }

    pub fn socket(&self) -> &Path {
        &self.socket
    }

    /// Runs `tmux -S <socket> <args>` and returns its stdout.
    pub fn run(&self, args: &[&str]) -> Result<String, TmuxError> {
        // `-u`: without a UTF-8 locale tmux writes every non-ASCII byte and control character of its
        // answer as `_`, which would garble session names and our field separator.
        let done = run_bounded(
            Command::new("tmux")
                .arg("-u")
                .arg("-S")
                .arg(&self.socket)
                .args(args)
                .env_remove("TMUX"),
            self.timeout,
        )
        .map_err(|e| match e {
            BoundedError::NotRunnable(e) => TmuxError::NotRunnable(e),
            BoundedError::TimedOut => TmuxError::TimedOut,
        })?;
        let (status, out, err) = (done.status, done.stdout, done.stderr);
        if status.success() {
            return Ok(out);
        }
        let err = err.trim().to_string();
        if err.contains("no server running") || err.contains("error connecting") {
            Err(TmuxError::NoServer(err))
        } else {
            Err(TmuxError::Refused(err))
        }
    }
}
