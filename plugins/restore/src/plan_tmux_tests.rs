//! tmux panes through the plan: a record joined by its place (the tmux row's join), and one its
//! directory does not confirm.

use crate::fixtures::{ID_A, ID_B};
use agterm_backup_tmux::join::TMUX_PLACE;
use agterm_backup_tmux::join_fixtures::{captured, place, tmux_record, view};

#[test]
fn the_plan_types_a_confirmed_tmux_pane_and_skips_a_shifted_one_before_the_server_start() {
    use crate::plan::{plan, Action, PlanInput};
    let a = place("work", 0, 0, "%3", "/w/a");
    let b = place("work", 0, 1, "%4", "/w/b");
    let ra = tmux_record(ID_A, "2026-11-30T10:00:00Z", &a);
    let rb = tmux_record(ID_B, "2026-11-30T10:00:00Z", &b);
    let mut transcripts = crate::transcripts::Transcripts::default();
    for r in [&ra, &rb] {
        transcripts.paths.insert(r.transcript_path.clone().unwrap());
    }
    // Pane work:0.1 came back in another directory (the layout changed since).
    let panes = [view(a.clone(), "/w/a"), view(b.clone(), "/w/elsewhere")];
    let captured = [captured(ra), captured(rb)];
    let server_start = crate::fixtures::ts("2026-12-01T00:00:00Z");
    let rows = plan(&PlanInput {
        captured: &captured,
        panes: &panes,
        mode: None,
        launched_at: Some(server_start),
        as_of: None,
        now: Some(server_start),
        transcripts: &transcripts,
        launch: None,
        restart: false,
    });
    let code = |i: usize| match &rows[i].action {
        Action::Type { line, .. } => format!("type {line}"),
        Action::Create { line, .. } => format!("create {line}"),
        Action::Restart { line, .. } => format!("restart {line}"),
        Action::Skip { reason } => reason.code().to_string(),
    };
    assert!(
        code(0).starts_with("type") && code(0).contains(ID_A),
        "{rows:#?}"
    );
    assert_eq!(rows[0].joined_by, Some(TMUX_PLACE));
    assert_eq!(code(1), "join-uncertain", "{rows:#?}");
}
