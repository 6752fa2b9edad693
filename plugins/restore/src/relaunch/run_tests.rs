//! `restart`'s edge against the in-memory terminal: the marker is there while the agent quits, a quit
//! that never lands leaves the agent alone (failed, marker gone), a quit that lands is followed by the
//! resume line, and the filters pick panes.

use super::*;
use crate::fixtures::{pane, record, ID_A};
use crate::mock::MockTerminal;
use agterm_backup_core::pane::PaneRole;
use agterm_backup_core::terminal::TerminalInfo;

const RULE: &str = "────────────────────────────────────────";

fn claude_screen() -> String {
    format!("● stub reply to: hi\n{RULE}\n❯ \n{RULE}\n  ? for shortcuts\n")
}

fn opts() -> ExecOptions {
    ExecOptions {
        confirm_timeout: Duration::from_millis(400),
        settle: Duration::ZERO,
        dialog_timeout: Duration::from_millis(400),
        realize_timeout: Duration::ZERO,
        poll: Duration::from_millis(10),
        answer: Some(2),
    }
}

/// A state folder holding an idle Claude record for the left pane, and a terminal showing Claude there.
fn world() -> (tempfile::TempDir, StateDir, MockTerminal) {
    let dir = tempfile::tempdir().unwrap();
    let state = StateDir::at(dir.path());
    state.ensure().unwrap();
    let mut rec = record(ID_A, PaneRole::Left, "2026-12-05T10:00:00.000Z");
    rec.event = "Stop".into();
    agterm_backup_terminals::write_record(&state, &rec).unwrap();
    let mut p = pane(PaneRole::Left);
    p.cwd = Some("/w/p".into());
    p.foreground = Some(vec!["claude".into(), "--model".into(), "sonnet".into()]);
    p.shell_in_front = Some(false);
    let mut term = MockTerminal::new(TerminalInfo::default(), vec![p.clone()]);
    term.set_screen(&pane_ref(&p), &claude_screen());
    (dir, state, term)
}

fn progress() -> impl FnMut(&str) {
    |_: &str| {}
}

#[test]
fn a_quit_that_never_lands_leaves_the_agent_alone_and_no_marker() {
    let (_d, state, mut term) = world();
    let seen = look(&mut term, &state, &Filter::default()).unwrap();
    assert_eq!(seen.len(), 1);
    assert_eq!(seen[0].verdict, Verdict::Restart { quit: "/exit" });
    let mut row = planned_row(&seen[0], &mut Versions::default());
    assert_eq!(row.status, "restart");
    let back = restart_one(
        &mut term,
        &state,
        &seen[0],
        &mut row,
        &opts(),
        &mut progress(),
    );
    assert!(!back);
    assert_eq!(row.status, "failed");
    assert!(
        row.reason.as_deref().unwrap().contains("did not quit"),
        "{row:?}"
    );
    let typed: Vec<&str> = term.typed.iter().map(|(_, t)| t.as_str()).collect();
    assert_eq!(
        typed,
        ["/exit", "\n"],
        "no resume line typed into the agent"
    );
    assert!(restarting::read(&state, &seen[0].key).is_none());
}

#[test]
fn the_quit_then_the_resume_line_in_the_same_pane_with_the_marker_held_meanwhile() {
    let (_d, state, mut term) = world();
    let key = agterm_backup_agterm::key::key(crate::fixtures::SESSION, PaneRole::Left).unwrap();
    let (st, k) = (state.clone(), key.clone());
    term.react = Some(Box::new(move |_, text, view, screen| {
        if text == "/exit" {
            assert!(
                restarting::read(&st, &k).is_some(),
                "the marker comes first"
            );
            screen.push_str("❯ /exit\n");
        } else if text == "\n" && view.foreground.is_some() {
            view.foreground = None;
            view.shell_in_front = Some(true);
            *screen = "pane$ ".into();
        } else if text.contains("--resume") {
            view.foreground = Some(vec!["claude".into(), "--resume".into(), ID_A.into()]);
            view.shell_in_front = Some(false);
            *screen = claude_screen();
        }
    }));
    let seen = look(&mut term, &state, &Filter::default()).unwrap();
    let mut row = planned_row(&seen[0], &mut Versions::default());
    assert!(restart_one(
        &mut term,
        &state,
        &seen[0],
        &mut row,
        &opts(),
        &mut progress()
    ));
    assert_eq!(row.status, "restarted");
    let typed: Vec<&str> = term.typed.iter().map(|(_, t)| t.as_str()).collect();
    assert_eq!(typed.len(), 3, "{typed:?}");
    assert!(
        typed[2].contains("--resume") && typed[2].contains(ID_A),
        "{typed:?}"
    );
    assert!(typed[2].contains("sonnet"), "the record's flags: {typed:?}");
    assert!(
        restarting::read(&state, &key).is_none(),
        "the marker is gone"
    );
}

#[test]
fn the_filters_pick_agents_and_panes() {
    let (_d, state, mut term) = world();
    let codex = Filter {
        agents: vec!["codex".into()],
        pane: None,
    };
    assert!(look(&mut term, &state, &codex).unwrap().is_empty());
    let by_label = Filter {
        agents: vec!["claude".into()],
        pane: Some("api · left".into()),
    };
    assert_eq!(look(&mut term, &state, &by_label).unwrap().len(), 1);
    let other = Filter {
        agents: Vec::new(),
        pane: Some("api · right".into()),
    };
    assert!(look(&mut term, &state, &other).unwrap().is_empty());
}
