//! zmx's scope rules, for its row in the registry: one instance per socket directory.

use crate::boot::boot_time;
use crate::command::ZmxDir;
use crate::session::{socket_dir, ZmxPart, NAME};
use crate::terminal::{ZmxTerminal, CLI_TIMEOUT};
use agterm_backup_core::record::LiveRecord;
use agterm_backup_core::scope::{Env, Opened, Scope};
use std::path::Path;
use std::time::Duration;

/// The socket directory `dir`.
pub fn socket_dir_scope(dir: String) -> Scope {
    Scope::new(NAME, Some(dir))
}

/// The socket directory of the environment (or `--socket`), when zmx has made it.
pub fn here(explicit: Option<&Path>, env: Env) -> Option<Scope> {
    let scope = named(explicit, env);
    Path::new(scope.place()?).is_dir().then_some(scope)
}

/// The socket directory `--terminal zmx` names: as [`here`], existing or not.
pub fn named(explicit: Option<&Path>, env: Env) -> Scope {
    // SAFETY: getuid has no preconditions and cannot fail.
    let uid = unsafe { libc::getuid() };
    socket_dir_scope(match explicit {
        Some(p) => p.display().to_string(),
        None => socket_dir(env, uid),
    })
}

/// The socket directory a record names (`None`: its zmx part is unreadable).
pub fn of_record(rec: &LiveRecord) -> Option<Scope> {
    rec.zmx().map(|z| socket_dir_scope(z.socket_dir))
}

pub fn open(scope: &Scope, _explicit: Option<&Path>, env: Env) -> Opened {
    let dir = scope.place().ok_or("not a zmx socket directory's scope")?;
    Ok(Box::new(ZmxTerminal::new(
        ZmxDir::new(dir, CLI_TIMEOUT),
        boot_time(env),
    )))
}

/// The terminal device of session `name` in the socket directory, asked within `budget`.
pub fn tty(scope: &Scope, name: &str, budget: Duration) -> Option<u64> {
    crate::tty::session_tty(&ZmxDir::new(scope.place()?, budget), name)
}
