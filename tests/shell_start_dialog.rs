//! Claude's "resume from summary?" question after a shell resumed the conversation itself: the fake
//! agterm's login shells carry `init bash`, a stand-in `claude` asks the question on `--resume`
//! (`restore_support::stand_in`). `shell-start` leaves a background answerer for its own pane only: the
//! default answers 2 as `restore` does, `AGTERM_BACKUP_ANSWER=3` picks another option, and
//! `AGTERM_BACKUP_ANSWER=no` leaves the question to the user; nobody types anything else, and a
//! `restore --yes` afterwards types nothing.

mod restore_support;

use agterm_backup_core::pane::PaneRole;
use agterm_backup_core::quote::quote;
use agterm_backup_core::terminal::RestoreMode;
use agterm_backup_testkit::fake_agterm::RestartKind;
use restore_support::{text, uuid, Env, DENYLIST};
use std::time::Duration;

#[test]
fn a_shell_resumed_claude_gets_its_question_answered_as_configured_in_its_own_pane() {
    let mut env = Env::new("0.34", RestoreMode::None, Some(DENYLIST), true);
    let home = env.home.path();
    let bin = quote(env!("CARGO_BIN_EXE_agterm-backup"));
    let state = quote(&home.join("state").display().to_string());
    // The stand-in's PATH line stays; the user's choice per pane, then the shell integration.
    let mut profile = std::fs::read_to_string(home.join(".bash_profile")).unwrap();
    profile.push_str(&format!(
        "export AGTERM_BACKUP_HOME={state}\n\
         case \"$AGTERM_SESSION_ID-$AGTERM_PANE\" in\n\
         *-right) export AGTERM_BACKUP_ANSWER=no ;;\n\
         \"$AGB_THREE\"-left) export AGTERM_BACKUP_ANSWER=3 ;;\n\
         esac\n\
         eval \"$({bin} init bash)\"\n"
    ));
    let s = env.fake.add_session(None, None, home, true);
    let three = env.fake.add_session(None, None, home, false);
    profile = profile.replace("$AGB_THREE", &three.id);
    std::fs::write(home.join(".bash_profile"), profile).unwrap();
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
    std::thread::sleep(Duration::from_secs(3));
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
