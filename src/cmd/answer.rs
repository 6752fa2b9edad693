//! `agterm-backup answer [--dry-run] [--choice N]`: answer Claude's "resume from summary?" question in
//! every pane already waiting on it, in every terminal instance with records or named by the environment
//! (`agterm_backup_terminals::everywhere`). A terminal that is not running is one line.

use crate::cli::AnswerArgs;
use crate::cmd::restore::state_dir;
use crate::{CliError, CliResult};
use agterm_backup_core::printable::printable_lines;
use agterm_backup_restore::dialog::{answer_keys, choice_label};
use agterm_backup_restore::execute::{answer_waiting, Waiting};
use agterm_backup_restore::gather::scopes_with_records;
use std::path::PathBuf;

pub fn run(args: AnswerArgs, socket: Option<PathBuf>) -> CliResult {
    answer_keys(args.choice).map_err(|e| CliError::refused(format!("--choice: {e}")))?;
    let state = state_dir()?;
    let env = |k: &str| std::env::var(k).ok();
    let scopes =
        agterm_backup_terminals::everywhere(socket.as_deref(), &env, &scopes_with_records(&state));
    let mut found: Vec<Waiting> = Vec::new();
    for scope in &scopes {
        let explicit = agterm_backup_terminals::socket_for(scope, socket.as_deref(), false);
        let waiting = agterm_backup_terminals::open(scope, explicit, &env)
            .and_then(|mut t| answer_waiting(&mut *t, args.choice, args.dry_run));
        match waiting {
            Ok(w) => found.extend(w),
            Err(e) => println!(
                "{}",
                printable_lines(&format!("{} is not running: {e}", scope.label()))
            ),
        }
    }
    if found.is_empty() {
        println!("no pane is waiting on Claude's resume question");
        return Ok(());
    }
    let mut failed = 0;
    for w in &found {
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
            printable_lines(&format!("{}: {what} — {}", w.label, w.title))
        );
    }
    if failed > 0 {
        return Err(CliError::failure(format!(
            "{failed} pane(s) could not be answered"
        )));
    }
    Ok(())
}
