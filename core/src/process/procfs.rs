//! [`ProcessSource`] over Linux's `/proc`: a couple of small file reads per process, no child processes.

use super::ProcessSource;
use std::fs;
use std::io::Read;
use std::path::PathBuf;

/// Reads `/proc/<pid>/{stat,cmdline,cwd}`.
#[derive(Debug, Clone, Copy, Default)]
pub struct ProcFs;

/// Reads a `/proc` file. Those report size 0, so `fs::read` would start with a tiny buffer and read in
/// many small steps; one page up front takes one `read` for typical files.
fn read_proc(path: &str) -> Option<Vec<u8>> {
    let mut buf = Vec::with_capacity(4096);
    fs::File::open(path).ok()?.read_to_end(&mut buf).ok()?;
    Some(buf)
}

/// The fields of `/proc/<pid>/stat` after the parenthesised command name (which may hold spaces and
/// parentheses itself, so the split is at the last `)`): index 0 is field 3 (`state`).
fn stat_fields(pid: u32) -> Option<Vec<String>> {
    let raw = read_proc(&format!("/proc/{pid}/stat"))?;
    let text = String::from_utf8_lossy(&raw);
    let after = &text[text.rfind(')')? + 1..];
    Some(after.split_whitespace().map(String::from).collect())
}

/// `btime` of `/proc/stat`: the boot time in Unix seconds.
fn boot_time() -> Option<i64> {
    let raw = read_proc("/proc/stat")?;
    let text = String::from_utf8_lossy(&raw);
    text.lines()
        .find_map(|l| l.strip_prefix("btime "))
        .and_then(|v| v.trim().parse().ok())
}

impl ProcessSource for ProcFs {
    fn parent(&self, pid: u32) -> Option<u32> {
        // Field 4, `ppid`.
        stat_fields(pid)?.get(1)?.parse().ok()
    }

    fn argv(&self, pid: u32) -> Option<Vec<String>> {
        let raw = read_proc(&format!("/proc/{pid}/cmdline"))?;
        if raw.is_empty() {
            // A kernel thread or a zombie: no argv to read.
            return None;
        }
        let raw = raw.strip_suffix(b"\0").unwrap_or(&raw);
        let mut argv: Vec<String> = raw
            .split(|&b| b == 0)
            .map(|a| String::from_utf8_lossy(a).into_owned())
            .collect();
        // A process that renamed itself (Node's `process.title`: Kimi Code shows as `kimi-code`) leaves
        // the rest of its old argv area zeroed: those are not arguments.
        while argv.len() > 1 && argv.last().is_some_and(String::is_empty) {
            argv.pop();
        }
        Some(argv)
    }

    fn stdin_raw_terminal(&self, pid: u32) -> Option<bool> {
        use std::os::unix::fs::OpenOptionsExt;
        let target = fs::read_link(format!("/proc/{pid}/fd/0")).ok()?;
        let path = target.to_string_lossy();
        if !(path.starts_with("/dev/pts/") || path.starts_with("/dev/tty")) {
            return Some(false);
        }
        // The terminal device itself, never becoming our controlling terminal, never blocking.
        let tty = fs::OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_NOCTTY | libc::O_NONBLOCK)
            .open(&target)
            .ok()?;
        match nix::sys::termios::tcgetattr(&tty) {
            Ok(t) => Some(
                !t.local_flags
                    .contains(nix::sys::termios::LocalFlags::ICANON),
            ),
            Err(_) => Some(false),
        }
    }

    fn cwd(&self, pid: u32) -> Option<PathBuf> {
        fs::read_link(format!("/proc/{pid}/cwd")).ok()
    }

    fn start_time(&self, pid: u32) -> Option<i64> {
        // Field 22, `starttime`, in clock ticks since boot.
        let ticks: i64 = stat_fields(pid)?.get(19)?.parse().ok()?;
        // SAFETY: sysconf has no preconditions.
        let hz = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
        let hz = if hz > 0 { hz as i64 } else { 100 };
        Some(boot_time()? + ticks / hz)
    }
}
