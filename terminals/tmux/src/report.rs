//! tmux in the reports (its registry row's `report`): a pane that is gone is named by the place its
//! record keeps, `tmux <session>:<window>.<pane>`, as [`crate::pane::view_label`] names a live one.

use crate::pane::{TmuxPart, NAME};
use agterm_backup_core::record::LiveRecord;

/// Where a tmux record keeps its pane: `tmux work:0.1`; `None` for another terminal's record.
pub fn record_place(rec: &LiveRecord) -> Option<String> {
    rec.tmux().map(|p| format!("{NAME} {}", p.target()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pane::TmuxPane;

    #[test]
    fn a_record_is_named_by_its_panes_place() {
        let mut rec = agterm_backup_core::fixtures::record(
            "77e8ca85-2b1c-4a8e-9d0b-0c1d2e3f4a5b",
            agterm_backup_core::pane::PaneRole::Left,
            "2026-12-01T10:00:00Z",
        );
        assert_eq!(record_place(&rec), None);
        rec.set_tmux(&TmuxPane {
            socket: "/tmp/tmux-1/default".into(),
            session: "work".into(),
            window: 0,
            pane: 1,
            pane_id: Some("%7".into()),
            server_pid: None,
            server_started: None,
            cwd: None,
        });
        assert_eq!(record_place(&rec).as_deref(), Some("tmux work:0.1"));
    }
}
