//! Whether someone is at work in a replayed agent, read again right before `session.restart` would
//! replace it (row 7b, `execute`'s `restart.rs`): the plan read the pane's records once, and minutes may
//! have passed since. Two witnesses, each since the launch: the pane's records (any event of the new
//! conversation but its start and end: a prompt, a tool call, a turn's end), and the replayed agent's
//! own transcript where the agent keeps one (`transcript_path` of its records: Claude's JSONL, Codex's
//! rollout) holding a prompt. No record at all since the launch proves nothing (hooks that never run):
//! then nothing is restarted either.

use agterm_backup_core::agent::AgentSpec;
use agterm_backup_core::pane::PaneKey;
use agterm_backup_core::record::LiveRecord;
use agterm_backup_core::state::StateDir;
use chrono::{DateTime, Utc};
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

/// How much of a transcript's end is read: the prompts since the launch are at its end.
const TRANSCRIPT_TAIL: u64 = 512 * 1024;

/// `Err(why)` when the replayed agent in pane `key` may hold the user's work: a record of another
/// conversation than `own` since `launch` that is not its start or end, a prompt in its transcript since
/// then, or no record at all since then (its hooks are not proven to run).
pub fn idle_since(
    state: &StateDir,
    key: &PaneKey,
    spec: &AgentSpec,
    own: &str,
    launch: DateTime<Utc>,
) -> Result<(), String> {
    let mut records = state.read_journal(key);
    records.extend(state.read_record(key));
    // The replay's own records: another conversation than the pane's (a late `SessionEnd` of the agent
    // the reboot killed names the pane's own, and proves nothing about the replay).
    let since: Vec<&LiveRecord> = records
        .iter()
        .filter(|r| r.session_id != own)
        .filter(|r| r.written_at().is_some_and(|t| t >= launch))
        .collect();
    if since.is_empty() {
        return Err(format!(
            "the replayed {} left no record since the launch, so its hooks are not proven to run and \
             the user may be at work in it; left alone",
            spec.name
        ));
    }
    if let Some(r) = since
        .iter()
        .find(|r| !matches!(spec.moment(&r.event), "SessionStart" | "SessionEnd"))
    {
        return Err(format!(
            "someone is at work in the replayed {}: its {} was recorded at {}; left alone",
            spec.name, r.event, r.ts
        ));
    }
    for path in since.iter().filter_map(|r| r.transcript_path.as_deref()) {
        if let Some(at) = read_tail(Path::new(path)).and_then(|t| prompt_since(&t, launch)) {
            return Err(format!(
                "someone typed into the replayed {}: its transcript {path} holds a prompt at {at}; left \
                 alone",
                spec.name
            ));
        }
    }
    Ok(())
}

fn read_tail(path: &Path) -> Option<String> {
    let mut f = std::fs::File::open(path).ok()?;
    let len = f.metadata().ok()?.len();
    f.seek(SeekFrom::Start(len.saturating_sub(TRANSCRIPT_TAIL)))
        .ok()?;
    let mut buf = Vec::new();
    f.read_to_end(&mut buf).ok()?;
    Some(String::from_utf8_lossy(&buf).into_owned())
}

/// The time of the first prompt at or after `since` in a transcript's JSON lines: Claude's
/// `{"type":"user",…}` (not `isMeta`), Codex's `{"type":"event_msg","payload":{"type":"user_message"}}`,
/// each with its top-level `timestamp`. Torn and foreign lines are skipped.
pub fn prompt_since(text: &str, since: DateTime<Utc>) -> Option<String> {
    text.lines().find_map(|line| {
        let v: serde_json::Value = serde_json::from_str(line).ok()?;
        let at = v.get("timestamp")?.as_str()?;
        let t = DateTime::parse_from_rfc3339(at).ok()?.with_timezone(&Utc);
        let claude = v["type"] == "user" && v["isMeta"] != true;
        let codex = v["type"] == "event_msg" && v["payload"]["type"] == "user_message";
        (t >= since && (claude || codex)).then(|| at.to_string())
    })
}

#[cfg(test)]
#[path = "at_work_tests.rs"]
mod tests;
