//! What the restore benches capture: the records a Claude pane's hook writes, as plain data.

use agterm_backup_core::pane::PaneRole;
use agterm_backup_core::record::{LiveRecord, RECORD_VERSION};
use agterm_backup_core::slug::claude_project_slug;
use chrono::{DateTime, SecondsFormat, Utc};
use std::path::Path;

/// The pane's `n`th conversation (`session`'s `role` pane, pane token `pane_id`), working in
/// `<home>/work/<session>-<role>` with its transcript under `<home>/.claude/projects`, written at `at`.
pub fn record(
    session: &str,
    role: PaneRole,
    pane_id: &str,
    n: usize,
    home: &Path,
    at: DateTime<Utc>,
) -> LiveRecord {
    let dir = home.join(format!("work/{session}-{}", role.as_str()));
    let slug = claude_project_slug(&dir.display().to_string());
    let id = format!("77e8ca85-2b1c-4a8e-{:04x}-{n:012x}", role as usize);
    LiveRecord {
        v: RECORD_VERSION,
        agent: "claude".into(),
        session_id: id.clone(),
        agterm_session: session.to_string(),
        role,
        pane_id: Some(pane_id.to_string()),
        transcript_path: Some(
            home.join(format!(".claude/projects/{slug}/{id}.jsonl"))
                .display()
                .to_string(),
        ),
        agent_cwd: dir.display().to_string(),
        hook_cwd: dir.join("src").display().to_string(),
        flags: vec![
            "--model".into(),
            "sonnet".into(),
            "--permission-mode".into(),
            "acceptEdits".into(),
        ],
        agent_pid: Some(40_000 + n as u32),
        event: "UserPromptSubmit".into(),
        ts: at.to_rfc3339_opts(SecondsFormat::Millis, true),
        terminal: "agterm".into(),
        source: Some("resume".into()),
        window_id: Some("A1B2C3D4-0000-0000-0000-000000000001".into()),
        workspace_id: None,
        pin: None,
        pinned_line: None,
        extra: Default::default(),
    }
}
