//! "Which pane am I" in agterm, which names no tty for its panes: a terminal started inside a pane
//! (`script`, as a second terminal app or `ssh -t` would) carries the pane's `AGTERM_*` and agterm's own
//! `TERM_PROGRAM`, but its shell sits on another pty, under a process on the pane's. `shell-start` there
//! gives nothing (and says why in the log); the pane's own shell gets the resume.

use crate::restore_support::{uuid, Env, DENYLIST};
use agterm_backup_core::pane::PaneRole;
use agterm_backup_core::quote::quote;
use agterm_backup_core::terminal::RestoreMode;
use agterm_backup_testkit::fake_agterm::RestartKind;
use std::time::Duration;

const WITHIN: Duration = Duration::from_secs(30);

#[test]
fn a_terminal_started_in_an_agterm_pane_gets_nothing_and_the_pane_itself_does() {
    let mut env = Env::new("0.34", RestoreMode::None, Some(DENYLIST), false);
    let home = env.home.path().to_path_buf();
    let s = env.fake.add_session(None, None, &home, false);
    let id = uuid();
    let (dir, t) = env.project("api", &id);
    env.record(&s.id, PaneRole::Left, &id, &dir, &t, 30);
    // The pane comes back as a plain shell (no integration in its profile): it asks by hand below.
    env.fake.restart(RestartKind::CleanQuit);
    env.fake.wait_for_prompt(&s.id, PaneRole::Left);
    let ask = format!(
        "AGTERM_BACKUP_HOME={} {} shell-start --shell bash",
        quote(&home.join("state").display().to_string()),
        quote(agterm_backup_testkit::agterm_backup_bin!())
    );
    let resuming = format!("agterm-backup: resuming claude conversation {id}");

    // Inside `script` in the pane: the same environment, another pty.
    env.fake.send_keys(
        &s.id,
        PaneRole::Left,
        &format!(
            "script -qec {} /dev/null; echo script-$((6*7))\n",
            quote(&ask)
        ),
    );
    let screen = env
        .fake
        .wait_for_screen(&s.id, PaneRole::Left, "script-42", WITHIN);
    assert!(
        !screen.contains(&resuming),
        "resumed inside script:\n{screen}"
    );
    let log = std::fs::read_to_string(home.join("state/hook.log")).unwrap_or_default();
    assert!(
        log.contains("not this pane's own terminal"),
        "the log says why:\n{log}"
    );

    // The pane's own shell, on the pane's pty.
    env.fake.send_keys(
        &s.id,
        PaneRole::Left,
        &format!("{ask}; echo own-$((6*7))\n"),
    );
    let screen = env
        .fake
        .wait_for_screen(&s.id, PaneRole::Left, "own-42", WITHIN);
    assert!(
        screen.contains(&resuming),
        "the pane's own shell:\n{screen}"
    );
}
