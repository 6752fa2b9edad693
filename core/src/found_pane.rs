//! The pane a process runs in, as each terminal's crate reads it from the environment ([`EnvPane`]) and
//! as the hook's record keeps it once resolved ([`RecordPane`], which stamps the record); why the
//! environment names none ([`NoPane`]). The registry asks each terminal's row for its answer and
//! decides which pane is innermost; here only the shapes of the answers live, naming no terminal.

use crate::pane::{PaneKey, TerminalName};
use crate::record::LiveRecord;
use crate::scope::Scope;
use crate::state::StateDir;
use crate::terminal::PaneView;
use std::any::Any;
use std::collections::HashMap;
use std::fmt::Debug;

/// A process's environment as plain data.
pub type EnvVars = HashMap<String, String>;

/// One terminal's answer to "which of your panes does this environment name": `None` when its
/// variables are not there at all.
pub type Found = Option<Result<Box<dyn EnvPane>, NoPane>>;

/// Why the environment names no pane of a terminal worth recording, in that terminal's words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NoPane {
    pub terminal: TerminalName,
    /// For the log: what is missing or wrong (values clipped; never the raw environment).
    pub why: String,
    /// A misconfiguration or a bad value someone may want to look into; normal operation otherwise.
    pub worth_logging: bool,
}

/// A pane named by the environment, before anything is asked of its terminal.
pub trait EnvPane: DynEnvPane + Debug + Send + Sync {
    /// Whether `view` (a pane as the terminal lists it) is this pane.
    fn shows(&self, view: &PaneView) -> bool;

    /// The instance this pane is of, and the pane's name within it (what the terminal's `tty` takes).
    fn place(&self) -> (Scope, String);

    /// Whether a process on the terminal device `own_tty` is this pane's own shell, not one that
    /// inherited the pane's environment. `ancestry` (the controlling terminal of each ancestor of the
    /// asking process, nearest first) is read only by a terminal that reports no tty.
    fn is_own(
        &self,
        env: &EnvVars,
        own_tty: Option<u64>,
        ancestry: &mut dyn FnMut() -> Vec<Option<u64>>,
    ) -> bool;

    /// The key of this pane's record files, as cheaply as the terminal can say it. `None`: nothing
    /// this pane could have recorded, or the terminal cannot say.
    fn recorded_key(&self, state: &StateDir) -> Option<PaneKey>;

    /// The pane as the hook's record keeps it (a terminal may ask itself for the pane's name, cached
    /// in `state`); the error is for the log.
    fn resolve(&self, state: &StateDir) -> Result<Box<dyn RecordPane>, String>;
}

/// A pane resolved for the hook's record.
pub trait RecordPane: DynRecordPane + Debug + Send + Sync {
    /// Its record files' key.
    fn key(&self) -> PaneKey;

    /// Makes `record` this pane's: its terminal's name in `terminal`, and the pane's identity where its
    /// terminal keeps it (the record's own pane fields, or the identity under the terminal's name,
    /// [`LiveRecord::set_terminal_pane`], with those fields empty). The terminal's crate writes its own
    /// fields; the hook stamps every record last, whatever its terminal.
    fn stamp(&self, record: &mut LiveRecord);

    /// The pane learnt again right before a write (a renamed session, a moved pane); `None` keeps it.
    fn refresh(&self, _state: &StateDir) -> Option<Box<dyn RecordPane>> {
        None
    }
}

/// Cloning, comparing and downcasting an [`EnvPane`] behind a box; implemented for every one.
pub trait DynEnvPane: Any {
    fn clone_box(&self) -> Box<dyn EnvPane>;
    fn eq_dyn(&self, other: &dyn Any) -> bool;
    fn as_any(&self) -> &dyn Any;
}

impl<T: EnvPane + Clone + PartialEq> DynEnvPane for T {
    fn clone_box(&self) -> Box<dyn EnvPane> {
        Box::new(self.clone())
    }
    fn eq_dyn(&self, other: &dyn Any) -> bool {
        other.downcast_ref::<T>() == Some(self)
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// Cloning, comparing and downcasting a [`RecordPane`] behind a box; implemented for every one.
pub trait DynRecordPane: Any {
    fn clone_box(&self) -> Box<dyn RecordPane>;
    fn eq_dyn(&self, other: &dyn Any) -> bool;
    fn as_any(&self) -> &dyn Any;
}

impl<T: RecordPane + Clone + PartialEq> DynRecordPane for T {
    fn clone_box(&self) -> Box<dyn RecordPane> {
        Box::new(self.clone())
    }
    fn eq_dyn(&self, other: &dyn Any) -> bool {
        other.downcast_ref::<T>() == Some(self)
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// Whether a process on `own` runs in a terminal started inside a pane (`script`, a second terminal
/// app, `ssh -t` to this machine): walking up its ancestors (`ancestry`, nearest first), one on another
/// terminal comes before one on none. A pane's own shell reaches a process with no terminal first (the
/// terminal itself, a login's parent, a multiplexer's server) with every process on the way on its own
/// terminal.
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

/// Shortens a possibly huge, hostile value for a log line (quoted, escaped).
pub fn clip(s: &str) -> String {
    let mut out: String = s.chars().take(80).collect();
    if out.len() < s.len() {
        out.push('…');
    }
    format!("{out:?}")
}
