//! When this machine booted: the journal rule's cutoff for a zmx session that is gone. Nothing of a
//! session outlives a reboot, so a record written before the boot belongs to a session the reboot
//! killed, and a record written after it to one that lived in this boot (and was closed since).
//!
//! Linux reads `btime` from `/proc/stat`; macOS asks `sysctl kern.boottime`. Tests that simulate a
//! reboot (kill every session) set [`BOOT_TIME_ENV`] to the moment of their "reboot".

use chrono::{DateTime, Utc};

/// Environment variable: the boot time to use, Unix seconds (tests simulating a reboot).
pub const BOOT_TIME_ENV: &str = "AGTERM_BACKUP_BOOT_TIME";

/// The boot time: [`BOOT_TIME_ENV`] when set and valid, else the platform's.
pub fn boot_time(env: impl Fn(&str) -> Option<String>) -> Option<DateTime<Utc>> {
    let secs = env(BOOT_TIME_ENV)
        .and_then(|v| v.trim().parse::<i64>().ok())
        .or_else(platform_boot_secs)?;
    DateTime::from_timestamp(secs, 0)
}

/// `btime <secs>` of `/proc/stat`.
pub fn parse_proc_stat_btime(stat: &str) -> Option<i64> {
    stat.lines()
        .find_map(|l| l.strip_prefix("btime "))
        .and_then(|v| v.trim().parse().ok())
        .filter(|&t| t > 0)
}

#[cfg(target_os = "linux")]
fn platform_boot_secs() -> Option<i64> {
    parse_proc_stat_btime(&std::fs::read_to_string("/proc/stat").ok()?)
}

#[cfg(target_os = "macos")]
fn platform_boot_secs() -> Option<i64> {
    darwin::boot_secs()
}

#[cfg(not(any(target_os = "linux", target_os = "macos")))]
fn platform_boot_secs() -> Option<i64> {
    None
}

/// `kern.boottime` is a `struct timeval`.
#[cfg(target_os = "macos")]
mod darwin {
    pub fn boot_secs() -> Option<i64> {
        let mut tv = libc::timeval {
            tv_sec: 0,
            tv_usec: 0,
        };
        let mut len = std::mem::size_of::<libc::timeval>();
        let name = c"kern.boottime";
        // SAFETY: the name is NUL-terminated, `tv` and `len` are valid for writes of `len` bytes, and
        // no new value is set.
        let rc = unsafe {
            libc::sysctlbyname(
                name.as_ptr(),
                (&mut tv as *mut libc::timeval).cast(),
                &mut len,
                std::ptr::null_mut(),
                0,
            )
        };
        (rc == 0 && len == std::mem::size_of::<libc::timeval>() && tv.tv_sec > 0)
            .then_some(tv.tv_sec)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn btime_from_a_captured_proc_stat() {
        let stat = "cpu  2255 34 2290 22625563 6290 127 456 0 0 0\ncpu0 1132 34 1441 11311718 3675 127 438 0 0 0\n\
                    intr 114930548 113199788 3 0 5 263 0 4 [...]\nctxt 1990473\nbtime 1062191376\n\
                    processes 2915\nprocs_running 1\n";
        assert_eq!(parse_proc_stat_btime(stat), Some(1062191376));
        assert_eq!(parse_proc_stat_btime("cpu 1 2\nbtime x\n"), None);
        assert_eq!(parse_proc_stat_btime(""), None);
    }

    #[test]
    fn the_override_wins_and_the_platform_answers_otherwise() {
        let set = |k: &str| (k == BOOT_TIME_ENV).then(|| "1800000000".to_string());
        assert_eq!(boot_time(set).unwrap().timestamp(), 1_800_000_000);
        let real = boot_time(|_| None);
        if cfg!(any(target_os = "linux", target_os = "macos")) {
            let t = real.expect("the platform knows its boot time");
            assert!(t <= Utc::now() && t.timestamp() > 1_000_000_000, "{t}");
        }
    }
}
