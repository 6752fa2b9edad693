//! agterm in the reports (its registry row's `report`): its `status` line (version, restore mode and
//! what brings a conversation back in that mode), where else to look when it does not answer, its
//! warnings, how restore restarts one of its panes, and the record `snap --harvest` writes for one of
//! its panes.
//!
//! `status --json` repeats agterm's instance as `"agterm":{"running","version","mode","restart",
//! "error"}` (the row's `status_section`), as it did before the other terminals (README, "JSON output").

use crate::key::{AgtermPaneKey, NAME};
use agterm_backup_core::record::{LiveRecord, PinOutcome, RECORD_VERSION};
use agterm_backup_core::terminal::{PaneView, RestoreMode};

/// Said after "agterm is not running": a client finds agterm only at the socket it resolves.
pub const NOT_RUNNING_HINT: &str = " (or its socket is elsewhere)";

/// How restore restarts an agterm pane: `session.restart` replaces the pane's shell with one running
/// the resume line.
pub const RESTART_HOW: &str = "agterm's session restart";

/// Why: a Live pane after a reboot runs the bare agent agterm replayed, in a new conversation.
pub const RESTART_WHY: &str = "agterm replayed a bare agent, a new conversation";

/// agterm's line in `status`: `agterm <version> · restore mode <mode>: <what brings a conversation
/// back>`. agterm answers `version` from 0.25 and `restore.mode` from 0.26 (before, they are unknown).
pub fn running_line(version: Option<&str>, mode: Option<RestoreMode>, restart: bool) -> String {
    format!(
        "{NAME} {} · restore mode {}: {}",
        version.unwrap_or("(version unknown: before 0.25)"),
        mode.map_or("unknown (before 0.26)".to_string(), |m| format!("{m:?}")
            .to_lowercase()),
        what_brings_back(mode, restart)
    )
}

/// What brings each pane's conversation back after a restart in agterm's `mode` (pins fire only in
/// Re-run; in Fresh and Live agterm stores them for a later Re-run launch); `restart`: agterm has
/// `session.restart`.
pub fn what_brings_back(mode: Option<RestoreMode>, restart: bool) -> &'static str {
    match (mode, restart) {
        (Some(RestoreMode::Rerun), _) => {
            "agterm types each pane's pin itself at its launch; the shell line or `restore` brings back the panes without one"
        }
        (Some(RestoreMode::None), _) => {
            "pins are only stored (they fire in Re-run); each pane's shell line or `restore` brings its conversation back"
        }
        (Some(RestoreMode::Live), true) => {
            "pins are only stored; Live daemons keep agents across agterm's quit; after a reboot the shell line or `restore` types into denylisted panes, and `restore` restarts a replayed bare agent (session restart) into its pane's conversation"
        }
        (Some(RestoreMode::Live), false) => {
            "pins are only stored; Live daemons keep agents across agterm's quit; after a reboot the shell line or `restore` types into denylisted panes, and a replayed bare agent must be quit by hand before `restore` (this agterm has no session restart)"
        }
        (None, _) => "the pin fires only if agterm's \"restore running commands\" is on; otherwise the shell line or `restore`",
    }
}

/// agterm's warnings in `status`, in this order: its restore denylist lacks the agents (`denylist_ok`
/// is `Some(false)`: a reboot may replay one bare), a pin found agterm's "restore running commands"
/// setting off, and its instance runs in Live `mode` (pins never fire).
pub fn warnings(
    mode: Option<RestoreMode>,
    denylist_ok: Option<bool>,
    pin_outcomes: &[Option<PinOutcome>],
) -> Vec<String> {
    let mut w = Vec::new();
    if denylist_ok == Some(false) {
        w.push("agterm's restore-denylist.conf does not list claude and codex: after a reboot a bare agent may be replayed and start a new conversation (run `agterm-backup installer apply`)".into());
    }
    if pin_outcomes
        .iter()
        .flatten()
        .any(|o| *o == PinOutcome::SettingOff)
    {
        w.push("\"Restore running commands on restart\" is off in agterm, so pins will not run: turn it on (Settings ▸ General ▸ Sessions), or run `agterm-backup restore` after each restart".into());
    }
    if mode == Some(RestoreMode::Live) {
        w.push("agterm runs in Live mode: pins never fire; agents survive a quit, but after a reboot run `agterm-backup restore`".into());
    }
    w
}

/// The record `snap --harvest` starts from for an agterm pane: its session (upper-case) and role, its
/// pane and window tokens, agterm's name; the agent's fields empty. `None` for a session id no agterm
/// key can hold.
pub fn harvest_record(view: &PaneView) -> Option<LiveRecord> {
    let pane = AgtermPaneKey::new(&view.session_id, view.role)?;
    Some(LiveRecord {
        v: RECORD_VERSION,
        agent: String::new(),
        session_id: String::new(),
        agterm_session: pane.session,
        role: pane.role,
        pane_id: view.pane_id.clone(),
        transcript_path: None,
        agent_cwd: String::new(),
        hook_cwd: String::new(),
        flags: Vec::new(),
        agent_pid: None,
        event: String::new(),
        ts: String::new(),
        terminal: NAME.to_string(),
        source: None,
        window_id: view.window_id.clone(),
        workspace_id: None,
        pin: None,
        pinned_line: None,
        extra: Default::default(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use agterm_backup_core::pane::PaneRole;

    #[test]
    fn each_mode_says_what_brings_a_conversation_back() {
        assert!(what_brings_back(Some(RestoreMode::Rerun), false).contains("pin itself"));
        assert!(what_brings_back(None, false).contains("restore running commands"));
        let line = running_line(None, None, false);
        assert!(
            line.starts_with(
                "agterm (version unknown: before 0.25) · restore mode unknown (before 0.26): "
            ),
            "{line}"
        );
    }

    #[test]
    fn a_harvested_record_names_its_pane_by_its_upper_case_session() {
        let view: PaneView = serde_json::from_value(serde_json::json!({
            "session_id": "6b1e0c2a-aaaa-bbbb-cccc-0123456789ab", "role": "right", "pane_id": "P",
            "window_id": "W", "session_name": null, "cwd": null, "foreground": null,
            "realized": null, "pin": null, "live": null
        }))
        .unwrap();
        let rec = harvest_record(&view).unwrap();
        assert_eq!(rec.agterm_session, "6B1E0C2A-AAAA-BBBB-CCCC-0123456789AB");
        assert_eq!(
            (rec.role, rec.terminal.as_str()),
            (PaneRole::Right, "agterm")
        );
        assert_eq!(
            crate::key::record_key(&rec),
            crate::key::key(&view.session_id, PaneRole::Right)
        );
        let bad = PaneView {
            session_id: "../x".into(),
            ..view
        };
        assert_eq!(harvest_record(&bad), None);
    }
}
