use super::*;
use crate::fixtures::{record, ts, ID_A, ID_B, SESSION};
use agterm_backup_core::pane::PaneRole;
use std::sync::{Arc, Barrier};

fn launch(at: &str) -> LaunchId {
    LaunchId::new(&agterm_backup_agterm::scope::the_instance(), Some(ts(at))).unwrap()
}

fn claim(launch: &LaunchId, id: &str, role: PaneRole) -> Claim {
    Claim {
        launch: launch.clone(),
        agent: "claude".into(),
        session_id: id.into(),
        pane: agterm_backup_agterm::key::key(SESSION, role).unwrap(),
    }
}

#[test]
fn one_claimant_of_a_conversation_or_a_pane_wins_under_contention() {
    let tmp = tempfile::tempdir().unwrap();
    let state = StateDir::at(tmp.path().join("state"));
    let l = launch("2026-12-01T10:00:00Z");
    // Eight claimants at once: a conversation two panes hold (left, right), a second shell in the left
    // pane, a split — every mix of the same conversation and the same pane.
    let claims: Vec<Claim> = (0..8)
        .map(|i| match i % 4 {
            0 => claim(&l, ID_A, PaneRole::Left),
            1 => claim(&l, ID_A, PaneRole::Right),
            2 => claim(&l, ID_B, PaneRole::Left),
            _ => claim(&l, ID_A, PaneRole::Left),
        })
        .collect();
    let barrier = Arc::new(Barrier::new(claims.len()));
    let handles: Vec<_> = claims
        .into_iter()
        .map(|c| {
            let (state, barrier) = (state.clone(), Arc::clone(&barrier));
            std::thread::spawn(move || {
                barrier.wait();
                c.take(&state, Trigger::ShellStart).ok().map(|()| c)
            })
        })
        .collect();
    let won: Vec<Claim> = handles
        .into_iter()
        .filter_map(|h| h.join().unwrap())
        .collect();
    // A and the left pane overlap every claim but (B, left)/(A, right) pairs: at most two can win, and
    // never two on the same conversation or the same pane.
    assert!(!won.is_empty());
    for (i, a) in won.iter().enumerate() {
        for b in &won[i + 1..] {
            assert_ne!(a.session_id, b.session_id, "{won:?}");
            assert_ne!(a.pane, b.pane, "{won:?}");
        }
    }
    let read = Resumed::read(&state, &l);
    for c in &won {
        assert!(read
            .conversations
            .contains(&("claude".into(), c.session_id.clone())));
        assert!(read.panes.contains(&c.pane));
    }
    assert_eq!(read.conversations.len(), won.len(), "no half-taken claim");
    assert_eq!(read.panes.len(), won.len(), "no half-taken claim");
}

#[test]
fn a_claim_is_all_or_nothing_and_gives_back() {
    let tmp = tempfile::tempdir().unwrap();
    let state = StateDir::at(tmp.path().join("state"));
    let l = launch("2026-12-01T10:00:00Z");
    claim(&l, ID_A, PaneRole::Left)
        .take(&state, Trigger::Restore)
        .unwrap();
    // The pane is taken: B in the left pane takes nothing, not even B's conversation marker.
    let err = claim(&l, ID_B, PaneRole::Left)
        .take(&state, Trigger::ShellStart)
        .unwrap_err();
    assert!(err.to_string().contains("\"by\":\"restore\""), "{err}");
    let read = Resumed::read(&state, &l);
    assert!(!read.conversations.contains(&("claude".into(), ID_B.into())));
    claim(&l, ID_A, PaneRole::Left).release(&state);
    assert_eq!(Resumed::read(&state, &l), Resumed::default());
    claim(&l, ID_B, PaneRole::Left)
        .take(&state, Trigger::ShellStart)
        .unwrap();
}

#[test]
fn a_new_launch_sees_no_marker_and_sweeps_the_old_ones_of_its_terminal_only() {
    let tmp = tempfile::tempdir().unwrap();
    let state = StateDir::at(tmp.path().join("state"));
    let old = launch("2026-12-01T10:00:00Z");
    let tmux = LaunchId::new(
        &agterm_backup_tmux::scope::server("/tmp/tmux-1/default".into()),
        Some(ts("2026-12-01T10:00:00Z")),
    )
    .unwrap();
    claim(&old, ID_A, PaneRole::Left)
        .take(&state, Trigger::Restore)
        .unwrap();
    claim(&tmux, ID_A, PaneRole::Left)
        .take(&state, Trigger::Restore)
        .unwrap();
    let new = launch("2026-12-01T11:00:00Z");
    assert_eq!(Resumed::read(&state, &new), Resumed::default());
    claim(&new, ID_A, PaneRole::Left)
        .take(&state, Trigger::ShellStart)
        .unwrap();
    assert_eq!(Resumed::read(&state, &old), Resumed::default(), "swept");
    assert_eq!(
        Resumed::read(&state, &tmux).conversations.len(),
        1,
        "another terminal's launch stays"
    );
    assert!(LaunchId::new(&agterm_backup_agterm::scope::the_instance(), None).is_none());
}

#[test]
fn two_readers_of_one_launch_share_its_markers_whatever_their_estimate_of_its_start() {
    // Two shells of one agterm launch read its start 10 ms apart, across a whole second; the
    // stamp (kernel integers) names the launch, so the second claim does not sweep the first.
    let tmp = tempfile::tempdir().unwrap();
    let state = StateDir::at(tmp.path().join("state"));
    let reading = |at: &str| TerminalInfo {
        launched_at: Some(ts(at)),
        launch_stamp: Some(ts("2026-12-01T10:00:00Z").timestamp()),
        ..Default::default()
    };
    let first = LaunchId::of(
        &agterm_backup_agterm::scope::the_instance(),
        &reading("2026-12-01T10:00:00.995Z"),
    )
    .unwrap();
    let second = LaunchId::of(
        &agterm_backup_agterm::scope::the_instance(),
        &reading("2026-12-01T10:00:01.005Z"),
    )
    .unwrap();
    assert_eq!(first, second);
    claim(&first, ID_A, PaneRole::Left)
        .take(&state, Trigger::ShellStart)
        .unwrap();
    claim(&second, ID_B, PaneRole::Right)
        .take(&state, Trigger::ShellStart)
        .unwrap();
    assert_eq!(Resumed::read(&state, &first).conversations.len(), 2);
    // Without a stamp (tmux: its own whole-second start) the start's seconds name it.
    let tmux_like = TerminalInfo {
        launched_at: Some(ts("2026-12-01T10:00:00Z")),
        ..Default::default()
    };
    assert_eq!(
        LaunchId::of(&agterm_backup_agterm::scope::the_instance(), &tmux_like),
        Some(launch("2026-12-01T10:00:00Z"))
    );
}

#[test]
fn a_run_since_the_cutoff_counts_only_for_the_same_conversation() {
    let cut = ts("2026-12-01T10:00:00Z");
    let before = record(ID_A, PaneRole::Left, "2026-12-01T09:00:00Z");
    let after = record(ID_A, PaneRole::Right, "2026-12-01T10:00:05Z");
    let other = record(ID_B, PaneRole::Right, "2026-12-01T10:00:05Z");
    assert!(!ran_since([&before, &other].into_iter(), &before, cut));
    assert!(ran_since([&before, &after].into_iter(), &before, cut));
    // The agent the quit killed reports its end after the new launch: that is no run.
    let mut killed = after.clone();
    killed.event = "SessionEnd".into();
    killed.set_end_reason(Some("other"));
    assert!(!ran_since([&before, &killed].into_iter(), &before, cut));
}

#[test]
fn a_shell_gives_back_only_its_own_young_claim() {
    let tmp = tempfile::tempdir().unwrap();
    let state = StateDir::at(tmp.path().join("state"));
    let l = launch("2026-12-01T10:00:00Z");
    let settle = std::time::Duration::from_secs(60);
    claim(&l, ID_A, PaneRole::Left)
        .take_for(&state, Trigger::ShellStart, Some(4242))
        .unwrap();
    claim(&l, ID_B, PaneRole::Right)
        .take(&state, Trigger::Restore)
        .unwrap();
    // Another shell's give-back, and one after the settle time: nothing goes.
    assert_eq!(give_back_shell_claim(&state, 7, settle), 0);
    assert_eq!(give_back_shell_claim(&state, 4242, Duration::ZERO), 0);
    // This shell's young claim goes whole (both markers); restore's stays.
    assert_eq!(give_back_shell_claim(&state, 4242, settle), 2);
    let read = Resumed::read(&state, &l);
    assert_eq!(
        read.conversations.into_iter().collect::<Vec<_>>(),
        [("claude".to_string(), ID_B.to_string())]
    );
    assert_eq!(read.panes.len(), 1);
}
