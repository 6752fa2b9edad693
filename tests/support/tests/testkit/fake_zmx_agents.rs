//! The real Claude Code and Codex CLIs run in fake zmx sessions, offline against the stub model: each is
//! exec'd by `zmx attach <name> <cli>` with no shell in between, sees `ZMX_SESSION` and no tmux, and
//! answers a prompt (read back through `zmx history`). A reboot kills them and leaves their sockets.

use agterm_backup_testkit::agents::rig::Rig;
use agterm_backup_testkit::agents::{find_descendant, type_prompt, wait_ready, wait_screen, Agent};
use agterm_backup_testkit::fake_zmx::FakeZmx;
use agterm_backup_testkit::paths::agent_cli_or_fail_in_ci;
use std::time::Duration;

const AGENT_START: Duration = agterm_backup_testkit::agents::AGENT_START;
const TURN: Duration = agterm_backup_testkit::agents::TURN;

/// The rig's offline agent environment with the fake zmx first on PATH.
fn session_env(rig: &Rig, zmx: &FakeZmx) -> Vec<(String, String)> {
    let mut env = rig.home.env(&rig.stub);
    for (k, v) in &mut env {
        if k == "PATH" {
            *v = format!("{}:{v}", zmx.bin_dir().display());
        }
    }
    env.push(("ZMX_DIR".into(), zmx.socket_dir().display().to_string()));
    env
}

fn environ(pid: u32) -> Vec<String> {
    let raw = std::fs::read(format!("/proc/{pid}/environ")).unwrap_or_default();
    raw.split(|&b| b == 0)
        .map(|v| String::from_utf8_lossy(v).into_owned())
        .collect()
}

#[test]
fn real_claude_and_codex_run_in_fake_zmx_sessions() {
    let (Some(claude), Some(codex)) = (
        agent_cli_or_fail_in_ci("claude"),
        agent_cli_or_fail_in_ci("codex"),
    ) else {
        return;
    };
    let rig = Rig::new(&["proj"]);
    rig.home.write_claude_hooks(&[]);
    rig.home.write_codex_config(&rig.stub, &[]);
    let zmx = FakeZmx::new(&rig.root.join("z"));
    let cwd = rig.root.join("proj");
    let env = session_env(&rig, &zmx);
    let claude_argv = [
        claude.display().to_string(),
        "--model".into(),
        "sonnet".into(),
        "hi from zmx USE_TOOL".into(),
    ];
    let codex_argv = [codex.display().to_string()];
    for (name, argv) in [("cl", &claude_argv[..]), ("cx", &codex_argv[..])] {
        let mut args = vec!["attach", name];
        args.extend(argv.iter().map(String::as_str));
        let out = zmx
            .command(&args)
            .envs(env.clone())
            .current_dir(&cwd)
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
    }
    zmx.wait_for_history(
        "cl",
        "stub: the tool said stub-tool-ran",
        AGENT_START + TURN,
    );
    let host = zmx.host_tmux();
    let cx = zmx.tmux_pane("cx").expect("codex's session");
    wait_ready(&host, &cx, Agent::Codex, AGENT_START);
    type_prompt(&host, &cx, "codex in zmx: USE_TOOL");
    // Codex's paste-burst guard may take an Enter right after typed text as a newline; a user presses
    // it again (an Enter on an empty input does nothing).
    let replied = |s: &str| s.contains("stub: the tool said");
    for _ in 0..3 {
        let seen = || replied(&host.capture(&cx, true));
        if agterm_backup_testkit::fake_agterm::wait_until(Duration::from_secs(4), seen) {
            break;
        }
        host.ok(&["send-keys", "-t", &cx, "Enter"]);
    }
    wait_screen(&host, &cx, TURN, "codex's reply", replied);
    assert!(zmx.history("cx").contains("stub: the tool said"));

    let sessions = [
        ("cl", "claude", false, &claude_argv[0]),
        ("cx", "codex", true, &codex_argv[0]),
    ];
    for (name, exe, skip_node, argv0) in sessions {
        let row = zmx.session(name).expect("still running");
        assert!(row
            .get("cmd")
            .unwrap_or_default()
            .starts_with(argv0.as_str()));
        let pid = row.pid().unwrap();
        let cli = find_descendant(pid, exe, skip_node).unwrap_or(pid);
        let env = environ(cli);
        let session = format!("ZMX_SESSION={name}");
        assert!(env.contains(&session), "{name}: {env:?}");
        assert!(
            // TMUX_TMPDIR (where tmux's default socket is) is no pane's: only the pane markers count.
            !env.iter()
                .any(|v| v.starts_with("TMUX=") || v.starts_with("TMUX_PANE=")),
            "{name}: {env:?}"
        );
    }
    zmx.reboot();
    assert_eq!(zmx.stale_sockets(), ["cl", "cx"]);
}
