//! [`ProcessSource`] through `ps` and `lsof`: the portable fallback (macOS asks its kernel first, see
//! `Darwin`). It is compiled and tested on Linux as well, so the macOS build runs tested code.
//!
//! One `ps -A` snapshot answers every parent and argv question of a walk; `lsof` gives the cwd and
//! `ps -o lstart=` the start time. `ps` prints argv joined by spaces, so an argument holding a space comes
//! back split: good enough to recognise an agent, not byte-exact. The hook runs this under its pane
//! lock, so every child gets [`CHILD_BUDGET`] and is killed when it overruns (`lsof` can hang on a dead
//! network mount).

use super::ProcessSource;
use std::collections::HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// The longest one `ps`/`lsof` run may take before it is killed and its answer counts as unknown.
pub const CHILD_BUDGET: Duration = Duration::from_millis(400);

/// Asks `ps`/`lsof`, caching one snapshot of the process table per instance.
#[derive(Debug, Default)]
pub struct Ps {
    snapshot: OnceLock<HashMap<u32, (u32, Vec<String>)>>,
}

const PS_PATHS: &[&str] = &["/bin/ps", "/usr/bin/ps"];
const LSOF_PATHS: &[&str] = &["/usr/sbin/lsof", "/usr/bin/lsof", "/sbin/lsof", "/bin/lsof"];

/// Runs the first existing program of `candidates` with `args`; its stdout when it exits 0 within
/// [`CHILD_BUDGET`].
fn run(candidates: &[&str], args: &[&str]) -> Option<String> {
    let program = candidates.iter().find(|p| Path::new(p).exists()).copied()?;
    run_bounded(Path::new(program), args, CHILD_BUDGET)
}

/// Runs `program` with `args`; its stdout when it exits 0 within `budget`. Overrunning it is killed
/// (and reaped), and the answer is `None`. Stdout is drained on a thread, so a large output cannot
/// stall the child on a full pipe.
pub(crate) fn run_bounded(program: &Path, args: &[&str], budget: Duration) -> Option<String> {
    let deadline = Instant::now() + budget;
    let mut child = Command::new(program)
        .args(args)
        .env("LC_ALL", "C")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    let mut stdout = child.stdout.take()?;
    let reader = std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = stdout.read_to_end(&mut buf);
        buf
    });
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(2)),
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
        }
    };
    let out = reader.join().ok()?;
    status
        .filter(|s| s.success())
        .map(|_| String::from_utf8_lossy(&out).into_owned())
}

/// Parses `ps -A -ww -o pid=,ppid=,args=` output.
pub(crate) fn parse_table(text: &str) -> HashMap<u32, (u32, Vec<String>)> {
    text.lines()
        .filter_map(|line| {
            let mut words = line.split_whitespace();
            let pid = words.next()?.parse().ok()?;
            let ppid = words.next()?.parse().ok()?;
            Some((pid, (ppid, words.map(String::from).collect())))
        })
        .collect()
}

/// Parses `ps -o lstart=` (`Tue Dec  1 00:45:17 2026`, local time) into Unix seconds.
pub(crate) fn parse_lstart(text: &str) -> Option<i64> {
    use chrono::{Local, NaiveDateTime, TimeZone};
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let naive = NaiveDateTime::parse_from_str(&text, "%a %b %d %H:%M:%S %Y").ok()?;
    Local
        .from_local_datetime(&naive)
        .earliest()
        .map(|t| t.timestamp())
}

/// Parses `lsof -Fn` output: the `n` line is the name (here the cwd).
pub(crate) fn parse_lsof_name(text: &str) -> Option<PathBuf> {
    text.lines()
        .find_map(|l| l.strip_prefix('n'))
        .map(PathBuf::from)
}

impl Ps {
    pub fn new() -> Ps {
        Ps::default()
    }

    fn table(&self) -> &HashMap<u32, (u32, Vec<String>)> {
        self.snapshot.get_or_init(|| {
            run(PS_PATHS, &["-A", "-ww", "-o", "pid=,ppid=,args="])
                .map(|t| parse_table(&t))
                .unwrap_or_default()
        })
    }
}

impl ProcessSource for Ps {
    fn parent(&self, pid: u32) -> Option<u32> {
        self.table().get(&pid).map(|(ppid, _)| *ppid)
    }

    fn argv(&self, pid: u32) -> Option<Vec<String>> {
        self.table()
            .get(&pid)
            .map(|(_, argv)| argv.clone())
            .filter(|a| !a.is_empty())
    }

    fn cwd(&self, pid: u32) -> Option<PathBuf> {
        let pid = pid.to_string();
        let out = run(LSOF_PATHS, &["-a", "-p", &pid, "-d", "cwd", "-Fn"])?;
        parse_lsof_name(&out)
    }

    fn start_time(&self, pid: u32) -> Option<i64> {
        let pid = pid.to_string();
        parse_lstart(&run(PS_PATHS, &["-o", "lstart=", "-p", &pid])?)
    }
}
