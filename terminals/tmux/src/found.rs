//! tmux's row's `found`: the tmux pane the environment names ([`TmuxEnv`]: `$TMUX` and `$TMUX_PANE`),
//! proven a shell's own by its tty, and resolved for the hook's record with its name ([`HookTmuxPane`]:
//! session, window and pane index, learnt once per pane and server and cached in the state directory).

use crate::command::TmuxServer;
use crate::env::TmuxEnv;
use crate::name::NameCache;
use crate::pane::{TmuxPane, TmuxPart};
use agterm_backup_core::found_pane::{EnvPane, EnvVars, Found, NoPane, RecordPane};
use agterm_backup_core::own_pane::{KeepsOwnPane, OwnPane};
use agterm_backup_core::pane::PaneKey;
use agterm_backup_core::record::LiveRecord;
use agterm_backup_core::scope::Scope;
use agterm_backup_core::state::StateDir;
use agterm_backup_core::terminal::PaneView;
use std::time::Duration;

/// How long the hook waits for tmux to tell a pane's name (once per pane and server, or per write).
pub const TMUX_BUDGET: Duration = Duration::from_millis(500);

/// The server's program among a pane's process's ancestors (`tmux`, or the `tmux: server (…)` title
/// it sets): what tells which multiplexer is innermost when several name a pane.
pub const PROGRAM: &str = "tmux";

/// The tmux pane of `env`: `None` outside tmux (no `$TMUX`); inside it but in no pane of it (a
/// `run-shell` job, a hook job) or a malformed one, why not: the `AGTERM_*` beside it (if any) are the
/// server's, not ours.
pub fn found(env: &EnvVars) -> Found {
    env.get("TMUX").filter(|t| !t.is_empty())?;
    Some(
        TmuxEnv::from_env(|k| env.get(k).cloned())
            .map(|t| Box::new(t) as Box<dyn EnvPane>)
            .ok_or_else(|| NoPane {
                terminal: crate::pane::NAME,
                why: "inside tmux but not in a pane ($TMUX_PANE unset or malformed)".into(),
                worth_logging: false,
            }),
    )
}

/// A tmux pane with its name known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HookTmuxPane {
    pub env: TmuxEnv,
    pub name: TmuxPane,
}

impl EnvPane for TmuxEnv {
    /// By its `%N`, exact while its server runs.
    fn shows(&self, view: &PaneView) -> bool {
        view.tmux().is_some() && view.pane_id.as_deref() == Some(self.pane_id.as_str())
    }

    fn place(&self) -> (Scope, String) {
        (
            crate::scope::server(self.socket.clone()),
            self.pane_id.clone(),
        )
    }

    /// Its controlling terminal is the pane's `#{pane_tty}` (one short question to the server).
    fn is_own(
        &self,
        _env: &EnvVars,
        own_tty: Option<u64>,
        _ancestry: &mut dyn FnMut() -> Vec<Option<u64>>,
    ) -> bool {
        let (scope, pane) = self.place();
        own_tty.is_some() && crate::scope::tty(&scope, &pane, TMUX_BUDGET) == own_tty
    }

    /// The pane's name takes a question to its server (a restored pane has a new `%N`), asked only
    /// when some tmux pane was ever captured.
    fn recorded_key(&self, state: &StateDir) -> Option<PaneKey> {
        if state.pane_keys(&TmuxPane::parse_key).is_empty() {
            return None;
        }
        Some(self.resolve(state).ok()?.key())
    }

    /// The name from the cache in the state directory, asking the server only when the cache has none
    /// for this pane and server.
    fn resolve(&self, state: &StateDir) -> Result<Box<dyn RecordPane>, String> {
        let env = self.clone();
        let cache = NameCache::new(state.root());
        if let Some(name) = cache.get(&env) {
            return Ok(Box::new(HookTmuxPane { env, name }));
        }
        // The cache lives in the state directory, which must be ours (0700) before we write into it.
        state
            .ensure()
            .map_err(|e| format!("cannot create the state directory: {e}"))?;
        let server = TmuxServer::new(&env.socket, TMUX_BUDGET);
        cache
            .refresh(&server, &env)
            .map(|name| Box::new(HookTmuxPane { env, name }) as Box<dyn RecordPane>)
            .map_err(|e| {
                let at = server.socket().display();
                format!("tmux pane {at}: {e}; nothing recorded")
            })
    }
}

impl RecordPane for HookTmuxPane {
    fn key(&self) -> PaneKey {
        self.name.key()
    }

    /// The pane's name under `tmux` in the record.
    fn stamp(&self, record: &mut LiveRecord) {
        record.set_own_pane(&self.name);
    }

    /// Learns the name again (a renamed session or a moved pane is caught here); the cached name
    /// stands when the server cannot answer.
    fn refresh(&self, state: &StateDir) -> Option<Box<dyn RecordPane>> {
        let server = TmuxServer::new(&self.env.socket, TMUX_BUDGET);
        let fresh = NameCache::new(state.root())
            .refresh(&server, &self.env)
            .ok()?;
        Some(Box::new(HookTmuxPane {
            env: self.env.clone(),
            name: fresh,
        }))
    }
}
