//! Descriptors a test makes are close-on-exec: tests run in parallel threads of one process, so a
//! descriptor made without `O_CLOEXEC` leaks into every child another test spawns meanwhile (a pipe's
//! write end held open by a stranger never reaches EOF; a "closed" reading end stays open), and the test
//! then proves nothing. std's own files, sockets and pipes are close-on-exec; this is the one raw pipe.

use std::fs::File;
use std::os::fd::FromRawFd;

/// A pipe `(read, write)`, both ends close-on-exec (an end handed to a child as its stdin or stdout
/// still reaches it: std duplicates it onto 0/1/2, which clears the flag in that child only).
pub fn pipe() -> (File, File) {
    let mut fds = [0; 2];
    #[cfg(any(target_os = "linux", target_os = "freebsd"))]
    {
        // SAFETY: a two-element array for pipe2(2).
        let rc = unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) };
        assert_eq!(rc, 0, "pipe2: {}", std::io::Error::last_os_error());
    }
    #[cfg(not(any(target_os = "linux", target_os = "freebsd")))]
    {
        // macOS has no pipe2: the flag is set right after (a spawn in between is the gap it leaves).
        // SAFETY: a two-element array for pipe(2); then fcntl on the two descriptors it made.
        unsafe {
            assert_eq!(libc::pipe(fds.as_mut_ptr()), 0, "pipe");
            for fd in fds {
                libc::fcntl(fd, libc::F_SETFD, libc::FD_CLOEXEC);
            }
        }
    }
    // SAFETY: both descriptors were just made and are owned by one File each.
    unsafe { (File::from_raw_fd(fds[0]), File::from_raw_fd(fds[1])) }
}

/// Whether `fd` is close-on-exec.
pub fn is_cloexec(fd: &impl std::os::fd::AsRawFd) -> bool {
    // SAFETY: F_GETFD on a descriptor the caller holds.
    let flags = unsafe { libc::fcntl(fd.as_raw_fd(), libc::F_GETFD) };
    flags >= 0 && flags & libc::FD_CLOEXEC != 0
}

/// Runs `cmd` as [`std::process::Command::output`] does, again while exec fails with ETXTBSY: an
/// executable a test just wrote (a copy of the binary, a wrapper script) is held open for writing by any
/// child another test thread forked meanwhile, until that child's own exec. It passes in a moment.
pub fn output_past_busy_text(
    cmd: &mut std::process::Command,
) -> std::io::Result<std::process::Output> {
    let mut out = cmd.output();
    for _ in 0..50 {
        match &out {
            Err(e) if e.raw_os_error() == Some(libc::ETXTBSY) => {
                std::thread::sleep(std::time::Duration::from_millis(100));
                out = cmd.output();
            }
            _ => break,
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn both_ends_of_a_pipe_are_close_on_exec_and_carry_bytes() {
        use std::io::{Read, Write};
        let (mut r, mut w) = super::pipe();
        assert!(super::is_cloexec(&r) && super::is_cloexec(&w));
        w.write_all(b"x").unwrap();
        drop(w);
        let mut got = String::new();
        r.read_to_string(&mut got).unwrap();
        assert_eq!(got, "x");
    }
}
