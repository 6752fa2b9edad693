//! Where Gemini CLI and Copilot CLI keep a conversation, for telling a resumable one from one whose
//! transcript is gone (Claude's and Qwen's recorded `transcript_path` is the conversation; Codex's rollouts
//! are in [`crate::transcripts`]).
//!
//! - Copilot: `$COPILOT_HOME/session-state/<id>/events.jsonl`, else `~/.copilot/session-state/…`. Its
//!   SessionStart carries no transcript path, so the record may have none: the store is looked up by id.
//! - Gemini: `~/.gemini/tmp/<project>/chats/session-<time>-<id8>.jsonl`. The record's path may name another
//!   file of the conversation than the one Gemini lists (0.61 resumes into the original file; a resume into
//!   a new one is read alike), so it only says which project's `chats` folder: any session file there with
//!   the id's first 8 characters whose header names the conversation (`gemini_file_names`) is it.
//! - Antigravity CLI (`agy`, from its documentation, unverified): `~/.gemini/antigravity-cli/brain/<id>/`
//!   holds a conversation's files (its transcript under `.system_generated/logs/`); no such folder, no
//!   conversation to resume.

use agterm_backup_core::record::LiveRecord;
use std::path::{Path, PathBuf};

/// Copilot's `session-state` folder.
pub fn copilot_session_state(env: &dyn Fn(&str) -> Option<String>) -> Option<PathBuf> {
    let non_empty = |k: &str| env(k).filter(|v| !v.is_empty());
    non_empty("COPILOT_HOME")
        .map(PathBuf::from)
        .or_else(|| non_empty("HOME").map(|h| Path::new(&h).join(".copilot")))
        .map(|d| d.join("session-state"))
}

/// agy's `brain` folder: one folder per conversation.
pub fn agy_brain(env: &dyn Fn(&str) -> Option<String>) -> Option<PathBuf> {
    env("HOME")
        .filter(|h| !h.is_empty())
        .map(|h| Path::new(&h).join(".gemini/antigravity-cli/brain"))
}

/// The stores looked up by id: Copilot's `session-state`, agy's `brain`.
#[derive(Debug, Clone, Default)]
pub struct Stores {
    pub copilot_state: Option<PathBuf>,
    pub agy_brain: Option<PathBuf>,
}

impl Stores {
    pub fn from_env(env: &dyn Fn(&str) -> Option<String>) -> Stores {
        Stores {
            copilot_state: copilot_session_state(env),
            agy_brain: agy_brain(env),
        }
    }
}

/// Whether `rec`'s conversation is in its agent's store; `None` for agents this module does not cover
/// (or a Gemini record without a transcript path, where nothing says which project it is in).
pub fn in_store(rec: &LiveRecord, stores: &Stores) -> Option<bool> {
    let copilot_state = stores.copilot_state.as_deref();
    match rec.agent.as_str() {
        "agy" => {
            // An id is one path component, never `..` or a path.
            let id = Path::new(&rec.session_id);
            if id.components().count() != 1 || rec.session_id.starts_with('.') {
                return Some(false);
            }
            Some(stores.agy_brain.as_deref()?.join(id).is_dir())
        }
        "copilot" => {
            let dir = copilot_state?;
            Some(dir.join(&rec.session_id).join("events.jsonl").is_file())
        }
        "gemini" => {
            let chats = Path::new(rec.transcript_path.as_deref()?).parent()?;
            let id8 = rec.session_id.get(..8)?;
            let found = std::fs::read_dir(chats).ok()?.flatten().any(|e| {
                let name = e.file_name();
                let name = name.to_str().unwrap_or("");
                let ours = [".jsonl", ".json"]
                    .iter()
                    .any(|ext| name.ends_with(&format!("-{id8}{ext}")));
                name.starts_with("session-")
                    && ours
                    && gemini_file_names(&e.path(), &rec.session_id)
            });
            Some(found)
        }
        _ => None,
    }
}

/// Whether Gemini CLI would list the session file at `path` as conversation `id` (0.61's
/// `loadConversationRecord`): a line that is a metadata record (`sessionId` and `projectHash`, alone or in
/// a `$set`) naming it, or, for a legacy `.json` file, the whole file as one object naming it. A file of the
/// id's name without that line is not listed, so `gemini --resume <id>` fails ("Invalid session
/// identifier"). Gemini itself makes such files: its start-up cleanup (`cleanupExpiredSessions`, on by
/// default) deletes every session file of the project with no prompt yet, also another running gemini's
/// fresh one, which then appends its turns to a new file with no header.
fn gemini_file_names(path: &Path, id: &str) -> bool {
    let Ok(text) = std::fs::read_to_string(path) else {
        return false;
    };
    let names = |v: &serde_json::Value| {
        let meta = v.get("$set").unwrap_or(v);
        meta.get("sessionId").and_then(|s| s.as_str()) == Some(id)
            && meta.get("projectHash").is_some_and(|h| h.is_string())
    };
    let by_line = text
        .lines()
        .filter(|l| l.contains("\"sessionId\""))
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .any(|v| names(&v));
    let legacy = || {
        serde_json::from_str::<serde_json::Value>(&text)
            .is_ok_and(|v| v.get("sessionId").and_then(|s| s.as_str()) == Some(id))
    };
    by_line || (path.extension().is_some_and(|e| e == "json") && legacy())
}

/// Why `rec`'s conversation is gone from its store, for the plan row.
pub fn gone_reason(rec: &LiveRecord, stores: &Stores) -> String {
    let copilot_state = stores.copilot_state.as_deref();
    match rec.agent.as_str() {
        "agy" => format!(
            "no Antigravity conversation {} under {}",
            rec.session_id,
            stores
                .agy_brain
                .as_ref()
                .map(|d| d.display().to_string())
                .unwrap_or_default()
        ),
        "copilot" => format!(
            "no Copilot session {} under {}",
            rec.session_id,
            copilot_state
                .map(|d| d.display().to_string())
                .unwrap_or_default()
        ),
        _ => format!(
            "no Gemini session file that gemini can resume as {} next to {}",
            rec.session_id,
            rec.transcript_path.as_deref().unwrap_or("")
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(agent: &str, id: &str, transcript: Option<&str>) -> LiveRecord {
        let mut r = crate::fixtures::record(
            id,
            agterm_backup_core::pane::PaneRole::Left,
            "2026-12-01T09:00:00Z",
        );
        r.agent = agent.into();
        r.transcript_path = transcript.map(String::from);
        r
    }

    #[test]
    fn copilot_is_looked_up_by_id_and_gemini_by_its_chats_folder() {
        let tmp = tempfile::tempdir().unwrap();
        let state = tmp.path().join("session-state");
        let id = "2274673b-b72d-48fb-b62e-57a27e48e1fc";
        std::fs::create_dir_all(state.join(id)).unwrap();
        std::fs::write(state.join(id).join("events.jsonl"), "{}\n").unwrap();
        let stores = Stores {
            copilot_state: Some(state.clone()),
            agy_brain: None,
        };
        assert_eq!(in_store(&record("copilot", id, None), &stores), Some(true));
        let other = "9274673b-b72d-48fb-b62e-57a27e48e1fc";
        assert_eq!(
            in_store(&record("copilot", other, None), &stores),
            Some(false)
        );
        assert!(gone_reason(&record("copilot", other, None), &stores).contains(other));

        let chats = tmp.path().join("tmp/proj/chats");
        std::fs::create_dir_all(&chats).unwrap();
        let gid = "e15aedac-044a-43db-82b4-f9721dedb557";
        std::fs::write(
            chats.join("session-2026-12-01T11-19-e15aedac.jsonl"),
            gemini_file(gid, true),
        )
        .unwrap();
        // The resume's new file is what the record names; the original is still found.
        let named = chats.join("session-2026-12-01T12-00-e15aedac.jsonl");
        let rec = record("gemini", gid, Some(&named.display().to_string()));
        assert_eq!(in_store(&rec, &Stores::default()), Some(true));
        let gone = record("gemini", other, Some(&named.display().to_string()));
        assert_eq!(in_store(&gone, &Stores::default()), Some(false));
        assert_eq!(
            in_store(&record("gemini", gid, None), &Stores::default()),
            None
        );
        assert_eq!(
            in_store(&record("claude", gid, None), &Stores::default()),
            None
        );
    }

    /// A Gemini CLI 0.61 session file as captured in the end-to-end test: the metadata line, the session
    /// context, one turn. `header: false` is the same file after another gemini's start-up cleanup
    /// deleted it and this gemini appended its turn to a new one.
    fn gemini_file(id: &str, header: bool) -> String {
        let head = format!(
            concat!(
                r#"{{"sessionId":"{id}","projectHash":"6b4ac7cb965d806f589a9d7acccc4e6273687152ebc28401b8dc698f3d6bd700","#,
                r#""startTime":"2026-12-05T21:20:35.744Z","lastUpdated":"2026-12-05T21:20:35.744Z","kind":"main"}}"#,
                "\n",
                r#"{{"$set":{{"messages":[{{"id":"d049","type":"user","content":[{{"text":"<session_context>"}}]}}]}}}}"#,
                "\n"
            ),
            id = id
        );
        let turn = concat!(
            r#"{"id":"b6f0","timestamp":"2026-12-05T21:20:42.704Z","type":"user","content":[{"text":"hi"}]}"#,
            "\n",
            r#"{"$set":{"lastUpdated":"2026-12-05T21:20:42.704Z"}}"#,
            "\n",
            r#"{"id":"b75e","type":"gemini","content":"stub reply to: hi","thoughts":[]}"#,
            "\n"
        );
        if header {
            head + turn
        } else {
            turn.to_string()
        }
    }

    #[test]
    fn a_gemini_file_without_its_header_is_not_the_conversation() {
        let tmp = tempfile::tempdir().unwrap();
        let chats = tmp.path().join("tmp/proj/chats");
        std::fs::create_dir_all(&chats).unwrap();
        let id = "ca9bf314-5188-4ebf-a086-77d7ae3f045d";
        let file = chats.join("session-2026-12-05T21-20-ca9bf314.jsonl");
        let rec = record("gemini", id, Some(&file.display().to_string()));
        std::fs::write(&file, gemini_file(id, false)).unwrap();
        assert_eq!(in_store(&rec, &Stores::default()), Some(false));
        assert!(gone_reason(&rec, &Stores::default()).contains("can resume"));
        // Another conversation's header with the same 8 characters is not this one either.
        let twin = "ca9bf314-0000-4000-8000-000000000000";
        std::fs::write(&file, gemini_file(twin, true)).unwrap();
        assert_eq!(in_store(&rec, &Stores::default()), Some(false));
        // The header in a `$set` (a rewritten file) counts, and so does a legacy whole-file `.json`.
        let set = format!(r#"{{"$set":{{"sessionId":"{id}","projectHash":"ab"}}}}"#);
        std::fs::write(&file, format!("{}{set}\n", gemini_file(id, false))).unwrap();
        assert_eq!(in_store(&rec, &Stores::default()), Some(true));
        std::fs::remove_file(&file).unwrap();
        let legacy = chats.join("session-2026-11-01T10-00-ca9bf314.json");
        let whole = format!("{{\n  \"sessionId\": \"{id}\",\n  \"messages\": []\n}}\n");
        std::fs::write(&legacy, whole).unwrap();
        assert_eq!(in_store(&rec, &Stores::default()), Some(true));
    }

    #[test]
    fn agy_is_looked_up_by_its_brain_folder() {
        let tmp = tempfile::tempdir().unwrap();
        let home = tmp.path().display().to_string();
        let stores = Stores::from_env(&|k: &str| (k == "HOME").then(|| home.clone()));
        let id = "ec33ebf9-0cba-4100-8142-c61503f6c587";
        // What the test kit's fake agy writes for a conversation.
        let logs = tmp
            .path()
            .join(".gemini/antigravity-cli/brain")
            .join(id)
            .join(".system_generated/logs");
        std::fs::create_dir_all(&logs).unwrap();
        std::fs::write(logs.join("transcript_full.jsonl"), "{}\n").unwrap();
        assert_eq!(in_store(&record("agy", id, None), &stores), Some(true));
        let other = "0d0e6a1c-1111-4222-8333-944455556666";
        assert_eq!(in_store(&record("agy", other, None), &stores), Some(false));
        assert!(gone_reason(&record("agy", other, None), &stores).contains("brain"));
        // An id that is a path never reaches outside the store.
        assert_eq!(
            in_store(&record("agy", "../brain", None), &stores),
            Some(false)
        );
        assert_eq!(in_store(&record("agy", id, None), &Stores::default()), None);
    }

    #[test]
    fn copilot_home_moves_the_store() {
        let env = |k: &str| match k {
            "COPILOT_HOME" => Some("/c".to_string()),
            "HOME" => Some("/h".to_string()),
            _ => None,
        };
        assert_eq!(
            copilot_session_state(&env),
            Some(PathBuf::from("/c/session-state"))
        );
        let env = |k: &str| (k == "HOME").then(|| "/h".to_string());
        assert_eq!(
            copilot_session_state(&env),
            Some(PathBuf::from("/h/.copilot/session-state"))
        );
    }
}
