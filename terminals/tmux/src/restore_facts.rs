//! tmux's facts for restore's plan (its registry row's `restore`). A tmux pane is named by its place
//! (`work:0.1`), which a person may type to `restart --pane`; a pane tmux has just created shows
//! `realized: false` until it has started its command (`terminal.rs`), and restore waits for it. Its
//! join checks the pane's place and directory (`join.rs`).

use crate::pane::TmuxPart;
use agterm_backup_core::terminal::PaneView;

/// The `not realized` skip's words for a tmux pane that is not up.
pub const UNREALIZED: Option<&str> = Some("a new tmux pane has not started its command");

/// Whether `typed` is the pane's tmux place (`work:0.1`).
pub fn names_pane(view: &PaneView, typed: &str) -> bool {
    view.tmux().is_some_and(|t| t.target() == typed)
}
