//! Reaching the running agterm: the one place that picks the terminal implementation.

pub use agterm_backup_agterm::socket_path_from_env;
use agterm_backup_agterm::{AgtermTerminal, Client, Timeouts};
use std::path::Path;

/// agterm behind its control socket (`--socket`, `$AGTERM_SOCKET`, `$AGTERM_STATE_DIR`, `~/Library/…`).
/// The error says where we looked.
pub fn connect(socket: Option<&Path>) -> Result<AgtermTerminal, String> {
    let path = socket_path_from_env(socket).ok_or_else(|| {
        "cannot find agterm's control socket: set AGTERM_SOCKET or pass --socket PATH".to_string()
    })?;
    Ok(AgtermTerminal::new(Client::new(path, Timeouts::CLI)))
}
