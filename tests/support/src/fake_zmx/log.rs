//! zmx's log files (`log.zig`): `<log_dir>/zmx.log` for CLI runs, `<log_dir>/<session>.log` for a
//! daemon, each line `[<unix secs>] [<level>] (default): <message>`. Only the lines tests look for are
//! written (a command ignored for a live session, stale sockets, creation, exec failures).

use std::io::Write;
use std::path::Path;

/// Appends one line; a log that cannot be written is skipped (zmx's logger swallows errors too).
pub fn append(path: &Path, level: &str, message: &str) {
    let secs = super::sys::unix_now();
    let line = format!("[{secs}] [{level}] (default): {message}\n");
    if let Ok(mut f) = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
    {
        let _ = f.write_all(line.as_bytes());
    }
}
