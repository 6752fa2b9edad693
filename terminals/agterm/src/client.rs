//! One request, one answer: connect to agterm's control socket, write one JSON line, read one line back,
//! close. Every step has a timeout, and an optional overall deadline caps them all (the hook's budget).

use super::peer;
use super::wire::{ControlResult, Request, Response};
use std::cell::Cell;
use std::io::{self, Read, Write};
use std::os::fd::{AsFd, AsRawFd, OwnedFd};
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// agterm refuses request lines longer than this (newline excluded); we check before sending.
pub const MAX_REQUEST_BYTES: usize = 1 << 20;
/// The longest answer we read (agterm's own client uses the same cap).
pub const MAX_RESPONSE_BYTES: usize = 64 << 20;

/// Per-step timeouts. The read timeout covers the whole answer, not each `read` call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Timeouts {
    pub connect: Duration,
    pub write: Duration,
    pub read: Duration,
}

impl Timeouts {
    /// For the CLI: generous, since agterm may stall its main thread for seconds (0.26–0.30 with Live
    /// daemons) and answers `tree` on the main actor.
    pub const CLI: Timeouts = Timeouts {
        connect: Duration::from_secs(2),
        write: Duration::from_secs(5),
        read: Duration::from_secs(10),
    };
    /// For the hook: small, because an agent waits for the hook.
    pub const HOOK: Timeouts = Timeouts {
        connect: Duration::from_millis(300),
        write: Duration::from_millis(300),
        read: Duration::from_millis(300),
    };
}

/// Why a request got no usable answer.
#[derive(Debug, thiserror::Error)]
pub enum AgtermError {
    #[error("connect({path}) failed: {reason} — is agterm running?")]
    Connect { path: PathBuf, reason: String },
    #[error("agterm at {path} did not answer in time ({step} took longer than {} ms)", .after.as_millis())]
    Timeout {
        path: PathBuf,
        step: &'static str,
        after: Duration,
    },
    #[error("talking to agterm at {path} failed while {step}: {source}")]
    Io {
        path: PathBuf,
        step: &'static str,
        #[source]
        source: io::Error,
    },
    #[error("the request for `{cmd}` is {len} bytes; agterm accepts at most {MAX_REQUEST_BYTES}")]
    RequestTooLarge { cmd: String, len: usize },
    #[error("agterm at {path} sent an answer this client cannot read: {detail}")]
    Malformed { path: PathBuf, detail: String },
    /// agterm answered `ok:false`; this is its own error text.
    #[error("{0}")]
    Refused(String),
}

impl AgtermError {
    /// agterm could not decode the request: the command (or an argument) does not exist in this build.
    pub fn is_unknown_request(&self) -> bool {
        matches!(self, AgtermError::Refused(e) if e.starts_with("invalid request"))
    }
}

/// A successful answer, with the pid of the process that served it (agterm itself).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Reply {
    pub result: ControlResult,
    pub peer_pid: Option<u32>,
}

/// A client of one agterm control socket.
#[derive(Debug, Clone)]
pub struct Client {
    path: PathBuf,
    timeouts: Timeouts,
    deadline: Option<Instant>,
    /// The peer pid of the last connection, whatever its answer was (a refusal still names the peer).
    last_peer: Cell<Option<u32>>,
}

impl Client {
    pub fn new(path: impl Into<PathBuf>, timeouts: Timeouts) -> Client {
        Client {
            path: path.into(),
            timeouts,
            deadline: None,
            last_peer: Cell::new(None),
        }
    }

    /// Caps every later request so that it ends by `deadline`, whatever the step timeouts say.
    pub fn with_deadline(mut self, deadline: Instant) -> Client {
        self.deadline = Some(deadline);
        self
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The pid of the process that served the last connection (agterm), if the kernel said.
    pub fn last_peer_pid(&self) -> Option<u32> {
        self.last_peer.get()
    }

    /// Sends `request` and returns agterm's `result` (empty when it sent none). `ok:false` becomes
    /// [`AgtermError::Refused`] with agterm's text.
    pub fn call(&self, request: &Request) -> Result<Reply, AgtermError> {
        let line = request.to_line();
        if line.len() - 1 > MAX_REQUEST_BYTES {
            return Err(AgtermError::RequestTooLarge {
                cmd: request.cmd.clone(),
                len: line.len() - 1,
            });
        }
        let mut stream = self.connect()?;
        let peer_pid = peer::peer_pid(stream.as_fd());
        self.last_peer.set(peer_pid);
        self.write_line(&mut stream, line.as_bytes())?;
        let bytes = self.read_line(&mut stream)?;
        let response: Response =
            serde_json::from_slice(&bytes).map_err(|e| AgtermError::Malformed {
                path: self.path.clone(),
                detail: format!("{e} (first bytes: {:?})", preview(&bytes)),
            })?;
        if !response.ok {
            return Err(AgtermError::Refused(response.error.unwrap_or_else(|| {
                "agterm refused the request without saying why".to_string()
            })));
        }
        Ok(Reply {
            result: response.result.unwrap_or_default(),
            peer_pid,
        })
    }

    /// How long `step` may take from now: its own timeout, cut by the overall deadline.
    fn budget(&self, step: Duration) -> Duration {
        match self.deadline {
            Some(d) => step.min(d.saturating_duration_since(Instant::now())),
            None => step,
        }
    }

    fn timeout(&self, step: &'static str, after: Duration) -> AgtermError {
        AgtermError::Timeout {
            path: self.path.clone(),
            step,
            after,
        }
    }

    fn io(&self, step: &'static str, source: io::Error) -> AgtermError {
        if matches!(
            source.kind(),
            io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
        ) {
            return self.timeout(step, Duration::ZERO);
        }
        AgtermError::Io {
            path: self.path.clone(),
            step,
            source,
        }
    }

    /// A non-blocking connect polled up to the connect budget: a listener whose backlog is full would
    /// otherwise block a plain `connect(2)` indefinitely.
    fn connect(&self) -> Result<UnixStream, AgtermError> {
        let budget = self.budget(self.timeouts.connect);
        let started = Instant::now();
        let unavailable = self.path.extension().is_some_and(|e| e == "unavailable");
        let fail = |reason: String| AgtermError::Connect {
            path: self.path.clone(),
            reason: if unavailable {
                format!(
                    "{reason}; this pane's agterm could not own its control socket because another \
                     agterm instance holds it"
                )
            } else {
                reason
            },
        };
        if budget.is_zero() {
            return Err(self.timeout("connecting", budget));
        }
        let fd = nonblocking_socket().map_err(|e| fail(e.to_string()))?;
        let addr = nix::sys::socket::UnixAddr::new(self.path.as_path()).map_err(|e| {
            fail(format!(
                "{} (socket paths are limited to about 104 bytes)",
                e.desc()
            ))
        })?;
        loop {
            match nix::sys::socket::connect(fd.as_raw_fd(), &addr) {
                Ok(()) => break,
                Err(nix::errno::Errno::EINTR) => continue,
                Err(nix::errno::Errno::EINPROGRESS) => {
                    let left = budget.saturating_sub(started.elapsed());
                    if !poll_writable(&fd, left).map_err(|e| fail(e.to_string()))? {
                        return Err(self.timeout("connecting", budget));
                    }
                    let err =
                        nix::sys::socket::getsockopt(&fd, nix::sys::socket::sockopt::SocketError)
                            .map_err(|e| fail(e.desc().to_string()))?;
                    if err != 0 {
                        return Err(fail(nix::errno::Errno::from_raw(err).desc().to_string()));
                    }
                    break;
                }
                // Linux: the listener's backlog is full. Retry until the budget runs out.
                Err(nix::errno::Errno::EAGAIN) => {
                    if started.elapsed() >= budget {
                        return Err(self.timeout("connecting", budget));
                    }
                    std::thread::sleep(Duration::from_millis(5).min(budget));
                }
                Err(e) => return Err(fail(e.desc().to_string())),
            }
        }
        let stream = UnixStream::from(fd);
        stream
            .set_nonblocking(false)
            .map_err(|e| fail(e.to_string()))?;
        Ok(stream)
    }

    fn write_line(&self, stream: &mut UnixStream, bytes: &[u8]) -> Result<(), AgtermError> {
        let budget = self.budget(self.timeouts.write);
        let end = Instant::now() + budget;
        let mut rest = bytes;
        while !rest.is_empty() {
            let left = end.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(self.timeout("sending the request", budget));
            }
            stream
                .set_write_timeout(Some(left))
                .map_err(|e| self.io("sending the request", e))?;
            match stream.write(rest) {
                Ok(0) => {
                    return Err(self.io(
                        "sending the request",
                        io::Error::new(io::ErrorKind::WriteZero, "agterm closed the connection"),
                    ))
                }
                Ok(n) => rest = &rest[n..],
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) if is_timeout(&e) => return Err(self.timeout("sending the request", budget)),
                Err(e) => return Err(self.io("sending the request", e)),
            }
        }
        Ok(())
    }

    /// Reads up to the first `\n` (excluded) or EOF, within the read budget for the whole answer.
    fn read_line(&self, stream: &mut UnixStream) -> Result<Vec<u8>, AgtermError> {
        let budget = self.budget(self.timeouts.read);
        let end = Instant::now() + budget;
        let mut buf = Vec::new();
        let mut chunk = vec![0u8; 64 * 1024];
        loop {
            let left = end.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(self.timeout("reading the answer", budget));
            }
            stream
                .set_read_timeout(Some(left))
                .map_err(|e| self.io("reading the answer", e))?;
            match stream.read(&mut chunk) {
                Ok(0) => break,
                Ok(n) => {
                    if let Some(i) = chunk[..n].iter().position(|&b| b == b'\n') {
                        buf.extend_from_slice(&chunk[..i]);
                        break;
                    }
                    buf.extend_from_slice(&chunk[..n]);
                    if buf.len() > MAX_RESPONSE_BYTES {
                        return Err(AgtermError::Malformed {
                            path: self.path.clone(),
                            detail: format!("the answer exceeds {MAX_RESPONSE_BYTES} bytes"),
                        });
                    }
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) if is_timeout(&e) => return Err(self.timeout("reading the answer", budget)),
                Err(e) => return Err(self.io("reading the answer", e)),
            }
        }
        if buf.is_empty() {
            return Err(AgtermError::Malformed {
                path: self.path.clone(),
                detail: "it closed the connection without answering".into(),
            });
        }
        Ok(buf)
    }
}

fn is_timeout(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
    )
}

fn preview(bytes: &[u8]) -> String {
    String::from_utf8_lossy(&bytes[..bytes.len().min(80)]).into_owned()
}

/// An `AF_UNIX` stream socket, close-on-exec and non-blocking (set with `fcntl`, which every Unix has).
fn nonblocking_socket() -> nix::Result<OwnedFd> {
    use nix::fcntl::{fcntl, FcntlArg, FdFlag, OFlag};
    use nix::sys::socket::{socket, AddressFamily, SockFlag, SockType};
    let fd = socket(
        AddressFamily::Unix,
        SockType::Stream,
        SockFlag::empty(),
        None,
    )?;
    fcntl(&fd, FcntlArg::F_SETFD(FdFlag::FD_CLOEXEC))?;
    let flags = OFlag::from_bits_truncate(fcntl(&fd, FcntlArg::F_GETFL)?);
    fcntl(&fd, FcntlArg::F_SETFL(flags | OFlag::O_NONBLOCK))?;
    peer::disable_sigpipe(&fd);
    Ok(fd)
}

/// Waits until `fd` is writable; `false` on timeout.
fn poll_writable(fd: &OwnedFd, timeout: Duration) -> io::Result<bool> {
    let mut pfd = libc::pollfd {
        fd: fd.as_raw_fd(),
        events: libc::POLLOUT,
        revents: 0,
    };
    let ms = timeout.as_millis().min(i32::MAX as u128) as libc::c_int;
    loop {
        // SAFETY: one valid pollfd for the duration of the call.
        let n = unsafe { libc::poll(&mut pfd, 1, ms) };
        if n < 0 {
            let e = io::Error::last_os_error();
            if e.kind() == io::ErrorKind::Interrupted {
                continue;
            }
            return Err(e);
        }
        return Ok(n > 0);
    }
}
