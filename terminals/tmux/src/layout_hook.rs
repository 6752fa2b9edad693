//! `agterm-backup tmux-layout`: run by the tmux hooks of the installer's block (`run-shell -b`) whenever
//! tmux closes, moves or renumbers a pane. Re-reads the layout of the server of `$TMUX` and keeps it in the
//! state directory, so restore can follow each record's pane to where it ended up. With `--rebuilt` (the
//! post-restore hook, before restore): the panes there are now are the restored ones; any opened later is
//! a new pane. With `--saved` (tmux-resurrect's post-save hook): the layout now is the one resurrect's save
//! holds, the one a restore from it rebuilds. Like the agents' hook it prints nothing and always exits 0:
//! tmux shows a `run-shell` job's output in the pane.

use crate::command::TmuxServer;
use crate::env::server_socket;
use crate::layout::{keep_coalesced, mark_rebuilt, mark_saved};
use agterm_backup_core::state::StateDir;
use std::time::Duration;

/// A wedged server must not leave jobs behind.
const BUDGET: Duration = Duration::from_secs(2);

/// The subcommand with the names of its flags given ([`crate::command_line::LAYOUT`]).
pub fn run(flags: &[&str]) {
    let socket = server_socket(|k| std::env::var(k).ok());
    if let (Some(socket), Some(state)) = (socket, StateDir::from_env()) {
        if state.ensure().is_ok() {
            let server = TmuxServer::new(socket, BUDGET);
            if flags.contains(&"rebuilt") {
                let _ = mark_rebuilt(&server, state.root());
            } else if flags.contains(&"saved") {
                let _ = mark_saved(&server, state.root());
            } else {
                keep_coalesced(&server, state.root(), 4);
            }
        }
    }
}
