//! Issue 23's restart proof with the real Kimi Code 2.1.0 (its npm launcher on Node 22, offline against
//! the stub model) in two panes of the fake agterm, wired by `installer apply --trust`; one restart
//! flavour per test:
//!
//! - **0.15** ("restore running commands" on): a clean quit. agterm captures each pane's foreground argv,
//!   which for Kimi is the title it gave its process, `kimi-code` alone (no flag, no conversation). Our
//!   denylist block names `kimi-code` (no install has that command: npm's is `kimi`), so agterm gives the
//!   pane a plain shell instead of a replay the shell would refuse; `restore --yes` types each pane's
//!   resume line, once.
//! - **Live after a reboot** (agterm 0.44, with `session.restart`): the same denial, so there is no
//!   replayed agent to restart: each pane is an idle shell and `restore --yes` types its line.
//! - **0.34 rerun with pins**: the hook pinned each resume line and agterm types it itself.
//!
//! Every pane must come back with Kimi's own SessionStart `source: "resume"`, its conversation id and its
//! directory (the right pane's is not its session's), once (`e2e_restart_common::checks`). Skipped with a
//! SKIPPED line when the CLIs are absent (a failure when `CI` is set).

use crate::e2e_restart_common::flavours::{
    agterm_0_34_rerun_pins, assert_all_resumed, assert_restore_typed_each_pane_once, before_restart,
};
use crate::e2e_restart_common::lineup::KIMI;
use crate::e2e_restart_common::{World, TURN};
use agterm_backup_core::state::StateDir;
use agterm_backup_core::terminal::RestoreMode;
use agterm_backup_testkit::fake_agterm::{wait_until, RestartKind};
use agterm_backup_testkit::paths::agent_cli;

/// agterm captured each Kimi pane as `kimi-code` and, told by our denylist block, gave it a plain shell.
fn the_title_is_denied(world: &World) {
    for pane in &world.panes {
        let denied = wait_until(TURN, || {
            world
                .fake
                .launch_actions(&pane.session)
                .iter()
                .any(|(r, a)| *r == pane.role && a == "denied")
        });
        assert!(
            denied,
            "{}: agterm's launch log: {:?}",
            pane.name,
            world.fake.launch_log()
        );
        world.fake.wait_for_prompt(&pane.session, pane.role);
        let tmux_pane = world.fake.pane_tmux_id(&pane.session, pane.role);
        let screen = world.fake.tmux().capture(&tmux_pane, true);
        assert!(!screen.contains("command not found"), "{screen}");
    }
}

fn restart_then_restore(version: &str, mode: RestoreMode) {
    if agent_cli("kimi").is_none() {
        return;
    }
    let Some(mut world) = World::start(version, mode) else {
        return;
    };
    let config = std::fs::read_to_string(world.rig.home.kimi_home().join("config.toml")).unwrap();
    assert!(config.contains("hook kimi"), "wired: {config}");
    world.start_agents(&KIMI);
    let before = before_restart(&world);
    match mode {
        RestoreMode::Live => world.reboot(),
        _ => world.fake.restart(RestartKind::CleanQuit),
    }
    the_title_is_denied(&world);
    assert_restore_typed_each_pane_once(&world);
    assert_all_resumed(&world, &before);
    assert_record_names_the_resumed_process(&world);
}

/// The resumed Kimi's own hooks moved each pane's record onto its new process: a second restart finds
/// the conversation by it.
fn assert_record_names_the_resumed_process(world: &World) {
    for pane in &world.panes {
        let pid = world.fake.foreground_pid(&pane.session, pane.role);
        let key = agterm_backup_agterm::key::key(&pane.session, pane.role).unwrap();
        let path = StateDir::at(&world.rig.state_dir).record_path(&key);
        let read = || -> serde_json::Value {
            serde_json::from_slice(&std::fs::read(&path).unwrap_or_default()).unwrap_or_default()
        };
        let moved = wait_until(TURN, || {
            let r = read();
            r["session_id"] == pane.id.as_str() && pid.is_some_and(|p| r["agent_pid"] == p)
        });
        assert!(moved, "{}: pid {pid:?}, record {:#}", pane.name, read());
    }
}

#[test]
fn agterm_0_15_restart_then_restore_resumes_each_kimi_pane() {
    restart_then_restore("0.15", RestoreMode::Rerun);
}

#[test]
fn agterm_live_reboot_then_restore_resumes_each_kimi_pane() {
    restart_then_restore("0.44", RestoreMode::Live);
}

#[test]
fn agterm_0_34_rerun_types_the_pins_of_each_kimi_pane() {
    if agent_cli("kimi").is_some() {
        agterm_0_34_rerun_pins(&KIMI);
    }
}
