//! Running `tmux -S <socket> …` with a deadline: a wedged server must not hold the hook or restore.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

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
        let mut child = Command::new("tmux")
            .arg("-u")
            .arg("-S")
            .arg(&self.socket)
            .args(args)
            .env_remove("TMUX")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| TmuxError::NotRunnable(e.to_string()))?;
        // Read while waiting: a long screen fills the pipe, and tmux would never exit.
        let out = drain(child.stdout.take());
        let err = drain(child.stderr.take());
        let deadline = Instant::now() + self.timeout;
        let status = loop {
            match child.try_wait() {
                Ok(Some(status)) => break status,
                Ok(None) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(2))
                }
                _ => {
                    let _ = child.kill();
                    let _ = child.wait();
                    return Err(TmuxError::TimedOut);
                }
            }
        };
        let out = out.join().unwrap_or_default();
        let err = err.join().unwrap_or_default();
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

fn drain(pipe: Option<impl Read + Send + 'static>) -> std::thread::JoinHandle<String> {
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        if let Some(mut p) = pipe {
            let _ = p.read_to_end(&mut bytes);
        }
        String::from_utf8_lossy(&bytes).into_owned()
    })
}
