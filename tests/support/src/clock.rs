//! Waiting for the wall clock itself: some cutoffs are whole seconds (a boot time, a tmux server's start,
//! a record's second), so "written after the launch" holds only once the clock has left the second of
//! the launch. A test waits exactly until then, naming the instant it must be past, not for a fixed
//! 1.1 s "a second has surely passed".

use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// Waits until the wall clock reads later than `instant`.
pub fn wait_clock_past(instant: SystemTime) {
    // A clock stepped back by more than this is not something a test can wait out.
    let give_up = SystemTime::now() + duration_until(instant) + Duration::from_secs(10);
    loop {
        let now = SystemTime::now();
        if now > instant {
            return;
        }
        assert!(
            now < give_up,
            "the wall clock never passed {instant:?} (now {now:?})"
        );
        std::thread::sleep(duration_until(instant).max(Duration::from_millis(1)));
    }
}

/// Waits until the wall clock reads a later whole second (since the Unix epoch) than `instant`'s: from
/// then on, whatever is stamped now is stamped in a later second than anything at `instant`.
pub fn wait_past_second(instant: SystemTime) {
    wait_clock_past(start_of_next_second(instant) - Duration::from_nanos(1));
}

/// The first moment of the second after `instant`'s.
pub fn start_of_next_second(instant: SystemTime) -> SystemTime {
    let since_epoch = instant.duration_since(UNIX_EPOCH).unwrap_or_default();
    UNIX_EPOCH + Duration::from_secs(since_epoch.as_secs() + 1)
}

/// How long from now until `instant` (zero when it is past).
fn duration_until(instant: SystemTime) -> Duration {
    instant
        .duration_since(SystemTime::now())
        .unwrap_or_default()
}

/// The newest modification time of the files directly in `dir` (`None` when it holds none).
pub fn newest_write_in(dir: &std::path::Path) -> Option<SystemTime> {
    std::fs::read_dir(dir)
        .ok()?
        .flatten()
        .filter_map(|e| e.metadata().ok())
        .filter(|m| m.is_file())
        .filter_map(|m| m.modified().ok())
        .max()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wait_ends_in_the_next_second() {
        let before = SystemTime::now();
        wait_past_second(before);
        let secs = |t: SystemTime| t.duration_since(UNIX_EPOCH).unwrap().as_secs();
        assert!(secs(SystemTime::now()) > secs(before));
        assert!(before.elapsed().unwrap() <= Duration::from_millis(1100));
    }

    #[test]
    fn a_past_instant_is_no_wait() {
        let past = SystemTime::now() - Duration::from_secs(5);
        let start = std::time::Instant::now();
        wait_past_second(past);
        wait_clock_past(past);
        assert!(start.elapsed() < Duration::from_millis(100));
    }
}
