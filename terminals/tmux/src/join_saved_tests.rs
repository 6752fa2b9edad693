//! Records of a server whose save a layout restorer rebuilt, or another server's save (`rebuilt_from`).

use super::*;

const ID_C: &str = "c0c0c0c0-2d3e-4f40-8a9b-0c1d2e3f4a5b";
const ID_D: &str = "d0d0d0d0-2d3e-4f40-8a9b-0c1d2e3f4a5b";

/// A, B, C and a plain pane in work:0.0–0.3 when resurrect saved; then A's pane closed (the others
/// renumbered), B's and C's swapped, and D's opened at 0.3; then the reboot, and the save rebuilt.
fn after_the_save() -> (Vec<CapturedPane>, ServerLayout, ServerLayout, Vec<PaneView>) {
    let all = [(ID_A, 0, "%1"), (ID_B, 1, "%2"), (ID_C, 2, "%3")]
        .iter()
        .map(|&(id, pane, n)| captured(tmux_record(id, A_AT, &place("work", 0, pane, n, "/w"))))
        .chain([captured(tmux_record(
            ID_D,
            "2026-11-30T11:00:00Z",
            &place("work", 0, 3, "%4", "/w"),
        ))])
        .collect();
    let at_save = [("%1", 0), ("%2", 1), ("%3", 2), ("%5", 3)];
    let saved = layout(
        "2026-11-30T10:30:00Z",
        &at_save.map(|(n, p)| (n, "work", 0, p)),
    );
    let mut last = layout(
        "2026-11-30T11:30:00Z",
        &[
            ("%3", "work", 0, 0),
            ("%2", "work", 0, 1),
            ("%5", "work", 0, 2),
            ("%4", "work", 0, 3),
        ],
    );
    last.saved = Some(crate::layout_file::SavedLayout {
        listed_at: saved.listed_at,
        panes: saved.panes,
    });
    let mut restorer = layout("2026-12-01T00:00:00Z", &[("%0", "work", 0, 0)]);
    (restorer.server_pid, restorer.server_started) = (200, 1_800_000_000);
    restorer.rebuilt = Some(vec!["%0".into()]);
    let panes = (0..4)
        .map(|p| view(place("work", 0, p, "%0", "/w"), "/w"))
        .collect();
    (all, last, restorer, panes)
}

#[test]
fn a_restore_from_resurrects_save_puts_each_conversation_in_the_pane_rebuilt_for_its_own() {
    let (all, last, restorer, panes) = after_the_save();
    // A's pane closed after the save: rebuilt, but its conversation ended with it. D's pane came after
    // the save: nothing was rebuilt for it (the pane at its last place was rebuilt for the plain pane).
    assert_eq!(
        joins(all.clone(), &[last.clone(), restorer.clone()], &panes),
        [
            "77e8 pane-gone",
            "019a work:0.1",
            "c0c0 work:0.2",
            "d0d0 pane-gone"
        ]
    );
    // Without the rebuild noted (tmuxp, an older hook), the last layout is all there is: today's join.
    assert_eq!(
        joins(all.clone(), std::slice::from_ref(&last), &panes),
        [
            "77e8 pane-gone",
            "019a work:0.1",
            "c0c0 work:0.0",
            "d0d0 work:0.3"
        ]
    );
}

/// tmux-resurrect keeps one last save for every server: when another server saved last before the
/// rebuild (another socket's, or an earlier life of this one), the rebuilt panes are that server's, and
/// no record of this server joins one by its place — with this server's own earlier save or without any.
#[test]
fn a_rebuild_from_another_servers_save_skips_every_record_of_this_server() {
    let (all, last, restorer, panes) = after_the_save();
    let mut elsewhere = layout("2026-11-30T12:00:00Z", &[("%9", "side", 0, 0)]);
    (elsewhere.socket, elsewhere.server_pid) = ("/tmp/tmux-1/other".into(), 150);
    let mut earlier_life = elsewhere.clone();
    (earlier_life.socket, earlier_life.server_started) = (last.socket.clone(), 1_600_000_000);
    for from in [elsewhere, earlier_life] {
        let mut from = from;
        from.saved = Some(crate::layout_file::SavedLayout {
            listed_at: from.listed_at,
            panes: from.panes.clone(),
        });
        let unsaved = ServerLayout {
            saved: None,
            ..last.clone()
        };
        for this in [last.clone(), unsaved] {
            let layouts = [this, restorer.clone(), from.clone()];
            assert_eq!(
                joins(all.clone(), &layouts, &panes),
                [
                    "77e8 other-save",
                    "019a other-save",
                    "c0c0 other-save",
                    "d0d0 other-save"
                ],
                "{from:?}"
            );
        }
    }
    // The reason names both servers and the save.
    let mut from = layout("2026-11-30T12:00:00Z", &[("%9", "side", 0, 0)]);
    (from.socket, from.server_pid) = ("/tmp/tmux-1/other".into(), 150);
    from.saved = Some(crate::layout_file::SavedLayout {
        listed_at: from.listed_at,
        panes: vec![],
    });
    let mut all = all;
    follow_layouts(&mut all, &[last, restorer, from]);
    let r = all[1].record.as_ref().unwrap();
    let why = match join(&panes, &r.tmux().unwrap(), r, &all) {
        Err(NotJoined::OtherSave { from }) => from,
        other => panic!("{other:?}"),
    };
    for part in [
        "/tmp/tmux-1/other (pid 150)",
        "pid 200",
        "2026-11-30T12:00:00",
        "(pid 100)",
    ] {
        assert!(why.contains(part), "{part:?} in {why}");
    }
}
