//! What was captured for one pane: the planner's input per pane, below both [`crate::plan`] (which
//! decides from it) and [`crate::once`] (whose markers read it), so neither imports the other.

use agterm_backup_core::pane::PaneKey;
use agterm_backup_core::record::LiveRecord;

/// Everything captured for one pane: its current record and its journal (oldest first).
#[derive(Debug, Clone, PartialEq)]
pub struct CapturedPane {
    pub key: PaneKey,
    pub record: Option<LiveRecord>,
    pub journal: Vec<LiveRecord>,
}
