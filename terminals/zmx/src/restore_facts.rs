//! zmx's facts for restore's plan (its registry row's `restore`). A zmx session is a pane by itself,
//! named by its session name, which a person may type to `restart --pane`. Its join (`join.rs`) says
//! which sessions the reboot took (restore creates them, `terminal.rs`) and which the user closed.

use crate::session::ZmxPart;
use agterm_backup_core::terminal::PaneView;

/// Whether `typed` is the session's name.
pub fn names_pane(view: &PaneView, typed: &str) -> bool {
    view.zmx().is_some_and(|z| z.name == typed)
}
