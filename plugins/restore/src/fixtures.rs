//! Plain-data builders for the unit tests: core's, shared with each terminal's join tests, and the
//! captured agterm pane (its key is agterm's to make).

use crate::plan::CapturedPane;
pub use agterm_backup_core::fixtures::*;
use agterm_backup_core::pane::PaneRole;
use agterm_backup_core::record::LiveRecord;

pub fn captured(record: Option<LiveRecord>, journal: Vec<LiveRecord>) -> CapturedPane {
    let role = record
        .as_ref()
        .or(journal.last())
        .map_or(PaneRole::Left, |r| r.role);
    CapturedPane {
        key: agterm_backup_agterm::key::key(SESSION, role).unwrap(),
        record,
        journal,
    }
}
