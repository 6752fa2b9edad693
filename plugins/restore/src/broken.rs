//! The record and journal files a plan could not use, named with their reasons for `status`,
//! `status --json` and `restore` (with `--dry-run` too). The rest of the plan goes on without them: a
//! pane whose record is broken is planned from its journal (its row marked `[journal]`).

use crate::plan::PlanRow;
use agterm_backup_core::printable::printable;
use agterm_backup_core::state::{BrokenFile, StateDir};

/// The broken files of the panes `rows` plan.
pub fn of_rows(state: &StateDir, rows: &[PlanRow]) -> Vec<BrokenFile> {
    let keys: std::collections::BTreeSet<String> = rows.iter().map(|r| r.key.to_string()).collect();
    state
        .broken_files(&agterm_backup_terminals::parse_key)
        .into_iter()
        .filter(|b| keys.contains(&b.pane))
        .collect()
}

/// One line per broken file: `could not use <path>: <reason>`, escaped for the terminal.
pub fn describe(b: &BrokenFile) -> String {
    printable(&format!("could not use {}: {}", b.path.display(), b.reason)).into_owned()
}

/// The lines printed under a plan's table.
pub fn lines(broken: &[BrokenFile]) -> String {
    broken.iter().map(|b| describe(b) + "\n").collect()
}
