//! Who is on the other end of the socket, and since when: the launch of the agterm process that serves
//! it. Restore uses the launch time to tell records written before this agterm started from those after.
//!
//! The peer pid comes from the kernel (`SO_PEERCRED` on Linux, `LOCAL_PEERPID` on macOS). The start time
//! comes from `/proc/<pid>/stat` plus the boot time on Linux, and from `ps -o lstart=` elsewhere; the `ps`
//! path is compiled and tested everywhere.

use chrono::{DateTime, NaiveDateTime, TimeZone, Utc};
use std::os::fd::BorrowedFd;
use std::process::Command;

/// One launch of agterm: its pid and when that process started. Two launches never share both.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Launch {
    pub pid: u32,
    /// To about 10 ms: the cutoff between records written before this launch and after it.
    pub started_at: DateTime<Utc>,
    /// The start in whole seconds from the kernel's integers only, so every process that asks reads the
    /// same number: the launch's name (its once-per-launch markers). `started_at` is no name: two
    /// processes estimate the boot's fraction of a second 10 ms apart, and a start near a whole second
    /// then floors to two names, the second of which prunes the first's markers.
    pub stamp: i64,
}

impl Launch {
    /// The launch of the process `pid`, if its start time can be read.
    pub fn of_pid(pid: u32) -> Option<Launch> {
        if cfg!(any(target_os = "linux", target_os = "android")) {
            if let Some(launch) = proc_launch(pid) {
                return Some(launch);
            }
        }
        let started_at = ps_start_time(pid)?;
        Some(Launch {
            pid,
            started_at,
            stamp: started_at.timestamp(),
        })
    }
}

/// Linux: [`Launch`] from one reading of `/proc/<pid>/stat`.
fn proc_launch(pid: u32) -> Option<Launch> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let hz = clock_ticks_per_sec()?;
    let btime = boot_btime_ms()?;
    let started_at = start_time_from_proc(&stat, precise_boot_ms().unwrap_or(btime), hz)?;
    Some(Launch {
        pid,
        started_at,
        stamp: start_stamp_from_proc(&stat, btime / 1000, hz)?,
    })
}

fn clock_ticks_per_sec() -> Option<u64> {
    // SAFETY: sysconf has no preconditions.
    u64::try_from(unsafe { libc::sysconf(libc::_SC_CLK_TCK) }).ok()
}

/// The pid of the process on the other end of a connected Unix socket.
#[cfg(any(target_os = "linux", target_os = "android"))]
pub fn peer_pid(fd: BorrowedFd<'_>) -> Option<u32> {
    use nix::sys::socket::{getsockopt, sockopt::PeerCredentials};
    let cred = getsockopt(&fd, PeerCredentials).ok()?;
    u32::try_from(cred.pid()).ok().filter(|&p| p > 0)
}

/// The pid of the process on the other end of a connected Unix socket.
#[cfg(any(target_os = "macos", target_os = "ios"))]
pub fn peer_pid(fd: BorrowedFd<'_>) -> Option<u32> {
    use std::os::fd::AsRawFd;
    // <sys/un.h>: SOL_LOCAL = 0, LOCAL_PEERPID = 0x002.
    const SOL_LOCAL: libc::c_int = 0;
    const LOCAL_PEERPID: libc::c_int = 0x002;
    let mut pid: libc::pid_t = 0;
    let mut len = std::mem::size_of::<libc::pid_t>() as libc::socklen_t;
    // SAFETY: pid and len are valid for writes of the sizes given.
    let rc = unsafe {
        libc::getsockopt(
            fd.as_raw_fd(),
            SOL_LOCAL,
            LOCAL_PEERPID,
            &mut pid as *mut libc::pid_t as *mut libc::c_void,
            &mut len,
        )
    };
    (rc == 0 && pid > 0).then_some(pid as u32)
}

/// Other systems: the peer is unknown, so launches are not told apart.
#[cfg(not(any(
    target_os = "linux",
    target_os = "android",
    target_os = "macos",
    target_os = "ios"
)))]
pub fn peer_pid(_fd: BorrowedFd<'_>) -> Option<u32> {
    None
}

/// macOS raises SIGPIPE on a write to a closed socket unless told not to (Linux: std ignores SIGPIPE).
pub(crate) fn disable_sigpipe(fd: &impl std::os::fd::AsFd) {
    #[cfg(any(target_os = "macos", target_os = "ios"))]
    {
        use std::os::fd::AsRawFd;
        let one: libc::c_int = 1;
        // SAFETY: `one` outlives the call; the size matches.
        unsafe {
            libc::setsockopt(
                fd.as_fd().as_raw_fd(),
                libc::SOL_SOCKET,
                libc::SO_NOSIGPIPE,
                &one as *const libc::c_int as *const libc::c_void,
                std::mem::size_of::<libc::c_int>() as libc::socklen_t,
            );
        }
    }
    #[cfg(not(any(target_os = "macos", target_os = "ios")))]
    let _ = fd;
}

/// When process `pid` started: `/proc` on Linux, else `ps` ([`Launch::of_pid`]).
pub fn process_start_time(pid: u32) -> Option<DateTime<Utc>> {
    Launch::of_pid(pid).map(|l| l.started_at)
}

/// Linux: `starttime` (clock ticks after boot) from `/proc/<pid>/stat`, plus `btime` from `/proc/stat`.
pub fn proc_start_time(pid: u32) -> Option<DateTime<Utc>> {
    proc_launch(pid).map(|l| l.started_at)
}

/// The boot time to about 10 ms: now minus `/proc/uptime`. `btime` in `/proc/stat` is whole seconds,
/// which could put agterm's launch up to a second early, and a record written in that second would be
/// taken for one written after the launch.
/// Read once per process: two readings can differ by the uptime's 10 ms resolution, and a launch must
/// compare equal to itself.
fn precise_boot_ms() -> Option<i64> {
    static BOOT_MS: std::sync::OnceLock<Option<i64>> = std::sync::OnceLock::new();
    *BOOT_MS.get_or_init(|| {
        let uptime = std::fs::read_to_string("/proc/uptime").ok()?;
        boot_ms_from_uptime(&uptime, Utc::now().timestamp_millis())
    })
}

/// `btime` of `/proc/stat`, read once per process like [`precise_boot_ms`] (a clock step between two
/// readings would move it, and a launch's stamp must compare equal to itself).
fn boot_btime_ms() -> Option<i64> {
    static BTIME_MS: std::sync::OnceLock<Option<i64>> = std::sync::OnceLock::new();
    *BTIME_MS.get_or_init(|| btime_ms(&std::fs::read_to_string("/proc/stat").ok()?))
}

/// Pure part of [`precise_boot_ms`]: `/proc/uptime` is `<seconds since boot> <idle seconds>`.
pub fn boot_ms_from_uptime(uptime: &str, now_ms: i64) -> Option<i64> {
    let up: f64 = uptime.split_whitespace().next()?.parse().ok()?;
    (up.is_finite() && up >= 0.0).then(|| now_ms - (up * 1000.0).round() as i64)
}

/// `btime` of `/proc/stat`, in milliseconds.
pub fn btime_ms(proc_stat: &str) -> Option<i64> {
    let btime: i64 = proc_stat
        .lines()
        .find_map(|l| l.strip_prefix("btime "))?
        .trim()
        .parse()
        .ok()?;
    Some(btime * 1000)
}

/// Pure part of [`proc_start_time`]: `starttime` (field 22, clock ticks after boot) plus the boot time.
pub fn start_time_from_proc(
    pid_stat: &str,
    boot_ms: i64,
    ticks_per_sec: u64,
) -> Option<DateTime<Utc>> {
    let ticks = start_ticks(pid_stat)?;
    let millis =
        boot_ms + i64::try_from(ticks.checked_mul(1000)? / nonzero(ticks_per_sec)?).ok()?;
    Utc.timestamp_millis_opt(millis).single()
}

/// Pure part of [`Launch::stamp`] on Linux: `btime` (whole seconds) plus the whole seconds of
/// `starttime`, integers every reader shares.
pub fn start_stamp_from_proc(pid_stat: &str, btime_secs: i64, ticks_per_sec: u64) -> Option<i64> {
    let secs = start_ticks(pid_stat)? / nonzero(ticks_per_sec)?;
    btime_secs.checked_add(i64::try_from(secs).ok()?)
}

/// `starttime` (field 22) of a `/proc/<pid>/stat` line.
fn start_ticks(pid_stat: &str) -> Option<u64> {
    // The command name (field 2) may hold spaces and ')'; fields resume after the last ')'.
    let after = &pid_stat[pid_stat.rfind(')')? + 1..];
    // After ')' comes field 3 (state); starttime is field 22.
    after.split_whitespace().nth(22 - 3)?.parse().ok()
}

fn nonzero(n: u64) -> Option<u64> {
    (n != 0).then_some(n)
}

/// Any Unix: `ps -o lstart= -p <pid>` in the C locale and UTC (second precision).
pub fn ps_start_time(pid: u32) -> Option<DateTime<Utc>> {
    let out = Command::new("ps")
        .args(["-o", "lstart=", "-p", &pid.to_string()])
        .env("LC_ALL", "C")
        .env("TZ", "UTC")
        .stdin(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    parse_lstart(&String::from_utf8_lossy(&out.stdout))
}

/// Parses `ps`'s `lstart` (`Tue Dec  1 00:46:19 2026`, C locale) as UTC.
pub fn parse_lstart(text: &str) -> Option<DateTime<Utc>> {
    let words: Vec<&str> = text.split_whitespace().collect();
    if words.len() != 5 {
        return None;
    }
    let normalized = words.join(" ");
    NaiveDateTime::parse_from_str(&normalized, "%a %b %d %H:%M:%S %Y")
        .ok()
        .map(|n| n.and_utc())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proc_stat_with_a_nasty_comm() {
        let stat =
            "4242 (a) b (c) S 1 4242 4242 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 1 0 250 1000 10";
        let boot = btime_ms("cpu 1 2\nbtime 1700000000\n").unwrap();
        let t = start_time_from_proc(stat, boot, 100).unwrap();
        assert_eq!(t.timestamp_millis(), 1_700_000_002_500);
        assert!(btime_ms("cpu 1 2\n").is_none());
        assert!(start_time_from_proc("4242 (x", boot, 100).is_none());
        assert!(start_time_from_proc(stat, boot, 0).is_none());
        assert_eq!(
            start_stamp_from_proc(stat, 1_700_000_000, 100),
            Some(1_700_000_002)
        );
        assert!(start_stamp_from_proc(stat, 1_700_000_000, 0).is_none());
    }

    #[test]
    fn the_stamp_does_not_move_with_the_boot_estimate() {
        // A start 999 ms past a whole second: two readers whose boot estimates differ by the uptime's
        // 10 ms floor `started_at` to two seconds, and still share the stamp.
        let stat = "1 (agterm) S 1 1 1 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 299 0 0";
        let early = start_time_from_proc(stat, 1_700_000_000_009, 100).unwrap();
        let late = start_time_from_proc(stat, 1_700_000_000_011, 100).unwrap();
        assert_ne!(early.timestamp(), late.timestamp());
        assert_eq!(
            start_stamp_from_proc(stat, 1_700_000_000, 100),
            Some(1_700_000_002)
        );
    }

    #[test]
    #[cfg(target_os = "linux")]
    fn every_reading_of_a_launch_is_equal() {
        let me = std::process::id();
        let first = Launch::of_pid(me).unwrap();
        assert!(
            (first.stamp - first.started_at.timestamp()).abs() <= 1,
            "{first:?}"
        );
        for _ in 0..20 {
            assert_eq!(proc_launch(me).map(|l| l.stamp), Some(first.stamp));
        }
    }

    #[test]
    fn boot_time_from_uptime_keeps_the_sub_second_part() {
        assert_eq!(
            boot_ms_from_uptime("3600.25 7000.00\n", 1_700_000_000_500),
            Some(1_700_000_000_500 - 3_600_250)
        );
        assert_eq!(boot_ms_from_uptime("", 1), None);
        assert_eq!(boot_ms_from_uptime("-1 0", 1), None);
    }

    #[test]
    #[cfg(target_os = "linux")]
    fn our_own_start_time_is_recent_and_the_precise_boot_time_agrees_with_btime() {
        // This test process started a moment ago, and btime is the same boot, rounded to the second.
        let t = proc_start_time(std::process::id()).unwrap();
        let age = Utc::now() - t;
        assert!(age.num_milliseconds() >= 0, "started in the future: {t}");
        assert!(age.num_seconds() < 600, "{t}");
        let coarse = btime_ms(&std::fs::read_to_string("/proc/stat").unwrap()).unwrap();
        let precise = precise_boot_ms().unwrap();
        assert!((precise - coarse).abs() < 1100, "{precise} vs {coarse}");
    }

    #[test]
    fn lstart_parses_padded_days() {
        let t = parse_lstart("Tue Dec  1 00:46:19 2026\n").unwrap();
        assert_eq!(t.to_rfc3339(), "2026-12-01T00:46:19+00:00");
        assert!(parse_lstart("").is_none());
        assert!(parse_lstart("garbage").is_none());
    }

    #[test]
    fn proc_and_ps_agree_on_this_process() {
        let me = std::process::id();
        let ps = ps_start_time(me).expect("ps -o lstart= works here");
        if let Some(proc) = proc_start_time(me) {
            // `ps -o lstart` counts from `btime` (the boot in whole seconds) and prints whole seconds;
            // `/proc` here counts from the boot to ~10 ms (now minus the uptime): ps may be up to two
            // truncated seconds early.
            let diff = (proc - ps).num_milliseconds().abs();
            assert!(diff <= 2000, "/proc {proc} vs ps {ps}");
        }
        let age = Utc::now() - ps;
        assert!(age.num_seconds() >= -2 && age.num_hours() < 24, "{ps}");
    }

    #[test]
    fn a_dead_pid_has_no_launch() {
        let mut child = Command::new("true").spawn().unwrap();
        let pid = child.id();
        child.wait().unwrap();
        assert!(Launch::of_pid(pid).is_none());
    }
}
