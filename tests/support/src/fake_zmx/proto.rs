//! The fake's client ↔ daemon wire: one JSON line each way over the session's Unix socket. (zmx speaks a
//! binary `ipc.zig` protocol there; nothing outside zmx reads it, so the fake uses its own and keeps only
//! what is observable: a live daemon accepts, a dead one leaves a socket that refuses.)

use super::format::Info;
use serde::{Deserialize, Serialize};
use std::io::{BufRead, BufReader, Write};
use std::os::unix::net::UnixStream;
use std::time::Duration;

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum Request {
    Info,
    /// Raw bytes into the pty (`zmx send`).
    Send {
        data: Vec<u8>,
    },
    /// Plain-text scrollback (`vt`: with escape sequences).
    History {
        vt: bool,
    },
    Kill,
    /// A client attaching: the connection stays open (and counts in `clients=`) until it closes.
    /// `tty` is the client's terminal when it attaches through the hidden tmux server.
    Attach {
        tty: Option<String>,
    },
    /// Keystrokes from an attached client without a terminal.
    Input {
        data: Vec<u8>,
    },
    /// `zmx attach <target>` run inside this session: move this session's attached client there.
    Switch {
        target: String,
    },
    LabelSet {
        labels: String,
    },
    LabelClear,
    /// `zmx run`: type `cmd` followed by the task marker.
    Run {
        cmd: Vec<u8>,
    },
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "re", rename_all = "snake_case")]
pub enum Reply {
    Info(Info),
    History {
        text: String,
    },
    Ack,
    /// To an attached client: go attach `target` (starting in `cwd`).
    Switch {
        target: String,
        cwd: String,
    },
}

/// How long a probe waits for a daemon's answer. zmx waits 1 s; the fake's daemon shells out to tmux,
/// which on a loaded machine can take longer, so it waits 5 s before calling a session unreachable.
pub const PROBE_TIMEOUT: Duration = Duration::from_secs(5);

/// zmx's name for a connect failure (`ConnectionRefused`, `FileNotFound`, …).
pub fn connect_error_name(e: &std::io::Error) -> &'static str {
    match e.raw_os_error() {
        Some(libc::ECONNREFUSED) => "ConnectionRefused",
        Some(libc::ENOENT) => "FileNotFound",
        Some(libc::EACCES) | Some(libc::EPERM) => "AccessDenied",
        Some(libc::ENOTDIR) => "NotDir",
        _ => "Unexpected",
    }
}

/// `ipc.connectSession`: only a refused connect keeps its name; everything else is `Unexpected`.
pub fn connect_session(path: &str) -> Result<UnixStream, &'static str> {
    UnixStream::connect(path).map_err(|e| match connect_error_name(&e) {
        "ConnectionRefused" => "ConnectionRefused",
        _ => "Unexpected",
    })
}

pub fn send_request(stream: &mut UnixStream, req: &Request) -> std::io::Result<()> {
    let mut line = serde_json::to_vec(req).expect("request serializes");
    line.push(b'\n');
    stream.write_all(&line)
}

/// Reads one reply; `Err("Timeout")` after `timeout`, `Err("ConnectionClosed")` on EOF.
pub fn read_reply(stream: &UnixStream, timeout: Duration) -> Result<Reply, &'static str> {
    stream
        .set_read_timeout(Some(timeout))
        .map_err(|_| "Unexpected")?;
    let mut line = String::new();
    let mut reader = BufReader::new(stream);
    match reader.read_line(&mut line) {
        Ok(0) => Err("ConnectionClosed"),
        Ok(_) => serde_json::from_str(&line).map_err(|_| "Unexpected"),
        Err(e)
            if matches!(
                e.kind(),
                std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
            ) =>
        {
            Err("Timeout")
        }
        Err(_) => Err("Unexpected"),
    }
}

/// `ipc.probeSession`: connect, ask for the daemon's info.
pub fn probe(path: &str) -> Result<Info, &'static str> {
    let mut stream = connect_session(path)?;
    send_request(&mut stream, &Request::Info).map_err(|_| "Unexpected")?;
    match read_reply(&stream, PROBE_TIMEOUT)? {
        Reply::Info(info) => Ok(info),
        _ => Err("Unexpected"),
    }
}

/// One request, one reply (history, labels, run).
pub fn round_trip(path: &str, req: &Request) -> Result<Reply, &'static str> {
    let mut stream = connect_session(path)?;
    send_request(&mut stream, req).map_err(|_| "Unexpected")?;
    read_reply(&stream, PROBE_TIMEOUT)
}
