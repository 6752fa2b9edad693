use super::*;
use crate::fixtures::{captured, pane, record, ID_A, ID_B};
use crate::mock::MockTerminal;
use crate::plan::{plan, PlanInput};
use crate::transcripts::Transcripts;
use agterm_backup_core::pane::PaneRole;
use agterm_backup_core::terminal::TerminalInfo;

const DIALOG: &str = "This session is 2h old and 150k tokens.\n❯ 1. Resume from summary (instant, recommended)\n  2. Resume full session as-is\n  3. Don't ask again\n";

fn fast(answer: Option<u8>) -> ExecOptions {
    ExecOptions {
        confirm_timeout: Duration::from_millis(300),
        settle: Duration::ZERO,
        dialog_timeout: Duration::from_millis(300),
        realize_timeout: Duration::ZERO,
        poll: Duration::from_millis(5),
        answer,
    }
}

fn setup() -> (Vec<PlanRow>, MockTerminal) {
    let a = record(ID_A, PaneRole::Left, "2026-11-30T10:00:00Z");
    let b = record(ID_B, PaneRole::Right, "2026-11-30T10:00:00Z");
    let mut t = Transcripts::default();
    t.paths.extend([
        a.transcript_path.clone().unwrap(),
        b.transcript_path.clone().unwrap(),
    ]);
    let panes = vec![pane(PaneRole::Left), pane(PaneRole::Right)];
    let rows = plan(&PlanInput {
        captured: &[captured(Some(a), vec![]), captured(Some(b), vec![])],
        panes: &panes,
        mode: None,
        launched_at: None,
        as_of: None,
        now: None,
        transcripts: &t,
        launch: None,
        restart: false,
    });
    (rows, MockTerminal::new(TerminalInfo::default(), panes))
}

/// A shell that runs what is typed: a line with `claude` puts claude in the foreground, and shows the
/// dialog when `dialog` is set; a digit typed at the dialog clears it.
fn shell(dialog: bool) -> crate::mock::Reaction {
    Box::new(move |_, text, view, screen| {
        if text.contains("'claude'") {
            let argv: Vec<String> = text
                .trim()
                .split(' ')
                .map(|w| w.trim_matches('\'').to_string())
                .collect();
            view.foreground =
                Some(argv[argv.iter().position(|w| w == "claude").unwrap()..].to_vec());
            *screen = if dialog {
                DIALOG.into()
            } else {
                "> \n? for shortcuts".into()
            };
        } else if text.len() == 1 {
            *screen = format!("picked {text}\n? for shortcuts");
        }
    })
}

#[test]
fn types_confirms_and_answers_with_the_digit() {
    let (rows, mut term) = setup();
    term.react = Some(shell(true));
    let tmp = tempfile::tempdir().unwrap();
    let mut lines = Vec::new();
    let out = type_plan(
        &mut term,
        &rows,
        &StateDir::at(tmp.path()),
        &fast(Some(2)),
        &mut |l: &str| lines.push(l.to_string()),
    );
    assert_eq!(out, vec![Some(Outcome::Resumed { answered: Some(2) }); 2]);
    let typed: Vec<&str> = term.typed.iter().map(|(_, t)| t.as_str()).collect();
    assert_eq!(typed.len(), 4);
    assert!(typed[0].ends_with(&format!("'--resume' '{ID_A}' '--model' 'sonnet'\n")));
    assert_eq!(typed[2], "2");
    assert_eq!(term.typed[3].0.role, PaneRole::Right);
    assert!(
        lines
            .iter()
            .any(|l| l.contains("answered the resume question: 2")),
        "{lines:?}"
    );
}

#[test]
fn no_answer_leaves_the_dialog() {
    let (rows, mut term) = setup();
    term.react = Some(shell(true));
    let tmp = tempfile::tempdir().unwrap();
    let out = type_plan(
        &mut term,
        &rows,
        &StateDir::at(tmp.path()),
        &fast(None),
        &mut |_: &str| {},
    );
    assert_eq!(out[0], Some(Outcome::Resumed { answered: None }));
    assert_eq!(term.typed.len(), 2, "only the two resume lines");
}

#[test]
fn a_pane_that_became_busy_after_planning_is_not_typed_into() {
    let (rows, mut term) = setup();
    term.react = Some(shell(false));
    term.on_read = Some(Box::new(|n, panes| {
        if n == 0 {
            panes[0].foreground = Some(vec!["vim".into()]);
        }
    }));
    let tmp = tempfile::tempdir().unwrap();
    let out = type_plan(
        &mut term,
        &rows,
        &StateDir::at(tmp.path()),
        &fast(Some(2)),
        &mut |_: &str| {},
    );
    assert!(matches!(&out[0], Some(Outcome::NotIdle(w)) if w.contains("vim")));
    assert_eq!(out[1], Some(Outcome::Resumed { answered: None }));
    assert!(term.typed.iter().all(|(p, _)| p.role == PaneRole::Right));
}

#[test]
fn an_agent_that_never_comes_up_is_reported() {
    let (rows, mut term) = setup();
    let tmp = tempfile::tempdir().unwrap();
    let out = type_plan(
        &mut term,
        &rows,
        &StateDir::at(tmp.path()),
        &fast(Some(2)),
        &mut |_: &str| {},
    );
    assert_eq!(out[0], Some(Outcome::TypedUnconfirmed));
    assert!(out[0].as_ref().unwrap().is_failure());
}

#[test]
fn over_long_lines_run_a_script() {
    let (mut rows, mut term) = setup();
    term.react = Some(shell(false));
    rows[0].flags = vec!["--append-system-prompt".into(), "x".repeat(2000)];
    let tmp = tempfile::tempdir().unwrap();
    type_plan(
        &mut term,
        &rows,
        &StateDir::at(tmp.path()),
        &fast(None),
        &mut |_: &str| {},
    );
    assert!(term.typed[0].1.starts_with("sh '"), "{}", term.typed[0].1);
    assert!(term.typed[0].1.len() < 1024);
}

#[test]
fn answer_finds_waiting_panes_only() {
    let (_, mut term) = setup();
    term.panes[0].foreground = Some(vec!["claude".into(), "--resume".into(), ID_A.into()]);
    term.panes[1].foreground = Some(vec!["claude".into()]);
    let left = PaneRef {
        session_id: term.panes[0].session_id.clone(),
        role: PaneRole::Left,
        pane_id: None,
    };
    let right = PaneRef {
        role: PaneRole::Right,
        ..left.clone()
    };
    term.set_screen(&left, DIALOG);
    term.set_screen(&right, "? for shortcuts");
    let found = answer_waiting(&mut term, 2, true).unwrap();
    assert_eq!(found.len(), 1);
    assert!(!found[0].answered);
    assert!(term.typed.is_empty(), "dry run types nothing");
    let found = answer_waiting(&mut term, 3, false).unwrap();
    assert!(found[0].answered);
    assert_eq!(term.typed, vec![(found[0].pane.clone(), "3".to_string())]);
    assert!(answer_waiting(&mut term, 7, false).is_err());
}

/// Records what restore reports, lines and waits apart.
#[derive(Default)]
struct Recorder {
    lines: Vec<String>,
    waits: Vec<(String, Vec<String>)>,
}

impl Progress for Recorder {
    fn line(&mut self, text: &str) {
        self.lines.push(text.to_string());
    }
    fn waiting(&mut self, what: &str, panes: &[String], _elapsed: Duration) {
        self.waits.push((what.to_string(), panes.to_vec()));
    }
}

#[test]
fn waiting_names_exactly_the_panes_not_up_yet() {
    let (rows, mut term) = setup();
    // Nothing ever comes up: restore waits on both panes until the timeout, then says so per pane.
    let tmp = tempfile::tempdir().unwrap();
    let mut rec = Recorder::default();
    let out = type_plan(
        &mut term,
        &rows,
        &StateDir::at(tmp.path()),
        &fast(None),
        &mut rec,
    );
    assert_eq!(out, vec![Some(Outcome::TypedUnconfirmed); 2]);
    assert!(!rec.waits.is_empty());
    let labels: Vec<String> = rows.iter().map(crate::render::pane_label).collect();
    for (what, panes) in &rec.waits {
        assert_eq!(what, "agents to come up");
        assert_eq!(panes, &labels);
    }
    assert!(rec
        .lines
        .iter()
        .any(|l| l.contains("did not reach the foreground")));
}

/// Types the plan with a throwaway state dir and no progress output.
fn quiet(term: &mut MockTerminal, rows: &[PlanRow], opts: &ExecOptions) -> Vec<Option<Outcome>> {
    let tmp = tempfile::tempdir().unwrap();
    type_plan(
        term,
        rows,
        &StateDir::at(tmp.path()),
        opts,
        &mut |_: &str| {},
    )
}

#[test]
fn a_half_typed_command_is_never_appended_to() {
    let (rows, mut term) = setup();
    term.react = Some(shell(false));
    let left = rows[0].target.clone().unwrap();
    term.set_screen(&left, "Last login: today\nme@host:~$ git sta");
    let out = quiet(&mut term, &rows, &fast(None));
    assert!(
        matches!(&out[0], Some(Outcome::NotIdle(w)) if w.contains("git sta")),
        "{out:?}"
    );
    assert_eq!(out[1], Some(Outcome::Resumed { answered: None }));
    assert!(term.typed.iter().all(|(p, _)| p.role == PaneRole::Right));
}

#[test]
fn the_line_is_rebuilt_for_where_the_shell_is_when_typing() {
    let (mut rows, mut term) = setup();
    term.react = Some(shell(false));
    // Planned while the shell sat in the agent's directory (no `cd`); the user then moved away.
    for p in term.panes.iter_mut() {
        p.cwd = Some("/w/p".into());
    }
    rows[0].pane_cwd = Some("/w/p".into());
    term.on_read = Some(Box::new(|n, panes| {
        if n == 0 {
            panes[0].cwd = Some("/tmp".into());
        }
    }));
    quiet(&mut term, &rows, &fast(None));
    assert!(
        term.typed[0].1.starts_with("cd '/w/p' && 'claude'"),
        "{}",
        term.typed[0].1
    );
    assert!(
        term.typed[1].1.starts_with("'claude'"),
        "{}",
        term.typed[1].1
    );
}

#[test]
fn panes_that_turned_remote_unrealized_or_unreadable_are_not_typed_into() {
    for change in [
        |p: &mut PaneView| p.remote = true,
        |p: &mut PaneView| p.realized = Some(false),
        |p: &mut PaneView| p.shell_in_front = Some(false),
    ] {
        let (rows, mut term) = setup();
        term.react = Some(shell(false));
        term.on_read = Some(Box::new(move |n, panes| {
            if n == 0 {
                change(&mut panes[0]);
            }
        }));
        let out = quiet(&mut term, &rows, &fast(None));
        assert!(matches!(&out[0], Some(Outcome::NotIdle(_))), "{out:?}");
        assert!(term.typed.iter().all(|(p, _)| p.role == PaneRole::Right));
    }
}

#[test]
fn an_agent_that_exits_at_once_is_not_running() {
    let (rows, mut term) = setup();
    // The agent shows in the foreground once, then exits with an argument error.
    term.react = Some(Box::new(|_, text, view, screen| {
        if text.contains("'claude'") {
            view.foreground = Some(vec!["claude".into(), "--max-turns".into()]);
            *screen = "$ claude --resume x --max-turns\nerror: option '--max-turns <turns>' argument missing\n$ ".into();
        }
    }));
    let reads = std::rc::Rc::new(std::cell::Cell::new(0usize));
    let seen = reads.clone();
    term.on_read = Some(Box::new(move |n, panes| {
        seen.set(n);
        // Reads 0 and 1 are the re-checks before typing; 2 sees the agents up; later reads see them gone.
        if n >= 3 {
            for p in panes.iter_mut() {
                p.foreground = None;
            }
        }
    }));
    let mut opts = fast(None);
    opts.settle = Duration::from_millis(50);
    let out = quiet(&mut term, &rows, &opts);
    for o in &out {
        assert!(
            matches!(o, Some(Outcome::Exited(l)) if l.contains("argument missing")),
            "{out:?}"
        );
        assert!(o.as_ref().unwrap().is_failure());
    }
    assert!(reads.get() >= 3);
}

#[test]
fn an_agent_missing_from_one_reading_of_its_pane_is_still_running() {
    let (rows, mut term) = setup();
    term.react = Some(Box::new(|_, text, view, _| {
        if text.contains("'claude'") {
            view.foreground = Some(vec!["claude".into()]);
        }
    }));
    // Read 2 sees the agents up; read 3 alone shows no foreground (a pane read mid-fork); later ones
    // see them again.
    term.on_read = Some(Box::new(|n, panes| {
        if n == 3 {
            for p in panes.iter_mut() {
                p.foreground = None;
            }
        } else if n > 3 {
            for p in panes.iter_mut() {
                p.foreground = Some(vec!["claude".into()]);
            }
        }
    }));
    let mut opts = fast(None);
    opts.settle = Duration::from_millis(50);
    let out = quiet(&mut term, &rows, &opts);
    assert!(
        out.iter()
            .all(|o| matches!(o, Some(Outcome::Resumed { .. }))),
        "{out:?}"
    );
}

#[test]
fn an_agent_that_exits_before_it_is_ever_seen_is_not_running() {
    let (rows, mut term) = setup();
    for r in &rows {
        let t = r.target.as_ref().unwrap();
        term.set_screen(
            t,
            "Resume this session with:\nclaude --resume 77e8ca85-2b1c-4a8e-9d0b-0c1d2e3f4a5b\n$ ",
        );
    }
    // The line runs and the agent refuses its arguments between two polls: agterm never shows it.
    term.react = Some(Box::new(|_, text, _, screen| {
        if text.contains("'claude'") {
            screen.push_str(text);
            screen.push_str("error: option '--max-turns <turns>' argument missing\n$ ");
        }
    }));
    let out = quiet(&mut term, &rows, &fast(None));
    for o in &out {
        assert!(
            matches!(o, Some(Outcome::Exited(l)) if l.contains("argument missing")),
            "{out:?}"
        );
    }
}

#[test]
fn a_typed_line_not_yet_run_is_not_an_exit() {
    let (rows, mut term) = setup();
    // The shell echoed the line but has not run it yet (a slow start): no verdict but unconfirmed.
    term.react = Some(Box::new(|_, text, _, screen| {
        screen.push_str("$ ");
        screen.push_str(text.trim_end());
    }));
    let out = quiet(&mut term, &rows, &fast(None));
    assert!(
        out.iter()
            .all(|o| matches!(o, Some(Outcome::TypedUnconfirmed))),
        "{out:?}"
    );
}
