//! Timing one process of a bench: spawn to reaped, with the child's CPU time and peak RSS from `wait4`.

use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};
use std::time::Instant;

/// One run of a command: wall time from spawn to reaped, the child's CPU time (user + system: what
/// the machine's other load does not add to), and its peak RSS.
#[derive(Clone, Copy)]
pub struct Run {
    pub wall_ms: f64,
    pub cpu_ms: f64,
    pub rss_kib: i64,
}

/// Runs `cmd` to completion.
pub fn timed(mut cmd: Command) -> Run {
    let t = Instant::now();
    let child = cmd
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .process_group(0)
        .spawn()
        .expect("spawn");
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: zeroed rusage is a valid out-parameter.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: reaping our own child; `child` is never waited on by std afterwards.
    let r = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    let took = t.elapsed();
    assert_eq!(r, pid, "wait4");
    assert!(
        libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0,
        "exit status {status}"
    );
    std::mem::forget(child);
    let ms = |t: libc::timeval| t.tv_sec as f64 * 1e3 + t.tv_usec as f64 / 1e3;
    Run {
        wall_ms: took.as_secs_f64() * 1e3,
        cpu_ms: ms(usage.ru_utime) + ms(usage.ru_stime),
        rss_kib: usage.ru_maxrss,
    }
}

/// The runs of one kind.
#[derive(Default)]
pub struct Samples(pub Vec<Run>);

impl Samples {
    pub fn add(&mut self, run: Run) {
        self.0.push(run);
    }
    pub fn median(&self, of: fn(&Run) -> f64) -> f64 {
        let mut ms: Vec<f64> = self.0.iter().map(of).collect();
        ms.sort_by(f64::total_cmp);
        ms[ms.len() / 2]
    }
    pub fn mean_wall(&self) -> f64 {
        self.0.iter().map(|r| r.wall_ms).sum::<f64>() / self.0.len() as f64
    }
    pub fn peak_rss_kib(&self) -> i64 {
        self.0.iter().map(|r| r.rss_kib).max().unwrap_or(0)
    }
}
