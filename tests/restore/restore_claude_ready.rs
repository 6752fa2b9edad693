//! Restore's Claude watcher against the real Claude Code CLI: the screen of a freshly resumed conversation
//! (the pinned 2.1.328, offline against the stub model) must read as "ready, not asking", so restore
//! stops watching for the resume-from-summary question at once instead of waiting out its timeout.
//! Each permission mode draws its own footer (`dontAsk`: `⏵⏵ don't ask on`, unknown to the footer list), so
//! the input box itself is what must be recognised. Fails when `CI` is set and the CLI is missing.

use agterm_backup_core::agent::CLAUDE;
use agterm_backup_core::quote::quote_words;
use agterm_backup_core::resume::ResumeLine;
use agterm_backup_restore::dialog::{claude_ready, find_dialog};
use agterm_backup_testkit::agents::rig::Rig;
use agterm_backup_testkit::agents::{start_in_pane, type_prompt, wait_screen};
use agterm_backup_testkit::paths::agent_cli;
use std::path::Path;
use std::time::{Duration, Instant};

const AGENT_START: Duration = agterm_backup_testkit::agents::AGENT_START;
const TURN: Duration = agterm_backup_testkit::agents::TURN;

#[test]
fn a_resumed_claude_reads_as_ready_as_soon_as_its_input_box_shows() {
    let Some(claude) = agent_cli("claude") else {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI is set but the real claude CLI is missing: run tests/install-deps.sh"
        );
        return;
    };
    let rig = Rig::new(&["proj", "elsewhere"]);
    rig.install_claude(Path::new(agterm_backup_testkit::agterm_backup_bin!()));
    let dir = rig.root.join("proj");
    let pane = rig.pane("left");
    let env = rig.pane_env(&pane);
    let argv = [claude.display().to_string(), "first words".into()];
    let first = start_in_pane(&rig.tmux, "first", &dir, &env, &quote_words(&argv));
    wait_screen(&rig.tmux, &first, AGENT_START + TURN, "the reply", |s| {
        s.contains("stub reply to: first words")
    });
    let rec = rig.wait_record(&pane, TURN, "the Stop record", |r| r["event"] == "Stop");
    let id = rec["session_id"].as_str().expect("session_id").to_string();
    type_prompt(&rig.tmux, &first, "/exit");
    wait_screen(&rig.tmux, &first, TURN, "claude's exit", |s| {
        s.contains("Resume this session with:")
    });
    rig.tmux.ok(&["kill-session", "-t", "first"]);

    // Every permission mode has its own footer (or none): the watcher must see each as ready.
    for mode in ["dontAsk", "auto", "default", "plan", "acceptEdits"] {
        let flags = ["--permission-mode".to_string(), mode.to_string()];
        let line =
            ResumeLine::build(&CLAUDE, &id, &flags, &dir.display().to_string(), None).unwrap();
        let shell_dir = rig.root.join("elsewhere");
        let name = format!("resumed-{mode}");
        let pane = start_in_pane(&rig.tmux, &name, &shell_dir, &env, &line.line);
        let ready = wait_until_ready(&rig, &pane, mode);
        assert!(find_dialog(&ready).is_none(), "{ready}");
        assert!(
            ready.contains("first words"),
            "ready only once the resumed conversation shows ({mode}):\n{ready}"
        );
        // The shell line that starts it is not Claude's input box.
        assert!(!claude_ready(&format!("$ {}\n", line.line)));
        rig.tmux.ok(&["kill-session", "-t", &name]);
    }
}

/// Polls the visible screen (what restore's watcher reads) until it reads as ready; panics with every
/// screen seen when it never does.
fn wait_until_ready(rig: &Rig, pane: &str, mode: &str) -> String {
    let started = Instant::now();
    let mut screens = Vec::new();
    loop {
        let screen = rig.tmux.capture(pane, false);
        if claude_ready(&screen) {
            return screen;
        }
        screens.push(screen);
        assert!(
            started.elapsed() < AGENT_START,
            "the resumed Claude ({mode}) never read as ready; screens seen:\n{}",
            screens.join("\n-----\n")
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}
