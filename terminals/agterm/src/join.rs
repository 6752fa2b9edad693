//! Which pane an agterm record belongs to after a restart. agterm brings its windows back with the same
//! sessions, and (0.26+) each pane with the same persistent pane id: a record joins the pane with its
//! pane id where both sides have one, else the pane of its session in its role. Where two panes show
//! the same id or session and role, the last listed is the one.

use agterm_backup_core::join::{Join, JoinInput, JoinedBy, NotJoined};

/// The registry row's join: by persistent pane id, else session + role; neither: the pane is gone.
pub fn join_record(input: &JoinInput<'_>) -> Join {
    let by_id = input.record.pane_id.as_ref().and_then(|id| {
        input.panes.iter().rposition(|p| {
            p.pane_id
                .as_ref()
                .is_some_and(|mine| mine.eq_ignore_ascii_case(id))
        })
    });
    if let Some(i) = by_id {
        return Join::Pane(i, JoinedBy::PANE_ID);
    }
    let by_session = crate::key::split(&input.pane.key).and_then(|k| {
        input
            .panes
            .iter()
            .rposition(|p| p.session_id.to_ascii_uppercase() == k.session && p.role == k.role)
    });
    match by_session {
        Some(i) => Join::Pane(i, JoinedBy::SESSION_ROLE),
        None => Join::Not(NotJoined::PaneGone),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use agterm_backup_core::fixtures::{pane, record, ID_A, SESSION};
    use agterm_backup_core::join::CapturedPane;
    use agterm_backup_core::pane::PaneRole;
    use agterm_backup_core::record::LiveRecord;
    use agterm_backup_core::terminal::PaneView;

    fn joined(rec: &LiveRecord, panes: &[PaneView]) -> Join {
        let c = CapturedPane {
            key: crate::key::key(SESSION, rec.role).unwrap(),
            record: Some(rec.clone()),
            journal: vec![],
        };
        join_record(&JoinInput {
            panes,
            captured: std::slice::from_ref(&c),
            pane: &c,
            record: rec,
            cut: None,
        })
    }

    #[test]
    fn the_pane_id_wins_then_session_and_role_and_the_last_listed_of_two() {
        let rec = record(ID_A, PaneRole::Right, "2026-11-30T10:00:00Z");
        let mut moved = pane(PaneRole::Left);
        moved.pane_id = rec.pane_id.as_ref().map(|id| id.to_ascii_lowercase());
        let mut right = pane(PaneRole::Right);
        right.pane_id = None;
        let mut other = pane(PaneRole::Right);
        other.pane_id = Some("OTHER".into());
        // The pane id, in any case, beats the session and role.
        assert_eq!(
            joined(&rec, &[right.clone(), moved]),
            Join::Pane(1, JoinedBy::PANE_ID)
        );
        // No pane with the id: the session's pane in the record's role, the last of two.
        assert_eq!(
            joined(&rec, &[other.clone(), pane(PaneRole::Left), other.clone()]),
            Join::Pane(2, JoinedBy::SESSION_ROLE)
        );
        assert_eq!(
            joined(&rec, &[pane(PaneRole::Left)]),
            Join::Not(NotJoined::PaneGone)
        );
    }
}
