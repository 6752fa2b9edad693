//! Which conversations can still be resumed: computed once at the edge, consulted by the pure planner.
//!
//! - Claude: the record's `transcript_path` exists.
//! - Codex: a rollout `rollout-<stamp>-<id>.jsonl` or `.jsonl.zst` with that id exists anywhere under
//!   `$CODEX_HOME/sessions/` (`YYYY/MM/DD/` today; the walk does not depend on the layout).
//! - Copilot and Gemini: their own stores ([`crate::agent_stores`]), looked up by id.
//! - Other agents (Qwen: `~/.qwen/projects/<slug>/chats/<id>.jsonl`): their `transcript_path` when
//!   recorded, else nothing to check.

use agterm_backup_core::record::LiveRecord;
use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// The existing transcripts the planner may resume.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Transcripts {
    /// Transcript paths (as recorded) that exist.
    pub paths: HashSet<String>,
    /// Codex session ids that have a rollout under `$CODEX_HOME/sessions`.
    pub codex_ids: HashSet<String>,
    /// `(agent, session id)` → why its conversation is gone from that agent's store (Copilot, Gemini).
    pub gone_from_store: std::collections::HashMap<(String, String), String>,
    /// A recorded directory → why no shell can `cd` there now (`is gone`, `is not a directory`).
    pub gone_dirs: std::collections::HashMap<String, String>,
}

impl Transcripts {
    /// Why `rec`'s directory cannot be entered (row 12b), or `None` when it can (or was not looked at).
    pub fn dir_gone(&self, rec: &LiveRecord) -> Option<String> {
        self.gone_dirs.get(&rec.agent_cwd).cloned()
    }

    /// Why `rec`'s conversation cannot be resumed, or `None` when it can.
    pub fn missing(&self, rec: &LiveRecord) -> Option<String> {
        if let Some(why) = self
            .gone_from_store
            .get(&(rec.agent.clone(), rec.session_id.clone()))
        {
            return Some(why.clone());
        }
        match (rec.agent.as_str(), rec.transcript_path.as_deref()) {
            ("copilot" | "gemini", _) => None,
            ("codex", _) => (!self
                .codex_ids
                .contains(&rec.session_id.to_ascii_lowercase()))
            .then(|| {
                format!(
                    "no Codex rollout for {} under $CODEX_HOME/sessions",
                    rec.session_id
                )
            }),
            ("claude", None) => Some("no transcript path was recorded".into()),
            (_, Some(p)) => (!self.paths.contains(p)).then(|| format!("{p} is missing")),
            (_, None) => None,
        }
    }

    /// Looks at the disk for every record in `records`: their transcript paths, and the Codex rollouts
    /// under `codex_home` (walked once, only when a Codex record asks).
    pub fn scan<'a>(
        records: impl IntoIterator<Item = &'a LiveRecord>,
        codex_home: Option<&Path>,
    ) -> Transcripts {
        let mut out = Transcripts::default();
        let mut wants_codex = false;
        for r in records {
            wants_codex |= r.agent == "codex";
            if let Some(why) = dir_problem(&r.agent_cwd) {
                out.gone_dirs.insert(r.agent_cwd.clone(), why);
            }
            if let Some(p) = r.transcript_path.as_deref() {
                if Path::new(p).is_file() {
                    out.paths.insert(p.to_string());
                }
            }
        }
        if let (true, Some(home)) = (wants_codex, codex_home) {
            out.codex_ids = codex_rollout_ids(&home.join("sessions"));
        }
        out
    }
}

/// Why a recorded directory cannot be entered: gone, or not a directory (a symlink to one is fine: the
/// user's own tree).
fn dir_problem(dir: &str) -> Option<String> {
    if !dir.starts_with('/') {
        return None;
    }
    match std::fs::metadata(dir) {
        Ok(m) if m.is_dir() => None,
        Ok(_) => Some("is not a directory".into()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Some("is gone".into()),
        Err(e) => Some(format!("cannot be entered ({e})")),
    }
}

impl Transcripts {
    /// Looks up the records of agents with their own store (Copilot, Gemini, agy) in it.
    pub fn scan_stores<'a>(
        &mut self,
        records: impl IntoIterator<Item = &'a LiveRecord>,
        env: &dyn Fn(&str) -> Option<String>,
    ) {
        let stores = crate::agent_stores::Stores::from_env(env);
        for r in records {
            if crate::agent_stores::in_store(r, &stores) == Some(false) {
                let why = crate::agent_stores::gone_reason(r, &stores);
                self.gone_from_store
                    .insert((r.agent.clone(), r.session_id.clone()), why);
            }
        }
    }
}

/// `$CODEX_HOME`, else `~/.codex`.
pub fn codex_home(env: impl Fn(&str) -> Option<String>) -> Option<PathBuf> {
    if let Some(h) = env("CODEX_HOME").filter(|h| !h.is_empty()) {
        return Some(PathBuf::from(h));
    }
    env("HOME")
        .filter(|h| !h.is_empty())
        .map(|h| Path::new(&h).join(".codex"))
}

/// The session id in a rollout file name (`rollout-2026-12-01T09-00-00-<uuid>.jsonl[.zst]`): the
/// trailing UUID-shaped 36 characters.
pub fn rollout_id(file_name: &str) -> Option<&str> {
    let stem = file_name
        .strip_suffix(".jsonl.zst")
        .or_else(|| file_name.strip_suffix(".jsonl"))?
        .strip_prefix("rollout-")?;
    let id = stem.get(stem.len().checked_sub(36)?..)?;
    let shaped = id.char_indices().all(|(i, c)| match i {
        8 | 13 | 18 | 23 => c == '-',
        _ => c.is_ascii_hexdigit(),
    });
    shaped.then_some(id)
}

/// Every rollout id under `dir`, walked recursively (symlinked folders are not followed).
pub fn codex_rollout_ids(dir: &Path) -> HashSet<String> {
    let mut ids = HashSet::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let Ok(kind) = e.file_type() else { continue };
            if kind.is_dir() {
                stack.push(e.path());
            } else if let Some(id) = e.file_name().to_str().and_then(rollout_id) {
                ids.insert(id.to_ascii_lowercase());
            }
        }
    }
    ids
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rollout_names() {
        let id = "019a0b1c-2d3e-7f40-8a9b-0c1d2e3f4a5b";
        assert_eq!(
            rollout_id(&format!("rollout-2026-12-01T09-00-00-{id}.jsonl")),
            Some(id)
        );
        assert_eq!(
            rollout_id(&format!("rollout-2026-12-01T09-00-00-{id}.jsonl.zst")),
            Some(id)
        );
        assert_eq!(rollout_id(&format!("rollout-x-{id}.json")), None);
        assert_eq!(rollout_id("rollout-short.jsonl"), None);
        assert_eq!(rollout_id(&format!("session-{id}.jsonl")), None);
    }

    #[test]
    fn walks_nested_sessions_both_extensions() {
        let tmp = tempfile::tempdir().unwrap();
        let a = "019a0b1c-2d3e-7f40-8a9b-0c1d2e3f4a5b";
        let b = "019a0b1c-2d3e-7f40-8a9b-0c1d2e3f4a5c";
        let day = tmp.path().join("sessions/2026/11/30");
        std::fs::create_dir_all(&day).unwrap();
        std::fs::write(
            day.join(format!("rollout-2026-11-30T10-00-00-{a}.jsonl")),
            "{}",
        )
        .unwrap();
        std::fs::write(
            day.join(format!("rollout-2026-11-30T11-00-00-{b}.jsonl.zst")),
            "",
        )
        .unwrap();
        let ids = codex_rollout_ids(&tmp.path().join("sessions"));
        assert_eq!(ids.len(), 2);
        assert!(ids.contains(a) && ids.contains(b));
        assert!(codex_rollout_ids(&tmp.path().join("absent")).is_empty());
    }
}
