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
    (crate::row_named(&input.record.terminal)
        .unwrap_or(&ROWS[0])
        .join)(input)
}

#[cfg(test)]
mod tests {
    use super::*;
    use agterm_backup_core::fixtures::{pane, record, ID_A, ID_B};
    use agterm_backup_core::join::JoinedBy;
    use agterm_backup_core::pane::PaneRole;
    use agterm_backup_core::record::LiveRecord;
    use agterm_backup_tmux::join::TMUX_PLACE;
    use agterm_backup_tmux::join_fixtures::{place, tmux_record, view};
    use agterm_backup_zmx::join::ZMX_SESSION;
    use agterm_backup_zmx::session::{ZmxPart, ZmxSession};

    const AT: &str = "2026-11-30T10:00:00Z";

    fn captured(rec: &LiveRecord) -> CapturedPane {
        CapturedPane {
            key: crate::record_key(rec).unwrap(),
            record: Some(rec.clone()),
            journal: vec![],
        }
    }

    fn joined(rec: &LiveRecord, panes: &[PaneView]) -> Join {
        let c = captured(rec);
        join(&JoinInput {
            panes,
            captured: std::slice::from_ref(&c),
            pane: &c,
            record: rec,
            cut: None,
        })
    }

    #[test]
    fn each_record_reaches_the_join_of_the_terminal_it_names() {
        let session = ZmxSession {
            socket_dir: "/run/user/1000/zmx".into(),
            name: "api".into(),
            started: Some(1_800_000_000),
        };
        let mut listed = pane(PaneRole::Left);
        listed.pane_id = Some(session.key_name());
        listed.set_zmx(&session);
        let at = place("work", 0, 0, "%3", "/w/a");
        let panes = [pane(PaneRole::Left), view(at.clone(), "/w/a"), listed];
        let agterm = record(ID_A, PaneRole::Left, AT);
        let tmux = tmux_record(ID_A, AT, &at);
        let mut zmx = record(ID_B, PaneRole::Left, AT);
        zmx.set_zmx(&session);
        let mut newer = agterm.clone();
        newer.terminal = "a-terminal-of-a-newer-release".into();
        assert_eq!(joined(&agterm, &panes), Join::Pane(0, JoinedBy::PANE_ID));
        assert_eq!(joined(&tmux, &panes), Join::Pane(1, TMUX_PLACE));
        assert_eq!(joined(&zmx, &panes), Join::Pane(2, ZMX_SESSION));
        assert_eq!(joined(&newer, &panes), Join::Pane(0, JoinedBy::PANE_ID));
        // A zmx session is its own terminal for the journal rule; an agterm pane is not.
        let own = |rec: &LiveRecord| launch_of(&captured(rec), &panes);
        assert_eq!(
            own(&zmx).map(|t| t.map(|t| t.timestamp())),
            Some(Some(1_800_000_000))
        );
        assert_eq!(own(&agterm), None);
    }
}
