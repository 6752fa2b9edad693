//! Issue 22's end-to-end proof: agterm Live after a reboot replays each pane's captured bare agent (a
//! new conversation). Gemini CLI, Copilot CLI and Qwen Code run as `node <script>`, which no denylist
//! entry can name; Claude Code comes back the same way once the denylist block is gone. `restore` then
//! replaces each replayed agent with its pane's own conversation through agterm's `session.restart`
//! (the fake agterm 0.44 serves it), exactly once, in its directory with its flags; a second `restore`
//! does nothing; a pane where the user typed into the replayed agent is left alone with a reason.
//! Copilot's replay fires no hook before its first prompt, so nothing proves its hooks run (a prompt the
//! user typed would not show either): its pane is left alone too, its row giving the line (issue 32).
//!
//! Real CLIs from `AGTERM_BACKUP_AGENT_CLIS`, offline against the stub model; skipped with a SKIPPED line
//! when they are absent (a failure when `CI` is set, as `World::start` says).

#[allow(dead_code)] // the helpers of the other restart suites are not all used here
use crate::e2e_restart_common;

use agterm_backup_core::pane::PaneRole;
use agterm_backup_core::terminal::RestoreMode;
use agterm_backup_testkit::agents::{wait_ready, Agent};
use agterm_backup_testkit::fake_agterm::restart_cmd::RESTARTED_LOG;
use agterm_backup_testkit::fake_agterm::RestartKind;
use agterm_backup_testkit::paths::agent_cli;
use e2e_restart_common::checks::{
    assert_process, assert_record, assert_resumed_session_start, prompt_after_resume, wait_record,
    wait_replay_record,
};
use e2e_restart_common::flavours::before_restart;
use e2e_restart_common::lineup::{spec, Lineup, PaneSpec, MORE};
use e2e_restart_common::observe::wait_resumed_process;
use e2e_restart_common::{text, AgentPane, World, AGENT_START, TURN};
use serde_json::Value;

/// Claude Code with its first prompt typed (a prompt on the command line would be replayed too).
const CLAUDE_ONLY: Lineup = Lineup {
    sessions: &[("main proj", false)],
    panes: &[PaneSpec {
        dir: "main proj",
        flags: &["--model", "sonnet"],
        prompt: "the claude pane says hi",
        ..spec("claude", Agent::Claude, 0, PaneRole::Left)
    }],
};

fn clis_present(names: &[&str]) -> bool {
    names.iter().all(|c| agent_cli(c).is_some())
}

/// The fake agterm's launch replayed each pane's agent, and the replay is up (its input box shows).
fn wait_replays(world: &World, panes: &[AgentPane]) {
    for pane in panes {
        let actions = world.fake.launch_actions(&pane.session);
        assert!(
            actions
                .iter()
                .any(|(r, a)| *r == pane.role && a == "replay"),
            "{}: agterm's launch did {actions:?}",
            pane.name
        );
        let tmux_pane = world.fake.pane_tmux_id(&pane.session, pane.role);
        wait_ready(world.fake.tmux(), &tmux_pane, pane.agent, AGENT_START);
        if pane.agent != Agent::Copilot {
            wait_replay_record(world, pane);
        }
    }
}

/// Every `session.restart` the fake served: (session, pane, command).
fn restarts(world: &World) -> Vec<(String, String, String)> {
    std::fs::read_to_string(world.fake.state_dir().join(RESTARTED_LOG))
        .unwrap_or_default()
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .map(|v| {
            let s = |k: &str| v[k].as_str().unwrap_or_default().to_string();
            (s("session"), s("pane"), s("command"))
        })
        .collect()
}

fn row<'a>(plan: &'a Value, pane: &AgentPane) -> &'a Value {
    plan["rows"]
        .as_array()
        .and_then(|rows| {
            rows.iter().find(|r| {
                r["session"]
                    .as_str()
                    .is_some_and(|s| s.eq_ignore_ascii_case(&pane.session))
                    && r["role"] == pane.role.as_str()
            })
        })
        .unwrap_or_else(|| panic!("{}: no row in {plan:#}", pane.name))
}

/// `restore` restarted each of `panes` once, running a line naming its conversation, and typed nothing;
/// returns the plan.
fn assert_restarted_once(world: &World, panes: &[AgentPane]) -> Value {
    let (out, plan) = world.restore();
    assert!(
        out.status.success(),
        "restore failed:\n{}\n{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    let done = restarts(world);
    for pane in panes {
        assert_eq!(
            row(&plan, pane)["action"],
            "restart",
            "{}: {plan:#}",
            pane.name
        );
        let here: Vec<&(String, String, String)> = done
            .iter()
            .filter(|(s, r, _)| s.eq_ignore_ascii_case(&pane.session) && r == pane.role.as_str())
            .collect();
        assert!(
            here.len() == 1 && here[0].2.contains(&pane.id),
            "{}: restarts {here:?}\n{}",
            pane.name,
            text(&out.stderr)
        );
    }
    assert_eq!(done.len(), panes.len(), "{done:?}");
    assert!(
        world.fake.typed_log().is_empty(),
        "{:?}",
        world.fake.typed_log()
    );
    plan
}

/// A second `restore` finds every pane running its own conversation: nothing typed, nothing restarted.
fn assert_second_restore_does_nothing(world: &World) {
    let before = restarts(world).len();
    let (out, plan) = world.restore();
    assert!(out.status.success(), "{}", text(&out.stderr));
    for r in plan["rows"].as_array().into_iter().flatten() {
        assert_eq!(r["action"], "skip", "{plan:#}");
    }
    assert_eq!(restarts(world).len(), before);
    assert!(world.fake.typed_log().is_empty());
}

/// Copilot's row: left alone (no record since the launch proves its hooks run), with the line that
/// brings its conversation back once the user quits the replay.
fn assert_unproven(plan: &Value, pane: &AgentPane) {
    let r = row(plan, pane);
    assert_eq!(r["action"], "skip", "{plan:#}");
    assert_eq!(r["reason"], "hooks-unproven", "{plan:#}");
    let why = r["why"].as_str().unwrap_or_default();
    assert!(
        why.contains(&pane.id) && why.contains("not proven"),
        "{r:#}"
    );
}

/// The panes whose replay fired a hook at its start (all but Copilot's).
fn with_start_hook(panes: &[AgentPane]) -> Vec<AgentPane> {
    panes
        .iter()
        .filter(|p| p.agent != Agent::Copilot)
        .cloned()
        .collect()
}

/// Each of `panes` runs its own conversation again (its process, directory and flags, a `resume`
/// SessionStart, its record), and after `mark` every hook call is one of the panes' conversations — but
/// for the `SessionEnd` of a replayed agent the restart ended (a new conversation nobody used).
fn assert_resumed_in_place(world: &World, panes: &[AgentPane], mark: usize) {
    for pane in panes {
        let process = wait_resumed_process(world, pane, AGENT_START);
        assert_process(pane, &process);
    }
    for pane in panes.iter().filter(|p| p.agent.lazy_session_start()) {
        prompt_after_resume(world, pane);
    }
    for pane in panes {
        assert_resumed_session_start(world, pane, mark);
        assert_record(world, pane);
    }
    for call in world.log.calls().into_iter().filter(|c| c.seq >= mark) {
        let owner = world
            .panes
            .iter()
            .find(|p| call.payload["session_id"] == p.id.as_str());
        match owner {
            Some(owner) => {
                assert!(call.env_of(owner), "{}:\n{}", owner.name, world.log.dump());
                if call.event() == "SessionStart" {
                    assert_eq!(call.payload["source"], "resume", "{}", world.log.dump());
                }
            }
            None => assert_eq!(
                call.event(),
                "SessionEnd",
                "a hook call of an unknown conversation: {call:?}\n{}",
                world.log.dump()
            ),
        }
    }
    world.rig.stub.assert_answered_everything();
}

#[test]
fn agterm_live_reboot_restarts_each_replayed_gemini_copilot_qwen_into_its_conversation() {
    if !clis_present(&["gemini", "copilot", "qwen"]) {
        return;
    }
    let Some(mut world) = World::start("0.44", RestoreMode::Live) else {
        return;
    };
    world.start_agents(&MORE);
    let mut before = before_restart(&world);
    world.reboot();
    let all = world.panes.clone();
    wait_replays(&world, &all);
    before.mark_now(&world);
    let panes = with_start_hook(&all);
    let plan = assert_restarted_once(&world, &panes);
    let copilot = all.iter().find(|p| p.agent == Agent::Copilot).unwrap();
    assert_unproven(&plan, copilot);
    assert_resumed_in_place(&world, &panes, before.mark());
    assert_second_restore_does_nothing(&world);
}

/// The user typed into the replayed Qwen: that pane is theirs and keeps its row with a reason; the
/// others are restarted.
#[test]
fn agterm_live_reboot_leaves_a_replayed_agent_the_user_typed_into() {
    if !clis_present(&["gemini", "copilot", "qwen"]) {
        return;
    }
    let Some(mut world) = World::start("0.44", RestoreMode::Live) else {
        return;
    };
    world.start_agents(&MORE);
    world.reboot();
    let all = world.panes.clone();
    wait_replays(&world, &all);
    let typed = all.iter().find(|p| p.agent == Agent::Qwen).unwrap().clone();
    let prompt = "a new question for the replayed qwen";
    world.submit_prompt(&typed, prompt);
    world.log.wait(TURN, "the replayed qwen's Stop", |c| {
        c.event() == typed.agent.stop_event() && c.payload["session_id"] != typed.id.as_str()
    });
    wait_record(&world, &typed, "the replayed qwen's Stop", |r| {
        r["event"] == typed.agent.stop_event() && r["session_id"] != typed.id.as_str()
    });
    let (out, plan) = world.restore();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let kept = row(&plan, &typed);
    assert_eq!(kept["action"], "skip", "{plan:#}");
    assert_eq!(kept["reason"], "new-conversation", "{plan:#}");
    assert!(
        kept["why"]
            .as_str()
            .unwrap_or_default()
            .contains("typed into"),
        "{kept:#}"
    );
    assert_unproven(
        &plan,
        all.iter().find(|p| p.agent == Agent::Copilot).unwrap(),
    );
    let others: Vec<AgentPane> = with_start_hook(&all)
        .into_iter()
        .filter(|p| p.agent != Agent::Qwen)
        .collect();
    for pane in &others {
        assert_eq!(row(&plan, pane)["action"], "restart", "{plan:#}");
    }
    assert_eq!(restarts(&world).len(), others.len());
}

/// Claude Code with agterm-backup's denylist block removed: agterm replays the bare `claude` too.
#[test]
fn agterm_live_reboot_without_the_denylist_block_restarts_the_replayed_claude() {
    let Some(mut world) = World::start("0.44", RestoreMode::Live) else {
        return;
    };
    world.start_agents(&CLAUDE_ONLY);
    let mut before = before_restart(&world);
    world.fake.end(RestartKind::Reboot);
    let denylist = world.fake.denylist_path();
    let kept: String = std::fs::read_to_string(&denylist)
        .unwrap()
        .lines()
        .filter(|l| !matches!(l.trim(), "claude" | "codex"))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&denylist, kept).unwrap();
    world.fake.launch();
    let panes = world.panes.clone();
    wait_replays(&world, &panes);
    before.mark_now(&world);
    assert_restarted_once(&world, &panes);
    assert_resumed_in_place(&world, &panes, before.mark());
    assert_second_restore_does_nothing(&world);
}
