//! Running a helper program (a multiplexer's client) with a deadline: a wedged server must not hold the hook or
//! restore. Its output is read while it runs (a long screen fills the pipe, and the program would never
//! exit); past the deadline it is killed.

use std::io::Read;
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// What a finished program said.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finished {
    pub status: ExitStatus,
    pub stdout: String,
    pub stderr: String,
}

/// Why a program gave no answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BoundedError {
    /// It could not be started (not installed, not executable): the OS's words.
    NotRunnable(String),
    /// It was still running at the deadline, and was killed.
    TimedOut,
}

/// Runs `cmd` (stdin from `/dev/null`, stdout and stderr captured) for at most `timeout`.
pub fn run_bounded(cmd: &mut Command, timeout: Duration) -> Result<Finished, BoundedError> {
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| BoundedError::NotRunnable(e.to_string()))?;
    let out = drain(child.stdout.take());
    let err = drain(child.stderr.take());
    let deadline = Instant::now() + timeout;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(2)),
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(BoundedError::TimedOut);
            }
        }
    };
    Ok(Finished {
        status,
        stdout: out.join().unwrap_or_default(),
        stderr: err.join().unwrap_or_default(),
    })
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn output_status_and_the_deadline() {
        let done = run_bounded(
            Command::new("sh").args(["-c", "echo out; echo err >&2; exit 3"]),
            Duration::from_secs(5),
        )
        .unwrap();
        assert_eq!(
            (done.stdout.as_str(), done.stderr.as_str()),
            ("out\n", "err\n")
        );
        assert_eq!(done.status.code(), Some(3));
        let started = Instant::now();
        let slow = run_bounded(Command::new("sleep").arg("5"), Duration::from_millis(100));
        assert_eq!(slow, Err(BoundedError::TimedOut));
        assert!(started.elapsed() < Duration::from_secs(3));
        assert!(matches!(
            run_bounded(&mut Command::new("/nonexistent/x"), Duration::from_secs(1)),
            Err(BoundedError::NotRunnable(_))
        ));
    }
}
