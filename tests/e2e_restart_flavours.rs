//! The end-to-end proof of issue 6, with the real Claude Code and Codex CLIs: five agents in five panes
//! of the fake agterm (see `e2e_restart_common` for who runs where and how the payloads are seen), then
//! one restart flavour per test:
//!
//! - **0.15** (no `session.restore`, the "restore running commands" setting on): a clean quit; the
//!   denylist the installer edited keeps agterm from replaying the bare agents; `restore --yes` types
//!   one resume line per pane.
//! - **0.34 rerun with pins**: the hook pinned each pane's resume line; after a clean quit agterm itself
//!   types the pins; a `restore --yes` afterwards types nothing.
//! - **0.34 live after a reboot**: the panes' processes die, agterm would replay the captured agents but
//!   the denylist refuses them; `restore --yes` brings them back.
//!
//! Each flavour asserts, from the resumed agents' own SessionStart payloads, that every pane is back in
//! its own conversation (`source: "resume"`, the original `session_id`), in its directory (payload cwd
//! and process cwd), with its flags and without its old prompt (argv from /proc), and that no new
//! conversation was created (no new transcript or rollout, no new SessionStart). The three flavours are
//! independent tests (each its own HOME, stub and fake agterm). Skipped with a SKIPPED line when the
//! CLIs are absent.

mod e2e_restart_common;

use agterm_backup_core::terminal::RestoreMode;
use agterm_backup_testkit::agents::Agent;
use agterm_backup_testkit::fake_agterm::RestartKind;
use e2e_restart_common::observe::{
    assert_only_own_conversations, assert_process, assert_record, assert_resumed_session_start,
    codex_prompt_after_resume, wait_records, wait_resumed_process,
};
use e2e_restart_common::{text, World, AGENT_START};
use std::path::PathBuf;

/// What must not change across the restart: the conversations on disk.
struct Before {
    transcripts: Vec<PathBuf>,
    rollouts: Vec<PathBuf>,
    mark: usize,
}

fn before_restart(world: &World) -> Before {
    wait_records(world);
    let transcripts = world.rig.home.claude_transcripts();
    let rollouts = world.rig.home.codex_rollouts();
    let claude_ids: Vec<&str> = world
        .panes
        .iter()
        .filter(|p| p.agent == Agent::Claude)
        .map(|p| p.id.as_str())
        .collect();
    for id in &claude_ids {
        assert!(
            transcripts
                .iter()
                .any(|t| t.file_stem().is_some_and(|s| s == *id)),
            "a transcript for {id}: {transcripts:?}"
        );
    }
    assert_eq!(
        rollouts.len(),
        2,
        "one rollout per Codex pane: {rollouts:?}"
    );
    let mut ids: Vec<&str> = world.panes.iter().map(|p| p.id.as_str()).collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), world.panes.len(), "five conversations");
    Before {
        transcripts,
        rollouts,
        mark: world.log.calls().len(),
    }
}

/// Every pane is back in its own conversation, and nothing new was created.
fn assert_all_resumed(world: &World, before: &Before) {
    for pane in &world.panes {
        let process = wait_resumed_process(world, pane, AGENT_START);
        assert_process(pane, &process);
        eprintln!(
            "{}: pid {} runs {:?} in {}",
            pane.name,
            process.pid,
            process.argv,
            process.cwd.display()
        );
    }
    for pane in world.panes.iter().filter(|p| p.agent == Agent::Codex) {
        codex_prompt_after_resume(world, pane);
    }
    for pane in &world.panes {
        assert_resumed_session_start(world, pane, before.mark);
        assert_record(world, pane);
    }
    assert_only_own_conversations(world, before.mark);
    eprintln!("hook calls:\n{}", world.log.dump());
    assert_eq!(
        world.rig.home.claude_transcripts(),
        before.transcripts,
        "no new Claude transcript"
    );
    assert_eq!(
        world.rig.home.codex_rollouts(),
        before.rollouts,
        "no new Codex rollout"
    );
    assert_eq!(
        world.rig.stub.unanswered(),
        vec![],
        "requests the stub model could not answer"
    );
}

/// `restore --yes` typed exactly one line into each pane, naming its conversation.
fn assert_restore_typed_each_pane_once(world: &World) {
    let (out, plan) = world.restore();
    assert!(
        out.status.success(),
        "restore --yes failed ({}):\n{}\n{}",
        out.status,
        text(&out.stdout),
        text(&out.stderr)
    );
    let typed = world.fake.typed_log();
    for pane in &world.panes {
        let into: Vec<&String> = typed
            .iter()
            .filter(|t| t.session.eq_ignore_ascii_case(&pane.session) && t.pane == pane.role)
            .map(|t| &t.text)
            .collect();
        assert!(
            into.len() == 1 && into[0].contains(&pane.id),
            "{}: restore typed {into:?}; plan: {plan:#}\n{}",
            pane.name,
            text(&out.stderr)
        );
    }
    assert_eq!(typed.len(), world.panes.len(), "{typed:?}");
}

fn assert_launch(world: &World, want: &str) {
    for pane in &world.panes {
        let actions = world.fake.launch_actions(&pane.session);
        assert!(
            actions
                .iter()
                .any(|(role, a)| *role == pane.role && a == want),
            "{}: agterm's launch did {actions:?}, not `{want}`",
            pane.name
        );
    }
}

#[test]
fn agterm_0_15_restart_then_restore_resumes_every_pane() {
    let Some(mut world) = World::start("0.15", RestoreMode::Rerun) else {
        return;
    };
    world.start_agents();
    let before = before_restart(&world);
    world.fake.restart(RestartKind::CleanQuit);
    assert_launch(&world, "denied");
    for pane in &world.panes {
        world.fake.wait_for_prompt(&pane.session, pane.role);
    }
    assert_restore_typed_each_pane_once(&world);
    assert_all_resumed(&world, &before);
}

#[test]
fn agterm_0_34_rerun_types_the_pins_and_restore_types_nothing_more() {
    let Some(mut world) = World::start("0.34", RestoreMode::Rerun) else {
        return;
    };
    world.start_agents();
    let before = before_restart(&world);
    for pane in &world.panes {
        let pin = world.fake.pin(&pane.session, pane.role);
        assert!(
            pin.as_deref().is_some_and(|l| l.contains(&pane.id)),
            "{}: pinned {pin:?}",
            pane.name
        );
    }
    world.fake.restart(RestartKind::CleanQuit);
    assert_launch(&world, "pin");
    assert_all_resumed(&world, &before);
    let (out, plan) = world.restore();
    assert!(
        out.status.success(),
        "restore --yes after the pins ({}):\n{}\n{}",
        out.status,
        text(&out.stdout),
        text(&out.stderr)
    );
    assert_eq!(
        world.fake.typed_log(),
        vec![],
        "restore typed into panes whose pin already resumed them; plan: {plan:#}"
    );
}

#[test]
fn agterm_0_34_live_reboot_denylist_then_restore_resumes_every_pane() {
    let Some(mut world) = World::start("0.34", RestoreMode::Live) else {
        return;
    };
    world.start_agents();
    let before = before_restart(&world);
    world.fake.restart(RestartKind::Reboot);
    assert_launch(&world, "denied");
    for pane in &world.panes {
        world.fake.wait_for_prompt(&pane.session, pane.role);
    }
    assert_restore_typed_each_pane_once(&world);
    assert_all_resumed(&world, &before);
}
