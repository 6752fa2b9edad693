//! What every restart flavour must show, for every pane: the resumed agent's own SessionStart
//! (`source: "resume"`, the pane's original `session_id`, its directory), its process (argv = resume
//! grammar + id + launch flags, no old prompt; cwd), its record, and no new conversation (no
//! SessionStart of another kind, no old prompt sent again).

use super::observe::{AgentProcess, HookCall};
use super::{AgentPane, World, AGENT_START, TURN};
use agterm_backup_core::agent::ResumeGrammar;
use agterm_backup_core::process::agent_args;
use agterm_backup_core::state::StateDir;
use agterm_backup_testkit::agents::{wait_ready, wait_screen};
use agterm_backup_testkit::fake_agterm::wait_until;
use serde_json::Value;

/// The resumed agent runs its own conversation with its launch flags, in its directory, without its old
/// prompt: argv is exactly `<agent> <resume grammar> <id> <flags…>`. An agent that renames its process
/// (Kimi Code: `kimi-code`) shows that name alone once it runs; before, its resume words (no flag is
/// replayed: none can be read). Its conversation is then proven by its resumed SessionStart.
pub fn assert_process(pane: &AgentPane, process: &AgentProcess) {
    let mut want = match pane.spec().resume {
        ResumeGrammar::FlagThenId(f) | ResumeGrammar::Subcommand(f) => {
            vec![f.to_string(), pane.id.clone()]
        }
        ResumeGrammar::FlagEqualsId(f) => vec![format!("{f}={}", pane.id)],
    };
    if !pane.spec().tui_raw_terminal {
        want.extend(pane.flags.iter().cloned());
    }
    assert!(
        renamed(pane, &process.argv)
            || agent_args(pane.spec(), &process.argv) == Some(want.as_slice()),
        "{}: argv of the resumed agent (pid {}): {:?}, want {want:?}",
        pane.name,
        process.pid,
        process.argv
    );
    assert!(
        !process.argv.iter().any(|w| w.contains(&pane.prompt)),
        "{}: the old prompt is replayed: {:?}",
        pane.name,
        process.argv
    );
    assert_eq!(process.cwd, pane.dir, "{}: the agent's cwd", pane.name);
}

/// Whether `argv` is the process title alone of an agent that renames itself (Kimi's `kimi-code`).
pub fn renamed(pane: &AgentPane, argv: &[String]) -> bool {
    pane.spec().tui_raw_terminal
        && argv.len() == 1
        && argv[0] != pane.agent_name()
        && pane.spec().binaries.contains(&argv[0].as_str())
}

/// Codex and Copilot fire SessionStart lazily: one prompt after the resume, answered, in the pane's
/// conversation.
pub fn prompt_after_resume(world: &World, pane: &AgentPane) {
    let tmux_pane = world.fake.pane_tmux_id(&pane.session, pane.role);
    wait_ready(world.fake.tmux(), &tmux_pane, pane.agent, AGENT_START);
    let prompt = format!("after the restart {}", pane.name);
    world.submit_prompt(pane, &prompt);
    let reply = format!("stub reply to: {prompt}");
    wait_screen(world.fake.tmux(), &tmux_pane, TURN, &reply, |s| {
        s.contains(&reply)
    });
    let asked = world.log.wait(
        TURN,
        &format!("{}'s prompt after the restart", pane.name),
        |c| {
            c.event() == pane.agent.prompt_event() && c.prompt().as_deref() == Some(prompt.as_str())
        },
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
pub fn assert_resumed_session_start(world: &World, pane: &AgentPane, mark: usize) -> HookCall {
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
pub fn assert_only_own_conversations(world: &World, mark: usize) {
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
        if let Some(prompt) = call.prompt() {
            assert!(
                !world.panes.iter().any(|p| prompt.contains(&p.prompt)),
                "an old prompt was sent again in {}: {prompt:?}",
                owner.name
            );
        }
    }
}

fn record(world: &World, pane: &AgentPane) -> Option<Value> {
    let key = agterm_backup_agterm::key::key(&pane.session, pane.role).expect("pane key");
    let path = StateDir::at(&world.rig.state_dir).record_path(&key);
    serde_json::from_str(&std::fs::read_to_string(path).ok()?).ok()
}

/// The pane's live record names its conversation and directory (the hook kept up across the restart).
/// The hook that writes it may still be running when its payload shows in the log: wait for it.
pub fn assert_record(world: &World, pane: &AgentPane) {
    let names_it = |r: &Value| {
        r["session_id"] == pane.id.as_str()
            && r["agent_cwd"] == pane.dir.display().to_string().as_str()
    };
    let ok = wait_until(TURN, || record(world, pane).is_some_and(|r| names_it(&r)));
    let record = record(world, pane);
    let log = StateDir::at(&world.rig.state_dir).log_path();
    assert!(
        ok,
        "{}: record {record:?}, want {} in {}; hook log:\n{}",
        pane.name,
        pane.id,
        pane.dir.display(),
        std::fs::read_to_string(log).unwrap_or_default()
    );
}

/// Waits until `pane`'s live record satisfies `pred` (`what` names it in the failure). The hook log is
/// written by a wrapper before the hook runs, so a logged call says nothing yet of the record it writes.
pub fn wait_record(world: &World, pane: &AgentPane, what: &str, pred: impl Fn(&Value) -> bool) {
    let ok = wait_until(TURN, || record(world, pane).is_some_and(|r| pred(&r)));
    assert!(
        ok,
        "{}: no record of {what}, only {:?}",
        pane.name,
        record(world, pane)
    );
}

/// Waits until `pane`'s replayed agent (a new conversation, not the pane's) has recorded itself: the
/// plan restarts only a replay whose hooks are proven by a record since the launch (row 7c), and a UI
/// drawn says nothing of the record its start hook is still writing.
pub fn wait_replay_record(world: &World, pane: &AgentPane) {
    wait_record(world, pane, "the replay", |r| {
        r["session_id"].as_str().is_some_and(|id| id != pane.id)
    });
}

/// Waits until every pane's hook has recorded its conversation (the restore and the pins need them).
pub fn wait_records(world: &World) {
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
