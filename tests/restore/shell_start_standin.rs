//! The shell integration in the fake agterm's bash login shells (`init bash`) with a stand-in `claude`
//! that asks Claude's "resume from summary?" question on `--resume` (`restore_support::stand_in`).
//!
//! Two panes holding the same conversation: only the pane that held it last resumes it. And the
//! question after a shell resumed the conversation itself: `shell-start` leaves a background answerer for its own pane only: the
//! default answers 2 as `restore` does, `AGTERM_BACKUP_ANSWER=3` picks another option, and
//! `AGTERM_BACKUP_ANSWER=no` leaves the question to the user; nobody types anything else, and a
//! `restore --yes` afterwards types nothing.

use crate::restore_support::{text, uuid, Env, DENYLIST};
use agterm_backup_core::pane::PaneRole;
use agterm_backup_core::quote::quote;
use agterm_backup_core::terminal::RestoreMode;
use agterm_backup_testkit::fake_agterm::RestartKind;
use agterm_backup_testkit::settle::{wait_runs_gone, wait_settled, Runs};
use std::time::Duration;

/// Appends `AGTERM_BACKUP_HOME` and `extra` and the shell integration to the stand-in's .bash_profile.
fn with_integration(env: &Env, extra: &str) {
    let home = env.home.path();
    let bin = quote(agterm_backup_testkit::agterm_backup_bin!());
    let state = quote(&home.join("state").display().to_string());
    let mut profile = std::fs::read_to_string(home.join(".bash_profile")).unwrap();
    profile.push_str(&format!(
        "export AGTERM_BACKUP_HOME={state}\n{extra}eval \"$({bin} init bash)\"\n"
    ));
    std::fs::write(home.join(".bash_profile"), profile).unwrap();
}

#[test]
fn two_panes_holding_one_conversation_resume_it_once_in_the_pane_that_held_it_last() {
    let mut env = Env::new("0.34", RestoreMode::None, Some(DENYLIST), false);
    let home = env.home.path().to_path_buf();
    with_integration(&env, "");
    let a = env.fake.add_session(None, None, &home, false);
    let b = env.fake.add_session(None, None, &home, false);
    let id = uuid();
    let (dir, t) = env.project("api", &id);
    env.record(&a.id, PaneRole::Left, &id, &dir, &t, 90);
    env.record(&b.id, PaneRole::Left, &id, &dir, &t, 30);
    env.fake.restart(RestartKind::CleanQuit);
    env.fake.wait_for_screen(
        &b.id,
        PaneRole::Left,
        &format!("STANDIN argv: --resume {id}"),
        Duration::from_secs(30),
    );
    env.fake.wait_for_prompt(&a.id, PaneRole::Left);
    // Pane A's prompt is drawn after its `shell-start` returned; once no `shell-start` is left, nothing
    // more happens in it.
    wait_settled(&home, Duration::from_secs(60));
    let screen = env.fake.screen(&a.id, PaneRole::Left);
    assert!(!screen.contains("STANDIN"), "resumed twice:\n{screen}");
    assert!(env.fake.typed_log().is_empty(), "nothing typed");
}

#[test]
fn a_shell_resumed_claude_gets_its_question_answered_as_configured_in_its_own_pane() {
    let mut env = Env::new("0.34", RestoreMode::None, Some(DENYLIST), true);
    let home = env.home.path().to_path_buf();
    let s = env.fake.add_session(None, None, &home, true);
    let three = env.fake.add_session(None, None, &home, false);
    // The user's choice per pane, before the shell integration.
    with_integration(
        &env,
        &format!(
            "case \"$AGTERM_SESSION_ID-$AGTERM_PANE\" in\n\
             *-right) export AGTERM_BACKUP_ANSWER=no ;;\n\
             {}-left) export AGTERM_BACKUP_ANSWER=3 ;;\n\
             esac\n",
            three.id
        ),
    );
    let mut ids = Vec::new();
    for (session, role, name) in [
        (&s.id, PaneRole::Left, "api"),
        (&s.id, PaneRole::Right, "docs"),
        (&three.id, PaneRole::Left, "web"),
    ] {
        let id = uuid();
        let (dir, t) = env.project(name, &id);
        env.record(session, role, &id, &dir, &t, 30);
        ids.push(id);
    }
    env.fake.restart(RestartKind::CleanQuit);

    let wait = |session: &str, role, needle: &str| {
        env.fake
            .wait_for_screen(session, role, needle, Duration::from_secs(30))
    };
    wait(&s.id, PaneRole::Left, "STANDIN answered: 2");
    wait(&three.id, PaneRole::Left, "STANDIN answered: 3");
    let asking = wait(&s.id, PaneRole::Right, "Resume full session as-is");
    assert!(asking.contains(&format!("--resume {}", ids[1])), "{asking}");
    // Whoever could answer the right pane's question: a `shell-start` and the answerers it leaves. Once
    // none is left, the question stays the user's.
    let answerers = Runs {
        subcommands: &["shell-start", "shell-answer", "restore"],
        scripts: &[],
    };
    wait_runs_gone(&home, answerers, Duration::from_secs(60));
    let still = env.fake.screen(&s.id, PaneRole::Right);
    assert!(
        !still.contains("STANDIN answered"),
        "no: left to the user\n{still}"
    );
    let mut typed: Vec<String> = env.fake.typed_log().into_iter().map(|t| t.text).collect();
    typed.sort();
    assert_eq!(typed, ["2", "3"], "only the two answers were typed");
    let out = env.run(&["restore", "--yes"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(env.fake.typed_log().len(), 2, "{}", text(&out.stdout));
}
