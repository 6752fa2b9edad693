//! Reading the payload with a budget: at most `cap` bytes and until `deadline`, even when the writer never
//! closes its end. `poll` before every `read`, so the descriptor (shared with the agent) is never switched
//! to non-blocking mode.

use std::os::fd::RawFd;
use std::time::Instant;

/// The payload cap.
pub const STDIN_CAP: usize = 1024 * 1024;

/// Reads from `fd` until end of file, `cap` bytes, an error, or `deadline`. Returns what it got and
/// whether it stopped early (cap or deadline), in which case the payload is incomplete.
pub fn read_bounded(fd: RawFd, cap: usize, deadline: Instant) -> (Vec<u8>, bool) {
    // Read straight into the buffer's spare room: a zeroed chunk on the stack (64 KiB) cost the hook
    // sixteen fresh stack pages, a page fault each, on every event.
    let mut buf: Vec<u8> = Vec::with_capacity(16 * 1024);
    loop {
        if buf.len() >= cap {
            buf.truncate(cap);
            return (buf, true);
        }
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return (buf, true);
        }
        let mut pfd = libc::pollfd {
            fd,
            events: libc::POLLIN,
            revents: 0,
        };
        let ms = left.as_millis().clamp(1, i32::MAX as u128) as libc::c_int;
        // SAFETY: one valid pollfd, count 1.
        let ready = unsafe { libc::poll(&mut pfd, 1, ms) };
        if ready < 0 {
            if std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted {
                continue;
            }
            return (buf, false);
        }
        if ready == 0 {
            return (buf, true);
        }
        if pfd.revents & libc::POLLNVAL != 0 {
            return (buf, false);
        }
        if buf.len() == buf.capacity() {
            buf.reserve(buf.capacity());
        }
        let want = (buf.capacity() - buf.len()).min(cap + 1 - buf.len());
        let spare = buf.spare_capacity_mut();
        // SAFETY: `spare` is valid for writes of `want` (<= its length) bytes.
        let n = unsafe { libc::read(fd, spare.as_mut_ptr().cast(), want) };
        match n {
            0 => return (buf, false),
            // SAFETY: `read` initialised the first `n` (<= `want`) bytes of the spare room.
            n if n > 0 => unsafe { buf.set_len(buf.len() + n as usize) },
            _ => {
                let e = std::io::Error::last_os_error().kind();
                if e != std::io::ErrorKind::Interrupted && e != std::io::ErrorKind::WouldBlock {
                    return (buf, false);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;
    use std::os::fd::AsRawFd;
    use std::time::Duration;

    fn pipe() -> (std::fs::File, std::fs::File) {
        let (r, w) = nix::unistd::pipe().unwrap();
        (std::fs::File::from(r), std::fs::File::from(w))
    }

    #[test]
    fn reads_to_end_of_file() {
        let (r, mut w) = pipe();
        w.write_all(b"{\"a\":1}").unwrap();
        drop(w);
        let (got, cut) = read_bounded(
            r.as_raw_fd(),
            STDIN_CAP,
            Instant::now() + Duration::from_secs(2),
        );
        assert_eq!((got.as_slice(), cut), (&b"{\"a\":1}"[..], false));
    }

    #[test]
    fn a_writer_that_never_closes_is_left_at_the_deadline() {
        let (r, mut w) = pipe();
        w.write_all(b"{\"partial\":").unwrap();
        let t = Instant::now();
        let (got, cut) = read_bounded(r.as_raw_fd(), STDIN_CAP, t + Duration::from_millis(200));
        assert!(cut);
        assert_eq!(got, b"{\"partial\":");
        let took = t.elapsed();
        assert!(
            took >= Duration::from_millis(190) && took < Duration::from_secs(2),
            "{took:?}"
        );
        drop(w);
    }

    #[test]
    fn stops_at_the_cap() {
        let (r, mut w) = pipe();
        let writer = std::thread::spawn(move || {
            let block = vec![b'x'; 64 * 1024];
            for _ in 0..40 {
                if w.write_all(&block).is_err() {
                    break;
                }
            }
        });
        let (got, cut) = read_bounded(
            r.as_raw_fd(),
            100_000,
            Instant::now() + Duration::from_secs(5),
        );
        assert_eq!((got.len(), cut), (100_000, true));
        drop(r);
        writer.join().unwrap();
    }
}
