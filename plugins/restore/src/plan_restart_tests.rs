//! Row 7b (issue 22): Live after a reboot, agterm replays a pane's bare agent (a new conversation); with
//! proof that agterm started it in this launch and that nobody typed into it, `session.restart` replaces
//! it with the pane's own conversation. Every other pane keeps its row.

use super::*;
use crate::fixtures::{captured, pane, record, ts, ID_A, ID_B};
use agterm_backup_core::pane::PaneRole;
use agterm_backup_core::terminal::LiveDaemon;

const LAUNCH: &str = "2026-12-01T08:00:00Z";
const BEFORE: &str = "2026-12-01T07:00:00Z";
const AFTER: &str = "2026-12-01T08:00:05Z";

fn gemini(id: &str, at: &str) -> LiveRecord {
    let mut r = record(id, PaneRole::Left, at);
    r.agent = "gemini".into();
    r.transcript_path = None;
    r.flags = vec!["--model".into(), "gemini-2.5-pro".into()];
    r
}

/// A replayed `gemini` (node launcher) in a Live pane whose daemon started at `daemon_at`.
fn replayed_pane(daemon_at: &str) -> PaneView {
    let mut p = pane(PaneRole::Left);
    p.cwd = Some("/w/p".into());
    p.foreground = Some(vec![
        "node".into(),
        "/usr/lib/node_modules/@google/gemini-cli/bundle/gemini.js".into(),
    ]);
    p.live = Some(LiveDaemon {
        daemon: "agterm-x".into(),
        running: true,
        clients: Some(1),
        leader_pid: Some(4100),
        started_at: Some(ts(daemon_at)),
    });
    p
}

struct Case {
    captured: CapturedPane,
    pane: PaneView,
    mode: RestoreMode,
    restart: bool,
}

impl Case {
    /// The pane's record from before the launch names A; the replay's SessionStart named B after it.
    fn replay_with_record() -> Case {
        let mut new = gemini(ID_B, AFTER);
        new.source = Some("startup".into());
        Case {
            captured: captured(Some(new), vec![gemini(ID_A, BEFORE)]),
            pane: replayed_pane(AFTER),
            mode: RestoreMode::Live,
            restart: true,
        }
    }

    fn run(&self) -> PlanRow {
        let t = Transcripts::default();
        plan(&PlanInput {
            captured: std::slice::from_ref(&self.captured),
            panes: std::slice::from_ref(&self.pane),
            mode: Some(self.mode),
            launched_at: Some(ts(LAUNCH)),
            as_of: None,
            now: Some(ts(AFTER)),
            transcripts: &t,
            launch: None,
            restart: self.restart,
        })
        .remove(0)
    }
}

fn assert_restarts_with_a(row: &PlanRow) {
    let Action::Restart { line, .. } = &row.action else {
        panic!("expected a restart, got {row:#?}");
    };
    assert!(
        line.contains(ID_A) && line.contains("gemini-2.5-pro"),
        "{line}"
    );
    assert!(
        line.starts_with("cd '/w/p' && "),
        "the line carries its cd: {line}"
    );
    assert_eq!(row.session_id.as_deref(), Some(ID_A));
}

#[test]
fn a_replayed_agent_whose_start_wrote_a_record_is_restarted_into_the_panes_conversation() {
    assert_restarts_with_a(&Case::replay_with_record().run());
}

/// Row 7c (issue 32). Copilot fires no hook before its first prompt, and an agent whose hooks fail
/// fires none at all: the pane's record still names A, and the daemon's age proves the agent in front
/// is a replay — but not that nobody typed into it. Not restarted on our own: the row says why and
/// gives the line that brings A back.
#[test]
fn a_replayed_agent_without_any_record_since_the_launch_is_not_restarted_but_shown() {
    let case = Case {
        captured: captured(Some(gemini(ID_A, BEFORE)), vec![]),
        ..Case::replay_with_record()
    };
    let row = case.run();
    let Action::Skip {
        reason:
            SkipReason::HooksUnproven {
                agent,
                line,
                terminal,
            },
    } = &row.action
    else {
        panic!("expected hooks-unproven, got {row:#?}");
    };
    assert_eq!(agent, "gemini");
    assert!(
        line.contains(ID_A) && line.starts_with("cd '/w/p' && "),
        "{line}"
    );
    let text = SkipReason::HooksUnproven {
        agent: agent.clone(),
        line: line.clone(),
        terminal: *terminal,
    }
    .describe();
    assert!(
        text.contains(line.as_str()) && text.contains("not proven"),
        "{text}"
    );
}

#[test]
fn a_daemon_the_clean_quit_kept_runs_the_panes_own_agent() {
    let case = Case {
        captured: captured(Some(gemini(ID_A, BEFORE)), vec![]),
        pane: replayed_pane(BEFORE),
        ..Case::replay_with_record()
    };
    assert_eq!(
        case.run().action,
        Action::Skip {
            reason: SkipReason::AlreadyRunning { live: true }
        }
    );
}

#[test]
fn an_agent_someone_typed_into_is_left_alone_with_a_reason() {
    let mut case = Case::replay_with_record();
    let mut prompted = gemini(ID_B, "2026-12-01T08:01:00Z");
    prompted.event = "BeforeAgent".into();
    case.captured = captured(Some(prompted), vec![gemini(ID_A, BEFORE)]);
    let row = case.run();
    let Action::Skip { reason } = &row.action else {
        panic!("{row:#?}");
    };
    assert_eq!(reason.code(), "new-conversation");
    assert!(
        reason.describe().contains("typed into"),
        "{}",
        reason.describe()
    );
}

#[test]
fn without_session_restart_the_row_stays_busy_and_says_what_to_do() {
    let case = Case {
        restart: false,
        ..Case::replay_with_record()
    };
    let row = case.run();
    let Action::Skip { reason } = &row.action else {
        panic!("{row:#?}");
    };
    assert_eq!(reason.code(), "new-conversation");
    assert!(
        reason.describe().contains("update agterm"),
        "{}",
        reason.describe()
    );
}

#[test]
fn outside_live_or_in_a_remote_pane_nothing_is_restarted() {
    let rerun = Case {
        mode: RestoreMode::Rerun,
        ..Case::replay_with_record()
    };
    assert_eq!(
        rerun.run().action,
        Action::Skip {
            reason: SkipReason::NewConversation {
                agent: "gemini".into(),
                hint: NewHint::QuitIt
            }
        }
    );
    let mut remote = Case::replay_with_record();
    remote.pane.remote = true;
    assert_eq!(
        remote.run().action,
        Action::Skip {
            reason: SkipReason::Remote
        }
    );
}

#[test]
fn the_panes_own_conversation_is_never_replaced() {
    // Resumed by hand (its id on the command line).
    let mut by_argv = Case::replay_with_record();
    by_argv.pane.foreground = Some(vec!["gemini".into(), "--resume".into(), ID_A.into()]);
    assert_eq!(
        by_argv.run().action,
        Action::Skip {
            reason: SkipReason::AlreadyRunning { live: true }
        }
    );
    // Resumed from inside the agent (`/resume`): a record since the launch names A.
    let by_record = Case {
        captured: captured(Some(gemini(ID_A, AFTER)), vec![gemini(ID_A, BEFORE)]),
        ..Case::replay_with_record()
    };
    assert_eq!(
        by_record.run().action,
        Action::Skip {
            reason: SkipReason::AlreadyRunning { live: true }
        }
    );
}

#[test]
fn a_daemon_of_unknown_age_proves_nothing() {
    let mut case = Case {
        captured: captured(Some(gemini(ID_A, BEFORE)), vec![]),
        ..Case::replay_with_record()
    };
    case.pane.live.as_mut().unwrap().started_at = None;
    assert_eq!(
        case.run().action,
        Action::Skip {
            reason: SkipReason::AlreadyRunning { live: true }
        }
    );
}

/// A pin fires only in Re-run: in Fresh and Live a pinned idle pane is planned like any other (typed),
/// never skipped as `pinned`; `status` says so per mode.
#[test]
fn a_pin_is_consumed_only_in_rerun_and_status_says_what_brings_each_pane_back() {
    let rec = record(ID_A, PaneRole::Left, BEFORE);
    let mut t = Transcripts::default();
    t.paths.extend(rec.transcript_path.clone());
    let mut p = pane(PaneRole::Left);
    p.pin = Some(format!("claude --resume {ID_A}"));
    let code = |mode| {
        let rows = plan(&PlanInput {
            captured: &[captured(Some(rec.clone()), vec![])],
            panes: std::slice::from_ref(&p),
            mode: Some(mode),
            launched_at: Some(ts(LAUNCH)),
            as_of: None,
            now: Some(ts(AFTER)),
            transcripts: &t,
            launch: None,
            restart: true,
        });
        match &rows[0].action {
            Action::Skip { reason } => reason.code(),
            Action::Type { .. } => "type",
            other => panic!("{other:?}"),
        }
    };
    assert_eq!(code(RestoreMode::Rerun), "pinned");
    assert_eq!(code(RestoreMode::Live), "type");
    assert_eq!(code(RestoreMode::None), "type");
    use agterm_backup_agterm::report::what_brings_back;
    assert!(what_brings_back(Some(RestoreMode::Rerun), false).contains("pin itself"));
    for mode in [RestoreMode::None, RestoreMode::Live] {
        assert!(what_brings_back(Some(mode), true).contains("pins are only stored"));
    }
    assert!(what_brings_back(Some(RestoreMode::Live), true).contains("restarts a replayed"));
    assert!(what_brings_back(Some(RestoreMode::Live), false).contains("quit by hand"));
}
