//! The restart marker: `<state>/restarting/<PANE-KEY>.json`, written by `agterm-backup restart` right
//! before it quits a pane's agent, removed once the conversation runs again in the pane.
//!
//! The agent's quit fires its `SessionEnd` like a user's `/exit` does. The hook reads this marker: a
//! `SessionEnd` of the very conversation the marker names, in its pane, within [`MARKER_TTL_SECS`] of
//! the marker, is restart's quit, never the user ending the conversation ([`restart_holds`]). A restart
//! that died half-way (after the quit, before the resume line) leaves the marker, and the record of a
//! conversation that is not ended: the next `restart` (or `restore`) brings it back.

use crate::pane::PaneKey;
use crate::state::{write_atomic, StateDir};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// How long a marker speaks for the hook: a quit takes seconds; a marker left by a restart that died
/// long ago must not turn a later `/exit` of the user into a restart.
pub const MARKER_TTL_SECS: i64 = 300;

/// What restart is about to do in one pane.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RestartMarker {
    pub agent: String,
    pub session_id: String,
    /// When the quit was about to be typed, UTC RFC 3339.
    pub at: String,
    /// The agent's version before the restart, where known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version_before: Option<String>,
}

impl RestartMarker {
    pub fn new(agent: &str, session_id: &str, now: DateTime<Utc>) -> RestartMarker {
        RestartMarker {
            agent: agent.into(),
            session_id: session_id.into(),
            at: now.to_rfc3339_opts(chrono::SecondsFormat::Millis, true),
            version_before: None,
        }
    }

    pub fn written_at(&self) -> Option<DateTime<Utc>> {
        DateTime::parse_from_rfc3339(&self.at)
            .ok()
            .map(|t| t.with_timezone(&Utc))
    }
}

/// Whether a `SessionEnd` of `agent`'s conversation `session_id` at `now` is restart's own quit: the
/// marker names that conversation and is at most [`MARKER_TTL_SECS`] old (a clock gone backwards by a
/// little counts as fresh).
///
/// `previous` is when the pane's record was last written before this event: a record written after the
/// marker (the resumed conversation's `SessionStart`) means that restart is done and its marker spent
/// (a restart killed right after its resume line leaves it), so a later quit is the user's again.
pub fn restart_holds(
    marker: Option<&RestartMarker>,
    agent: &str,
    session_id: &str,
    now: DateTime<Utc>,
    previous: Option<DateTime<Utc>>,
) -> bool {
    marker.is_some_and(|m| {
        let Some(at) = m.written_at() else {
            return false;
        };
        m.agent == agent
            && m.session_id == session_id
            && (-5..=MARKER_TTL_SECS).contains(&(now - at).num_seconds())
            && previous.is_none_or(|p| p <= at)
    })
}

/// `<state>/restarting`.
pub fn dir(state: &StateDir) -> PathBuf {
    state.root().join("restarting")
}

/// `<state>/restarting/<key>.json`.
pub fn path(state: &StateDir, key: &PaneKey) -> PathBuf {
    dir(state).join(format!("{key}.json"))
}

/// The pane's marker; `None` when absent, unreadable or a symlink (nothing in the state folder is
/// followed).
pub fn read(state: &StateDir, key: &PaneKey) -> Option<RestartMarker> {
    let p = path(state, key);
    if std::fs::symlink_metadata(&p).ok()?.file_type().is_symlink() {
        return None;
    }
    serde_json::from_slice(&std::fs::read(p).ok()?).ok()
}

/// Writes the pane's marker atomically (0600), creating `restarting/` (0700). A symlink where the
/// folder should be is refused, named.
pub fn write(state: &StateDir, key: &PaneKey, marker: &RestartMarker) -> std::io::Result<()> {
    use std::os::unix::fs::DirBuilderExt;
    let d = dir(state);
    if std::fs::symlink_metadata(&d).is_ok_and(|m| m.file_type().is_symlink()) {
        return Err(std::io::Error::other(format!(
            "{} is a symlink; remove it (agterm-backup follows no links in its state folder)",
            d.display()
        )));
    }
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(&d)?;
    let mut bytes = serde_json::to_vec_pretty(marker)?;
    bytes.push(b'\n');
    write_atomic(&path(state, key), &bytes, 0o600)
}

/// Removes the pane's marker (absent is fine).
pub fn remove(state: &StateDir, key: &PaneKey) {
    let _ = std::fs::remove_file(path(state, key));
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::Duration;

    fn at(secs: i64) -> DateTime<Utc> {
        DateTime::from_timestamp(1_800_000_000 + secs, 0).unwrap()
    }

    #[test]
    fn holds_only_for_its_own_conversation_and_while_fresh() {
        let m = RestartMarker::new("claude", "id-1", at(0));
        let holds = |m: Option<&RestartMarker>, agent: &str, id: &str, now, prev| {
            restart_holds(m, agent, id, now, prev)
        };
        assert!(holds(Some(&m), "claude", "id-1", at(3), None));
        assert!(holds(
            Some(&m),
            "claude",
            "id-1",
            at(MARKER_TTL_SECS),
            Some(at(-9))
        ));
        assert!(!holds(
            Some(&m),
            "claude",
            "id-1",
            at(MARKER_TTL_SECS + 1),
            None
        ));
        assert!(!holds(Some(&m), "claude", "id-2", at(3), None));
        assert!(!holds(Some(&m), "codex", "id-1", at(3), None));
        assert!(!holds(None, "claude", "id-1", at(3), None));
        assert!(!holds(
            Some(&m),
            "claude",
            "id-1",
            at(0) - Duration::seconds(60),
            None
        ));
        // The record was written after the marker: the resumed conversation ran, the marker is spent.
        assert!(!holds(Some(&m), "claude", "id-1", at(9), Some(at(4))));
        let broken = RestartMarker {
            at: "yesterday".into(),
            ..m
        };
        assert!(!holds(Some(&broken), "claude", "id-1", at(3), None));
    }

    #[test]
    fn round_trips_and_never_follows_a_symlink() {
        let tmp = tempfile::tempdir().unwrap();
        let state = StateDir::at(tmp.path());
        let key = crate::record::tests::sample_key();
        let m = RestartMarker::new("claude", "id-1", at(0));
        write(&state, &key, &m).unwrap();
        assert_eq!(read(&state, &key), Some(m.clone()));
        remove(&state, &key);
        assert_eq!(read(&state, &key), None);
        std::fs::remove_dir_all(dir(&state)).unwrap();
        std::os::unix::fs::symlink("/tmp", dir(&state)).unwrap();
        let e = write(&state, &key, &m).unwrap_err();
        assert!(e.to_string().contains("symlink"), "{e}");
    }
}
