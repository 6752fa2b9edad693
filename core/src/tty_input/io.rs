//! Asking the shell's terminal what waits unread on it, and taking it. A tty cannot be peeked: telling
//! replies from typed input means reading them, so [`take`] is called only when a resume is about to run
//! (the agent would read the replies as keys), and [`give_back`] returns what was typed.

use super::{classify, Verdict};
use std::os::fd::RawFd;
use std::time::{Duration, Instant};

/// What waits on a terminal, before anything is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Waiting {
    /// Nothing (or not a terminal).
    Nothing,
    /// The terminal is in canonical mode and holds whole lines: someone pressed Enter (a terminal's reply
    /// never holds a line end, and in this mode a reply without one is not counted as waiting).
    Lines,
    /// The terminal is in raw mode (a line editor such as ble.sh set it) and holds bytes: replies or keys,
    /// only reading them tells.
    Bytes,
}

/// What waits on `fd`, from the terminal's mode and its count of readable bytes.
pub fn waiting(fd: RawFd) -> Waiting {
    let mut count: libc::c_int = 0;
    // SAFETY: FIONREAD writes one int through a pointer to a live local.
    let asked = unsafe { libc::ioctl(fd, libc::FIONREAD as _, &mut count) };
    if asked != 0 || count <= 0 {
        return Waiting::Nothing;
    }
    // SAFETY: tcgetattr fills a zeroed termios, a plain C struct.
    let mut mode: libc::termios = unsafe { std::mem::zeroed() };
    let canonical =
        unsafe { libc::tcgetattr(fd, &mut mode) } == 0 && mode.c_lflag & libc::ICANON != 0;
    if canonical {
        Waiting::Lines
    } else {
        Waiting::Bytes
    }
}

/// The bytes taken off a terminal and what they are.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Taken {
    pub bytes: Vec<u8>,
    pub verdict: Verdict,
}

/// Reads every byte waiting on the terminal `fd` is open on, through a descriptor of its own (non-blocking
/// there only: the shell's stays as it is), and classifies them. A reply still arriving (or a lone ESC) is
/// waited for up to `finish`; one not finished by then counts as typed.
pub fn take(fd: RawFd, finish: Duration) -> std::io::Result<Taken> {
    let tty = reopen(fd)?;
    let mut bytes = Vec::new();
    let deadline = Instant::now() + finish;
    loop {
        read_available(&tty, &mut bytes)?;
        let verdict = classify(&bytes);
        let Verdict::Unfinished { at, .. } = verdict else {
            return Ok(Taken { bytes, verdict });
        };
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() || !readable_within(&tty, left) {
            return Ok(Taken {
                bytes,
                verdict: Verdict::Typed { at },
            });
        }
    }
}

/// Puts `bytes` back on the terminal's input, in order (TIOCSTI: allowed on the shell's own controlling
/// terminal on macOS, and on Linux unless `dev.tty.legacy_tiocsti` is 0 and the caller is unprivileged).
/// Whether every byte went back.
pub fn give_back(fd: RawFd, bytes: &[u8]) -> bool {
    bytes.iter().all(|b| {
        // SAFETY: TIOCSTI reads one byte through a pointer to a live byte.
        unsafe { libc::ioctl(fd, libc::TIOCSTI as _, b as *const u8) == 0 }
    })
}

/// A second open file description of `fd`'s terminal, non-blocking.
fn reopen(fd: RawFd) -> std::io::Result<std::fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    // SAFETY: ttyname returns a pointer to a static buffer or null; it is copied at once.
    let name = unsafe {
        let p = libc::ttyname(fd);
        if p.is_null() {
            return Err(std::io::Error::last_os_error());
        }
        std::ffi::CStr::from_ptr(p).to_bytes().to_vec()
    };
    let path = <std::ffi::OsString as std::os::unix::ffi::OsStringExt>::from_vec(name);
    std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY)
        .open(path)
}

/// Appends what can be read now.
fn read_available(tty: &std::fs::File, into: &mut Vec<u8>) -> std::io::Result<()> {
    use std::io::Read;
    let mut buf = [0u8; 1024];
    loop {
        match (&*tty).read(&mut buf) {
            Ok(0) => return Ok(()),
            Ok(n) => into.extend_from_slice(&buf[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => return Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
}

/// Whether a byte arrives within `wait`.
fn readable_within(tty: &std::fs::File, wait: Duration) -> bool {
    use std::os::fd::AsRawFd;
    let mut poll = libc::pollfd {
        fd: tty.as_raw_fd(),
        events: libc::POLLIN,
        revents: 0,
    };
    let ms = wait.as_millis().clamp(1, i32::MAX as u128) as libc::c_int;
    // SAFETY: one pollfd, alive for the call.
    unsafe { libc::poll(&mut poll, 1, ms) > 0 }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;
    use std::os::fd::AsRawFd;

    /// A pty in raw or canonical mode, its master side to write what the terminal sends.
    fn pty(raw: bool) -> (std::fs::File, std::os::fd::OwnedFd) {
        let pair = nix::pty::openpty(None, None).unwrap();
        let mut mode = nix::sys::termios::tcgetattr(&pair.slave).unwrap();
        if raw {
            nix::sys::termios::cfmakeraw(&mut mode);
        }
        nix::sys::termios::tcsetattr(&pair.slave, nix::sys::termios::SetArg::TCSANOW, &mode)
            .unwrap();
        (std::fs::File::from(pair.master), pair.slave)
    }

    /// Waits until `fd` has `n` bytes readable (the pty moves them over asynchronously).
    fn readable(fd: RawFd, n: i32) {
        let deadline = Instant::now() + Duration::from_secs(5);
        let mut count: libc::c_int = 0;
        while Instant::now() < deadline {
            // SAFETY: as in `waiting`.
            unsafe { libc::ioctl(fd, libc::FIONREAD as _, &mut count) };
            if count >= n {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        panic!("{count} of {n} bytes arrived");
    }

    #[test]
    fn replies_in_raw_mode_are_taken_off_the_terminal() {
        let (mut master, slave) = pty(true);
        let replies = b"\x1b[>84;0;0c\x1b[2;1R\x1b[?2026;0$y";
        master.write_all(replies).unwrap();
        readable(slave.as_raw_fd(), replies.len() as i32);
        assert_eq!(waiting(slave.as_raw_fd()), Waiting::Bytes);
        let taken = take(slave.as_raw_fd(), Duration::from_millis(50)).unwrap();
        assert_eq!(taken.bytes, replies);
        assert_eq!(taken.verdict, Verdict::Replies { replies: 3 });
        assert_eq!(waiting(slave.as_raw_fd()), Waiting::Nothing);
    }

    #[test]
    fn a_reply_arriving_in_two_parts_is_waited_for() {
        let (mut master, slave) = pty(true);
        master.write_all(b"\x1b[>84;0").unwrap();
        readable(slave.as_raw_fd(), 7);
        let writer = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(30));
            master.write_all(b";0c").unwrap();
            master
        });
        let taken = take(slave.as_raw_fd(), Duration::from_secs(5)).unwrap();
        assert_eq!(taken.verdict, Verdict::Replies { replies: 1 });
        drop(writer.join());
    }

    #[test]
    fn a_lone_esc_is_typed_once_nothing_follows() {
        let (mut master, slave) = pty(true);
        master.write_all(b"\x1b[2;1R\x1b").unwrap();
        readable(slave.as_raw_fd(), 7);
        let taken = take(slave.as_raw_fd(), Duration::from_millis(30)).unwrap();
        assert_eq!(taken.verdict, Verdict::Typed { at: 6 });
    }

    #[test]
    fn a_whole_line_in_canonical_mode_is_lines_and_a_reply_alone_is_nothing() {
        let (mut master, slave) = pty(false);
        master.write_all(b"\x1b[>84;0;0c").unwrap();
        // The line discipline has taken the reply in once it echoes its last byte.
        let mut echoed = Vec::new();
        while !echoed.ends_with(b"c") {
            let mut buf = [0u8; 64];
            let n = std::io::Read::read(&mut master, &mut buf).unwrap();
            echoed.extend_from_slice(&buf[..n]);
        }
        assert_eq!(waiting(slave.as_raw_fd()), Waiting::Nothing);
        master.write_all(b"echo one\n").unwrap();
        let deadline = Instant::now() + Duration::from_secs(5);
        while waiting(slave.as_raw_fd()) != Waiting::Lines && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(5));
        }
        assert_eq!(waiting(slave.as_raw_fd()), Waiting::Lines);
    }

    #[test]
    fn typed_input_given_back_is_there_to_read_again() {
        let (mut master, slave) = pty(true);
        master.write_all(b"\x1b[2;1Rls\r").unwrap();
        readable(slave.as_raw_fd(), 9);
        let taken = take(slave.as_raw_fd(), Duration::from_millis(30)).unwrap();
        assert_eq!(taken.verdict, Verdict::Typed { at: 6 });
        // TIOCSTI may be refused (an unprivileged caller where `dev.tty.legacy_tiocsti` is 0, and this
        // pty is no controlling terminal): then nothing is back.
        if give_back(slave.as_raw_fd(), &taken.bytes) {
            let again = take(slave.as_raw_fd(), Duration::from_millis(30)).unwrap();
            assert_eq!(again.bytes, taken.bytes);
        }
    }
}
