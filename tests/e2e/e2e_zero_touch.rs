//! Issue 16 end to end: install once, restart, nothing. The real Claude Code and Codex in the fake
//! agterm's panes, whose login shell (zsh, bash or fish) has `agterm-backup init <shell>` in its rc
//! file (a throwaway HOME); then a restart — Fresh, Live after a reboot, 0.15, Re-run with pins — and
//! nobody runs `restore`. Every captured pane must run its own conversation again within seconds of its
//! shell starting (checked from the agents' own payloads, argv and cwd: `e2e_restart_common::checks`),
//! the shell having run the line itself (nothing typed into any pane), once; a brand-new pane, a split,
//! a pane whose user ended its conversation and a second shell in a resumed pane get nothing; with pins
//! agterm resumes each pane and the shells stand aside; `restore --dry-run` and `restore --yes`
//! afterwards type nothing. The tmux flavour is in `e2e_zero_touch_tmux.rs`.

#[allow(dead_code)] // this binary uses the world and the checks, not every flavour
use crate::e2e_restart_common;

use crate::e2e_restart_common::flavours::{
    assert_all_resumed, assert_launch, assert_pinned, before_restart,
};
use crate::e2e_restart_common::lineup::{spec, Lineup, PaneSpec};
use crate::e2e_restart_common::{text, AgentPane, World, TURN};
use agterm_backup_core::pane::PaneRole;
use agterm_backup_core::quote::quote;
use agterm_backup_core::terminal::RestoreMode;
use agterm_backup_testkit::agents::{type_prompt, Agent};
use agterm_backup_testkit::clock::wait_clock_past;
use agterm_backup_testkit::fake_agterm::{wait_until, RestartKind};
use agterm_backup_testkit::settle::wait_settled;
use serde_json::json;
use std::time::{Duration, Instant, SystemTime};

/// restore's settle time (`AGTERM_BACKUP_SETTLE_SECS` unset): how long an agent must stay up after its
/// claim for its shell to keep the claim.
const SETTLE: Duration = Duration::from_secs(2);

/// What the shell prints before it runs a resume line.
const RESUMING: &str = "agterm-backup: resuming";
/// "Within a few seconds of its shell starting": from the launch to the agent in the pane's
/// foreground (its boot comes after), on two shared cores.
const WITHIN: Duration = Duration::from_secs(20);

/// The panes' environment: a budget for `shell-start` that a loaded CI machine meets (the default is
/// 2 s), and short dialog watches.
const PANE_ENV: &[(&str, &str)] = &[
    ("AGTERM_BACKUP_SHELL_START_BUDGET_MS", "8000"),
    ("AGTERM_BACKUP_DIALOG_TIMEOUT_SECS", "20"),
];

/// Claude (with a flag and a prompt argument) and `codex --no-daemon` in the two panes of one session.
const PAIR: Lineup = Lineup {
    sessions: &[("main proj", true)],
    panes: &[
        PaneSpec {
            dir: "main proj",
            flags: &["--model", "sonnet"],
            prompt: "zero touch main",
            prompt_as_argument: true,
            ..spec("claude", Agent::Claude, 0, PaneRole::Left)
        },
        PaneSpec {
            dir: "codex one",
            flags: &["--no-daemon", "-m", "mock-model"],
            prompt: "zero touch codex",
            ..spec("codex", Agent::Codex, 0, PaneRole::Right)
        },
    ],
};

/// [`PAIR`] plus a Claude the user quits with `/exit` before the restart.
const WITH_ENDED: Lineup = Lineup {
    sessions: &[("main proj", true), ("third proj", false)],
    panes: &[
        PAIR.panes[0],
        PAIR.panes[1],
        PaneSpec {
            dir: "third proj",
            prompt: "the pane the user ends",
            ..spec("ended", Agent::Claude, 1, PaneRole::Left)
        },
    ],
};

/// The user's rc files for `shell` in the panes' HOME: a `$ ` prompt, `set -u` (the snippet must not
/// trip over it), and the line the installer writes.
fn write_rc(world: &World, shell: &str) {
    let home = &world.rig.home.home;
    let bin = quote(&world.real_bin.display().to_string());
    let write = |rel: &str, text: String| {
        let path = home.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    match shell {
        "zsh" => write(
            ".zshrc",
            format!("PROMPT='$ '\nsetopt nounset\neval \"$({bin} init zsh)\"\n"),
        ),
        "bash" => {
            write(".bash_profile", ". ~/.bashrc\n".into());
            write(".bashrc", format!("set -u\neval \"$({bin} init bash)\"\n"));
        }
        "fish" => write(
            ".config/fish/config.fish",
            format!(
                "set -g fish_greeting ''\nfunction fish_prompt; printf '$ '; end\n{bin} init fish | source\n"
            ),
        ),
        other => panic!("no rc for {other}"),
    }
}

/// The world with `shell` in every pane and the snippet in its rc, and the lineup's agents at work.
fn world(shell: &str, version: &str, mode: RestoreMode, lineup: &Lineup) -> Option<World> {
    let mut world = World::start_in(version, mode, Some(shell), PANE_ENV)?;
    write_rc(&world, shell);
    world.start_agents(lineup);
    Some(world)
}

/// Who took the once-per-launch marker of the pane's conversation (`shell-start`, `restore`), if anyone.
fn resumed_by(world: &World, pane: &AgentPane) -> Vec<String> {
    world.rig.resumed_by(pane.agent_name(), &pane.id)
}

/// After the restart (at `launched`): each pane's agent is in front within [`WITHIN`], the whole
/// comeback checks out, nothing was typed into any pane, and `by` took each conversation's marker
/// (`shell-start`; none when agterm's pin resumed it).
fn assert_zero_touch(
    world: &World,
    before: &e2e_restart_common::flavours::Before,
    launched: Instant,
    by: &[&str],
) {
    for pane in &world.panes {
        let up = wait_until(WITHIN, || agent_in_front(world, pane));
        eprintln!(
            "{}: the agent in front {:?} after the launch",
            pane.name,
            launched.elapsed()
        );
        assert!(
            up,
            "{}: not resumed within {WITHIN:?} of the launch; screen:\n{}\nhook log:\n{}",
            pane.name,
            world.fake.screen(&pane.session, pane.role),
            std::fs::read_to_string(world.rig.state_dir.join("hook.log")).unwrap_or_default()
        );
    }
    assert_all_resumed(world, before);
    for pane in &world.panes {
        assert_eq!(resumed_by(world, pane), by, "{}", pane.name);
        assert_eq!(
            resumed_starts(world, pane, before),
            1,
            "{}: resumed once\n{}",
            pane.name,
            world.log.dump()
        );
    }
    assert_eq!(
        world.fake.typed_log(),
        vec![],
        "nothing was typed into a pane"
    );
}

/// Whether the pane's foreground process is its agent, resuming its conversation.
fn agent_in_front(world: &World, pane: &AgentPane) -> bool {
    let Some(pid) = world.fake.foreground_pid(&pane.session, pane.role) else {
        return false;
    };
    let argv = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
    let argv: Vec<String> = argv
        .split(|b| *b == 0)
        .filter(|a| !a.is_empty())
        .map(|a| String::from_utf8_lossy(a).into_owned())
        .collect();
    agterm_backup_core::process::agent_args(pane.spec(), &argv)
        .is_some_and(|args| args.iter().any(|w| w.ends_with(pane.id.as_str())))
}

/// The resumed SessionStarts of the pane's conversation since the restart.
fn resumed_starts(
    world: &World,
    pane: &AgentPane,
    before: &e2e_restart_common::flavours::Before,
) -> usize {
    world
        .log
        .calls()
        .iter()
        .filter(|c| {
            c.seq >= before.mark()
                && c.event() == "SessionStart"
                && c.payload["session_id"] == pane.id.as_str()
        })
        .count()
}

/// `restore --dry-run` plans no line, and `restore --yes` types none.
fn assert_restore_types_nothing(world: &World) {
    let (out, plan) = world.restore_with(&["--dry-run", "--json"]);
    let typed: Vec<&serde_json::Value> = plan["rows"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|r| r["action"] == "type")
        .collect();
    assert!(
        out.status.success() && typed.is_empty(),
        "restore --dry-run would type: {typed:#?}\n{}",
        text(&out.stderr)
    );
    let (out, plan) = world.restore();
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        world.fake.typed_log(),
        vec![],
        "restore typed; plan {plan:#}"
    );
}

/// A pane that must get nothing: at its prompt, no resume announced, nothing in front.
fn assert_gets_nothing(world: &World, session: &str, role: PaneRole, what: &str) {
    world.fake.wait_for_prompt(session, role);
    // The prompt is drawn after the prompt hook's `shell-start` returned; once no `shell-start` of the
    // rig is left (a retry, a give-back), the decision is made.
    wait_settled(&world.rig.root, TURN);
    let screen = world.fake.screen(session, role);
    assert!(!screen.contains(RESUMING), "{what}: {screen}");
    assert_eq!(
        world.fake.foreground(session, role),
        None,
        "{what}: {screen}"
    );
}

#[test]
fn zsh_fresh_each_pane_resumes_itself_once_and_new_ended_split_and_second_shells_get_nothing() {
    let Some(mut world) = world("zsh", "0.34", RestoreMode::None, &WITH_ENDED) else {
        return;
    };
    let ended = world.panes.pop().unwrap();
    let tmux_pane = world.fake.pane_tmux_id(&ended.session, ended.role);
    type_prompt(world.fake.tmux(), &tmux_pane, "/exit");
    world.log.wait(TURN, "the ended pane's SessionEnd", |c| {
        c.event() == "SessionEnd" && c.payload["session_id"] == ended.id.as_str()
    });
    world.rig.wait_ended(&ended.id, TURN);
    let before = before_restart(&world);
    world.fake.restart(RestartKind::CleanQuit);
    let launched = Instant::now();
    assert_launch(&world, "shell");
    assert_zero_touch(&world, &before, launched, &["shell-start"]);
    assert_gets_nothing(&world, &ended.session, ended.role, "the ended pane");

    let dir = world.rig.root.join("second proj");
    let new = world.fake.add_session(None, None, &dir, false);
    assert_gets_nothing(&world, &new.id, PaneRole::Left, "a brand-new pane");
    world
        .fake
        .request(&json!({"cmd": "fake.split", "target": ended.session}));
    assert_gets_nothing(&world, &ended.session, PaneRole::Right, "a split");

    second_shell_gets_nothing(&world, &world.panes[0]);
    assert_restore_types_nothing(&world);
}

/// The agent of `pane` dies (SIGKILL: no SessionEnd), and the user starts a second zsh in the pane:
/// its first prompt must not bring the conversation back again.
fn second_shell_gets_nothing(world: &World, pane: &AgentPane) {
    // An agent that exits within restore's settle time of its claim did not stay up, and its shell gives
    // the claim back: this one stayed up, as a person's does.
    let claimed = claimed_at(world, pane).expect("the shell's claim of the conversation");
    wait_clock_past(claimed + SETTLE);
    let agent = world.fake.foreground_pid(&pane.session, pane.role).unwrap();
    // SAFETY: kill has no memory preconditions; the pid is this test's agent.
    unsafe { libc::kill(agent as i32, libc::SIGKILL) };
    // The killed TUI's screen stays behind the prompt: wait for the shell, clear, start the second one.
    let mut outer = None;
    wait_until(Duration::from_secs(15), || {
        outer = world.fake.foreground_pid(&pane.session, pane.role);
        outer.is_some_and(is_shell)
    });
    let outer = outer.expect("the pane's shell");
    world
        .fake
        .send_keys(&pane.session, pane.role, "clear; zsh\n");
    let nested = wait_until(Duration::from_secs(15), || {
        world
            .fake
            .foreground_pid(&pane.session, pane.role)
            .is_some_and(|p| p != outer && is_shell(p))
    });
    assert!(nested, "{}", world.fake.screen(&pane.session, pane.role));
    assert_gets_nothing(world, &pane.session, pane.role, "a second shell");
    assert_eq!(resumed_by(world, pane), ["shell-start"], "still once");
}

/// When the pane's conversation was claimed in this launch (the marker's `ts`).
fn claimed_at(world: &World, pane: &AgentPane) -> Option<SystemTime> {
    let name = format!("conversation.{}.{}", pane.agent_name(), pane.id);
    let launches = std::fs::read_dir(world.rig.state_dir.join("resumed")).ok()?;
    launches
        .flatten()
        .filter_map(|l| std::fs::read_to_string(l.path().join(&name)).ok())
        .filter_map(|t| serde_json::from_str::<serde_json::Value>(t.trim()).ok())
        .filter_map(|v| chrono::DateTime::parse_from_rfc3339(v["ts"].as_str()?).ok())
        .map(SystemTime::from)
        .max()
}

fn is_shell(pid: u32) -> bool {
    std::fs::read_link(format!("/proc/{pid}/exe"))
        .ok()
        .and_then(|e| e.file_name().map(|n| n.to_string_lossy().into_owned()))
        .is_some_and(|n| n.starts_with("zsh"))
}

#[test]
fn bash_live_after_a_reboot_each_pane_resumes_itself_once() {
    let Some(mut world) = world("bash", "0.34", RestoreMode::Live, &PAIR) else {
        return;
    };
    let before = before_restart(&world);
    world.reboot();
    let launched = Instant::now();
    assert_launch(&world, "denied");
    assert_zero_touch(&world, &before, launched, &["shell-start"]);
    assert_restore_types_nothing(&world);
}

#[test]
fn fish_agterm_0_15_each_pane_resumes_itself_once() {
    let Some(mut world) = world("fish", "0.15", RestoreMode::Rerun, &PAIR) else {
        return;
    };
    let before = before_restart(&world);
    world.fake.restart(RestartKind::CleanQuit);
    let launched = Instant::now();
    assert_launch(&world, "denied");
    assert_zero_touch(&world, &before, launched, &["shell-start"]);
    assert_restore_types_nothing(&world);
}

#[test]
fn zsh_rerun_with_pins_agterm_resumes_each_pane_once_and_the_shells_stand_aside() {
    let Some(mut world) = world("zsh", "0.34", RestoreMode::Rerun, &PAIR) else {
        return;
    };
    assert_pinned(&world);
    let before = before_restart(&world);
    world.fake.restart(RestartKind::CleanQuit);
    let launched = Instant::now();
    assert_launch(&world, "pin");
    assert_zero_touch(&world, &before, launched, &[]);
    assert_restore_types_nothing(&world);
}
