//! End to end with the real Codex CLI (`--no-daemon`, so its hooks are children of the TUI in the pane):
//! it runs offline in a tmux pane against the stub model and fires its hooks into the built
//! `agterm-backup hook codex`, wired by `agterm-backup installer apply` for real; the pane's live record
//! must name its rollout id, cwd and flags. Skipped (with a SKIPPED line) when the CLI is absent.
//!
//! Hook trust, two ways: `installer apply --trust` (our hooks trusted as the TUI's "Trust all and
//! continue" does; no dialog), and `--dangerously-bypass-hook-trust` on the command line (Codex 0.169 has
//! it on `codex`), which also runs the test's untrusted payload logger.

use agterm_backup_core::quote::quote_words;
use agterm_backup_testkit::agents::rig::Rig;
use agterm_backup_testkit::agents::{
    find_descendant, read_payloads, start_in_pane, type_prompt, wait_ready, wait_screen, Agent,
    AgtermPane,
};
use agterm_backup_testkit::paths::agent_cli;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::time::Duration;

const AGENT_START: Duration = agterm_backup_testkit::agents::AGENT_START;
const TURN: Duration = agterm_backup_testkit::agents::TURN;

fn agterm_backup() -> &'static Path {
    Path::new(agterm_backup_testkit::agterm_backup_bin!())
}

/// Starts `codex <flags>` in a pane in `cwd`, sends a prompt that makes a tool call, waits for the reply
/// and for the Stop record. Returns (pane, record, native codex pid, screen).
fn run_codex_turn(
    rig: &Rig,
    codex: &Path,
    cwd: &Path,
    flags: &[&str],
) -> (AgtermPane, Value, u32, String) {
    let pane = rig.pane("left");
    let env = rig.pane_env(&pane);
    let mut argv = vec![codex.display().to_string()];
    argv.extend(flags.iter().map(|f| f.to_string()));
    let tmux_pane = start_in_pane(&rig.tmux, "codex", cwd, &env, &quote_words(&argv));
    wait_ready(&rig.tmux, &tmux_pane, Agent::Codex, AGENT_START);
    // SessionStart fires lazily, with the first prompt.
    type_prompt(&rig.tmux, &tmux_pane, "codex, it's your turn: USE_TOOL");
    let screen = wait_screen(&rig.tmux, &tmux_pane, TURN, "the tool call's reply", |s| {
        s.contains("stub: the tool said")
    });
    // The native binary the node wrapper starts is the agent process the hook walks up to.
    let codex_pid = find_descendant(rig.tmux.pane_pid(&tmux_pane), "codex", true)
        .expect("a native codex process below the pane's shell");
    let record = rig.wait_record(&pane, TURN, "the Stop record", |r| r["event"] == "Stop");
    (pane, record, codex_pid, screen)
}

/// The one rollout Codex wrote and the session id in its name.
fn only_rollout(rig: &Rig) -> (PathBuf, String) {
    let rollouts = rig.home.codex_rollouts();
    assert_eq!(rollouts.len(), 1, "one rollout: {rollouts:?}");
    let name = rollouts[0]
        .file_stem()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    // rollout-<YYYY-MM-DDThh-mm-ss>-<uuid>: the uuid is the last 36 characters.
    let id = name[name.len() - 36..].to_string();
    (rollouts[0].clone(), id)
}

fn assert_record(
    record: &Value,
    pane: &AgtermPane,
    rollout: &Path,
    id: &str,
    cwd: &Path,
    pid: u32,
) {
    assert_eq!(record["agent"], "codex", "record: {record}");
    assert_eq!(record["session_id"], id, "record: {record}");
    assert_eq!(
        record["agterm_session"],
        pane.session_id.to_uppercase().as_str()
    );
    assert_eq!(record["role"], "left");
    assert_eq!(record["pane_id"], pane.pane_id.as_str());
    assert_eq!(
        record["transcript_path"],
        rollout.display().to_string().as_str()
    );
    assert_eq!(record["agent_cwd"], cwd.display().to_string().as_str());
    assert_eq!(record["hook_cwd"], cwd.display().to_string().as_str());
    assert_eq!(record["agent_pid"], pid);
    let journal = std::fs::read_to_string(pane.journal_path()).expect("the pane's journal exists");
    assert!(
        journal.lines().count() >= 1 && journal.lines().all(|l| l.contains(id)),
        "{journal}"
    );
}

#[test]
fn codex_with_installer_trust_runs_our_hooks_without_a_dialog() {
    let Some(codex) = agent_cli("codex") else {
        return;
    };
    let rig = Rig::new(&["codex trusted"]);
    rig.pre_install_config(false);
    let said = rig.install(agterm_backup(), "codex", true);
    assert!(said.contains("trusted"), "installer apply --trust: {said}");
    let cwd = rig.root.join("codex trusted");

    let flags = ["--no-daemon", "-m", "mock-model"];
    let (pane, record, pid, screen) = run_codex_turn(&rig, &codex, &cwd, &flags);
    assert!(
        !screen.contains("Hooks need review"),
        "Codex asked for trust:\n{screen}"
    );
    let (rollout, id) = only_rollout(&rig);
    assert_record(&record, &pane, &rollout, &id, &cwd, pid);
    assert_eq!(record["flags"], json!(flags));
    rig.stub.assert_answered_everything();
}

#[test]
fn codex_bypassing_trust_leaves_a_record_matching_its_own_payloads() {
    let Some(codex) = agent_cli("codex") else {
        return;
    };
    let rig = Rig::new(&["codex proj"]);
    rig.pre_install_config(true);
    rig.install(agterm_backup(), "codex", false);
    let cwd = rig.root.join("codex proj");

    let flags = [
        "--no-daemon",
        "--dangerously-bypass-hook-trust",
        "-m",
        "mock-model",
    ];
    let (pane, record, pid, _) = run_codex_turn(&rig, &codex, &cwd, &flags);
    let start = rig.wait_payload(TURN, "Codex's SessionStart", |p| {
        p["hook_event_name"] == "SessionStart"
    });
    let (rollout, id) = only_rollout(&rig);
    assert_eq!(
        start["session_id"],
        id.as_str(),
        "SessionStart names the rollout's id"
    );
    assert_eq!(
        PathBuf::from(start["transcript_path"].as_str().unwrap()),
        rollout
    );
    assert!(
        read_payloads(&rig.payloads)
            .iter()
            .any(|p| p["hook_event_name"] == "PreToolUse"),
        "PreToolUse fired"
    );
    assert_record(&record, &pane, &rollout, &id, &cwd, pid);
    assert_eq!(record["flags"], json!(flags), "flags kept as launched");
    rig.stub.assert_answered_everything();
}
