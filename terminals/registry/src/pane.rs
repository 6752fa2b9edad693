//! Which terminal's pane a process runs in, innermost first: the hook's "which pane am I" and
//! `shell-start`'s. Each terminal's own reading of the environment stays in its folder (agterm's
//! [`PaneEnv`], tmux's [`TmuxEnv`], zmx's [`ZmxEnv`]); this file is where they meet, so a consumer
//! matches no terminal by name.
//!
//! A terminal multiplexer runs *inside* a terminal: an agent in a tmux pane of an agterm pane belongs to
//! the tmux pane (agterm would replay `tmux`, never the agent, and tmux's layout restorer brings the pane
//! back). So `$TMUX` + `$TMUX_PANE` win over `AGTERM_*`; the tmux server's environment may even carry
//! the `AGTERM_*` of whichever agterm pane started it, which names no pane of ours.
//!
//! A standalone zmx session (`$ZMX_SESSION` set, not one of agterm's `agterm-<hex>` Live daemons) wins
//! over `AGTERM_*` the same way. An agterm Live pane stays agterm's: its client sets `ZMX_SESSION`
//! empty, and inside its daemon the name is agterm's.
//!
//! tmux and zmx nest either way, and then both sets are in the environment: a tmux server started in a
//! zmx session passes `ZMX_SESSION` on to its panes, a zmx daemon created from a tmux pane keeps
//! `TMUX`/`TMUX_PANE`. Only then is the process tree asked (a few `/proc` reads, no program run): the
//! nearest ancestor that is a zmx daemon or a tmux server is the innermost. With neither found, tmux.
//!
//! **Proven, not assumed.** The environment is inherited: VS Code started from a pane, a second terminal
//! app, `screen` inside a pane all carry the pane's variables. The hook takes the environment's word (it
//! runs on every event and must stay cheap; an agent's record names the conversation either way), but a
//! shell about to *run* a pane's conversation first proves it is that pane ([`FoundPane::is_own`]): its
//! controlling terminal is the pane's tty (tmux's `#{pane_tty}`, the pty of the zmx session's first
//! process). agterm reports no tty, so there the proof is the environment agterm's surfaces set and
//! nothing else does: no other terminal's `TERM_PROGRAM`, no `screen` (`STY`) around the shell.

use crate::agterm::pane_env::{Env, NotAPane, PaneEnv};
use crate::tmux::command::TmuxServer;
use crate::tmux::env::TmuxEnv;
use crate::tmux::name::NameCache;
use crate::tmux::pane::{TmuxPane, TmuxPart};
use crate::zmx::env::ZmxEnv;
use crate::zmx::session::{ZmxPart, ZmxSession};
use crate::Scope;
use agterm_backup_core::own_pane::OwnPane;
use agterm_backup_core::pane::{PaneKey, TerminalPane};
use agterm_backup_core::process::{ancestors, ProcessSource};
use agterm_backup_core::state::StateDir;
use agterm_backup_core::terminal::PaneView;
use std::time::Duration;

/// How long the hook waits for tmux to tell a pane's name (once per pane and server, or per write).
pub const TMUX_BUDGET: Duration = Duration::from_millis(500);

/// The terminal pane named by the environment, before anything is asked of the terminal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FoundPane {
    Agterm(PaneEnv),
    Tmux(TmuxEnv),
    Zmx(ZmxEnv),
}

/// Why the environment names no pane worth recording.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NoPane {
    /// No multiplexer, and agterm's variables name no pane of it.
    Agterm(NotAPane),
    /// Inside tmux (`$TMUX`) but not in one of its panes (`run-shell`, a hook job) or a malformed one.
    NoTmuxPane,
}

/// A terminal multiplexer among the hook's ancestors.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Multiplexer {
    Tmux,
    Zmx,
}

/// Finds the innermost terminal pane of `env`, or says why this run is not one to record. `src` and
/// `start` (the hook's parent) are read only when both tmux and zmx are in the environment.
pub fn find(env: &Env, src: &dyn ProcessSource, start: u32) -> Result<FoundPane, NoPane> {
    // SAFETY: getuid has no preconditions and cannot fail.
    let uid = unsafe { libc::getuid() };
    let zmx = ZmxEnv::from_env(|k| env.get(k).cloned(), uid);
    let tmux = env.get("TMUX").is_some_and(|t| !t.is_empty());
    if let Some(zmx) = zmx {
        if !tmux || innermost(src, start) == Some(Multiplexer::Zmx) {
            return Ok(FoundPane::Zmx(zmx));
        }
    }
    if tmux {
        // A tmux job or a malformed pane: the `AGTERM_*` beside it (if any) are the server's, not ours.
        return TmuxEnv::from_env(|k| env.get(k).cloned())
            .map(FoundPane::Tmux)
            .ok_or(NoPane::NoTmuxPane);
    }
    PaneEnv::from_env(env)
        .map(FoundPane::Agterm)
        .map_err(NoPane::Agterm)
}

impl FoundPane {
    /// Whether `view` (a pane as the terminal lists it) is this pane: agterm's by its persistent pane
    /// id where both have one, else by session and role; tmux's by its `%N`, exact while its server runs;
    /// a zmx session's by its socket directory and name.
    pub fn shows(&self, view: &PaneView) -> bool {
        match self {
            FoundPane::Agterm(p) => match (&p.pane_id, &view.pane_id) {
                (Some(mine), Some(theirs)) if view.tmux().is_none() => {
                    mine.eq_ignore_ascii_case(theirs)
                }
                _ => view.session_id.eq_ignore_ascii_case(&p.session) && view.role == p.role,
            },
            FoundPane::Tmux(t) => {
                view.tmux().is_some() && view.pane_id.as_deref() == Some(t.pane_id.as_str())
            }
            FoundPane::Zmx(z) => view
                .zmx()
                .is_some_and(|s| s.socket_dir == z.socket_dir && s.name == z.name),
        }
    }
}

impl FoundPane {
    /// The registry's scope of this pane, and the pane's name within it (a tmux `%N`, a zmx session
    /// name, agterm's session id).
    pub fn place(&self) -> (Scope, String) {
        match self {
            FoundPane::Agterm(p) => (crate::agterm::scope::the_instance(), p.session.clone()),
            FoundPane::Tmux(t) => (
                crate::tmux::scope::server(t.socket.clone()),
                t.pane_id.clone(),
            ),
            FoundPane::Zmx(z) => (
                crate::zmx::scope::socket_dir_scope(z.socket_dir.clone()),
                z.name.clone(),
            ),
        }
    }

    /// Whether a process on the terminal device `own_tty` (its controlling tty, else its stdin's:
    /// [`own_terminal`](agterm_backup_core::pane::tty::own_terminal)) is this pane's own shell, not one
    /// that inherited the pane's environment. Asks tmux or zmx for the pane's tty (one short command);
    /// `false` when either side is unknown. agterm names no tty: `ancestry` (the controlling terminal of
    /// each ancestor of the asking process, nearest first) is read then, and only then.
    pub fn is_own(
        &self,
        env: &Env,
        own_tty: Option<u64>,
        ancestry: impl FnOnce() -> Vec<Option<u64>>,
    ) -> bool {
        match self {
            FoundPane::Agterm(_) => {
                let other_terminal = env
                    .get("TERM_PROGRAM")
                    .is_some_and(|t| !t.is_empty() && t != "agterm");
                let in_screen = env.get("STY").is_some_and(|s| !s.is_empty());
                !other_terminal && !in_screen && !nested_in_another_terminal(own_tty, &ancestry())
            }
            FoundPane::Tmux(_) | FoundPane::Zmx(_) => {
                let (scope, pane) = self.place();
                own_tty.is_some() && crate::pane_tty(&scope, &pane, TMUX_BUDGET) == own_tty
            }
        }
    }
}

impl FoundPane {
    /// The key of this pane's record files and its scope, from the state directory alone where the
    /// environment says it (agterm's session and role, a zmx session); a tmux pane's name takes a
    /// question to its server (a restored pane has a new `%N`), asked only when some tmux pane was
    /// ever captured. `None`: nothing this pane could have recorded, or tmux cannot say.
    pub fn recorded_key(&self, state: &StateDir) -> Option<(PaneKey, Scope)> {
        let (scope, _) = self.place();
        let key = match self {
            FoundPane::Agterm(p) => p.key(),
            FoundPane::Zmx(z) => z.session().key(),
            FoundPane::Tmux(_) => {
                let any = crate::pane_keys(state)
                    .iter()
                    .any(|k| k.terminal() == crate::tmux::pane::NAME);
                if !any {
                    return None;
                }
                resolve(self.clone(), state).ok()?.key()
            }
        };
        Some((key, scope))
    }
}

/// Whether a process on `own` runs in a terminal started inside a pane (`script`, a second terminal
/// app, `ssh -t` to this machine): walking up its ancestors (`ancestry`, nearest first), one on another
/// terminal comes before one on none. A pane's own shell reaches a process with no terminal first (agterm
/// itself, a login's parent, a multiplexer's server) with every process on the way on its own terminal.
pub fn nested_in_another_terminal(own: Option<u64>, ancestry: &[Option<u64>]) -> bool {
    for tty in ancestry {
        match tty {
            None => return false,
            Some(t) if Some(*t) != own => return true,
            Some(_) => {}
        }
    }
    false
}

/// The nearest ancestor of `start` (itself included) that is a zmx daemon (a fork of `zmx attach` or
/// `zmx run`, its argv unchanged) or a tmux server (`tmux`, or the `tmux: server (…)` title it sets).
fn innermost(src: &dyn ProcessSource, start: u32) -> Option<Multiplexer> {
    for pid in ancestors(src, start) {
        let argv = src.argv(pid).unwrap_or_default();
        let program = argv
            .first()
            .and_then(|a0| a0.split_whitespace().next())
            .map(|w| w.rsplit('/').next().unwrap_or(w).trim_end_matches(':'));
        match program {
            Some("tmux") => return Some(Multiplexer::Tmux),
            Some("zmx") => return Some(Multiplexer::Zmx),
            _ => {}
        }
    }
    None
}

/// The pane, with a tmux pane's name known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HookPane {
    Agterm(PaneEnv),
    Tmux { env: TmuxEnv, name: TmuxPane },
    Zmx(ZmxSession),
}

impl HookPane {
    pub fn key(&self) -> PaneKey {
        match self {
            HookPane::Agterm(p) => p.key(),
            HookPane::Tmux { name, .. } => name.key(),
            HookPane::Zmx(session) => session.key(),
        }
    }

    /// The pane in its own terminal's words, for its record; `None` for a pane the record's own
    /// fields name (agterm's).
    pub fn terminal_pane(&self) -> Option<TerminalPane> {
        match self {
            HookPane::Tmux { name, .. } => Some(name.terminal_pane()),
            HookPane::Zmx(session) => Some(session.terminal_pane()),
            HookPane::Agterm(_) => None,
        }
    }
}

/// Resolves a found pane: a tmux pane's name from the cache in the state directory (asking the server
/// only when the cache has none for this pane and server), a zmx session's start from its socket. The
/// error is for the log.
pub fn resolve(found: FoundPane, state: &StateDir) -> Result<HookPane, String> {
    match found {
        FoundPane::Agterm(p) => Ok(HookPane::Agterm(p)),
        FoundPane::Zmx(env) => Ok(HookPane::Zmx(env.session())),
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
#[path = "pane_tests.rs"]
mod tests;
