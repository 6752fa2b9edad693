//! Row 2b of the plan: a record's time that no hook could have written it at (see the plan's "Times
//! nobody could have written").

use agterm_backup_core::record::LiveRecord;
use chrono::{DateTime, Utc};

/// How far past the run's own time a record may be dated and still be trusted (clocks of one machine
/// differ by a little: a hook's `ts` is taken before its write, NTP steps).
pub const FUTURE_TOLERANCE_SECS: i64 = 300;

/// No record can be older than this (2020-01-01T00:00:00Z, before any agent this tool knows had hooks):
/// an earlier time comes from a clock reset to the epoch.
pub const EARLIEST_RECORD: i64 = 1_577_836_800;

/// Row 2b: why a record's time is no time it could have been written at, if it is not.
pub fn bad_time(rec: &LiveRecord, now: Option<DateTime<Utc>>) -> Option<String> {
    let Some(t) = rec.written_at() else {
        return Some("which is not a date".into());
    };
    if t.timestamp() < EARLIEST_RECORD {
        return Some("before 2020, when no agent had hooks (a clock reset at boot?)".into());
    }
    let now = now?;
    (t > now + chrono::Duration::seconds(FUTURE_TOLERANCE_SECS)).then(|| {
        format!(
            "after this run's time {} (more than {FUTURE_TOLERANCE_SECS} s ahead)",
            now.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
        )
    })
}
