//! Which directory to resume from (`design.md`, "Which directory to resume from").
//!
//! Claude keeps the transcript under the slug of the session's start directory and resumes a session in
//! the directory it runs from, while the payload's `cwd` follows the Bash tool's `cd`. So for Claude the
//! resume directory is the candidate whose slug equals the transcript's folder name; failing that the
//! agent process's cwd. It is re-read only when the transcript path changes. Codex has no persistent `cd`:
//! its payload `cwd` is the session cwd.

use agterm_backup_core::record::LiveRecord;
use agterm_backup_core::slug::claude_project_slug;
use std::path::Path;

/// The facts the choice looks at.
#[derive(Debug, Clone, Copy)]
pub struct CwdFacts<'a> {
    pub agent: &'a str,
    pub transcript_path: Option<&'a str>,
    /// The agent process's real cwd.
    pub process_cwd: Option<&'a str>,
    /// `$CLAUDE_PROJECT_DIR` in the hook's environment.
    pub project_dir: Option<&'a str>,
    pub payload_cwd: Option<&'a str>,
    pub previous: Option<&'a LiveRecord>,
}

/// The transcript's parent folder name (Claude's project slug of the session directory).
fn transcript_folder(transcript: &str) -> Option<&str> {
    Path::new(transcript).parent()?.file_name()?.to_str()
}

pub fn choose_agent_cwd(f: &CwdFacts<'_>) -> String {
    if f.agent != "claude" {
        return f
            .payload_cwd
            .or(f.process_cwd)
            .unwrap_or_default()
            .to_string();
    }
    // Same transcript as last time: the answer cannot have changed (and the process cwd may have).
    if let Some(p) = f.previous {
        if p.agent == f.agent && p.transcript_path.as_deref() == f.transcript_path {
            return p.agent_cwd.clone();
        }
    }
    let previous_cwd = f.previous.map(|p| p.agent_cwd.as_str());
    if let Some(folder) = f.transcript_path.and_then(transcript_folder) {
        let candidates = [f.process_cwd, f.project_dir, f.payload_cwd, previous_cwd];
        if let Some(dir) = candidates
            .into_iter()
            .flatten()
            .find(|c| !c.is_empty() && claude_project_slug(c) == folder)
        {
            return dir.to_string();
        }
    }
    f.process_cwd
        .or(f.payload_cwd)
        .unwrap_or_default()
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts<'a>(transcript: Option<&'a str>) -> CwdFacts<'a> {
        CwdFacts {
            agent: "claude",
            transcript_path: transcript,
            process_cwd: Some("/w/p"),
            project_dir: Some("/w/p"),
            payload_cwd: Some("/w/p/sub"),
            previous: None,
        }
    }

    #[test]
    fn the_candidate_whose_slug_matches_the_transcript_wins() {
        let t = "/h/.claude/projects/-w-p-sub/abc.jsonl";
        assert_eq!(choose_agent_cwd(&facts(Some(t))), "/w/p/sub");
        let t = "/h/.claude/projects/-w-p/abc.jsonl";
        assert_eq!(choose_agent_cwd(&facts(Some(t))), "/w/p");
        // CLAUDE_PROJECT_DIR matches when the process cwd does not.
        let mut f = facts(Some("/h/.claude/projects/-srv-app/abc.jsonl"));
        f.project_dir = Some("/srv/app");
        assert_eq!(choose_agent_cwd(&f), "/srv/app");
    }

    #[test]
    fn no_match_falls_back_to_the_process_then_the_payload_cwd() {
        let f = facts(Some("/h/.claude/projects/-elsewhere/abc.jsonl"));
        assert_eq!(choose_agent_cwd(&f), "/w/p");
        let mut f = facts(None);
        f.process_cwd = None;
        assert_eq!(choose_agent_cwd(&f), "/w/p/sub");
    }

    #[test]
    fn codex_uses_the_session_cwd() {
        let mut f = facts(Some("/c/sessions/2026/12/01/rollout-x.jsonl"));
        f.agent = "codex";
        assert_eq!(choose_agent_cwd(&f), "/w/p/sub");
    }
}
