//! Which terminal's pane a process runs in, innermost first: the hook's "which pane am I" and
//! `shell-start`'s. Each terminal's crate reads its own variables (its row's `found`, an
//! [`EnvPane`]); this file is the one rule over the rows'
//! answers, so a consumer matches no terminal by name.
//!
//! A terminal multiplexer runs *inside* a terminal: an agent in a multiplexer's pane of a terminal's pane
//! belongs to the multiplexer's pane (the terminal would replay the multiplexer, never the agent, and the
//! multiplexer's own restorer brings the pane back). So a row with a [`Row::multiplexer`] program that
//! answers wins over a row without one; the terminal's variables beside a multiplexer's may even be
//! those of whichever pane started its server, which name no pane of ours. A multiplexer's answer that
//! names no pane of it (a server's job) is the answer: nothing is recorded.
//!
//! Multiplexers nest either way, and then several sets are in the environment (a server started in
//! another's pane passes its variables on). Only then is the process tree asked (a few `/proc` reads, no
//! program run): the nearest ancestor running one of their programs is the innermost. With none found,
//! the first such row.
//!
//! **Proven, not assumed.** The environment is inherited: an editor started from a pane, a second
//! terminal app, `screen` inside a pane all carry the pane's variables. The hook takes the environment's
//! word (it runs on every event and must stay cheap; an agent's record names the conversation either
//! way), but a shell about to *run* a pane's conversation first proves it is that pane
//! ([`FoundPane::is_own`]), by its terminal's own rule (the pane's tty, or, for a terminal that reports
//! none, the environment only its surfaces set).

use crate::{Row, Scope, ROWS};
use agterm_backup_core::found_pane::EnvPane;
pub use agterm_backup_core::found_pane::{
    nested_in_another_terminal, EnvVars as Env, NoPane, RecordPane,
};
use agterm_backup_core::pane::{PaneKey, TerminalName};
use agterm_backup_core::process::{ancestors, ProcessSource};
use agterm_backup_core::state::StateDir;
use agterm_backup_core::terminal::PaneView;
use std::any::Any;

/// The terminal pane named by the environment, before anything is asked of the terminal.
#[derive(Debug)]
pub struct FoundPane {
    terminal: TerminalName,
    pane: Box<dyn EnvPane>,
}

impl Clone for FoundPane {
    fn clone(&self) -> FoundPane {
        FoundPane {
            terminal: self.terminal,
            pane: (*self.pane).clone_box(),
        }
    }
}

impl PartialEq for FoundPane {
    fn eq(&self, other: &FoundPane) -> bool {
        self.terminal == other.terminal && (*self.pane).eq_dyn((*other.pane).as_any())
    }
}

impl Eq for FoundPane {}

/// One row's answer: its pane, or why none.
type Answer = Result<Box<dyn EnvPane>, NoPane>;

/// Finds the innermost terminal pane of `env`, or says why this run is not one to record. `src` and
/// `start` (the hook's parent) are read only when several multiplexers answer.
pub fn find(env: &Env, src: &dyn ProcessSource, start: u32) -> Result<FoundPane, NoPane> {
    let mut answers: Vec<(&Row, Answer)> = ROWS
        .iter()
        .filter_map(|r| (r.found)(env).map(|a| (r, a)))
        .collect();
    let shapes: Vec<(Option<&'static str>, bool)> = answers
        .iter()
        .map(|(r, a)| (r.multiplexer, a.is_ok()))
        .collect();
    let Some(i) = choose(&shapes, |several| {
        innermost(src, start, several).unwrap_or(several[0])
    }) else {
        return Err(NoPane {
            terminal: ROWS[0].name,
            why: "in no terminal's pane".into(),
            worth_logging: false,
        });
    };
    let (row, answer) = answers.swap_remove(i);
    answer.map(|pane| FoundPane {
        terminal: row.name,
        pane,
    })
}

/// Which answer wins, from each answering row's `multiplexer` program and whether it found a pane (in
/// the rows' order): a multiplexer's answer before a terminal's (its panes run inside one); between
/// several multiplexers, the one `innermost` names (the nearest ancestor running one); between
/// terminals, the first that found a pane, else the first one's reason (a terminal that answers
/// always, with "not in it", must not hide another terminal's pane).
fn choose(
    answers: &[(Option<&'static str>, bool)],
    innermost: impl FnOnce(&[&'static str]) -> &'static str,
) -> Option<usize> {
    let multiplexers: Vec<&'static str> = answers.iter().filter_map(|(m, _)| *m).collect();
    match multiplexers.as_slice() {
        [] => answers
            .iter()
            .position(|(_, found)| *found)
            .or((!answers.is_empty()).then_some(0)),
        [_] => answers.iter().position(|(m, _)| m.is_some()),
        several => {
            let program = innermost(several);
            answers.iter().position(|(m, _)| *m == Some(program))
        }
    }
}

/// Of `programs`, the one the nearest ancestor of `start` (itself included) runs: its program's name,
/// the first word of its argv without the folder and a trailing `:` (a server's `<program>: server
/// (…)` title).
fn innermost(
    src: &dyn ProcessSource,
    start: u32,
    programs: &[&'static str],
) -> Option<&'static str> {
    ancestors(src, start).find_map(|pid| {
        let argv = src.argv(pid).unwrap_or_default();
        let program = argv
            .first()
            .and_then(|a0| a0.split_whitespace().next())
            .map(|w| w.rsplit('/').next().unwrap_or(w).trim_end_matches(':'))?;
        programs.iter().copied().find(|p| *p == program)
    })
}

impl FoundPane {
    /// The terminal this pane is of.
    pub fn terminal(&self) -> TerminalName {
        self.terminal
    }

    /// The pane in its terminal's own type, for the code that speaks that terminal's language.
    pub fn own<T: Any>(&self) -> Option<&T> {
        (*self.pane).as_any().downcast_ref()
    }

    /// Whether `view` (a pane as the terminal lists it) is this pane, by its terminal's rule.
    pub fn shows(&self, view: &PaneView) -> bool {
        self.pane.shows(view)
    }

    /// The registry's scope of this pane, and the pane's name within it.
    pub fn place(&self) -> (Scope, String) {
        self.pane.place()
    }

    /// Whether a process on the terminal device `own_tty` (its controlling tty, else its stdin's:
    /// [`own_terminal`](agterm_backup_core::pane::tty::own_terminal)) is this pane's own shell, not one
    /// that inherited the pane's environment; `false` when either side is unknown. `ancestry` (the
    /// controlling terminal of each ancestor of the asking process, nearest first) is read only by a
    /// terminal that reports no tty.
    pub fn is_own(
        &self,
        env: &Env,
        own_tty: Option<u64>,
        ancestry: impl FnOnce() -> Vec<Option<u64>>,
    ) -> bool {
        let mut once = Some(ancestry);
        let mut ancestry = || once.take().map(|f| f()).unwrap_or_default();
        self.pane.is_own(env, own_tty, &mut ancestry)
    }

    /// The key of this pane's record files and its scope, as cheaply as its terminal can say it (from
    /// the state directory alone where the environment says it). `None`: nothing this pane could have
    /// recorded, or its terminal cannot say.
    pub fn recorded_key(&self, state: &StateDir) -> Option<(PaneKey, Scope)> {
        let key = self.pane.recorded_key(state)?;
        Some((key, self.place().0))
    }
}

/// The pane, resolved for the hook's record.
#[derive(Debug)]
pub struct HookPane {
    terminal: TerminalName,
    pane: Box<dyn RecordPane>,
}

impl Clone for HookPane {
    fn clone(&self) -> HookPane {
        HookPane {
            terminal: self.terminal,
            pane: (*self.pane).clone_box(),
        }
    }
}

impl PartialEq for HookPane {
    fn eq(&self, other: &HookPane) -> bool {
        self.terminal == other.terminal && (*self.pane).eq_dyn((*other.pane).as_any())
    }
}

impl Eq for HookPane {}

impl HookPane {
    /// The terminal this pane is of.
    pub fn terminal(&self) -> TerminalName {
        self.terminal
    }

    /// The pane in its terminal's own type, for the code that speaks that terminal's language.
    pub fn own<T: Any>(&self) -> Option<&T> {
        (*self.pane).as_any().downcast_ref()
    }

    pub fn key(&self) -> PaneKey {
        self.pane.key()
    }

    /// The pane as its terminal stamps the hook's record ([`RecordPane::stamp`]).
    pub fn record_pane(&self) -> &dyn RecordPane {
        &*self.pane
    }
}

/// Resolves a found pane by its terminal's rule (a pane whose name its terminal must tell is asked
/// once, then read from a cache in the state directory). The error is for the log.
pub fn resolve(found: FoundPane, state: &StateDir) -> Result<HookPane, String> {
    let pane = found.pane.resolve(state)?;
    Ok(HookPane {
        terminal: found.terminal,
        pane,
    })
}

/// Learns a pane's name again right before the hook writes (a renamed session or a moved pane is
/// caught here); keeps it when its terminal cannot answer or has nothing to learn.
pub fn refresh(pane: HookPane, state: &StateDir) -> HookPane {
    match pane.pane.refresh(state) {
        Some(fresh) => HookPane {
            terminal: pane.terminal,
            pane: fresh,
        },
        None => pane,
    }
}

#[cfg(test)]
#[path = "pane_tests.rs"]
mod tests;
