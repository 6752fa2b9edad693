//! After a restart, each record finds its pane through its terminal's row: the consumer (restore's
//! plan) asks these, and decides from what they say with its own precedence table.

use crate::ROWS;
use agterm_backup_core::join::{CapturedPane, Join, JoinInput, PaneLaunch};
use agterm_backup_core::terminal::PaneView;
use std::path::Path;

/// Every terminal's step before the joins, over all captured panes (see [`crate::Row::follow`]).
pub fn follow(captured: &mut [CapturedPane], state_root: &Path) {
    for row in &ROWS {
        (row.follow)(captured, state_root);
    }
}

/// The captured pane's own launch, when it is its own terminal (see [`crate::Row::launch`]).
pub fn launch_of(pane: &CapturedPane, panes: &[PaneView]) -> Option<PaneLaunch> {
    ROWS.iter().find_map(|row| (row.launch)(pane, panes))
}

/// The pane the record joins, by the join of the terminal it names (`terminal`); a record of a
/// terminal no row has (a newer release's) is read as the first row's, whose fields every record
/// carries.
pub fn join(input: &JoinInput<'_>) -> Join {
    let row = ROWS
        .iter()
        .find(|row| row.kind.as_str() == input.record.terminal)
        .unwrap_or(&ROWS[0]);
    (row.join)(input)
}
