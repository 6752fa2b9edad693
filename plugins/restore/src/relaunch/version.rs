//! The agent's version before and after a restart. Before: what the running conversation wrote into
//! its transcript (Claude Code stamps each line with `"version"`, Codex its rollout's `session_meta` with
//! `"cli_version"`). After: `<agent> --version` of the binary the resume line will start (the name,
//! found on `PATH` as the pane's shell finds it).

use agterm_backup_core::process::bounded::run_bounded;
use std::io::{Read, Seek, SeekFrom};
use std::process::Command;
use std::time::Duration;

/// The key whose value names the agent's version in its transcript lines.
fn transcript_key(agent: &str) -> Option<&'static str> {
    match agent {
        "claude" => Some("\"version\":\""),
        "codex" => Some("\"cli_version\":\""),
        _ => None,
    }
}

/// The newest version `agent` wrote into its transcript text `text` (its last stamp).
pub fn transcript_version(agent: &str, text: &str) -> Option<String> {
    let key = transcript_key(agent)?;
    let at = text.rfind(key)? + key.len();
    let version: String = text[at..].chars().take_while(|c| *c != '"').collect();
    looks_like_version(&version).then_some(version)
}

/// The version in the first line of `--version`'s output: its first word that starts with a digit and
/// holds a dot (`2.1.328 (Claude Code)`, `codex-cli 0.169.0`).
pub fn parse_version_output(out: &str) -> Option<String> {
    out.lines()
        .find(|l| !l.trim().is_empty())?
        .split_whitespace()
        .map(|w| w.trim_start_matches('v'))
        .find(|w| looks_like_version(w))
        .map(String::from)
}

fn looks_like_version(w: &str) -> bool {
    w.starts_with(|c: char| c.is_ascii_digit())
        && w.contains('.')
        && w.len() <= 40
        && w.chars()
            .all(|c| c.is_ascii_alphanumeric() || ".-+".contains(c))
}

/// How a row says what changed.
pub fn change(before: Option<&str>, after: Option<&str>) -> String {
    match (before, after) {
        (Some(b), Some(a)) if a == b => format!("same version ({a})"),
        (Some(b), Some(a)) => format!("{b} → {a}"),
        (None, Some(a)) => format!("? → {a}"),
        (Some(b), None) => format!("{b} → ?"),
        (None, None) => "version unknown".into(),
    }
}

/// The version the running conversation last wrote (the transcript's last 256 KiB).
pub fn before(agent: &str, transcript: Option<&str>) -> Option<String> {
    let mut f = std::fs::File::open(transcript?).ok()?;
    let len = f.metadata().ok()?.len();
    f.seek(SeekFrom::Start(len.saturating_sub(256 * 1024)))
        .ok()?;
    let mut bytes = Vec::new();
    f.read_to_end(&mut bytes).ok()?;
    transcript_version(agent, &String::from_utf8_lossy(&bytes))
}

/// `<binary> --version` of the agent installed now (10 s at most).
pub fn installed(binary: &str) -> Option<String> {
    let done = run_bounded(
        Command::new(binary).arg("--version"),
        Duration::from_secs(10),
    )
    .ok()?;
    done.status
        .success()
        .then(|| parse_version_output(&done.stdout))
        .flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transcripts_name_their_last_version() {
        let claude = "{\"type\":\"user\",\"version\":\"2.1.300\"}\n{\"type\":\"assistant\",\"version\":\"2.1.328\"}\n";
        assert_eq!(transcript_version("claude", claude), Some("2.1.328".into()));
        let codex = "{\"type\":\"session_meta\",\"payload\":{\"cli_version\":\"0.169.0\"}}\n";
        assert_eq!(transcript_version("codex", codex), Some("0.169.0".into()));
        assert_eq!(transcript_version("gemini", claude), None);
        assert_eq!(transcript_version("claude", "{\"version\":\"x\"}"), None);
    }

    #[test]
    fn version_outputs_of_the_agents() {
        assert_eq!(
            parse_version_output("2.1.328 (Claude Code)\n"),
            Some("2.1.328".into())
        );
        assert_eq!(
            parse_version_output("codex-cli 0.169.0\n"),
            Some("0.169.0".into())
        );
        assert_eq!(parse_version_output("v1.18.33"), Some("1.18.33".into()));
        assert_eq!(parse_version_output("error: nope"), None);
    }

    #[test]
    fn the_change_in_words() {
        assert_eq!(change(Some("1.0"), Some("1.0")), "same version (1.0)");
        assert_eq!(change(Some("1.0"), Some("1.1")), "1.0 → 1.1");
        assert_eq!(change(None, None), "version unknown");
    }
}
