//! Issue 16 end to end in tmux: the user's panes run zsh with `agterm-backup init zsh` in ~/.zshrc and
//! tmux-resurrect's post-restore hook in their tmux config (both from `installer apply`, the hook as the
//! installer writes it). Claude and Codex in the two panes of a window, a Claude the user quit, a pane
//! that never ran an agent; a reboot; the layout rebuilt the way tmux-resurrect does it. Nobody runs
//! restore: every conversation comes back in its pane once, by its shell, and the hook run afterwards
//! types nothing. With the hook run while the shells start, a shell or the hook's `restore` gets there
//! first, never both. The quit pane and the plain pane get nothing, and `restore --dry-run` afterwards
//! plans no line. Skipped (SKIPPED line) without the CLIs.

use crate::tmux_common::TmuxRig;
use crate::tmux_common::COMEBACK;
use agterm_backup_core::quote::quote;
use agterm_backup_testkit::layout::{rebuild, run_post_restore_hook, save};
use agterm_backup_testkit::settle::wait_settled;
use agterm_backup_tmux::resurrect::RESTORE_LOG;

/// The user's tmux config: their panes run an interactive zsh.
const TMUX_CONF: &str = "# my tmux\nset -g default-command \"zsh -i\"\nset -g history-limit 5000\n";

#[test]
fn tmux_panes_resume_themselves_once_after_a_layout_rebuild() {
    let Some(t) = TmuxRig::new(&["alpha", "beta", "gamma", "delta"]) else {
        return;
    };
    for (agent, id) in rebuilt_panes_come_back_once(&t, false) {
        assert_eq!(
            t.rig.resumed_by(agent, &id),
            ["shell-start"],
            "{id}: the shell resumed it"
        );
    }
    // The resurrect hook run afterwards types nothing: its `restore` (in the background) says so once done.
    run_post_restore_hook(&t.tmux, &t.rig.root);
    wait_settled(&t.rig.root, COMEBACK);
    let log = t.rig.state_dir.join(RESTORE_LOG);
    let said = std::fs::read_to_string(&log).unwrap_or_else(|e| panic!("{}: {e}", log.display()));
    assert!(
        said.contains("nothing to type"),
        "the hook's restore:\n{said}"
    );
    assert_eq!(t.any_resume_lines("work:0.0"), 0);
    assert_eq!(t.any_resume_lines("work:0.1"), 0);
}

#[test]
fn the_resurrect_hook_and_the_shells_never_both_resume_a_pane() {
    let Some(t) = TmuxRig::new(&["alpha", "beta", "gamma", "delta"]) else {
        return;
    };
    for (agent, id) in rebuilt_panes_come_back_once(&t, true) {
        assert_eq!(t.rig.resumed_by(agent, &id).len(), 1, "{id}: one taker");
    }
}

/// The lineup, a reboot, resurrect's rebuild (and its hook, `with_hook`), and the checks every variant
/// shares; returns the agents and ids of the conversations that came back.
fn rebuilt_panes_come_back_once(t: &TmuxRig, with_hook: bool) -> [(&'static str, String); 2] {
    let home = &t.rig.home.home;
    std::fs::write(home.join(".tmux.conf"), TMUX_CONF).unwrap();
    let bin = quote(&t.bin.display().to_string());
    std::fs::write(
        home.join(".zshrc"),
        format!("PROMPT='pane$ '\neval \"$({bin} init zsh)\"\n"),
    )
    .unwrap();
    t.install();
    assert!(t.tmux_conf().contains("restore --terminal tmux --yes"));

    let tmux = &t.tmux;
    let dir = |d: &str| t.dir(d).display().to_string();
    tmux.ok(&[
        "new-session",
        "-d",
        "-s",
        "work",
        "-x",
        "200",
        "-y",
        "50",
        "-c",
        &dir("alpha"),
    ]);
    tmux.ok(&["split-window", "-t", "work:0", "-c", &dir("beta")]);
    tmux.ok(&[
        "new-session",
        "-d",
        "-s",
        "side",
        "-x",
        "200",
        "-y",
        "50",
        "-c",
        &dir("gamma"),
    ]);
    tmux.ok(&["split-window", "-t", "side:0", "-c", &dir("delta")]);
    for p in ["work:0.0", "work:0.1", "side:0.0", "side:0.1"] {
        t.wait_prompt(p);
    }
    t.run_claude("work:0.0", "zero touch alpha");
    t.run_codex("work:0.1", "zero touch beta");
    t.run_claude("side:0.0", "the pane the user quits");
    t.exit_claude("side:0.0");
    let alpha = t.wait_record("work", 0, 0, "claude in alpha");
    let beta = t.wait_record("work", 0, 1, "codex in beta");
    let quit = t.wait_record("side", 0, 0, "claude in gamma");

    let saved = save(tmux);
    t.reboot();
    rebuild(tmux, &saved);
    if with_hook {
        run_post_restore_hook(tmux, &t.rig.root);
    }

    t.wait_resumed("work:0.0", "claude", id(&alpha));
    t.wait_resumed("work:0.1", "codex", id(&beta));
    for p in ["side:0.0", "side:0.1"] {
        t.wait_prompt(p);
    }
    // Whoever got there first, the conversations run once and keep running once: every shell has drawn
    // its first prompt (its `shell-start` ran), and once no `shell-start`, hook line or `restore` is left
    // nothing else can start them. Claude's resumed SessionStart is counted once it has come.
    t.rig
        .wait_payload(COMEBACK, "claude's resumed SessionStart", |p| {
            p["hook_event_name"] == "SessionStart"
                && p["source"] == "resume"
                && p["session_id"] == alpha["session_id"]
        });
    wait_settled(&t.rig.root, COMEBACK);
    assert_eq!(t.agents_running("work:0.0", "claude", id(&alpha)), 1);
    assert_eq!(t.agents_running("work:0.1", "codex", id(&beta)), 1);
    let starts = t
        .rig
        .payloads_of("SessionStart")
        .into_iter()
        .filter(|p| p["session_id"] == alpha["session_id"] && p["source"] == "resume")
        .count();
    assert_eq!(starts, 1, "claude resumed once");
    assert_eq!(
        t.agents_running("side:0.0", "claude", id(&quit)),
        0,
        "the quit pane"
    );
    assert_eq!(t.any_resume_lines("side:0.0"), 0);
    assert_eq!(t.any_resume_lines("side:0.1"), 0, "the plain pane");
    for p in ["side:0.0", "side:0.1"] {
        assert!(
            !tmux.capture(p, true).contains("agterm-backup: resuming"),
            "{p}"
        );
    }

    let out = std::process::Command::new(&t.bin)
        .args([
            "restore",
            "--terminal",
            "tmux",
            "--dry-run",
            "--json",
            "--socket",
        ])
        .arg(tmux.socket())
        .env("HOME", home)
        .env("AGTERM_BACKUP_HOME", &t.rig.state_dir)
        .output()
        .unwrap();
    let plan: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
    let typed: Vec<&serde_json::Value> = plan["rows"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|r| r["action"] == "type")
        .collect();
    assert!(typed.is_empty(), "restore --dry-run would type: {plan:#}");
    [
        ("claude", id(&alpha).to_string()),
        ("codex", id(&beta).to_string()),
    ]
}

fn id(record: &serde_json::Value) -> &str {
    record["session_id"].as_str().expect("session_id")
}
