//! agterm's scope rules, for its row in the registry: it runs as one instance (every pane is that
//! one's), found behind its control socket.

use crate::{resolve_socket_path, AgtermTerminal, Client, Timeouts};
use agterm_backup_core::record::LiveRecord;
use agterm_backup_core::scope::{Env, Opened, Scope};
use std::path::Path;

/// agterm's one instance.
pub fn the_instance() -> Scope {
    Scope::new(crate::key::NAME, None)
}

/// The instance the environment names: agterm's one, always (whether it runs is `open`'s to find).
pub fn here(_explicit: Option<&Path>, _env: Env) -> Option<Scope> {
    Some(the_instance())
}

/// The instance `--terminal agterm` names.
pub fn named(_explicit: Option<&Path>, _env: Env) -> Scope {
    the_instance()
}

/// The instance a record names: agterm's one (its pane is in the record's own fields).
pub fn of_record(_rec: &LiveRecord) -> Option<Scope> {
    Some(the_instance())
}

/// agterm behind its control socket (`--socket`, `$AGTERM_SOCKET`, `$AGTERM_STATE_DIR`, the platform's
/// default). The error says where we looked.
pub fn open(_scope: &Scope, explicit: Option<&Path>, env: Env) -> Opened {
    let path = resolve_socket_path(explicit, env).ok_or_else(|| {
        "cannot find agterm's control socket: set AGTERM_SOCKET or pass --socket PATH".to_string()
    })?;
    Ok(Box::new(AgtermTerminal::new(Client::new(
        path,
        Timeouts::CLI,
    ))))
}

/// agterm may come up while its socket is there, or while an agterm process runs: it brings its panes
/// back before it binds its socket.
pub fn may_come_up(_scope: &Scope, explicit: Option<&Path>, env: Env) -> bool {
    resolve_socket_path(explicit, env)
        .is_some_and(|p| p.exists() || crate::running::agterm_runs(&p))
}
