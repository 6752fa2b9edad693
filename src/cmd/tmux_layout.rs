//! `agterm-backup tmux-layout`: run by the tmux hooks of the installer's block (`run-shell -b`) whenever
//! tmux closes, moves or renumbers a pane. Re-reads the layout of the server of `$TMUX` and keeps it in the
//! state directory, so restore can follow each record's pane to where it ended up. With `--rebuilt` (the
//! post-restore hook, before restore): the panes there are now are the restored ones; any opened later is
//! a new pane. With `--saved` (tmux-resurrect's post-save hook): the layout now is the one resurrect's save
//! holds, the one a restore from it rebuilds. Like the agents' hook it prints nothing and always exits 0: tmux shows a `run-shell` job's output in the pane.

use agterm_backup_core::state::StateDir;
use agterm_backup_terminals::tmux::command::TmuxServer;
use agterm_backup_terminals::tmux::env::server_socket;
use agterm_backup_terminals::tmux::layout::{keep_coalesced, mark_rebuilt, mark_saved};
use std::time::Duration;

/// A wedged server must not leave jobs behind.
const BUDGET: Duration = Duration::from_secs(2);

pub fn run(rebuilt: bool, saved: bool) -> crate::CliResult {
    let socket = server_socket(|k| std::env::var(k).ok());
    if let (Some(socket), Some(state)) = (socket, StateDir::from_env()) {
        if state.ensure().is_ok() {
            let server = TmuxServer::new(socket, BUDGET);
            if rebuilt {
                let _ = mark_rebuilt(&server, state.root());
            } else if saved {
                let _ = mark_saved(&server, state.root());
            } else {
                keep_coalesced(&server, state.root(), 4);
            }
        }
    }
    Ok(())
}
