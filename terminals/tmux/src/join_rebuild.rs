//! Which save a layout restorer rebuilt the panes of a socket from: this server's own, another server's
//! (tmux-resurrect keeps one last save for all of a user's servers), or none noted.

use crate::layout_file::{SavedLayout, ServerLayout};

/// What a later server on the same socket rebuilt, as far as `layout`'s records are concerned.
#[derive(Debug)]
pub(super) enum Rebuild<'a> {
    /// No rebuild noted, or none from a noted save (tmuxp, an older install): the last layout is all
    /// there is.
    Unknown,
    /// The restorer rebuilt this server's own save.
    OwnSave(&'a SavedLayout),
    /// The restorer rebuilt another server's save (described): its panes are not this server's.
    OtherSave(String),
}

/// The save a layout restorer rebuilt the panes of `layout`'s socket from: a later server life on the
/// same socket noted the panes its restorer rebuilt (post-restore hook), from the last save any server
/// made before it started (tmux-resurrect keeps one last save, whichever server made it).
pub(super) fn rebuilt_from<'a>(
    layouts: &'a [ServerLayout],
    layout: &'a ServerLayout,
) -> Rebuild<'a> {
    let restorers = layouts
        .iter()
        .filter(|l| l.socket == layout.socket && l.rebuilt.is_some())
        .filter(|l| (l.server_pid, l.server_started) != (layout.server_pid, layout.server_started))
        .filter(|l| l.server_started >= layout.server_started);
    let mut other = None;
    for restorer in restorers {
        match last_save_before(layouts, restorer) {
            Some((from, saved)) if std::ptr::eq(from, layout) => return Rebuild::OwnSave(saved),
            Some((from, saved)) => {
                other.get_or_insert_with(|| {
                    format!(
                        "the tmux server on {} (pid {}) rebuilt the save of the server on {} (pid {})                          taken {}, not one of this record's server (pid {})",
                        restorer.socket,
                        restorer.server_pid,
                        from.socket,
                        from.server_pid,
                        saved.listed_at.to_rfc3339(),
                        layout.server_pid
                    )
                });
            }
            None => {}
        }
    }
    other.map_or(Rebuild::Unknown, Rebuild::OtherSave)
}

/// The last save any server noted before `restorer` started (its own excluded), and whose it was.
fn last_save_before<'a>(
    layouts: &'a [ServerLayout],
    restorer: &ServerLayout,
) -> Option<(&'a ServerLayout, &'a SavedLayout)> {
    layouts
        .iter()
        .filter(|o| !std::ptr::eq(*o, restorer))
        .filter_map(|o| Some((o, o.saved.as_ref()?)))
        .filter(|(_, s)| s.listed_at.timestamp() <= restorer.server_started)
        .max_by_key(|(_, s)| s.listed_at)
}
