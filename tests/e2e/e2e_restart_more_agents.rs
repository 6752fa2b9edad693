//! Issue 13's end-to-end proof with the real Gemini CLI 0.61.0, Copilot CLI 1.0.102 and Qwen Code 0.24.4
//! (npm installs: node launchers), offline against the stub model, in the fake agterm's panes after
//! `agterm-backup installer apply` wired their hook files for real. Each agent's own hooks write its
//! pane's record; a headless run in the same pane (`gemini -p`, `copilot -p`, a positional `qwen` prompt)
//! changes nothing; then one restart flavour per test:
//!
//! - **0.15** ("restore running commands" on): a clean quit. agterm's denylist matches `argv[0]`, which
//!   for an npm agent is `node`, so agterm replays each bare agent (a new conversation); it is quit, and
//!   `restore --yes` types each pane's resume line (the journal steps back past the replayed one).
//! - **0.34 Live after a reboot**: the same replay, then the same `restore --yes`.
//! - **0.34 rerun with pins**: the hook pinned each resume line and agterm types it itself.
//!
//! Every pane must come back with its agent's own SessionStart `source: "resume"`, its conversation id,
//! its directory and its flags (`e2e_restart_common::checks`). Skipped with a SKIPPED line when the CLIs
//! are absent (a failure when `CI` is set).

use crate::e2e_restart_common::flavours::{
    agterm_0_34_rerun_pins, assert_all_resumed, assert_restore_typed_each_pane_once, before_restart,
};
use crate::e2e_restart_common::lineup::{Lineup, MORE, OPENCODE};
use crate::e2e_restart_common::{World, AGENT_START, TURN};
#[allow(dead_code)] // the flavours of the Claude/Codex lineups are not used here
use agterm_backup_core::terminal::RestoreMode;
use agterm_backup_testkit::agents::{run_cli, type_quit, wait_ready, Agent};
use agterm_backup_testkit::fake_agterm::RestartKind;
use agterm_backup_testkit::paths::agent_cli;
use agterm_backup_testkit::settle::wait_hooks_done;
use std::time::Duration;

fn clis_present() -> bool {
    ["gemini", "copilot", "qwen", "opencode"]
        .iter()
        .all(|c| agent_cli(c).is_some())
}

/// `installer apply` wired each agent's own hook file and kept what the user had there (the comment
/// Gemini and Qwen allow, the auth settings).
fn assert_wired(world: &World) {
    let home = &world.rig.home.home;
    for (agent, file) in [
        ("gemini", ".gemini/settings.json"),
        ("qwen", ".qwen/settings.json"),
        ("copilot", ".copilot/hooks/agterm-backup.json"),
        ("opencode", ".config/opencode/plugins/agterm-backup.js"),
    ] {
        let text = std::fs::read_to_string(home.join(file)).unwrap_or_default();
        assert!(text.contains(&format!("hook {agent}")), "{file}: {text}");
        if matches!(agent, "gemini" | "qwen") {
            assert!(
                text.starts_with("// seeded by") && text.contains("selectedType"),
                "kept: {text}"
            );
        }
    }
}

/// Runs each pane's agent headless with the pane's environment, as a person would in that pane: the
/// record and the journal must not change.
fn headless_runs_change_nothing(world: &World) {
    for pane in &world.panes {
        let env: Vec<(String, String)> = world
            .fake
            .pane_env(&pane.session, pane.role)
            .into_iter()
            .filter(|(k, _)| k != "PWD")
            .chain([("PWD".to_string(), pane.dir.display().to_string())])
            .collect();
        let key = agterm_backup_agterm::key::key(&pane.session, pane.role).unwrap();
        let state = agterm_backup_core::state::StateDir::at(&world.rig.state_dir);
        // What a restore reads: the conversation, its process, directory and flags, and the journal
        // (the TUI's own later events may still refresh the record's `ts` and `event`).
        let read = || {
            let record: serde_json::Value =
                serde_json::from_slice(&std::fs::read(state.record_path(&key)).unwrap_or_default())
                    .unwrap_or_default();
            let kept = ["session_id", "agent_pid", "agent_cwd", "flags", "agent"]
                .map(|k| record[k].clone());
            (
                kept,
                std::fs::read(state.journal_path(&key)).unwrap_or_default(),
            )
        };
        let before = read();
        let prompt = format!("headless {}", pane.name);
        let args: Vec<&str> = match pane.agent {
            Agent::Gemini => vec!["-p", &prompt],
            Agent::Copilot => vec!["-p", &prompt, "--allow-all-tools"],
            Agent::Opencode => vec!["run", &prompt],
            _ => vec![&prompt],
        };
        let cli = world.rig.root.join("agent-bin").join(pane.agent_name());
        let out = strip_escapes(&run_cli(&cli, &args, &pane.dir, &env));
        // (`opencode run` quotes the message it sends.)
        assert!(
            out.contains("stub reply to: ") && out.contains(&prompt),
            "{}: {out}",
            pane.name
        );
        // Its hooks ran (the wrapper saw them), and wrote nothing.
        world
            .log
            .wait(TURN, &format!("{}'s headless hooks", pane.name), |c| {
                c.env_of(pane) && c.prompt().is_some_and(|p| p.contains(&prompt))
            });
        // The record is compared once every hook run (the wrapper, the real hook it execs) is done.
        wait_hooks_done(&world.rig.root, TURN);
        let after = read();
        assert!(
            after == before,
            "{}: a headless run changed the pane's record\nbefore: {:?}\nafter: {:?}\nhook calls:\n{}",
            pane.name,
            before,
            after,
            world.log.dump()
        );
    }
}

/// `text` without terminal escape sequences (`opencode run` colours its output).
fn strip_escapes(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\x1b' {
            // CSI: ESC [ … final byte in @..~
            if chars.next() == Some('[') {
                for f in chars.by_ref() {
                    if ('@'..='~').contains(&f) {
                        break;
                    }
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// agterm replays a bare npm agent (its `argv[0]` is `node`): quit each one so the pane is an idle shell
/// again, as the `restore` plan's "busy" row tells the person to.
fn quit_replayed_agents(world: &World) {
    for pane in &world.panes {
        let actions = world.fake.launch_actions(&pane.session);
        let replayed = actions
            .iter()
            .any(|(r, a)| *r == pane.role && a == "replay");
        assert!(replayed, "{}: agterm's launch did {actions:?}", pane.name);
        let tmux_pane = world.fake.pane_tmux_id(&pane.session, pane.role);
        wait_ready(world.fake.tmux(), &tmux_pane, pane.agent, AGENT_START);
        type_quit(world.fake.tmux(), &tmux_pane, pane.agent, AGENT_START);
        // A slash-command menu (opencode's) may take the first Enter to pick the command: press it
        // again while the pane's shell prompt has not come back.
        for _ in 0..5 {
            std::thread::sleep(Duration::from_millis(300));
            world
                .fake
                .tmux()
                .ok(&["send-keys", "-t", &tmux_pane, "Enter"]);
            let back =
                agterm_backup_testkit::fake_agterm::wait_until(Duration::from_secs(4), || {
                    world
                        .fake
                        .screen(&pane.session, pane.role)
                        .lines()
                        .rev()
                        .find(|l| !l.trim().is_empty())
                        .is_some_and(|l| l.trim_end().ends_with('$'))
                });
            if back {
                break;
            }
        }
    }
    for pane in &world.panes {
        world.fake.wait_for_prompt(&pane.session, pane.role);
    }
}

fn restart_then_restore(version: &str, mode: RestoreMode, lineup: &Lineup) {
    if !clis_present() {
        return;
    }
    let Some(mut world) = World::start(version, mode) else {
        return;
    };
    assert_wired(&world);
    world.start_agents(lineup);
    headless_runs_change_nothing(&world);
    let mut before = before_restart(&world);
    match mode {
        RestoreMode::Live => world.reboot(),
        _ => world.fake.restart(RestartKind::CleanQuit),
    }
    quit_replayed_agents(&world);
    before.mark_now(&world);
    assert_restore_typed_each_pane_once(&world);
    assert_all_resumed(&world, &before);
}

#[test]
fn agterm_0_15_restart_then_restore_resumes_gemini_copilot_qwen() {
    restart_then_restore("0.15", RestoreMode::Rerun, &MORE);
}

#[test]
fn agterm_0_34_live_reboot_then_restore_resumes_gemini_copilot_qwen() {
    restart_then_restore("0.34", RestoreMode::Live, &MORE);
}

#[test]
fn agterm_0_34_rerun_types_the_pins_of_gemini_copilot_qwen() {
    if clis_present() {
        agterm_0_34_rerun_pins(&MORE);
    }
}

#[test]
fn agterm_0_15_restart_then_restore_resumes_opencode() {
    restart_then_restore("0.15", RestoreMode::Rerun, &OPENCODE);
}

#[test]
fn agterm_0_34_live_reboot_then_restore_resumes_opencode() {
    restart_then_restore("0.34", RestoreMode::Live, &OPENCODE);
}

#[test]
fn agterm_0_34_rerun_types_the_pin_of_opencode() {
    if clis_present() {
        agterm_0_34_rerun_pins(&OPENCODE);
    }
}
