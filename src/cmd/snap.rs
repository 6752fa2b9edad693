//! `agterm-backup snap [--harvest]`: freeze the records and agterm's pane tree into a snapshot.

use crate::cli::SnapArgs;
use crate::cmd::restore::state_dir;
use crate::{CliError, CliResult};
use agterm_backup_core::printable::{printable_lines, printable_path};
use agterm_backup_core::terminal::Terminal;
use agterm_backup_restore::connect::connect;
use agterm_backup_restore::snapshot::{self, KEEP};
use std::path::PathBuf;

pub fn run(args: SnapArgs, socket: Option<PathBuf>) -> CliResult {
    let state = state_dir()?;
    let env = |k: &str| std::env::var(k).ok();
    let mut connected = connect(socket.as_deref());
    let term = match connected.as_mut() {
        Ok(t) => Ok(t as &mut dyn Terminal),
        Err(e) => Err(e.clone()),
    };
    // agterm not running still freezes the records: they are what restore needs most.
    let (snap, at) = snapshot::take(&state, term, args.harvest, &env);
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
    if let Some(e) = &snap.error {
        println!(
            "note: no pane tree in this snapshot: {}",
            printable_lines(e)
        );
    }
    Ok(())
}
