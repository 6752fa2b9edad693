//! The real Kimi Code 2.1.0 (Node 22, offline against the stub model) in a user's tmux pane, wired by
//! `installer apply --agents kimi`: its own hooks write the record of that pane, and after a reboot
//! (`kill-server`, the layout rebuilt as tmux-resurrect does, its post-restore hook run) the conversation
//! comes back in its own pane and directory, resumed (Kimi's own SessionStart `source: "resume"` with the
//! same id), its resume line typed once. Skipped without the CLIs (a failure under `CI`). (A zmx
//! session: `e2e_kimi_zmx`.)

use crate::tmux_common;

use agterm_backup_testkit::agents::rig::Rig;
use agterm_backup_testkit::agents::{payload_logger_command, type_prompt, wait_ready, Agent};
use agterm_backup_testkit::layout::{rebuild, run_post_restore_hook, save};
use agterm_backup_testkit::paths::agent_cli;
use agterm_backup_testkit::tmux::Tmux;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::time::Duration;
use tmux_common::{TmuxRig, COMEBACK, TURN, USER_TMUX_CONF};

const AGENT_START: Duration = Duration::from_secs(40);

/// `agent-bin/kimi` (the npm launcher) first on `PATH`, then Node 22: what a user who installed Kimi
/// has, so the resume line's bare `kimi` runs it.
fn kimi_path(rig: &Rig, kimi: &Path) -> String {
    let bin = rig.root.join("agent-bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::os::unix::fs::symlink(kimi, bin.join("kimi")).unwrap();
    format!(
        "{}:{}",
        bin.display(),
        agterm_backup_testkit::agents::kimi_path()
    )
}

/// The user's environment with Kimi's: its stub model, its PATH.
fn with_kimi(rig: &Rig, env: Vec<(String, String)>, kimi: &Path) -> Vec<(String, String)> {
    let path = kimi_path(rig, kimi);
    let mut env: Vec<(String, String)> = env
        .into_iter()
        .chain(rig.home.kimi_env(&rig.stub))
        .filter(|(k, _)| k != "PATH")
        .collect();
    env.push(("PATH".into(), path));
    env
}

/// Waits until no `kimi-code` process runs in a folder under `root` (SIGHUP ends them a moment after
/// their terminal).
fn wait_kimis_gone(root: &Path) {
    Tmux::wait_for(Duration::from_secs(15), "Kimi to end", || {
        let running = std::fs::read_dir("/proc")
            .into_iter()
            .flatten()
            .flatten()
            .filter_map(|e| e.file_name().to_string_lossy().parse::<u32>().ok())
            .any(|pid| {
                let argv = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
                let cwd = std::fs::read_link(format!("/proc/{pid}/cwd")).ok();
                argv.starts_with(b"kimi-code") && cwd.is_some_and(|c| c.starts_with(root))
            });
        (!running).then_some(())
    });
}

fn resumed_start(rig: &Rig, id: &str, dir: &Path) {
    let start = rig.wait_payload(COMEBACK, "Kimi's resumed SessionStart", |p| {
        p["hook_event_name"] == "SessionStart" && p["source"] == "resume" && p["session_id"] == id
    });
    assert_eq!(start["cwd"], dir.display().to_string().as_str(), "{start}");
}

/// The lines typed at a shell prompt that resume `id` with Kimi's grammar.
fn typed_kimi_lines(screen: &str, id: &str) -> usize {
    screen
        .lines()
        .filter(|l| l.contains("pane$") && l.contains("--session") && l.contains(id))
        .count()
}

fn first_turn(rig: &Rig, host: &Tmux, target: &str, prompt: &str) -> String {
    wait_ready(host, target, Agent::Kimi, AGENT_START);
    type_prompt(host, target, prompt);
    let asked = rig.wait_payload(TURN, "Kimi's first prompt", |p| {
        p["hook_event_name"] == "UserPromptSubmit" && p["prompt"][0]["text"] == prompt
    });
    let id = asked["session_id"].as_str().unwrap().to_string();
    rig.wait_payload(TURN, "Kimi's first Stop", |p| {
        p["hook_event_name"] == "Stop" && p["session_id"] == id.as_str()
    });
    id
}

#[test]
fn kimi_in_a_tmux_pane_comes_back_after_a_reboot_and_a_resurrect_restore() {
    let Some(kimi) = agent_cli("kimi") else {
        return;
    };
    let (Some(claude), Some(codex)) = (agent_cli("claude"), agent_cli("codex")) else {
        return;
    };
    let rig = Rig::new(&["kimi tmux"]);
    let dir = rig.root.join("kimi tmux");
    std::fs::write(rig.home.home.join(".tmux.conf"), USER_TMUX_CONF).unwrap();
    rig.home
        .seed_kimi(&[&dir], Some(&payload_logger_command(&rig.payloads)));
    let mut env = with_kimi(&rig, rig.home.env(&rig.stub), &kimi);
    env.extend([
        (
            "AGTERM_BACKUP_HOME".into(),
            rig.state_dir.display().to_string(),
        ),
        ("PS1".into(), "pane$ ".into()),
        ("LANG".into(), "C.UTF-8".into()),
        ("AGTERM_BACKUP_DIALOG_TIMEOUT_SECS".into(), "20".into()),
    ]);
    let tmux = Tmux::as_user(rig.root.join("user.sock"), &env);
    let t = TmuxRig {
        rig,
        tmux,
        claude,
        codex,
        bin: PathBuf::from(agterm_backup_testkit::agterm_backup_bin!()),
    };
    let out = t.rig.install(&t.bin, "kimi", false);
    assert!(
        t.tmux_conf().contains("@resurrect-hook-post-restore-all"),
        "{out}"
    );
    t.tmux.ok(&[
        "new-session",
        "-d",
        "-s",
        "work",
        "-x",
        "200",
        "-y",
        "50",
        "-c",
        &dir.display().to_string(),
    ]);
    t.wait_prompt("work:0.0");
    t.tmux.send_text("work:0.0", "kimi --yolo", true);
    let id = first_turn(&t.rig, &t.tmux, "work:0.0", "tmux kimi says hi");
    Tmux::wait_for(TURN, "the record of Kimi's conversation", || {
        t.records()
            .into_iter()
            .any(|r| r["terminal"] == "tmux" && r["session_id"] == id.as_str())
            .then_some(())
    });
    let rec: Value = t.wait_record("work", 0, 0, "kimi in work");
    assert_eq!(rec["agent"], "kimi");
    assert_eq!(rec["agent_cwd"], dir.display().to_string().as_str());

    let saved = save(&t.tmux);
    t.reboot();
    wait_kimis_gone(&t.rig.root);
    rebuild(&t.tmux, &saved);
    t.wait_prompt("work:0.0");
    run_post_restore_hook(&t.tmux, &t.rig.root);
    resumed_start(&t.rig, &id, &dir);
    wait_ready(&t.tmux, "work:0.0", Agent::Kimi, AGENT_START);
    assert_eq!(
        typed_kimi_lines(&t.tmux.capture("work:0.0", true), &id),
        1,
        "{}",
        t.tmux.capture("work:0.0", true)
    );
    t.tmux.kill_server();
    wait_kimis_gone(&t.rig.root);
}
