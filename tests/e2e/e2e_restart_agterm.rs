//! `agterm-backup restart` in the fake agterm (0.34, Re-run), with the real Claude Code: while the user
//! types into Claude's input box the pane is left alone (the text named); once the box is empty again the
//! agent is quit and its conversation resumed in the same agterm pane, not ended. Fails (no silent skip)
//! in CI without the CLIs.

use crate::e2e_restart_common::lineup::{Lineup, PaneSpec};
use crate::e2e_restart_common::observe::wait_resumed_process;
use crate::e2e_restart_common::{text, World, TURN};
use agterm_backup_core::pane::PaneRole;
use agterm_backup_core::terminal::RestoreMode;
use agterm_backup_testkit::agents::Agent;
use serde_json::Value;
use std::process::{Command, Stdio};

const ONE_CLAUDE: Lineup = Lineup {
    sessions: &[("main proj", false)],
    panes: &[PaneSpec {
        name: "idle",
        agent: Agent::Claude,
        session: 0,
        role: PaneRole::Left,
        dir: "main proj",
        flags: &["--model", "sonnet"],
        prompt: "the agterm pane says hi",
        prompt_as_argument: false,
        daemon: false,
        stop_cwd: None,
    }],
};

/// `restart --terminal agterm --json <args>` as the user runs it; its JSON.
fn restart(world: &World, args: &[&str]) -> Value {
    let out = Command::new(&world.real_bin)
        .args(["restart", "--terminal", "agterm", "--json"])
        .args(args)
        .env_clear()
        .envs(agterm_backup_testkit::hermetic::places())
        .envs(world.rig.home.env(&world.rig.stub))
        .env("AGTERM_STATE_DIR", world.fake.state_dir())
        .env("AGTERM_SOCKET", world.fake.socket())
        .env("AGTERM_BACKUP_HOME", &world.rig.state_dir)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn restart_resumes_an_idle_claude_in_its_agterm_pane() {
    let Some(mut world) = World::start("0.34", RestoreMode::Rerun) else {
        return;
    };
    world.start_agents(&ONE_CLAUDE);
    let pane = world.panes[0].clone();
    let record = world.rig.state_dir.join("live").join(format!(
        "{}-{}.json",
        pane.session.to_uppercase(),
        pane.role.as_str()
    ));
    let read = || -> Option<Value> { serde_json::from_slice(&std::fs::read(&record).ok()?).ok() };
    assert!(
        agterm_backup_testkit::fake_agterm::wait_until(TURN, || read()
            .is_some_and(|r| r["event"] == "Stop")),
        "the turn's Stop: {:?}",
        read()
    );

    // The user starts typing into Claude's input box: restart leaves the pane alone, the text named.
    let keys = world.fake.pane_tmux_id(&pane.session, pane.role);
    let half = "half a thought";
    world
        .fake
        .tmux()
        .ok(&["send-keys", "-t", &keys, "-l", half]);
    let shows = |w: &World| w.fake.screen(&pane.session, pane.role).contains(half);
    assert!(agterm_backup_testkit::fake_agterm::wait_until(TURN, || {
        shows(&world)
    }));
    let dry = restart(&world, &["--dry-run"]);
    let row = &dry["panes"][0];
    assert_eq!(row["status"], "wait", "{dry:#}");
    assert!(row["reason"].as_str().unwrap().contains(half), "{dry:#}");
    for _ in half.chars() {
        world.fake.tmux().ok(&["send-keys", "-t", &keys, "BSpace"]);
    }
    // Emptied again: the pane is idle once more.
    assert!(agterm_backup_testkit::fake_agterm::wait_until(TURN, || {
        restart(&world, &["--dry-run"])["panes"][0]["status"] == "restart"
    }));

    let out = Command::new(&world.real_bin)
        .args(["restart", "--terminal", "agterm", "--yes", "--json"])
        .env_clear()
        .envs(agterm_backup_testkit::hermetic::places())
        .envs(world.rig.home.env(&world.rig.stub))
        .env("AGTERM_STATE_DIR", world.fake.state_dir())
        .env("AGTERM_SOCKET", world.fake.socket())
        .env("AGTERM_BACKUP_HOME", &world.rig.state_dir)
        .env("AGTERM_BACKUP_DIALOG_TIMEOUT_SECS", "5")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
    assert!(
        out.status.success(),
        "{doc:#}\n{}{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    assert_eq!(doc["panes"][0]["status"], "restarted", "{doc:#}");
    let back = wait_resumed_process(&world, &pane, TURN);
    assert!(back.argv.iter().any(|w| w == "sonnet"), "{back:?}");
    assert!(
        agterm_backup_testkit::fake_agterm::wait_until(TURN, || read()
            .is_some_and(|r| r["event"] == "SessionStart")),
        "{:?}",
        read()
    );
    assert!(read().unwrap().get("end_reason").is_none());
}
