//! The agterm client against the fake agterm (a real process on a real socket, panes in tmux) at every
//! version the suite cares about: feature detection, the launch identity, the pane view, typing, reading
//! and pinning.

use agterm_backup_agterm::{AgtermTerminal, Client, Launch, Timeouts};
use agterm_backup_core::pane::PaneRole;
use agterm_backup_core::terminal::{PaneRef, RestoreMode, ScreenRange, Terminal, TerminalError};
use agterm_backup_testkit::fake_agterm::{FakeAgterm, FakeConfig, RestartKind};
use std::time::Duration;

fn start(
    version: &str,
    mode: RestoreMode,
) -> (FakeAgterm, agterm_backup_testkit::scratch::ScratchDir) {
    let home = agterm_backup_testkit::scratch::tempdir();
    let fake = FakeAgterm::start(
        FakeConfig::new(version, mode).env("HOME", home.path().to_str().unwrap()),
    );
    (fake, home)
}

fn terminal(fake: &FakeAgterm) -> AgtermTerminal {
    AgtermTerminal::new(Client::new(fake.socket(), Timeouts::CLI))
}

fn pane(session: &str, role: PaneRole, pane_id: Option<String>) -> PaneRef {
    PaneRef {
        session_id: session.to_string(),
        role,
        pane_id,
    }
}

#[test]
fn feature_detection_at_every_version() {
    // (version, `version` answer, pins, restore mode, zmx.list)
    let cases = [
        ("0.15", None, false, None, false),
        ("0.16", None, true, None, false),
        ("0.24", None, true, None, false),
        ("0.26", Some("0.26.0"), true, Some(RestoreMode::Rerun), true),
        ("0.34", Some("0.34.0"), true, Some(RestoreMode::Rerun), true),
    ];
    for (version, said, pins, mode, live) in cases {
        let (fake, _home) = start(version, RestoreMode::Rerun);
        let info = terminal(&fake).info().unwrap();
        assert_eq!(info.version.as_deref(), said, "{version}");
        assert_eq!(info.supports_pin, pins, "{version}");
        assert_eq!(info.restore_mode, mode, "{version}");
        assert_eq!(info.supports_live, live, "{version}");
        let launch = Launch::of_pid(fake.pid()).unwrap();
        assert_eq!(
            info.launched_at,
            Some(launch.started_at),
            "{version}: launch of the fake's pid"
        );
    }
}

#[test]
fn the_active_mode_is_read_not_guessed() {
    let (fake, _home) = start("0.34", RestoreMode::Live);
    assert_eq!(
        terminal(&fake).info().unwrap().restore_mode,
        Some(RestoreMode::Live)
    );
    let (fake, _home) = start("0.26", RestoreMode::None);
    assert_eq!(
        terminal(&fake).info().unwrap().restore_mode,
        Some(RestoreMode::None)
    );
}

/// A process start time's resolution (`USER_HZ` 100).
const CLOCK_TICK: Duration = Duration::from_millis(10);

#[test]
fn a_relaunch_is_seen_as_a_new_launch() {
    let (mut fake, _home) = start("0.34", RestoreMode::Rerun);
    let mut term = terminal(&fake);
    let first = term.info().unwrap();
    assert_eq!(term.info().unwrap(), first, "same launch, same answers");
    let old_pid = fake.pid();
    // Process start times have 10 ms resolution (clock ticks): the old process started before now, the
    // new one starts a tick after, so the two differ.
    agterm_backup_testkit::clock::wait_clock_past(std::time::SystemTime::now() + CLOCK_TICK);
    fake.restart(RestartKind::CleanQuit);
    assert_ne!(fake.pid(), old_pid);
    let second = term.info().unwrap();
    assert!(
        second.launched_at > first.launched_at,
        "{first:?} vs {second:?}"
    );
}

#[test]
fn panes_type_and_screen_against_real_shells() {
    for version in ["0.16", "0.34"] {
        let (fake, home) = start(version, RestoreMode::Rerun);
        let work = home.path().join("proj");
        std::fs::create_dir(&work).unwrap();
        let s = fake.add_session(None, None, &work, true);
        let mut term = terminal(&fake);
        let panes = term.panes().unwrap();
        let mine: Vec<_> = panes.iter().filter(|p| p.session_id == s.id).collect();
        assert_eq!(
            mine.iter().map(|p| p.role).collect::<Vec<_>>(),
            [PaneRole::Left, PaneRole::Right],
            "{version}: {panes:?}"
        );
        assert_eq!(
            mine[0].cwd.as_deref(),
            Some(work.to_str().unwrap()),
            "{version}"
        );
        assert_eq!(mine[0].foreground, None, "{version}: idle shell");
        assert_eq!(mine[0].pin, None);

        let right = pane(&s.id, PaneRole::Right, None);
        term.type_text(&right, "echo typed-$((6*7))\n").unwrap();
        fake.wait_for_screen(&s.id, PaneRole::Right, "typed-42", Duration::from_secs(5));
        let screen = term.screen(&right, ScreenRange::All).unwrap();
        assert!(screen.contains("typed-42"), "{version}: {screen}");
        let last = term.screen(&right, ScreenRange::LastLines(1)).unwrap();
        assert!(
            !last.contains("echo typed"),
            "{version}: one line only: {last:?}"
        );
    }
}

#[test]
fn pins_land_on_the_right_pane_or_report_unsupported() {
    for version in ["0.16", "0.24", "0.26", "0.34"] {
        let (fake, home) = start(version, RestoreMode::Rerun);
        let s = fake.add_session(None, None, home.path(), true);
        let mut term = terminal(&fake);
        let left = pane(&s.id, PaneRole::Left, Some(s.left.pane_id.clone()));
        let right_id = s.right.as_ref().unwrap().pane_id.clone();
        let right = pane(&s.id, PaneRole::Right, Some(right_id));
        assert_eq!(
            term.pin(&left, "cd '/w' && 'claude' '--resume' 'a'")
                .unwrap(),
            None,
            "{version}"
        );
        assert_eq!(
            term.pin(&right, "cd '/w' && 'codex' 'resume' 'b'").unwrap(),
            None,
            "{version}"
        );
        assert_eq!(
            fake.pin(&s.id, PaneRole::Left).as_deref(),
            Some("cd '/w' && 'claude' '--resume' 'a'")
        );
        assert_eq!(
            fake.pin(&s.id, PaneRole::Right).as_deref(),
            Some("cd '/w' && 'codex' 'resume' 'b'")
        );
        // The tree reports them back.
        let panes = term.panes().unwrap();
        let r = panes
            .iter()
            .find(|p| p.session_id == s.id && p.role == PaneRole::Right)
            .unwrap();
        assert_eq!(
            r.pin.as_deref(),
            Some("cd '/w' && 'codex' 'resume' 'b'"),
            "{version}"
        );
    }
    let (fake, home) = start("0.15", RestoreMode::Rerun);
    let s = fake.add_session(None, None, home.path(), false);
    let err = terminal(&fake)
        .pin(
            &pane(&s.id, PaneRole::Left, Some(s.left.pane_id.clone())),
            "x",
        )
        .unwrap_err();
    assert!(matches!(err, TerminalError::Unsupported(_)), "{err:?}");
}

#[test]
fn the_setting_off_note_comes_back() {
    let (fake, home) = start("0.34", RestoreMode::None);
    let s = fake.add_session(None, None, home.path(), false);
    let note = terminal(&fake)
        .pin(
            &pane(&s.id, PaneRole::Left, Some(s.left.pane_id.clone())),
            "cd '/w' && 'claude'",
        )
        .unwrap();
    assert!(note.is_some_and(|n| !n.is_empty()));
    assert_eq!(
        fake.pin(&s.id, PaneRole::Left).as_deref(),
        Some("cd '/w' && 'claude'")
    );
}

#[test]
fn refusals_carry_agterms_text() {
    let (fake, home) = start("0.34", RestoreMode::Rerun);
    let s = fake.add_session(None, None, home.path(), false);
    let mut term = terminal(&fake);
    match term.pin(&pane(&s.id, PaneRole::Right, None), "x") {
        Err(TerminalError::Refused(e)) => assert_eq!(e, "session has no split"),
        other => panic!("{other:?}"),
    }
    match term.type_text(
        &pane("FFFFFFFF-0000-0000-0000-000000000000", PaneRole::Left, None),
        "x",
    ) {
        Err(TerminalError::Refused(e)) => assert!(e.starts_with("no such session"), "{e}"),
        other => panic!("{other:?}"),
    }
}
