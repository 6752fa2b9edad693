//! Which terminal's pane a hook event comes from, innermost first.
//!
//! A terminal multiplexer runs *inside* a terminal: an agent in a tmux pane of an agterm pane belongs to
//! the tmux pane (agterm would replay `tmux`, never the agent, and tmux's layout restorer brings the pane
//! back). So `$TMUX` + `$TMUX_PANE` win over `AGTERM_*`; the tmux server's environment may even carry
//! the `AGTERM_*` of whichever agterm pane started it, which names no pane of ours.

use crate::pane_env::{Env, PaneEnv};
use crate::skip::Skip;
use agterm_backup_core::pane::tmux::TmuxPane;
use agterm_backup_core::pane::PaneKey;
use agterm_backup_core::state::StateDir;
use agterm_backup_core::terminal::PaneView;
use agterm_backup_tmux::command::TmuxServer;
use agterm_backup_tmux::env::TmuxEnv;
use agterm_backup_tmux::name::NameCache;
use std::time::Duration;

/// How long the hook waits for tmux to tell a pane's name (once per pane and server, or per write).
pub const TMUX_BUDGET: Duration = Duration::from_millis(500);

/// The terminal pane named by the environment, before anything is asked of the terminal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FoundPane {
    Agterm(PaneEnv),
    Tmux(TmuxEnv),
}

/// Finds the innermost terminal pane of `env`, or says why this run is not one to record.
pub fn find(env: &Env) -> Result<FoundPane, Skip> {
    if env.get("TMUX").is_some_and(|t| !t.is_empty()) {
        // A tmux job or a malformed pane: the `AGTERM_*` beside it (if any) are the server's, not ours.
        return TmuxEnv::from_env(|k| env.get(k).cloned())
            .map(FoundPane::Tmux)
            .ok_or(Skip::NoTmuxPane);
    }
    PaneEnv::from_env(env).map(FoundPane::Agterm)
}

impl FoundPane {
    /// Whether `view` (a pane as the terminal lists it) is this pane: agterm's by its persistent pane
    /// id where both have one, else by session and role; tmux's by its `%N`, exact while its server runs.
    pub fn shows(&self, view: &PaneView) -> bool {
        match self {
            FoundPane::Agterm(p) => match (&p.pane_id, &view.pane_id) {
                (Some(mine), Some(theirs)) if view.tmux.is_none() => {
                    mine.eq_ignore_ascii_case(theirs)
                }
                _ => view.session_id.eq_ignore_ascii_case(&p.session) && view.role == p.role,
            },
            FoundPane::Tmux(t) => {
                view.tmux.is_some() && view.pane_id.as_deref() == Some(t.pane_id.as_str())
            }
        }
    }
}

/// The pane, with a tmux pane's name known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HookPane {
    Agterm(PaneEnv),
    Tmux { env: TmuxEnv, name: TmuxPane },
}

impl HookPane {
    pub fn key(&self) -> PaneKey {
        match self {
            HookPane::Agterm(p) => p.key(),
            HookPane::Tmux { name, .. } => PaneKey::tmux(name),
        }
    }

    pub fn tmux_name(&self) -> Option<&TmuxPane> {
        match self {
            HookPane::Agterm(_) => None,
            HookPane::Tmux { name, .. } => Some(name),
        }
    }
}

/// Resolves a found pane: a tmux pane's name from the cache in the state directory (asking the server
/// only when the cache has none for this pane and server). The error is for the log.
pub fn resolve(found: FoundPane, state: &StateDir) -> Result<HookPane, String> {
    match found {
        FoundPane::Agterm(p) => Ok(HookPane::Agterm(p)),
        FoundPane::Tmux(env) => {
            let cache = NameCache::new(state.root());
            if let Some(name) = cache.get(&env) {
                return Ok(HookPane::Tmux { env, name });
            }
            // The cache lives in the state directory, which must be ours (0700) before we write into it.
            state
                .ensure()
                .map_err(|e| format!("cannot create the state directory: {e}"))?;
            let server = TmuxServer::new(&env.socket, TMUX_BUDGET);
            cache
                .refresh(&server, &env)
                .map(|name| HookPane::Tmux { env, name })
                .map_err(|e| format!("tmux pane {}: {e}; nothing recorded", env_label(&server)))
        }
    }
}

/// Learns a tmux pane's name again (the hook is about to write: a renamed session or a moved pane is
/// caught here). Keeps the cached name when the server cannot answer.
pub fn refresh(pane: HookPane, state: &StateDir) -> HookPane {
    match pane {
        HookPane::Tmux { env, name } => {
            let server = TmuxServer::new(&env.socket, TMUX_BUDGET);
            match NameCache::new(state.root()).refresh(&server, &env) {
                Ok(fresh) => HookPane::Tmux { env, name: fresh },
                Err(_) => HookPane::Tmux { env, name },
            }
        }
        other => other,
    }
}

fn env_label(server: &TmuxServer) -> String {
    server.socket().display().to_string()
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

    const AGTERM: [(&str, &str); 2] = [
        ("AGTERM_SESSION_ID", "6b1e0c2a-aaaa-bbbb-cccc-0123456789ab"),
        ("AGTERM_PANE", "left"),
    ];

    #[test]
    fn tmux_inside_agterm_is_tmux() {
        let mut both = env(&AGTERM);
        both.insert("TMUX".into(), "/tmp/tmux-1/default,42,0".into());
        both.insert("TMUX_PANE".into(), "%3".into());
        assert!(matches!(find(&both), Ok(FoundPane::Tmux(t)) if t.pane_id == "%3"));
        assert!(matches!(find(&env(&AGTERM)), Ok(FoundPane::Agterm(_))));
    }

    #[test]
    fn tmux_without_a_pane_is_nothing_even_with_agterm_beside_it() {
        let mut job = env(&AGTERM);
        job.insert("TMUX".into(), "/tmp/tmux-1/default,42,0".into());
        assert_eq!(find(&job), Err(Skip::NoTmuxPane));
        job.insert("TMUX_PANE".into(), "3".into());
        assert_eq!(find(&job), Err(Skip::NoTmuxPane));
        assert_eq!(find(&env(&[])), Err(Skip::NotInAgterm));
    }
}
