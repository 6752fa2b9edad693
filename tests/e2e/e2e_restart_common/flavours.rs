//! The three restart flavours of the fake agterm, each from a fresh world: start the lineup's agents,
//! restart the way the flavour does, run `restore --yes` where it is needed, and check every pane with
//! [`super::checks`].

use super::checks::{
    assert_only_own_conversations, assert_process, assert_record, assert_resumed_session_start,
    prompt_after_resume, wait_records,
};
use super::lineup::Lineup;
use super::observe::wait_resumed_process;
use super::{text, AgentPane, World, AGENT_START, TURN};
use agterm_backup_core::terminal::RestoreMode;
use agterm_backup_testkit::agents::Agent;
use agterm_backup_testkit::clock::{newest_write_in, wait_clock_past};
use agterm_backup_testkit::fake_agterm::{wait_until, RestartKind};
use agterm_backup_testkit::settle::wait_hooks_done;
use std::path::PathBuf;
use std::time::{Duration, SystemTime};

/// How much earlier than the real launch restore may read it: `btime` is whole seconds, and the
/// process's start is in clock ticks (10 ms), each rounded down.
const LAUNCH_READ_EARLY: Duration = Duration::from_millis(1020);

/// 0.15 (no `session.restore`; "restore running commands" on): a clean quit, the denylist refuses the
/// captured agents, `restore --yes` types one line per pane.
pub fn agterm_0_15_restore(lineup: &Lineup) {
    let Some(mut world) = World::start("0.15", RestoreMode::Rerun) else {
        return;
    };
    world.start_agents(lineup);
    let before = before_restart(&world);
    world.fake.restart(RestartKind::CleanQuit);
    assert_launch(&world, "denied");
    assert_restore_typed_each_pane_once(&world);
    assert_all_resumed(&world, &before);
}

/// 0.34 rerun: the hook pinned every pane; after a clean quit agterm types the pins itself, and a
/// `restore --yes` afterwards types nothing.
pub fn agterm_0_34_rerun_pins(lineup: &Lineup) {
    let Some(mut world) = World::start("0.34", RestoreMode::Rerun) else {
        return;
    };
    world.start_agents(lineup);
    let before = before_restart(&world);
    assert_pinned(&world);
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
        "restore typed into panes the pins already resumed; plan: {plan:#}"
    );
}

/// Waits until the hook pinned every pane's own conversation with agterm.
pub fn assert_pinned(world: &World) {
    for pane in &world.panes {
        let pinned = wait_until(TURN, || {
            world
                .fake
                .pin(&pane.session, pane.role)
                .is_some_and(|l| l.contains(&pane.id))
        });
        assert!(
            pinned,
            "{}: pinned {:?}, not its conversation {}",
            pane.name,
            world.fake.pin(&pane.session, pane.role),
            pane.id
        );
    }
}

/// 0.34 Live after a reboot: agterm would replay the captured agents, the denylist refuses them, and
/// `restore --yes` types one line per pane.
pub fn agterm_0_34_live_reboot(lineup: &Lineup) {
    let Some(mut world) = World::start("0.34", RestoreMode::Live) else {
        return;
    };
    world.start_agents(lineup);
    let before = before_restart(&world);
    world.reboot();
    assert_launch(&world, "denied");
    assert_restore_typed_each_pane_once(&world);
    assert_all_resumed(&world, &before);
}

/// What must not change across the restart: the conversations on disk; and where the log stood.
pub struct Before {
    transcripts: Vec<PathBuf>,
    rollouts: Vec<PathBuf>,
    mark: usize,
}

impl Before {
    #[allow(dead_code)] // used by e2e_zero_touch
    /// Where the hook log stood before the restart.
    pub fn mark(&self) -> usize {
        self.mark
    }

    #[allow(dead_code)] // used by the lineups whose agents agterm replays (e2e_restart_more_agents)
    /// Moves the mark to now: what ran so far (a bare agent agterm replayed, then quit) is not checked.
    pub fn mark_now(&mut self, world: &World) {
        self.mark = world.log.calls().len();
    }
}

/// Whether `pane`'s conversation is on disk (a Claude transcript, a Codex rollout, another agent's store).
fn on_disk(world: &World, pane: &AgentPane, transcripts: &[PathBuf], rollouts: &[PathBuf]) -> bool {
    match pane.agent {
        Agent::Claude => transcripts
            .iter()
            .any(|t| t.file_stem().is_some_and(|s| s == pane.id.as_str())),
        Agent::Codex => rollouts.iter().any(|r| {
            r.display()
                .to_string()
                .ends_with(&format!("-{}.jsonl", pane.id))
        }),
        Agent::Kimi => !world.rig.home.kimi_conversation_files(&pane.id).is_empty(),
        other => world.rig.home.has_conversation(other.name(), &pane.id),
    }
}

pub fn before_restart(world: &World) -> Before {
    wait_records(world);
    // An agent may flush its conversation to disk a moment after the hook of its first Stop ran.
    wait_until(TURN, || {
        let (transcripts, rollouts) = (
            world.rig.home.claude_transcripts(),
            world.rig.home.codex_rollouts(),
        );
        world
            .panes
            .iter()
            .all(|p| on_disk(world, p, &transcripts, &rollouts))
    });
    let transcripts = world.rig.home.claude_transcripts();
    let rollouts = world.rig.home.codex_rollouts();
    for pane in &world.panes {
        assert!(
            on_disk(world, pane, &transcripts, &rollouts),
            "{}: no transcript/rollout for {}: {transcripts:?} {rollouts:?}",
            pane.name,
            pane.id
        );
    }
    let mut ids: Vec<&str> = world.panes.iter().map(|p| p.id.as_str()).collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), world.panes.len(), "one conversation per pane");
    // restore's cutoff is agterm's launch time as read from /proc (boot time in whole seconds plus
    // clock ticks), so it may be up to a second early: a hook that wrote its record a few milliseconds
    // before the launch could count as written after it. A person's restart is never that close to the
    // agents' last turn; keep the test clear of that window: the restart comes after the clock passed
    // the newest record's write by that much, once no hook is left to write another.
    wait_hooks_done(&world.rig.root, TURN);
    let newest = newest_write_in(&world.rig.state_dir.join("live")).unwrap_or_else(SystemTime::now);
    wait_clock_past(newest + LAUNCH_READ_EARLY);
    Before {
        transcripts,
        rollouts,
        mark: world.log.calls().len(),
    }
}

/// Every pane is back in its own conversation, and nothing new was created.
pub fn assert_all_resumed(world: &World, before: &Before) {
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
    for pane in world.panes.iter().filter(|p| p.agent.lazy_session_start()) {
        prompt_after_resume(world, pane);
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
    world.rig.stub.assert_answered_everything();
}

/// `restore --yes` typed exactly one line into each pane, naming its conversation.
pub fn assert_restore_typed_each_pane_once(world: &World) {
    let (out, plan) = world.restore_at_prompts();
    let typed = world.fake.typed_log();
    for pane in &world.panes {
        let into: Vec<&String> = typed
            .iter()
            .filter(|t| t.session.eq_ignore_ascii_case(&pane.session) && t.pane == pane.role)
            .map(|t| &t.text)
            .collect();
        assert!(
            into.len() == 1 && into[0].contains(&pane.id),
            "{}: restore typed {into:?}; plan: {plan:#}\n{}\nrecords:\n{}",
            pane.name,
            text(&out.stderr),
            live_files(world)
        );
    }
    assert_eq!(typed.len(), world.panes.len(), "{typed:?}");
}

/// Every file of the state dir's `live/` folder with its contents, for failure messages.
fn live_files(world: &World) -> String {
    let live = world.rig.state_dir.join("live");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&live)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .collect();
    files.sort();
    files
        .iter()
        .map(|f| {
            format!(
                "== {}\n{}",
                f.display(),
                std::fs::read_to_string(f).unwrap_or_default()
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// What agterm's launch did to every agent pane (`pin`, `denied`, …).
pub fn assert_launch(world: &World, want: &str) {
    for pane in &world.panes {
        let actions = world.fake.launch_actions(&pane.session);
        assert!(
            actions
                .iter()
                .any(|(role, a)| *role == pane.role && a == want),
            "{}: agterm's launch did {actions:?}, not `{want}`; launch log: {:?}",
            pane.name,
            world.fake.launch_log()
        );
    }
}
