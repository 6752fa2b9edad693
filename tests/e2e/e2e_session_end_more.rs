//! Issue 22 item 3 with the real Qwen Code, Copilot CLI and Gemini CLI (npm, node launchers),
//! opencode (its native binary, our plugin) and Kimi Code 2.1.0 (issue 23) in the fake agterm's panes, wired by `installer apply
//! --trust` (their SessionEnd included; opencode's plugin sends one from its `dispose`): every one sends
//! one reason for a quit and for a dying terminal, so the hook's look at the terminal decides. A
//! conversation the user quit (`/quit`, `/exit`) is recorded with its terminal `present` and stays
//! ended; one whose pane died under it (a reboot kills every pty: a hangup) comes back — Gemini and
//! opencode must report that end too, with the terminal `gone`. One Copilot only: a second Copilot TUI
//! starting beside the first drops its first prompt's keys under load, and the rig's retry then sends
//! it twice. (A killed Copilot coming back is `e2e_restart_more_agents`' and `e2e_live_restart`'s.)
//! Skipped with a SKIPPED line when the CLIs are absent (a failure when `CI` is set).

#[allow(dead_code)] // this binary uses the world and a few checks
use crate::e2e_restart_common;

use agterm_backup_core::pane::PaneRole;
use agterm_backup_core::terminal::RestoreMode;
use agterm_backup_testkit::agents::{type_quit, Agent};
use agterm_backup_testkit::fake_agterm::wait_until;
use agterm_backup_testkit::paths::agent_cli;
use e2e_restart_common::lineup::{spec, Lineup, PaneSpec};
use e2e_restart_common::observe::HookCall;
use e2e_restart_common::{text, AgentPane, World, TURN};
use serde_json::Value;

const ENDINGS: Lineup = Lineup {
    sessions: &[("qwen proj", true), ("copilot proj", false)],
    panes: &[
        PaneSpec {
            dir: "qwen proj",
            prompt: "the qwen quit pane says hi",
            ..spec("qwen-quit", Agent::Qwen, 0, PaneRole::Left)
        },
        PaneSpec {
            dir: "qwen proj",
            flags: &["-m", "stub-model"],
            prompt: "the qwen killed pane says hi",
            ..spec("qwen-killed", Agent::Qwen, 0, PaneRole::Right)
        },
        PaneSpec {
            dir: "copilot proj",
            prompt: "the copilot quit pane says hi",
            ..spec("copilot-quit", Agent::Copilot, 1, PaneRole::Left)
        },
    ],
};

const GEMINI_OPENCODE: Lineup = Lineup {
    sessions: &[("gemini proj", true), ("opencode proj", true)],
    panes: &[
        PaneSpec {
            dir: "gemini proj",
            prompt: "the gemini quit pane says hi",
            ..spec("gemini-quit", Agent::Gemini, 0, PaneRole::Left)
        },
        PaneSpec {
            dir: "gemini proj",
            flags: &["-m", "gemini-2.5-flash"],
            prompt: "the gemini killed pane says hi",
            ..spec("gemini-killed", Agent::Gemini, 0, PaneRole::Right)
        },
        PaneSpec {
            dir: "opencode proj",
            prompt: "the opencode quit pane says hi",
            ..spec("opencode-quit", Agent::Opencode, 1, PaneRole::Left)
        },
        PaneSpec {
            dir: "opencode proj",
            flags: &["-m", "stub/stub-model"],
            prompt: "the opencode killed pane says hi",
            ..spec("opencode-killed", Agent::Opencode, 1, PaneRole::Right)
        },
    ],
};

fn record(world: &World, pane: &AgentPane) -> Option<Value> {
    let path = world.rig.state_dir.join("live").join(format!(
        "{}-{}.json",
        pane.session.to_uppercase(),
        pane.role.as_str()
    ));
    serde_json::from_slice(&std::fs::read(path).ok()?).ok()
}

fn row(plan: &Value, p: &AgentPane) -> Value {
    plan["rows"]
        .as_array()
        .and_then(|rows| {
            rows.iter().find(|r| {
                r["session"]
                    .as_str()
                    .is_some_and(|s| s.eq_ignore_ascii_case(&p.session))
                    && r["role"] == p.role.as_str()
            })
        })
        .unwrap_or_else(|| panic!("{}: no row in {plan:#}", p.name))
        .clone()
}

/// A Kimi the user quit with `/quit`, and one whose pane the reboot killed, in two directories.
const KIMI_ENDINGS: Lineup = Lineup {
    sessions: &[("kimi proj", true)],
    panes: &[
        PaneSpec {
            dir: "kimi proj",
            prompt: "the kimi quit pane says hi",
            ..spec("kimi-quit", Agent::Kimi, 0, PaneRole::Left)
        },
        PaneSpec {
            dir: "kimi two",
            flags: &["--yolo"],
            prompt: "the kimi killed pane says hi",
            ..spec("kimi-killed", Agent::Kimi, 0, PaneRole::Right)
        },
    ],
};

#[test]
fn quit_qwen_and_copilot_stay_ended_and_killed_ones_come_back() {
    quit_stays_ended_and_killed_comes_back(&["qwen", "copilot"], &ENDINGS, false);
}

#[test]
fn quit_gemini_and_opencode_stay_ended_and_killed_ones_come_back() {
    quit_stays_ended_and_killed_comes_back(&["gemini", "opencode"], &GEMINI_OPENCODE, true);
}

#[test]
fn a_quit_kimi_stays_ended_and_a_killed_one_comes_back() {
    quit_stays_ended_and_killed_comes_back(&["kimi"], &KIMI_ENDINGS, false);
}

/// The lineup's `*-quit` panes are quit, then a reboot kills the `*-killed` ones; `ends_at_hangup`: the
/// agents report that end too (Gemini's signal handlers, opencode's `dispose`; at least one of them gets
/// its report out), which must say `gone`.
fn quit_stays_ended_and_killed_comes_back(clis: &[&str], lineup: &Lineup, ends_at_hangup: bool) {
    if !clis.iter().all(|c| agent_cli(c).is_some()) {
        return;
    }
    let Some(mut world) = World::start("0.34", RestoreMode::None) else {
        return;
    };
    world.start_agents(lineup);
    let quit: Vec<AgentPane> = world
        .panes
        .iter()
        .filter(|p| p.name.ends_with("-quit"))
        .cloned()
        .collect();
    let killed: Vec<AgentPane> = world
        .panes
        .iter()
        .filter(|p| p.name.ends_with("-killed"))
        .cloned()
        .collect();
    for pane in &quit {
        let tmux_pane = world.fake.pane_tmux_id(&pane.session, pane.role);
        type_quit(world.fake.tmux(), &tmux_pane, pane.agent, TURN);
    }
    for pane in &quit {
        let end = world
            .log
            .wait(TURN, &format!("{}'s SessionEnd", pane.name), |c| {
                c.event() == "SessionEnd" && c.payload["session_id"] == pane.id.as_str()
            });
        eprintln!("{}: SessionEnd {}", pane.name, end.payload);
        let recorded = wait_until(TURN, || {
            record(&world, pane)
                .is_some_and(|r| r["event"] == "SessionEnd" && r["end_terminal"] == "present")
        });
        assert!(
            recorded,
            "{}: the quit is recorded with its terminal present: {:?}",
            pane.name,
            record(&world, pane)
        );
    }

    // The reboot returns once the old panes' processes and their hooks are gone.
    world.reboot();
    // What the dying agents reported, if anything: a SessionEnd under a hung-up pty has no terminal.
    // Whether a dying agent gets its report out is its own race (opencode's `dispose` at a hangup mostly
    // does, not always), so the reboot waits on the processes, not on a report.
    let mut reported = 0;
    for pane in &killed {
        let is_end =
            |c: &HookCall| c.event() == "SessionEnd" && c.payload["session_id"] == pane.id.as_str();
        let ended = world.log.calls().into_iter().find(is_end);
        reported += usize::from(ended.is_some());
        if let Some(call) = ended {
            eprintln!("{}: SessionEnd at the reboot {}", pane.name, call.payload);
            let gone = wait_until(TURN, || {
                record(&world, pane).is_some_and(|r| r["end_terminal"] == "gone")
            });
            assert!(gone, "{}: {:?}", pane.name, record(&world, pane));
        }
    }
    assert!(
        !ends_at_hangup || reported > 0,
        "none of {clis:?} reported its end at the hangup:\n{}",
        world.log.dump()
    );

    let (out, plan) = world.restore_at_prompts();
    for pane in &quit {
        let r = row(&plan, pane);
        assert_eq!(
            r["reason"],
            "ended",
            "{}: {r:#}\n{}",
            pane.name,
            text(&out.stderr)
        );
    }
    let typed = world.fake.typed_log();
    for pane in &killed {
        let r = row(&plan, pane);
        assert_eq!(r["action"], "type", "{}: {r:#}", pane.name);
        assert!(
            typed
                .iter()
                .any(|t| t.session.eq_ignore_ascii_case(&pane.session)
                    && t.pane == pane.role
                    && t.text.contains(&pane.id)),
            "{}: {typed:?}",
            pane.name
        );
    }
    assert_eq!(typed.len(), killed.len(), "{typed:?}");
    for pane in killed.iter().filter(|p| !p.agent.lazy_session_start()) {
        let resumed = |c: &HookCall| {
            c.event() == "SessionStart"
                && c.payload["source"] == "resume"
                && c.payload["session_id"] == pane.id.as_str()
        };
        let came = wait_until(TURN, || world.log.calls().iter().any(resumed));
        assert!(
            came,
            "{}: no resumed SessionStart in {TURN:?}; the pane shows:\n{}\nhook calls:\n{}",
            pane.name,
            world.fake.screen(&pane.session, pane.role),
            world.log.dump()
        );
        let start = world.log.calls().into_iter().find(resumed).unwrap();
        assert!(start.env_of(pane), "{}: {:?}", pane.name, start.meta);
        assert_eq!(
            start.payload["cwd"],
            pane.dir.display().to_string().as_str()
        );
    }
    for pane in &quit {
        assert!(
            !world.log.calls().iter().any(|c| c.event() == "SessionStart"
                && c.payload["source"] == "resume"
                && c.payload["session_id"] == pane.id.as_str()),
            "{}: the quit conversation came back:\n{}",
            pane.name,
            world.log.dump()
        );
    }
}
