//! `agterm-backup answer [--dry-run] [--choice N]`: answer Claude's "resume from summary?" question in
//! every pane already waiting on it.

use crate::cli::AnswerArgs;
use crate::{CliError, CliResult};
use agterm_backup_core::printable::printable_lines;
use agterm_backup_restore::connect::connect;
use agterm_backup_restore::dialog::{answer_keys, choice_label};
use agterm_backup_restore::execute::answer_waiting;
use std::path::PathBuf;

pub fn run(args: AnswerArgs, socket: Option<PathBuf>) -> CliResult {
    answer_keys(args.choice).map_err(|e| CliError::refused(format!("--choice: {e}")))?;
    let mut term = connect(socket.as_deref()).map_err(CliError::failure)?;
    let found = answer_waiting(&mut term, args.choice, args.dry_run).map_err(CliError::failure)?;
    if found.is_empty() {
        println!("no pane is waiting on Claude's resume question");
        return Ok(());
    }
    let mut failed = 0;
    for w in &found {
        let pane = format!(
            "{}-{}",
            w.pane.session_id.get(..8).unwrap_or(&w.pane.session_id),
            w.pane.role
        );
        let what = match (args.dry_run, w.answered) {
            (true, _) => format!(
                "waiting, would answer {} ({})",
                args.choice,
                choice_label(args.choice)
            ),
            (false, true) => format!("answered {} ({})", args.choice, choice_label(args.choice)),
            (false, false) => {
                failed += 1;
                "typing the answer failed".to_string()
            }
        };
        // The title is read off the pane's screen: anything may be in it.
        println!(
            "{}",
            printable_lines(&format!("{pane}: {what} — {}", w.title))
        );
    }
    if failed > 0 {
        return Err(CliError::failure(format!(
            "{failed} pane(s) could not be answered"
        )));
    }
    Ok(())
}
