//! tmux's scope rules, for its row in the registry: one instance per server, told apart by its socket.

use crate::command::TmuxServer;
use crate::pane::{TmuxPart, NAME};
use crate::terminal::{socket_path, TmuxTerminal, CLI_TIMEOUT};
use agterm_backup_core::record::LiveRecord;
use agterm_backup_core::scope::{Env, Opened, Scope};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The server at `socket`.
pub fn server(socket: String) -> Scope {
    Scope::new(NAME, Some(socket))
}

/// The server of `$TMUX` (or `--socket`, or tmux's default socket), when its socket exists.
pub fn here(explicit: Option<&Path>, env: Env) -> Option<Scope> {
    let scope = named(explicit, env);
    is_socket(Path::new(scope.place()?)).then_some(scope)
}

/// The server `--terminal tmux` names: as [`here`], existing or not.
pub fn named(explicit: Option<&Path>, env: Env) -> Scope {
    server(
        socket_path(explicit.map(PathBuf::from), env)
            .display()
            .to_string(),
    )
}

/// The server a record names (`None`: its tmux part is unreadable).
pub fn of_record(rec: &LiveRecord) -> Option<Scope> {
    rec.tmux().map(|t| server(t.socket))
}

pub fn open(scope: &Scope, _explicit: Option<&Path>, _env: Env) -> Opened {
    let socket = scope.place().ok_or("not a tmux server's scope")?;
    Ok(Box::new(TmuxTerminal::new(TmuxServer::new(
        socket,
        CLI_TIMEOUT,
    ))))
}

/// The terminal device of pane `pane` (`%N`) of the server, asked within `budget`.
pub fn tty(scope: &Scope, pane: &str, budget: Duration) -> Option<u64> {
    crate::tty::pane_tty(&TmuxServer::new(scope.place()?, budget), pane)
}

fn is_socket(p: &Path) -> bool {
    use std::os::unix::fs::FileTypeExt;
    std::fs::metadata(p).is_ok_and(|m| m.file_type().is_socket())
}
