//! The agterm pane a process runs in, from agterm's environment variables (`research/agterm.md` §3):
//! what the hook records and `shell-start` resumes for an agterm pane.

use crate::key::AgtermPaneKey;
use agterm_backup_core::pane::{PaneKey, PaneRole};
use std::collections::HashMap;

/// The hook's environment as plain data.
pub type Env = HashMap<String, String>;

/// Why the environment names no agterm pane worth recording.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotAPane {
    /// No `AGTERM_SESSION_ID`: not running inside agterm.
    NotInAgterm,
    /// A session id but no `AGTERM_PANE`: an overlay.
    Overlay,
    /// A scratch pane (never restored).
    Scratch,
    /// `AGTERM_PANE` is neither left nor right (nor an alias).
    UnknownPane(String),
    /// `AGTERM_SESSION_ID` is not agterm-shaped (could not be a file name in `live/`).
    BadSession(String),
}

/// The agterm pane the hook runs in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PaneEnv {
    /// `AGTERM_SESSION_ID`, upper-case.
    pub session: String,
    pub role: PaneRole,
    /// `AGTERM_PANE` as agterm spelled it (sent back to agterm when pinning).
    pub pane: String,
    pub pane_id: Option<String>,
    pub window_id: Option<String>,
    pub workspace_id: Option<String>,
    pub socket: Option<String>,
}

/// Whether environment variable `name` is one of agterm's pane variables (every `AGTERM_*`): those a
/// Codex daemon's hook takes from the TUI it runs for instead of its own.
pub fn is_pane_var(name: &str) -> bool {
    name.starts_with("AGTERM_")
}

fn non_empty<'a>(env: &'a Env, key: &str) -> Option<&'a str> {
    env.get(key).map(|v| v.trim()).filter(|v| !v.is_empty())
}

impl PaneEnv {
    /// Reads the pane identity, or says why this hook run is not one to record.
    pub fn from_env(env: &Env) -> Result<PaneEnv, NotAPane> {
        let session = non_empty(env, "AGTERM_SESSION_ID").ok_or(NotAPane::NotInAgterm)?;
        // Overlays carry a session id but no pane role; scratch panes are never restored.
        let pane = non_empty(env, "AGTERM_PANE").ok_or(NotAPane::Overlay)?;
        if pane == "scratch" {
            return Err(NotAPane::Scratch);
        }
        let role: PaneRole = pane
            .parse()
            .map_err(|_| NotAPane::UnknownPane(pane.to_string()))?;
        let session = session.to_ascii_uppercase();
        if AgtermPaneKey::new(&session, role).is_none() {
            return Err(NotAPane::BadSession(session));
        }
        let owned = |k: &str| non_empty(env, k).map(String::from);
        Ok(PaneEnv {
            session,
            role,
            pane: pane.to_string(),
            pane_id: owned("AGTERM_PANE_ID"),
            window_id: owned("AGTERM_WINDOW_ID"),
            workspace_id: owned("AGTERM_WORKSPACE_ID"),
            socket: owned("AGTERM_SOCKET"),
        })
    }

    pub fn key(&self) -> PaneKey {
        crate::key::key(&self.session, self.role).expect("checked in from_env")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(pairs: &[(&str, &str)]) -> Env {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    const SID: &str = "6b1e0c2a-aaaa-bbbb-cccc-0123456789ab";

    #[test]
    fn reads_a_pane_and_upper_cases_the_session() {
        let p = PaneEnv::from_env(&env(&[
            ("AGTERM_SESSION_ID", SID),
            ("AGTERM_PANE", "right"),
            ("AGTERM_PANE_ID", "P1"),
            ("AGTERM_SOCKET", "/s.sock"),
        ]))
        .unwrap();
        assert_eq!(p.session, SID.to_ascii_uppercase());
        assert_eq!(p.role, PaneRole::Right);
        assert_eq!(
            p.key().to_string(),
            format!("{}-right", SID.to_ascii_uppercase())
        );
        assert_eq!((p.pane_id.as_deref(), p.window_id), (Some("P1"), None));
    }

    #[test]
    fn skips_outside_agterm_overlays_scratch_and_junk() {
        assert_eq!(PaneEnv::from_env(&env(&[])), Err(NotAPane::NotInAgterm));
        assert_eq!(
            PaneEnv::from_env(&env(&[("AGTERM_SESSION_ID", "")])),
            Err(NotAPane::NotInAgterm)
        );
        assert_eq!(
            PaneEnv::from_env(&env(&[("AGTERM_SESSION_ID", SID)])),
            Err(NotAPane::Overlay)
        );
        let scratch = env(&[("AGTERM_SESSION_ID", SID), ("AGTERM_PANE", "scratch")]);
        assert_eq!(PaneEnv::from_env(&scratch), Err(NotAPane::Scratch));
        let odd = env(&[("AGTERM_SESSION_ID", SID), ("AGTERM_PANE", "middle")]);
        assert!(matches!(
            PaneEnv::from_env(&odd),
            Err(NotAPane::UnknownPane(_))
        ));
        let evil = env(&[("AGTERM_SESSION_ID", "../../x"), ("AGTERM_PANE", "left")]);
        assert!(matches!(
            PaneEnv::from_env(&evil),
            Err(NotAPane::BadSession(_))
        ));
    }
}
