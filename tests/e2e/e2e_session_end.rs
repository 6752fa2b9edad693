//! Issue 11 item 2 with the real Claude Code and Codex CLIs in the fake agterm's panes, wired by
//! `installer apply --trust`: a conversation the user ended stays ended, one the terminal killed comes
//! back, and `/clear` moves the record to the new conversation.
//!
//! Five agents: Claude quit with `/exit`, Claude quit with Ctrl-D twice, Codex (`--no-daemon`) quit with
//! `/quit`, Claude left running, and Claude `/clear`ed (then given a prompt, so the new conversation has a
//! transcript). Then a reboot: every pty closes under the agents still running (Claude reports that as
//! SessionEnd `other`), agterm comes back, and `restore --yes` must skip the three quit panes as `ended`
//! and type exactly the resume lines of the running one and of the `/clear`ed one's *new* conversation.
//! Skipped with a SKIPPED line when the CLIs are absent (a failure when `CI` is set).

use crate::e2e_restart_common::checks::wait_record;
use crate::e2e_restart_common::flavours::{assert_all_resumed, before_restart};
use crate::e2e_restart_common::lineup::{Lineup, PaneSpec};
use crate::e2e_restart_common::{text, AgentPane, World, TURN};
#[allow(dead_code)] // this binary uses the world and the checks, not every flavour
use agterm_backup_core::pane::PaneRole;
use agterm_backup_core::terminal::RestoreMode;
use agterm_backup_testkit::agents::{type_prompt, wait_screen, Agent};
use agterm_backup_testkit::fake_agterm::wait_until;
use serde_json::Value;

const fn claude(name: &'static str, session: usize, role: PaneRole, dir: &'static str) -> PaneSpec {
    PaneSpec {
        name,
        agent: Agent::Claude,
        session,
        role,
        dir,
        flags: &[],
        prompt: "",
        prompt_as_argument: false,
        daemon: false,
        stop_cwd: None,
    }
}

const ENDINGS: Lineup = Lineup {
    sessions: &[
        ("main proj", true),
        ("third proj", true),
        ("codex one", false),
    ],
    panes: &[
        PaneSpec {
            prompt: "the exit pane says hi",
            ..claude("exit", 0, PaneRole::Left, "main proj")
        },
        PaneSpec {
            prompt: "the ctrl-d pane says hi",
            ..claude("ctrl-d", 0, PaneRole::Right, "second proj")
        },
        PaneSpec {
            flags: &["--model", "sonnet"],
            prompt: "the killed pane says hi",
            ..claude("killed", 1, PaneRole::Left, "third proj")
        },
        PaneSpec {
            prompt: "the clear pane says hi",
            ..claude("clear", 1, PaneRole::Right, "third proj/sub")
        },
        PaneSpec {
            agent: Agent::Codex,
            flags: &["--no-daemon"],
            prompt: "the codex quit pane says hi",
            ..claude("codex-quit", 2, PaneRole::Left, "codex one")
        },
    ],
};

/// The agent's SessionEnd for `pane`'s conversation, as the hook got it.
fn wait_session_end(world: &World, pane: &AgentPane) -> Value {
    world
        .log
        .wait(TURN, &format!("{}'s SessionEnd", pane.name), |c| {
            c.event() == "SessionEnd" && c.payload["session_id"] == pane.id.as_str()
        })
        .payload
}

fn pane<'a>(world: &'a World, name: &str) -> &'a AgentPane {
    world.panes.iter().find(|p| p.name == name).unwrap()
}

#[test]
fn quit_conversations_stay_ended_killed_ones_come_back_and_clear_follows_the_new_id() {
    let Some(mut world) = World::start("0.15", RestoreMode::Rerun) else {
        return;
    };
    world.start_agents(&ENDINGS);
    let tmux_of = |w: &World, p: &AgentPane| w.fake.pane_tmux_id(&p.session, p.role);

    // The user quits three conversations, each the way people do.
    let exit = pane(&world, "exit").clone();
    type_prompt(world.fake.tmux(), &tmux_of(&world, &exit), "/exit");
    let ctrl_d = pane(&world, "ctrl-d").clone();
    let keys = tmux_of(&world, &ctrl_d);
    // Claude quits on a second Ctrl-D only while it shows "Press Ctrl-D again to exit".
    world.fake.tmux().ok(&["send-keys", "-t", &keys, "C-d"]);
    wait_screen(
        world.fake.tmux(),
        &keys,
        TURN,
        "Claude's second-Ctrl-D notice",
        |s| s.contains("again to exit"),
    );
    world.fake.tmux().ok(&["send-keys", "-t", &keys, "C-d"]);
    let codex = pane(&world, "codex-quit").clone();
    type_prompt(world.fake.tmux(), &tmux_of(&world, &codex), "/quit");
    for quit in [&exit, &ctrl_d] {
        assert_eq!(
            wait_session_end(&world, quit)["reason"],
            "prompt_input_exit"
        );
    }
    assert_eq!(wait_session_end(&world, &codex)["reason"], "other");
    for quit in [&exit, &ctrl_d, &codex] {
        wait_record(&world, quit, "the end is recorded", |r| {
            r["session_id"] == quit.id.as_str()
                && r["event"] == "SessionEnd"
                && r["end_reason"].is_string()
        });
        let journal = std::fs::read_to_string(world.rig.state_dir.join("live").join(format!(
            "{}-{}.history.jsonl",
            quit.session.to_uppercase(),
            quit.role.as_str()
        )))
        .unwrap();
        assert!(
            journal.lines().last().unwrap().contains("\"end_reason\""),
            "{}: the journal sees the end:\n{journal}",
            quit.name
        );
    }

    // `/clear`: a new conversation in the same pane; the record follows it.
    let clear_at = world.panes.iter().position(|p| p.name == "clear").unwrap();
    let clear = world.panes[clear_at].clone();
    type_prompt(world.fake.tmux(), &tmux_of(&world, &clear), "/clear");
    let ended = wait_session_end(&world, &clear);
    assert_eq!(ended["reason"], "clear");
    let fresh = world.log.wait(TURN, "the SessionStart after /clear", |c| {
        c.event() == "SessionStart" && c.payload["source"] == "clear" && c.env_of(&clear)
    });
    let new_id = fresh.payload["session_id"].as_str().unwrap().to_string();
    assert_ne!(new_id, clear.id);
    world.submit_prompt(&clear, "after the clear");
    world
        .log
        .wait(TURN, "the Stop of the new conversation", |c| {
            c.event() == "Stop" && c.payload["session_id"] == new_id.as_str()
        });
    wait_record(&world, &clear, "the record follows /clear", |r| {
        r["session_id"] == new_id.as_str() && r.get("end_reason").is_none()
    });
    world.panes[clear_at].id = new_id.clone();

    let before = before_restart(&world);
    world.reboot();
    // The pty closed under the Claude still running: it reports an end, which is not the user's.
    let killed = pane(&world, "killed").clone();
    assert_eq!(wait_session_end(&world, &killed)["reason"], "other");

    let (_, plan) = world.restore_at_prompts();
    let row = |p: &AgentPane| {
        plan["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| {
                r["session"]
                    .as_str()
                    .unwrap()
                    .eq_ignore_ascii_case(&p.session)
                    && r["role"] == p.role.as_str()
            })
            .unwrap_or_else(|| panic!("{}: no row in {plan:#}", p.name))
            .clone()
    };
    for quit in [&exit, &ctrl_d, &codex] {
        let r = row(quit);
        assert_eq!(r["reason"], "ended", "{}: {r:#}", quit.name);
        assert_eq!(r["session_id"], quit.id.as_str());
    }
    let typed = world.fake.typed_log();
    for back in [&killed, &world.panes[clear_at]] {
        let r = row(back);
        assert_eq!(r["action"], "type", "{}: {r:#}", back.name);
        let into: Vec<&str> = typed
            .iter()
            .filter(|t| t.session.eq_ignore_ascii_case(&back.session) && t.pane == back.role)
            .map(|t| t.text.as_str())
            .collect();
        assert!(
            into.len() == 1 && into[0].contains(&back.id),
            "{}: typed {into:?}",
            back.name
        );
    }
    assert_eq!(
        typed.len(),
        2,
        "nothing typed into the ended panes: {typed:?}"
    );

    // The two that come back are really resumed, in their own conversations.
    world
        .panes
        .retain(|p| p.name == "killed" || p.name == "clear");
    assert_all_resumed(&world, &before);
}

const PINNED: Lineup = Lineup {
    sessions: &[("main proj", true)],
    panes: &[
        PaneSpec {
            prompt: "the pinned exit pane says hi",
            ..claude("exit", 0, PaneRole::Left, "main proj")
        },
        PaneSpec {
            prompt: "the pinned running pane says hi",
            ..claude("running", 0, PaneRole::Right, "second proj")
        },
    ],
};

/// agterm 0.34 in Re-run mode types pins itself: the pin of a conversation the user ended must be gone
/// before the restart, or agterm would resume it anyway.
#[test]
fn an_ended_conversation_loses_its_pin_so_agterm_does_not_bring_it_back() {
    let Some(mut world) = World::start("0.34", RestoreMode::Rerun) else {
        return;
    };
    world.start_agents(&PINNED);
    let exit = pane(&world, "exit").clone();
    let running = pane(&world, "running").clone();
    for p in [&exit, &running] {
        let pinned = wait_until(TURN, || {
            world
                .fake
                .pin(&p.session, p.role)
                .is_some_and(|l| l.contains(&p.id))
        });
        assert!(
            pinned,
            "{}: pin {:?}",
            p.name,
            world.fake.pin(&p.session, p.role)
        );
    }
    type_prompt(
        world.fake.tmux(),
        &world.fake.pane_tmux_id(&exit.session, exit.role),
        "/exit",
    );
    assert_eq!(
        wait_session_end(&world, &exit)["reason"],
        "prompt_input_exit"
    );
    let cleared = wait_until(TURN, || world.fake.pin(&exit.session, exit.role).is_none());
    assert!(
        cleared,
        "the ended conversation is still pinned: {:?}",
        world.fake.pin(&exit.session, exit.role)
    );
    assert!(world
        .fake
        .pin(&running.session, running.role)
        .is_some_and(|l| l.contains(&running.id)));

    let before = before_restart(&world);
    world
        .fake
        .restart(agterm_backup_testkit::fake_agterm::RestartKind::CleanQuit);
    let actions = world.fake.launch_actions(&exit.session);
    assert!(
        actions
            .iter()
            .any(|(role, a)| *role == running.role && a == "pin"),
        "{actions:?}"
    );
    assert!(
        !actions
            .iter()
            .any(|(role, a)| *role == exit.role && a == "pin"),
        "agterm typed the ended conversation's pin: {actions:?}"
    );
    world.panes.retain(|p| p.name == "running");
    assert_all_resumed(&world, &before);
    let (out, plan) = world.restore();
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(world.fake.typed_log().is_empty(), "{plan:#}");
}
