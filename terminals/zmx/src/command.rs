//! Running `zmx …` against one socket directory, with a deadline.
//!
//! `ZMX_DIR` is set to the directory (so every command names the same sessions, whatever the caller's
//! environment says), and the caller's own session is unset: inside a session `zmx attach` would switch
//! the caller's terminal instead of creating a session (`main.zig attach`), and `ZMX_SESSION_PREFIX`
//! would be prepended to every name we pass (ours are full names already).

use agterm_backup_core::process::bounded::{run_bounded, BoundedError};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// One zmx socket directory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ZmxDir {
    dir: PathBuf,
    timeout: Duration,
}

/// Why a zmx command gave no answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ZmxError {
    /// zmx is not installed, or could not be started.
    NotRunnable(String),
    /// zmx answered with an error (its own text).
    Refused(String),
    TimedOut,
}

impl std::fmt::Display for ZmxError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ZmxError::NotRunnable(e) => write!(f, "cannot run zmx: {e}"),
            ZmxError::Refused(e) => write!(f, "zmx: {e}"),
            ZmxError::TimedOut => f.write_str("zmx did not answer in time"),
        }
    }
}

impl ZmxDir {
    pub fn new(dir: impl Into<PathBuf>, timeout: Duration) -> ZmxDir {
        ZmxDir {
            dir: dir.into(),
            timeout,
        }
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Runs `zmx <args>` (in `cwd`, when given) and returns its stdout.
    pub fn run(&self, args: &[&str], cwd: Option<&Path>) -> Result<String, ZmxError> {
        let mut cmd = Command::new("zmx");
        cmd.args(args)
            .env("ZMX_DIR", &self.dir)
            .env_remove("ZMX_SESSION")
            .env_remove("ZMX_SESSION_PREFIX");
        if let Some(dir) = cwd {
            cmd.current_dir(dir);
        }
        let done = run_bounded(&mut cmd, self.timeout).map_err(|e| match e {
            BoundedError::NotRunnable(e) => ZmxError::NotRunnable(e),
            BoundedError::TimedOut => ZmxError::TimedOut,
        })?;
        if done.status.success() {
            return Ok(done.stdout);
        }
        let said = format!("{} {}", done.stderr.trim(), done.stdout.trim());
        Err(ZmxError::Refused(said.trim().to_string()))
    }
}
