//! The per-pane lock: one hook at a time rewrites a pane's record and journal. Waiting is bounded: a
//! hook that cannot get the lock in time gives up (the holder is writing the same pane anyway).

use std::fs::File;
use std::io;
use std::os::fd::AsRawFd;
use std::path::Path;
use std::time::{Duration, Instant};

/// An exclusive `flock` on a file; released when dropped (closing the descriptor).
#[derive(Debug)]
pub struct PaneLock {
    _file: File,
}

/// Takes an exclusive lock on `path` (created 0600), polling until `deadline`.
pub fn lock_until(path: &Path, deadline: Instant) -> io::Result<PaneLock> {
    // Never through a symlink planted at the lock's path (the error names it; the hook logs it).
    let file = agterm_backup_core::state::guard::open_lock(path)?;
    let mut pause = Duration::from_micros(200);
    loop {
        // SAFETY: flock on a descriptor we own.
        if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } == 0 {
            return Ok(PaneLock { _file: file });
        }
        let err = io::Error::last_os_error();
        if err.kind() != io::ErrorKind::WouldBlock && err.kind() != io::ErrorKind::Interrupted {
            return Err(err);
        }
        let now = Instant::now();
        if now >= deadline {
            return Err(io::Error::new(
                io::ErrorKind::TimedOut,
                format!("another hook held {} too long", path.display()),
            ));
        }
        std::thread::sleep(pause.min(deadline - now));
        pause = (pause * 2).min(Duration::from_millis(5));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_held_lock_times_out_then_frees() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("p.lock");
        let held = lock_until(&path, Instant::now()).unwrap();
        let t = Instant::now();
        let err = lock_until(&path, t + Duration::from_millis(100)).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::TimedOut);
        assert!(t.elapsed() >= Duration::from_millis(100));
        drop(held);
        assert!(lock_until(&path, Instant::now()).is_ok());
    }
}
