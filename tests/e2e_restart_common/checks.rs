//! The three restart flavours and what every one of them must show, for every pane: the resumed agent's
//! own SessionStart (`source: "resume"`, the pane's original `session_id`, its directory), its process
//! (argv = resume grammar + id + launch flags, no old prompt; cwd), its record, and no new conversation
//! (no new transcript or rollout, no SessionStart of another kind, no old prompt sent again).

use super::lineup::Lineup;
use super::observe::{wait_resumed_process, AgentProcess, HookCall};
use super::{text, AgentPane, World, AGENT_START, TURN};
use agterm_backup_core::pane::PaneKey;
use agterm_backup_core::state::StateDir;
use agterm_backup_core::terminal::RestoreMode;
use agterm_backup_testkit::agents::{wait_ready, wait_screen, Agent};
use agterm_backup_testkit::fake_agterm::{wait_until, RestartKind};
use serde_json::Value;
use std::path::PathBuf;

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

pub fn before_restart(world: &World) -> Before {
    wait_records(world);
    let transcripts = world.rig.home.claude_transcripts();
    let rollouts = world.rig.home.codex_rollouts();
    for pane in &world.panes {
        let on_disk = match pane.agent {
            Agent::Claude => transcripts
                .iter()
                .any(|t| t.file_stem().is_some_and(|s| s == pane.id.as_str())),
            Agent::Codex => rollouts.iter().any(|r| {
                r.display()
                    .to_string()
                    .ends_with(&format!("-{}.jsonl", pane.id))
            }),
        };
        assert!(
            on_disk,
            "{}: no transcript/rollout for {}: {transcripts:?} {rollouts:?}",
            pane.name, pane.id
        );
    }
    let mut ids: Vec<&str> = world.panes.iter().map(|p| p.id.as_str()).collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), world.panes.len(), "one conversation per pane");
    // restore's cutoff is agterm's launch time as read from /proc (boot time in whole seconds plus
    // clock ticks), so it may be up to a second early: a hook that wrote its record a few milliseconds
    // before the launch could count as written after it. A person's restart is never that close to the
    // agents' last turn; keep the test clear of that window.
    std::thread::sleep(std::time::Duration::from_millis(1500));
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
    for pane in &world.panes {
        world.fake.wait_for_prompt(&pane.session, pane.role);
    }
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
fn assert_launch(world: &World, want: &str) {
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

/// The resumed agent runs its own conversation with its launch flags, in its directory, without its old
/// prompt: argv is exactly `<agent> <resume grammar> <id> <flags…>`.
pub fn assert_process(pane: &AgentPane, process: &AgentProcess) {
    let grammar = match pane.agent {
        Agent::Claude => "--resume",
        Agent::Codex => "resume",
    };
    let mut want = vec![grammar.to_string(), pane.id.clone()];
    want.extend(pane.flags.iter().cloned());
    assert_eq!(
        &process.argv[1..],
        want.as_slice(),
        "{}: argv of the resumed agent (pid {})",
        pane.name,
        process.pid
    );
    assert!(
        !process.argv.iter().any(|w| w.contains(&pane.prompt)),
        "{}: the old prompt is replayed: {:?}",
        pane.name,
        process.argv
    );
    assert_eq!(process.cwd, pane.dir, "{}: the agent's cwd", pane.name);
}

/// Codex fires SessionStart lazily: one prompt after the resume, answered, in the pane's conversation.
fn codex_prompt_after_resume(world: &World, pane: &AgentPane) {
    let tmux_pane = world.fake.pane_tmux_id(&pane.session, pane.role);
    wait_ready(world.fake.tmux(), &tmux_pane, Agent::Codex, AGENT_START);
    let prompt = format!("after the restart {}", pane.name);
    world.submit_prompt(pane, &prompt);
    let reply = format!("stub reply to: {prompt}");
    wait_screen(world.fake.tmux(), &tmux_pane, TURN, &reply, |s| {
        s.contains(&reply)
    });
    let asked = world.log.wait(
        TURN,
        &format!("{}'s prompt after the restart", pane.name),
        |c| c.event() == "UserPromptSubmit" && c.payload["prompt"] == prompt.as_str(),
    );
    assert_eq!(
        asked.payload["session_id"],
        pane.id.as_str(),
        "{}: the prompt typed into the pane went to {}",
        pane.name,
        asked.payload
    );
}

/// The resumed agent's own SessionStart (after `mark`): `source: "resume"`, the pane's original id, its
/// directory, and (where the hook runs with the pane's env, i.e. not under Codex's daemon) its pane.
fn assert_resumed_session_start(world: &World, pane: &AgentPane, mark: usize) -> HookCall {
    let start = world.log.wait(
        TURN,
        &format!("{}'s resumed SessionStart", pane.name),
        |c| {
            c.seq >= mark
                && c.event() == "SessionStart"
                && c.payload["session_id"] == pane.id.as_str()
        },
    );
    assert_eq!(
        start.payload["source"], "resume",
        "{}: {}",
        pane.name, start.payload
    );
    assert_eq!(
        start.payload["cwd"],
        pane.dir.display().to_string().as_str(),
        "{}: {}",
        pane.name,
        start.payload
    );
    if !pane.spec.daemon {
        assert!(
            start.env_of(pane),
            "{}: resumed in another pane: {:?}",
            pane.name,
            start.meta
        );
    }
    start
}

/// After `mark`: every hook call belongs to one of the panes' conversations — from that pane, unless
/// the daemon ran it — no conversation started (`startup`/`clear`), and no old prompt was sent again.
fn assert_only_own_conversations(world: &World, mark: usize) {
    for call in world.log.calls().into_iter().filter(|c| c.seq >= mark) {
        let owner = world
            .panes
            .iter()
            .find(|p| call.payload["session_id"] == p.id.as_str())
            .unwrap_or_else(|| {
                panic!(
                    "a hook call of an unknown conversation: {call:?}\n{}",
                    world.log.dump()
                )
            });
        if !owner.spec.daemon {
            assert!(
                call.env_of(owner),
                "{}'s conversation runs in another pane:\n{}",
                owner.name,
                world.log.dump()
            );
        }
        if call.event() == "SessionStart" {
            assert_eq!(
                call.payload["source"],
                "resume",
                "{}:\n{}",
                owner.name,
                world.log.dump()
            );
        }
        if let Some(prompt) = call.payload["prompt"].as_str() {
            assert!(
                !world.panes.iter().any(|p| prompt.contains(&p.prompt)),
                "an old prompt was sent again in {}: {prompt:?}",
                owner.name
            );
        }
    }
}

fn record(world: &World, pane: &AgentPane) -> Option<Value> {
    let key = PaneKey::new(&pane.session, pane.role).expect("pane key");
    let path = StateDir::at(&world.rig.state_dir).record_path(&key);
    serde_json::from_str(&std::fs::read_to_string(path).ok()?).ok()
}

/// The pane's live record names its conversation and directory (the hook kept up across the restart).
fn assert_record(world: &World, pane: &AgentPane) {
    let record = record(world, pane);
    let ok = record.as_ref().is_some_and(|r| {
        r["session_id"] == pane.id.as_str()
            && r["agent_cwd"] == pane.dir.display().to_string().as_str()
    });
    assert!(
        ok,
        "{}: record {record:?}, want {} in {}",
        pane.name,
        pane.id,
        pane.dir.display()
    );
}

/// Waits until every pane's hook has recorded its conversation (the restore and the pins need them).
fn wait_records(world: &World) {
    let state = StateDir::at(&world.rig.state_dir);
    for pane in &world.panes {
        let ok = wait_until(TURN, || {
            record(world, pane).is_some_and(|r| r["session_id"] == pane.id.as_str())
        });
        assert!(
            ok,
            "{}: the hook recorded {:?}, not {}; hook log:\n{}",
            pane.name,
            record(world, pane),
            pane.id,
            std::fs::read_to_string(state.log_path()).unwrap_or_default()
        );
    }
}
