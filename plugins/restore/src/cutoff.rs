//! `--as-of <RFC 3339 | snapshot file>`: the hand-set cutoff of the journal rule.

use chrono::{DateTime, Utc};
use std::path::Path;

/// Parses `--as-of`: an RFC 3339 time, else a snapshot file written by `snap` (its `taken_at`). The error
/// names the value and what would have been accepted.
pub fn parse_as_of(value: &str) -> Result<DateTime<Utc>, String> {
    if let Ok(t) = DateTime::parse_from_rfc3339(value.trim()) {
        return Ok(t.with_timezone(&Utc));
    }
    let path = Path::new(value);
    if !path.exists() {
        return Err(format!(
            "--as-of {value:?} is neither an RFC 3339 time (e.g. 2026-12-01T09:00:00Z) nor an existing snapshot file"
        ));
    }
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("--as-of: cannot read snapshot {}: {e}", path.display()))?;
    snapshot_time(&text).ok_or_else(|| {
        format!(
            "--as-of: {} is not a snapshot written by `agterm-backup snap` (no RFC 3339 \"taken_at\")",
            path.display()
        )
    })
}

/// The `taken_at` of a snapshot's JSON text.
pub fn snapshot_time(text: &str) -> Option<DateTime<Utc>> {
    let v: serde_json::Value = serde_json::from_str(text).ok()?;
    let t = v.get("taken_at")?.as_str()?;
    DateTime::parse_from_rfc3339(t)
        .ok()
        .map(|t| t.with_timezone(&Utc))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_rfc3339_and_snapshots() {
        let t = parse_as_of("2026-12-01T09:00:00+01:00").unwrap();
        assert_eq!(t.to_rfc3339(), "2026-12-01T08:00:00+00:00");
        let tmp = tempfile::tempdir().unwrap();
        let snap = tmp.path().join("s.json");
        std::fs::write(
            &snap,
            r#"{"v":1,"taken_at":"2026-11-30T10:00:00Z","panes":[]}"#,
        )
        .unwrap();
        assert_eq!(
            parse_as_of(snap.to_str().unwrap()).unwrap().to_rfc3339(),
            "2026-11-30T10:00:00+00:00"
        );
    }

    #[test]
    fn refuses_junk_naming_the_value() {
        let e = parse_as_of("yesterday").unwrap_err();
        assert!(e.contains("\"yesterday\""), "{e}");
        let tmp = tempfile::tempdir().unwrap();
        let bad = tmp.path().join("bad.json");
        std::fs::write(&bad, "{}").unwrap();
        let e = parse_as_of(bad.to_str().unwrap()).unwrap_err();
        assert!(e.contains("bad.json"), "{e}");
    }
}
