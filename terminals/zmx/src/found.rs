//! zmx's row's `found`: the standalone zmx session the environment names ([`ZmxEnv`]; an agterm Live
//! pane's daemons are agterm's), proven a shell's own by its pty, and resolved for the hook's record
//! with its start ([`ZmxSession`]).

use crate::env::ZmxEnv;
use crate::session::{ZmxPart, ZmxSession};
use agterm_backup_core::found_pane::{EnvPane, EnvVars, Found, RecordPane};
use agterm_backup_core::own_pane::{KeepsOwnPane, OwnPane};
use agterm_backup_core::pane::PaneKey;
use agterm_backup_core::record::LiveRecord;
use agterm_backup_core::scope::Scope;
use agterm_backup_core::state::StateDir;
use agterm_backup_core::terminal::PaneView;
use std::time::Duration;

/// How long a shell waits for the session's pty to be found.
const TTY_BUDGET: Duration = Duration::from_millis(500);

/// The daemon's program among a pane's process's ancestors (a fork of `zmx attach` or `zmx run`, its
/// argv unchanged): what tells which multiplexer is innermost when several name a pane.
pub const PROGRAM: &str = "zmx";

/// The zmx session of `env`; `None` outside zmx and in an agterm Live pane.
pub fn found(env: &EnvVars) -> Found {
    // SAFETY: getuid has no preconditions and cannot fail.
    let uid = unsafe { libc::getuid() };
    let zmx = ZmxEnv::from_env(|k| env.get(k).cloned(), uid)?;
    Some(Ok(Box::new(zmx)))
}

impl EnvPane for ZmxEnv {
    /// By its socket directory and name.
    fn shows(&self, view: &PaneView) -> bool {
        view.zmx()
            .is_some_and(|s| s.socket_dir == self.socket_dir && s.name == self.name)
    }

    fn place(&self) -> (Scope, String) {
        (
            crate::scope::socket_dir_scope(self.socket_dir.clone()),
            self.name.clone(),
        )
    }

    /// Its controlling terminal is the pty of the session's first process.
    fn is_own(
        &self,
        _env: &EnvVars,
        own_tty: Option<u64>,
        _ancestry: &mut dyn FnMut() -> Vec<Option<u64>>,
    ) -> bool {
        let (scope, name) = self.place();
        own_tty.is_some() && crate::scope::tty(&scope, &name, TTY_BUDGET) == own_tty
    }

    fn recorded_key(&self, _state: &StateDir) -> Option<PaneKey> {
        Some(OwnPane::key(&self.session()))
    }

    /// The session, with its start read from its socket.
    fn resolve(&self, _state: &StateDir) -> Result<Box<dyn RecordPane>, String> {
        Ok(Box::new(self.session()))
    }
}

impl RecordPane for ZmxSession {
    fn key(&self) -> PaneKey {
        OwnPane::key(self)
    }

    /// The session under `zmx` in the record.
    fn stamp(&self, record: &mut LiveRecord) {
        record.set_own_pane(self);
    }
}
