//! The terminal device of a zmx session: the controlling tty of its first process (the pty zmx's
//! daemon holds), what proves a shell is that session's own.

use crate::command::ZmxDir;
use crate::list::parse_list;
use agterm_backup_core::pane::tty::controlling_tty;

/// The device number of session `name`'s pty, `None` when zmx does not list it (or it has no pid).
pub fn session_tty(dir: &ZmxDir, name: &str) -> Option<u64> {
    let listed = parse_list(&dir.run(&["list"], None).ok()?);
    let pid = listed.iter().find(|l| l.name == name)?.pid?;
    controlling_tty(pid)
}
