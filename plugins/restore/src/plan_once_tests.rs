//! Rows 1b and 9b and the shell start's pin rule: the plan with [`PlanInput::launch`] (`once.rs`).

use super::*;
use crate::fixtures::{captured, pane, record, ID_A, ID_B};
use crate::once::{LaunchId, Resumed};
use agterm_backup_core::pane::PaneRole;

const LAUNCH: &str = "2026-12-01T10:00:00Z";

fn this_launch(trigger: Trigger, resumed: Resumed) -> ThisLaunch {
    ThisLaunch {
        trigger,
        id: LaunchId::new(
            &agterm_backup_agterm::scope::the_instance(),
            Some(crate::fixtures::ts(LAUNCH)),
        ),
        resumed,
    }
}

fn rows(
    captured: &[CapturedPane],
    panes: &[PaneView],
    mode: Option<RestoreMode>,
    launch: Option<&ThisLaunch>,
    now: &str,
) -> Vec<PlanRow> {
    let mut t = Transcripts::default();
    for r in captured
        .iter()
        .flat_map(|c| c.record.iter().chain(&c.journal))
    {
        t.paths.extend(r.transcript_path.clone());
    }
    plan(&PlanInput {
        captured,
        panes,
        mode,
        launched_at: launch
            .and_then(|l| l.id.as_ref())
            .map(|_| crate::fixtures::ts(LAUNCH)),
        as_of: None,
        now: Some(crate::fixtures::ts(now)),
        transcripts: &t,
        launch,
        restart: false,
    })
}

fn code(row: &PlanRow) -> &'static str {
    match &row.action {
        Action::Skip { reason } => reason.code(),
        Action::Type { .. } => "type",
        Action::Create { .. } => "create",
        Action::Restart { .. } => "restart",
    }
}

fn before() -> LiveRecord {
    record(ID_A, PaneRole::Left, "2026-12-01T09:00:00Z")
}

#[test]
fn a_shell_start_without_the_launch_time_stands_aside_and_restore_does_not() {
    let c = [captured(Some(before()), vec![before()])];
    let p = [pane(PaneRole::Left)];
    let blind = ThisLaunch {
        id: None,
        ..this_launch(Trigger::ShellStart, Resumed::default())
    };
    let r = rows(&c, &p, None, Some(&blind), LAUNCH);
    assert_eq!(code(&r[0]), "no-launch-time");
    let blind = ThisLaunch {
        trigger: Trigger::Restore,
        ..blind
    };
    let r = rows(&c, &p, None, Some(&blind), LAUNCH);
    assert_eq!(code(&r[0]), "type");
    assert_eq!(r[0].claim, None, "no launch, nothing to claim");
}

#[test]
fn a_type_row_carries_its_claim_and_a_marker_makes_it_resumed_for_both() {
    let c = [captured(Some(before()), vec![before()])];
    let p = [pane(PaneRole::Left)];
    for trigger in [Trigger::Restore, Trigger::ShellStart] {
        let l = this_launch(trigger, Resumed::default());
        let r = rows(&c, &p, None, Some(&l), "2026-12-01T10:00:03Z");
        assert_eq!(code(&r[0]), "type", "{trigger:?}");
        let claim = r[0].claim.clone().expect("a claim");
        assert_eq!(claim.session_id, ID_A);
        assert_eq!(claim.pane, c[0].key);
        let mut by_id = Resumed::default();
        by_id.conversations.insert(("claude".into(), ID_A.into()));
        let r = rows(&c, &p, None, Some(&this_launch(trigger, by_id)), LAUNCH);
        assert_eq!(code(&r[0]), "resumed", "{trigger:?}");
        let mut by_pane = Resumed::default();
        by_pane.panes.insert(c[0].key.clone());
        let r = rows(&c, &p, None, Some(&this_launch(trigger, by_pane)), LAUNCH);
        assert_eq!(code(&r[0]), "resumed", "{trigger:?}");
    }
}

#[test]
fn a_conversation_that_ran_since_the_launch_is_resumed_for_a_shell_only() {
    // The user resumed it by hand after the launch and quit it (not ended): a new shell in the pane
    // must not bring it back; `restore`, asked by the user, still may.
    let mut after = before();
    after.ts = "2026-12-01T10:05:00Z".into();
    let c = [captured(Some(after.clone()), vec![before(), after])];
    let p = [pane(PaneRole::Left)];
    let shell = this_launch(Trigger::ShellStart, Resumed::default());
    assert_eq!(
        code(&rows(&c, &p, None, Some(&shell), "2026-12-01T10:06:00Z")[0]),
        "resumed"
    );
    let restore = this_launch(Trigger::Restore, Resumed::default());
    assert_eq!(
        code(&rows(&c, &p, None, Some(&restore), "2026-12-01T10:06:00Z")[0]),
        "type"
    );
    // Another conversation since the launch says nothing about this one.
    let other = record(ID_B, PaneRole::Left, "2026-12-01T10:05:00Z");
    let c = [captured(Some(other.clone()), vec![before(), other])];
    assert_eq!(
        code(&rows(&c, &p, None, Some(&shell), "2026-12-01T10:06:00Z")[0]),
        "type"
    );
}

#[test]
fn under_a_rerun_pin_a_shell_always_stands_aside() {
    let c = [captured(Some(before()), vec![before()])];
    let mut p = pane(PaneRole::Left);
    p.pin = Some(format!("claude --resume {ID_A}"));
    let late = "2026-12-01T10:30:00Z";
    let shell = this_launch(Trigger::ShellStart, Resumed::default());
    let restore = this_launch(Trigger::Restore, Resumed::default());
    let rerun = Some(RestoreMode::Rerun);
    assert_eq!(
        code(&rows(&c, &[p.clone()], rerun, Some(&shell), late)[0]),
        "pinned"
    );
    assert_eq!(
        code(&rows(&c, &[p.clone()], rerun, Some(&restore), late)[0]),
        "type",
        "restore: the pin had its chance"
    );
    for mode in [RestoreMode::None, RestoreMode::Live] {
        assert_eq!(
            code(&rows(&c, &[p.clone()], Some(mode), Some(&shell), late)[0]),
            "type",
            "{mode:?}: pins never fire"
        );
    }
}
