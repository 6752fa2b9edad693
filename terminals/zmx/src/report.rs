//! zmx in the reports (its registry row's `report`): a session that is gone is named by the name its
//! record keeps, `zmx <name>`, as [`crate::session::view_label`] names a live one.

use crate::session::{ZmxPart, NAME};
use agterm_backup_core::record::LiveRecord;

/// Where a zmx record keeps its session: `zmx api`; `None` for another terminal's record.
pub fn record_place(rec: &LiveRecord) -> Option<String> {
    rec.zmx().map(|s| format!("{NAME} {}", s.name))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::ZmxSession;

    #[test]
    fn a_record_is_named_by_its_sessions_name() {
        let mut rec = agterm_backup_core::fixtures::record(
            "77e8ca85-2b1c-4a8e-9d0b-0c1d2e3f4a5b",
            agterm_backup_core::pane::PaneRole::Left,
            "2026-12-01T10:00:00Z",
        );
        assert_eq!(record_place(&rec), None);
        rec.set_zmx(&ZmxSession {
            socket_dir: "/run/user/1/zmx".into(),
            name: "api".into(),
            started: None,
        });
        assert_eq!(record_place(&rec).as_deref(), Some("zmx api"));
    }
}
