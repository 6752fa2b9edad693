//! The terminal device of a tmux pane (`#{pane_tty}`): what proves a shell is that pane's own.

use crate::command::TmuxServer;
use agterm_backup_core::pane::tty::device_of;
use std::path::Path;

/// The device number of pane `pane_id`'s tty, `None` when the server does not answer or names none.
pub fn pane_tty(server: &TmuxServer, pane_id: &str) -> Option<u64> {
    let out = server
        .run(&["display-message", "-p", "-t", pane_id, "#{pane_tty}"])
        .ok()?;
    let path = out.trim();
    (!path.is_empty()).then(|| device_of(Path::new(path)))?
}
