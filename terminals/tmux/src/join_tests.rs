//! The tmux join: places, positions, layouts followed, claims.

use super::*;
use crate::join_fixtures::{captured, place, tmux_record, view};
use agterm_backup_core::fixtures::{ID_A, ID_B};

#[test]
fn joins_by_name_and_index_when_the_directory_confirms() {
    let was = place("work", 1, 0, "%7", "/w/a");
    let rec = tmux_record(ID_A, "2026-11-30T10:00:00Z", &was);
    let panes = [
        view(place("work", 0, 0, "%0", "/w/b"), "/w/b"),
        view(place("work", 1, 0, "%1", "/w/a"), "/w/a"),
    ];
    let all = [captured(rec.clone())];
    assert_eq!(join(&panes, &was, &rec, &all), Ok(1));
    assert_eq!(
        TmuxPane::record_key(&rec).map(|k| k.terminal()),
        Some(crate::pane::NAME)
    );
}

#[test]
fn a_shifted_layout_is_uncertain_and_a_missing_pane_is_gone() {
    let was = place("work", 0, 1, "%7", "/w/a");
    let rec = tmux_record(ID_A, "2026-11-30T10:00:00Z", &was);
    let all = [captured(rec.clone())];
    let shifted = [view(place("work", 0, 1, "%0", "/w/other"), "/w/other")];
    let got = join(&shifted, &was, &rec, &all);
    assert!(
        matches!(&got, Err(NotJoined::JoinUncertain { why }) if why.contains("/w/other")),
        "{got:?}"
    );
    let other_session = [view(place("play", 0, 1, "%0", "/w/a"), "/w/a")];
    assert_eq!(
        join(&other_session, &was, &rec, &all),
        Err(NotJoined::PaneGone)
    );
    let mut other_server = view(place("work", 0, 1, "%0", "/w/a"), "/w/a");
    other_server.set_tmux(&TmuxPane {
        socket: "/tmp/tmux-1/other".into(),
        ..other_server.tmux().unwrap()
    });
    assert_eq!(
        join(&[other_server], &was, &rec, &all),
        Err(NotJoined::PaneGone)
    );
}

#[test]
fn a_pane_that_moved_is_stale_at_its_old_place() {
    let old = place("work", 0, 1, "%7", "/w/a");
    let new = place("work", 0, 0, "%7", "/w/a");
    let before = tmux_record(ID_A, "2026-11-30T10:00:00Z", &old);
    let after = tmux_record(ID_B, "2026-11-30T11:00:00Z", &new);
    let all = [captured(before.clone()), captured(after.clone())];
    let panes = [
        view(place("work", 0, 0, "%0", "/w/a"), "/w/a"),
        view(place("work", 0, 1, "%1", "/w/a"), "/w/a"),
    ];
    assert!(matches!(
        join(&panes, &old, &before, &all),
        Err(NotJoined::JoinUncertain { .. })
    ));
    assert_eq!(join(&panes, &new, &after, &all), Ok(0));
}

fn layout(listed_at: &str, panes: &[(&str, &str, u32, u32)]) -> ServerLayout {
    use crate::layout_file::{with_positions, LaidOutPane};
    ServerLayout {
        socket: "/tmp/tmux-1/default".into(),
        server_pid: 100,
        server_started: 1_700_000_000,
        listed_at: agterm_backup_core::fixtures::ts(listed_at),
        panes: with_positions(
            panes
                .iter()
                .map(|&(id, session, window, pane)| LaidOutPane {
                    pane_id: id.into(),
                    session: session.into(),
                    window,
                    pane,
                    position: 0,
                    cwd: None,
                })
                .collect(),
        ),
        rebuilt: None,
        saved: None,
    }
}

/// Joins every captured record after following `layouts`: `(session id, joined pane or skip code)`.
fn joins(mut all: Vec<CapturedPane>, layouts: &[ServerLayout], panes: &[PaneView]) -> Vec<String> {
    follow_layouts(&mut all, layouts);
    all.iter()
        .map(|c| {
            let r = c.record.as_ref().unwrap();
            match join(panes, &r.tmux().unwrap(), r, &all) {
                Ok(i) => format!(
                    "{} {}",
                    &r.session_id[..4],
                    panes[i].tmux().unwrap().target()
                ),
                Err(e) => format!("{} {}", &r.session_id[..4], e.code()),
            }
        })
        .collect()
}

const A_AT: &str = "2026-11-30T10:00:00Z";

#[test]
fn a_closed_pane_is_gone_and_the_pane_renumbered_into_its_place_follows() {
    let a = tmux_record(ID_A, A_AT, &place("work", 0, 0, "%1", "/w"));
    let b = tmux_record(ID_B, A_AT, &place("work", 0, 1, "%2", "/w"));
    let restored = [view(place("work", 0, 0, "%0", "/w"), "/w")];
    let all = vec![captured(a), captured(b)];
    // Today's rule without the layout: A's place holds B's pane, in the same directory.
    assert_eq!(
        joins(all.clone(), &[], &restored),
        ["77e8 work:0.0", "019a pane-gone"]
    );
    let after_close = layout("2026-11-30T11:00:00Z", &[("%2", "work", 0, 0)]);
    assert_eq!(
        joins(all, &[after_close], &restored),
        ["77e8 pane-gone", "019a work:0.0"]
    );
}

#[test]
fn positions_survive_a_pane_base_index_change() {
    let a = tmux_record(ID_A, A_AT, &place("work", 0, 0, "%1", "/w"));
    let b = tmux_record(ID_B, A_AT, &place("work", 0, 1, "%2", "/w"));
    let l = layout(
        "2026-11-30T09:00:00Z",
        &[("%1", "work", 0, 0), ("%2", "work", 0, 1)],
    );
    // Restored with pane-base-index 1: the same two panes, indexes 1 and 2.
    let restored = [
        view(place("work", 0, 1, "%0", "/w"), "/w"),
        view(place("work", 0, 2, "%0", "/w"), "/w"),
    ];
    let all = vec![captured(a), captured(b)];
    assert_eq!(
        joins(all.clone(), &[], &restored)[1],
        "019a work:0.1",
        "today: B in A's pane"
    );
    assert_eq!(
        joins(all, &[l], &restored),
        ["77e8 work:0.1", "019a work:0.2"]
    );
}

#[test]
fn two_records_claiming_one_pane_are_both_uncertain_and_say_why() {
    // A is of an earlier server life whose layout is gone; B's pane moved to A's old place since.
    let mut older = place("work", 0, 0, "%4", "/w");
    older.server_pid = Some(90);
    let a = tmux_record(ID_A, A_AT, &older);
    let b = tmux_record(ID_B, A_AT, &place("work", 0, 1, "%2", "/w"));
    let l = layout("2026-11-30T11:00:00Z", &[("%2", "work", 0, 0)]);
    let restored = [view(place("work", 0, 0, "%0", "/w"), "/w")];
    let mut all = vec![captured(a), captured(b)];
    assert_eq!(
        joins(all.clone(), std::slice::from_ref(&l), &restored),
        ["77e8 join-uncertain", "019a join-uncertain"]
    );
    follow_layouts(&mut all, &[l]);
    let r = all[1].record.as_ref().unwrap();
    let why = match join(&restored, &r.tmux().unwrap(), r, &all) {
        Err(NotJoined::JoinUncertain { why }) => why,
        other => panic!("{other:?}"),
    };
    assert!(
        why.contains("two records claim work:0.0") && why.contains(ID_A),
        "{why}"
    );
}

#[test]
fn a_record_of_the_running_server_joins_its_own_pane_id() {
    let mut live = view(place("work", 0, 1, "%5", "/elsewhere"), "/elsewhere");
    live.set_tmux(&TmuxPane {
        pane_id: Some("%5".into()),
        ..live.tmux().unwrap()
    });
    let mut mine = place("work", 0, 0, "%5", "/w");
    (mine.server_pid, mine.server_started) = (Some(200), Some(1_800_000_000));
    let rec = tmux_record(ID_A, A_AT, &mine);
    let all = [captured(rec.clone())];
    let panes = [view(place("work", 0, 0, "%0", "/w"), "/w"), live];
    assert_eq!(join(&panes, &mine, &rec, &all), Ok(1));
    mine.pane_id = Some("%9".into());
    assert_eq!(join(&panes, &mine, &rec, &all), Err(NotJoined::PaneGone));
}

#[test]
fn a_pane_opened_after_the_rebuild_is_a_new_pane() {
    let b = tmux_record(ID_B, A_AT, &place("work", 0, 1, "%2", "/w"));
    let mut rebuilt = view(place("work", 0, 0, "%0", "/w"), "/w");
    rebuilt.set_tmux(&TmuxPane {
        pane_id: Some("%0".into()),
        ..rebuilt.tmux().unwrap()
    });
    let mut opened_later = view(place("work", 0, 1, "%0", "/w"), "/w");
    opened_later.set_tmux(&TmuxPane {
        pane_id: Some("%7".into()),
        ..opened_later.tmux().unwrap()
    });
    let panes = [rebuilt, opened_later];
    let all = vec![captured(b)];
    assert_eq!(joins(all.clone(), &[], &panes), ["019a work:0.1"], "today");
    let mut live = layout("2026-12-01T00:00:00Z", &[("%0", "work", 0, 0)]);
    (live.server_pid, live.server_started) = (200, 1_800_000_000);
    live.rebuilt = Some(vec!["%0".into()]);
    assert_eq!(joins(all, &[live], &panes), ["019a pane-gone"]);
}

#[path = "join_saved_tests.rs"]
mod saved;
