//! The control socket, framed like agterm's `ControlServer`: `flock` on `<socket>.lock`, a stale socket
//! unlinked before `bind`, mode 0600, `listen(8)`, one connection at a time, one line in (up to `\n` or
//! EOF, 1 MiB cap), one line out, close.

use super::app::{App, Options};
use super::commands::{dispatch, Flow};
use serde_json::{json, Value};
use std::fs::File;
use std::io::{Read, Write};
use std::os::fd::AsRawFd;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::net::{UnixListener, UnixStream};
use std::time::Duration;

/// `ControlWire.maxRequestLineBytes`.
pub const MAX_REQUEST_LINE_BYTES: usize = 1 << 20;

/// Runs a fake agterm until a `fake.quit` request (or a fatal error). Returns the process exit code.
pub fn run(opts: Options) -> Result<(), String> {
    std::fs::create_dir_all(&opts.state_dir)
        .map_err(|e| format!("{}: {e}", opts.state_dir.display()))?;
    let _lock = take_lock(&opts.socket)?;
    let mut app = App::launch(opts)?;
    let listener = bind(&app.opts.socket)?;
    std::fs::write(
        app.opts.state_dir.join("fake-agterm.pid"),
        std::process::id().to_string(),
    )
    .map_err(|e| format!("pid file: {e}"))?;
    for conn in listener.incoming() {
        let Ok(mut stream) = conn else { continue };
        let flow = serve_one(&mut app, &mut stream);
        drop(stream);
        if flow == Flow::Quit {
            break;
        }
    }
    let _ = std::fs::remove_file(&app.opts.socket);
    Ok(())
}

/// `flock(LOCK_EX|LOCK_NB)` on `<socket>.lock`, held for the process's life and never deleted.
fn take_lock(socket: &std::path::Path) -> Result<File, String> {
    let path = format!("{}.lock", socket.display());
    let file = File::options()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .map_err(|e| format!("{path}: {e}"))?;
    // SAFETY: flock on an fd we own.
    let rc = unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) };
    if rc != 0 {
        return Err(format!(
            "{path} is locked: another fake agterm owns {}",
            socket.display()
        ));
    }
    Ok(file)
}

fn bind(socket: &std::path::Path) -> Result<UnixListener, String> {
    let _ = std::fs::remove_file(socket);
    let listener =
        UnixListener::bind(socket).map_err(|e| format!("bind {}: {e}", socket.display()))?;
    std::fs::set_permissions(socket, std::fs::Permissions::from_mode(0o600))
        .map_err(|e| format!("chmod {}: {e}", socket.display()))?;
    // std's listen backlog is 128; agterm uses 8. Re-listen with 8 to match.
    // SAFETY: listen on a bound socket we own.
    unsafe { libc::listen(listener.as_raw_fd(), 8) };
    Ok(listener)
}

fn serve_one(app: &mut App, stream: &mut UnixStream) -> Flow {
    let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
    let _ = stream.set_write_timeout(Some(Duration::from_secs(5)));
    let (response, flow) = match read_line(stream) {
        None => (error("request too large or read failed"), Flow::Continue),
        // A bug in one handler must not take the socket down mid-test: answer with the panic instead.
        Some(line) => {
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| dispatch(app, &line)))
                .unwrap_or_else(|_| {
                    (
                        error("fake agterm: internal error (see fake-agterm.log)"),
                        Flow::Continue,
                    )
                })
        }
    };
    let mut out = encode(&response);
    out.push('\n');
    let _ = stream.write_all(out.as_bytes());
    flow
}

/// Reads up to the first `\n` (excluded) or EOF, within 10 s overall; `None` on EOF with nothing read,
/// a read error, or a line over the cap.
fn read_line(stream: &mut UnixStream) -> Option<Vec<u8>> {
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    let mut line = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        if std::time::Instant::now() > deadline {
            return None;
        }
        let n = match stream.read(&mut buf) {
            Ok(n) => n,
            Err(_) => return None,
        };
        if n == 0 {
            return (!line.is_empty()).then_some(line);
        }
        if let Some(pos) = buf[..n].iter().position(|b| *b == b'\n') {
            line.extend_from_slice(&buf[..pos]);
            return (line.len() <= MAX_REQUEST_LINE_BYTES).then_some(line);
        }
        line.extend_from_slice(&buf[..n]);
        if line.len() > MAX_REQUEST_LINE_BYTES {
            return None;
        }
    }
}

pub fn error(text: &str) -> Value {
    json!({"ok": false, "error": text})
}

/// Encodes like Swift's `JSONEncoder`: `/` escaped as `\/` (only legal inside strings, so a plain
/// replace is exact).
fn encode(value: &Value) -> String {
    serde_json::to_string(value)
        .expect("json encodes")
        .replace('/', "\\/")
}
