//! Restore's promises with the real Claude Code CLI (the pinned 2.1.328, offline against the stub model)
//! in the fake agterm, after `installer apply --trust` and a clean quit of agterm 0.15 (no pins; the
//! denylist keeps agterm from replaying the agents):
//!
//! - **One conversation, one pane.** Pane `b`'s record names pane `a`'s conversation, newer (it was
//!   resumed there by hand): only `b` is typed, the real Claude resumes that conversation there, `a` is a
//!   `duplicate`, and a second restore types neither again.
//! - **An agent that exits at once is not running.** Pane `c`'s record carries a flag value Claude refuses
//!   (`--permission-mode bogus`): the resume line is typed, Claude exits with its argument error, and the
//!   row says `exited: …`.
//!
//! Fails when `CI` is set and the CLIs are missing.

use crate::e2e_restart_common::checks::{assert_resumed_session_start, wait_records};
use crate::e2e_restart_common::lineup::{Lineup, PaneSpec};
use crate::e2e_restart_common::{text, World};
#[allow(dead_code)]
use agterm_backup_core::pane::PaneRole;
use agterm_backup_core::record::LiveRecord;
use agterm_backup_core::state::StateDir;
use agterm_backup_core::terminal::RestoreMode;
use agterm_backup_testkit::agents::Agent;
use agterm_backup_testkit::fake_agterm::RestartKind;

const fn claude(name: &'static str, session: usize, dir: &'static str) -> PaneSpec {
    PaneSpec {
        name,
        agent: Agent::Claude,
        session,
        role: PaneRole::Left,
        dir,
        flags: &[],
        prompt: name,
        prompt_as_argument: true,
        daemon: false,
        stop_cwd: None,
    }
}

const THREE: Lineup = Lineup {
    sessions: &[
        ("main proj", false),
        ("second proj", false),
        ("third proj", false),
    ],
    panes: &[
        claude("pane a speaks", 0, "main proj"),
        claude("pane b speaks", 1, "second proj"),
        claude("pane c speaks", 2, "third proj"),
    ],
};

#[test]
fn one_conversation_one_pane_and_an_agent_refusing_its_flags_is_not_running() {
    let Some(mut world) = World::start("0.15", RestoreMode::Rerun) else {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI is set but the real agent CLIs are missing: run tests/install-deps.sh"
        );
        return;
    };
    world.start_agents(&THREE);
    wait_records(&world);
    world.fake.restart(RestartKind::CleanQuit);
    let mark = world.log.calls().len();
    // Edited after the quit (no agent is left to rewrite them), dated before this launch.
    let state = StateDir::at(&world.rig.state_dir);
    let key = |i: usize| {
        agterm_backup_agterm::key::key(&world.panes[i].session, world.panes[i].role).unwrap()
    };
    let read = |i: usize| -> LiveRecord { state.read_record(&key(i)).expect("a record") };
    let ago = |secs: i64| (chrono::Utc::now() - chrono::Duration::seconds(secs)).to_rfc3339();
    // `b` resumed `a`'s conversation by hand after `a` quit it: its record names it, newer.
    let (mut a, mut b) = (read(0), read(1));
    assert_eq!(a.session_id, world.panes[0].id);
    a.ts = ago(120);
    b.session_id = a.session_id.clone();
    b.agent_cwd = a.agent_cwd.clone();
    b.transcript_path = a.transcript_path.clone();
    b.ts = ago(60);
    // `c` carries a flag value the real Claude refuses.
    let mut c = read(2);
    c.flags.extend(["--permission-mode".into(), "bogus".into()]);
    c.ts = ago(60);
    for r in [&a, &b, &c] {
        agterm_backup_terminals::write_record(&state, r).unwrap();
        agterm_backup_terminals::append_journal(&state, r).unwrap();
    }

    let (out, plan) = world.restore();
    let row = |i: usize| {
        plan["rows"]
            .as_array()
            .unwrap_or_else(|| panic!("no plan: {}\n{}", text(&out.stdout), text(&out.stderr)))
            .iter()
            .find(|r| r["pane"] == key(i).to_string())
            .unwrap_or_else(|| panic!("no row {i}: {plan}"))
            .clone()
    };
    assert_eq!(row(0)["reason"], "duplicate", "{plan}");
    assert_eq!(row(1)["action"], "type", "{plan}");
    assert_eq!(row(1)["session_id"], a.session_id.as_str());
    assert_eq!(row(1)["outcome"], "resumed", "{plan}");
    let mut resumed = world.panes[1].clone();
    resumed.id = a.session_id.clone();
    resumed.dir = world.panes[0].dir.clone();
    assert_resumed_session_start(&world, &resumed, mark);
    let exited = row(2)["outcome"].as_str().unwrap_or_default().to_string();
    assert!(
        exited.starts_with("exited:") && exited.contains("'bogus' is invalid"),
        "{}\n{}",
        row(2),
        world.fake.screen(&world.panes[2].session, PaneRole::Left)
    );
    assert!(!out.status.success(), "an agent that exited is a failure");
    let typed_into = |i: usize| {
        world
            .fake
            .typed_log()
            .iter()
            .filter(|t| t.session == world.panes[i].session)
            .count()
    };
    assert_eq!((typed_into(0), typed_into(1)), (0, 1));

    // Again: `b` runs the conversation, `a` stays a duplicate; neither is typed into again.
    let (_, again) = world.restore();
    let reason = |i: usize| {
        again["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["pane"] == key(i).to_string())
            .map(|r| r["reason"].clone())
    };
    assert_eq!(reason(0).unwrap(), "duplicate", "{again}");
    assert_eq!(reason(1).unwrap(), "already-running", "{again}");
    assert_eq!((typed_into(0), typed_into(1)), (0, 1));
}
