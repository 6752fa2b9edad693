//! `agterm-backup snap [--harvest]`: freeze the records and the panes of every terminal instance with
//! records or named by the environment (`agterm_backup_terminals::everywhere`) into a snapshot.

use crate::cli::SnapArgs;
use crate::cmd::restore::state_dir;
use crate::{CliError, CliResult};
use agterm_backup_core::printable::{printable_lines, printable_path};
use agterm_backup_restore::gather::scopes_with_records;
use agterm_backup_restore::snapshot::{self, Reached, KEEP};
use std::path::PathBuf;

pub fn run(args: SnapArgs, socket: Option<PathBuf>) -> CliResult {
    let state = state_dir()?;
    let env = |k: &str| std::env::var(k).ok();
    let scopes =
        agterm_backup_terminals::everywhere(socket.as_deref(), &env, &scopes_with_records(&state));
    let reached: Vec<Reached> = scopes
        .into_iter()
        .map(|scope| {
            let explicit = agterm_backup_terminals::socket_for(&scope, socket.as_deref(), false);
            let term = agterm_backup_terminals::open(&scope, explicit, &env);
            (scope, term)
        })
        .collect();
    // A terminal not running still freezes the records: they are what restore needs most.
    let (snap, at) = snapshot::take(&state, reached, args.harvest, &env);
    let path = snapshot::write(&state, &snap, at, KEEP).map_err(|e| {
        CliError::failure(format!(
            "could not write the snapshot in {}: {e}",
            state.snapshots_dir().display()
        ))
    })?;
    let harvested = if args.harvest {
        format!(", {} harvested from scrollback", snap.harvested.len())
    } else {
        String::new()
    };
    println!(
        "{}: {} record(s), {} pane(s){harvested}",
        printable_path(&path),
        snap.records.len(),
        snap.panes.len()
    );
    for t in &snap.terminals {
        if let Some(e) = &t.error {
            let place = t
                .place
                .as_deref()
                .map_or(String::new(), |p| format!(" ({p})"));
            let note = format!(
                "note: no pane tree of {}{place} in this snapshot: {e}",
                t.terminal
            );
            println!("{}", printable_lines(&note));
        }
    }
    Ok(())
}
