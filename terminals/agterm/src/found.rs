//! agterm's row's `found`: the agterm pane the environment names ([`PaneEnv`]), how a shell proves it
//! is that pane's own, and the pane as the hook's record keeps it (it stamps the record's own fields).

use crate::pane_env::{NotAPane, PaneEnv};
use agterm_backup_core::found_pane::{
    clip, nested_in_another_terminal, EnvPane, EnvVars, Found, NoPane, RecordPane,
};
use agterm_backup_core::pane::PaneKey;
use agterm_backup_core::record::LiveRecord;
use agterm_backup_core::scope::Scope;
use agterm_backup_core::state::StateDir;
use agterm_backup_core::terminal::PaneView;

/// The agterm pane of `env`, or why it names none; agterm answers always (with no variables of it:
/// not in agterm), after every multiplexer.
pub fn found(env: &EnvVars) -> Found {
    Some(
        PaneEnv::from_env(env)
            .map(|p| Box::new(p) as Box<dyn EnvPane>)
            .map_err(NoPane::from),
    )
}

impl From<NotAPane> for NoPane {
    fn from(why: NotAPane) -> NoPane {
        let worth_logging = matches!(why, NotAPane::UnknownPane(_) | NotAPane::BadSession(_));
        let why = match why {
            NotAPane::NotInAgterm => "not in agterm (no AGTERM_SESSION_ID)".to_string(),
            NotAPane::Overlay => "overlay (no AGTERM_PANE)".to_string(),
            NotAPane::Scratch => "scratch pane".to_string(),
            NotAPane::UnknownPane(p) => {
                format!("AGTERM_PANE={} is not left or right; nothing recorded", clip(&p))
            }
            NotAPane::BadSession(s) => format!(
                "AGTERM_SESSION_ID={} is not an agterm session id (hex and dashes); nothing recorded",
                clip(&s)
            ),
        };
        NoPane {
            terminal: crate::key::NAME,
            why,
            worth_logging,
        }
    }
}

impl EnvPane for PaneEnv {
    /// By its persistent pane id where both have one (a view of agterm's own, no other terminal's
    /// pane), else by session and role.
    fn shows(&self, view: &PaneView) -> bool {
        match (&self.pane_id, &view.pane_id) {
            (Some(mine), Some(theirs)) if !view.has_terminal_pane() => {
                mine.eq_ignore_ascii_case(theirs)
            }
            _ => view.session_id.eq_ignore_ascii_case(&self.session) && view.role == self.role,
        }
    }

    fn place(&self) -> (Scope, String) {
        (crate::scope::the_instance(), self.session.clone())
    }

    /// agterm reports no tty, so the proof is the environment agterm's surfaces set and nothing else
    /// does: no other terminal's `TERM_PROGRAM`, no `screen` (`STY`) around the shell, and no terminal
    /// started inside the pane among the asking process's ancestors.
    fn is_own(
        &self,
        env: &EnvVars,
        own_tty: Option<u64>,
        ancestry: &mut dyn FnMut() -> Vec<Option<u64>>,
    ) -> bool {
        let other_terminal = env
            .get("TERM_PROGRAM")
            .is_some_and(|t| !t.is_empty() && t != "agterm");
        let in_screen = env.get("STY").is_some_and(|s| !s.is_empty());
        !other_terminal && !in_screen && !nested_in_another_terminal(own_tty, &ancestry())
    }

    fn recorded_key(&self, _state: &StateDir) -> Option<PaneKey> {
        Some(self.key())
    }

    fn resolve(&self, _state: &StateDir) -> Result<Box<dyn RecordPane>, String> {
        Ok(Box::new(self.clone()))
    }
}

impl RecordPane for PaneEnv {
    fn key(&self) -> PaneKey {
        PaneEnv::key(self)
    }

    /// agterm's panes are named by the record's own fields (on disk since the first release, before
    /// records said their `terminal`; the registry's first row): the session upper-case, the role, and
    /// agterm's pane, window and workspace tokens where it gives them.
    fn stamp(&self, record: &mut LiveRecord) {
        record.terminal = crate::key::NAME.as_str().to_string();
        record.agterm_session.clone_from(&self.session);
        record.role = self.role;
        record.pane_id.clone_from(&self.pane_id);
        record.window_id.clone_from(&self.window_id);
        record.workspace_id.clone_from(&self.workspace_id);
    }
}
