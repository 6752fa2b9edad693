//! "Which pane am I" is proven by the tty, not assumed from the environment: shells that inherited a
//! tmux pane's `TMUX`/`TMUX_PANE` — one under `script` (a pty of its own), one in a pane of a second tmux
//! server — get nothing from `shell-start` while the real pane is busy, and the real pane's own shell
//! then resumes its conversation. The same for a zmx session (the fake zmx of tests/support, real ptys).
//! Real tmux, real bash, real ptys.

use agterm_backup_core::pane::PaneRole;
use agterm_backup_core::record::{LiveRecord, RECORD_VERSION};
use agterm_backup_core::state::StateDir;
use agterm_backup_testkit::fake_zmx::FakeZmx;
use agterm_backup_testkit::tmux::Tmux;
use agterm_backup_tmux::pane::{TmuxPane, TmuxPart};
use agterm_backup_zmx::session::{ZmxPart, ZmxSession};
use std::path::Path;
use std::process::Command;
use std::time::Duration;

const ID: &str = "22222222-3333-4444-8555-666666666601";
const WAIT: Duration = Duration::from_secs(20);

fn on_path(program: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|p| std::env::split_paths(&p).any(|d| d.join(program).is_file()))
}

fn bin() -> &'static str {
    agterm_backup_testkit::agterm_backup_bin!()
}

/// A Claude record (an hour old, its transcript on disk) for pane `work:0.0` of the server at `socket`.
fn record(state: &StateDir, root: &Path, socket: &Path, dir: &Path) {
    let mut rec = claude_record(root, dir);
    rec.set_tmux(&TmuxPane {
        socket: socket.display().to_string(),
        session: "work".into(),
        window: 0,
        pane: 0,
        pane_id: None,
        server_pid: None,
        server_started: None,
        cwd: Some(dir.display().to_string()),
    });
    agterm_backup_terminals::write_record(state, &rec).unwrap();
}

fn claude_record(root: &Path, dir: &Path) -> LiveRecord {
    let transcript = root.join(format!("{ID}.jsonl"));
    std::fs::write(&transcript, "{}\n").unwrap();
    let ts = chrono::Utc::now() - chrono::Duration::hours(1);
    // Written before the restart, as the record: a transcript touched after the pane's launch is a
    // conversation that already ran in this launch (the plan's row 9b).
    std::fs::File::options()
        .write(true)
        .open(&transcript)
        .unwrap()
        .set_modified(ts.into())
        .unwrap();
    LiveRecord {
        v: RECORD_VERSION,
        agent: "claude".into(),
        session_id: ID.into(),
        agterm_session: String::new(),
        role: PaneRole::Left,
        pane_id: None,
        transcript_path: Some(transcript.display().to_string()),
        agent_cwd: dir.display().to_string(),
        hook_cwd: dir.display().to_string(),
        flags: Vec::new(),
        agent_pid: None,
        event: "SessionStart".into(),
        ts: ts.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
        terminal: "agterm".into(),
        source: Some("startup".into()),
        window_id: None,
        workspace_id: None,
        pin: None,
        pinned_line: None,
        extra: Default::default(),
    }
}

fn wait_file(path: &Path) -> String {
    Tmux::wait_for(WAIT, "shell-start's output", || {
        let text = std::fs::read_to_string(path).ok()?;
        text.contains("DONE").then_some(text)
    })
}

/// Waits until `command` is the pane's foreground process (tmux's `#{pane_current_command}`).
fn wait_foreground(tmux: &Tmux, pane: &str, command: &str) {
    Tmux::wait_for(
        WAIT,
        &format!("{command} in the foreground of {pane}"),
        || {
            (tmux.ok(&[
                "display-message",
                "-p",
                "-t",
                pane,
                "#{pane_current_command}",
            ]) == command)
                .then_some(())
        },
    );
}

#[test]
fn an_inherited_tmux_pane_environment_gets_nothing_and_the_real_pane_resumes() {
    if !on_path("tmux") || !on_path("script") {
        assert!(
            std::env::var_os("CI").is_none(),
            "tmux and script are required in CI"
        );
        eprintln!("SKIPPED: no tmux or script");
        return;
    }
    let tmp = agterm_backup_testkit::scratch::tempdir();
    let root = tmp.path();
    let state = StateDir::at(root.join("state"));
    state.ensure().unwrap();
    let dir = root.join("api");
    std::fs::create_dir_all(&dir).unwrap();
    let env: Vec<(String, String)> = vec![
        (
            "AGTERM_BACKUP_HOME".into(),
            state.root().display().to_string(),
        ),
        ("HOME".into(), root.display().to_string()),
        // No background answerer outliving the test: the line is read, never run.
        ("AGTERM_BACKUP_ANSWER".into(), "no".into()),
    ];
    let real = Tmux::new(root.join("real.sock"));
    let pane = real.spawn("work", &dir, &env, &["bash", "--norc", "--noprofile"]);
    record(&state, root, real.socket(), &dir);
    let pid: u32 = real
        .ok(&["display-message", "-p", "-t", &pane, "#{pid}"])
        .parse()
        .unwrap();
    let inherited = format!("{},{pid},0", real.socket().display());
    // The real pane is busy with something else.
    real.send_text(&pane, "sleep 100000", true);
    wait_foreground(&real, &pane, "sleep");

    // 1. A shell under `script`: a pty of its own, the pane's TMUX and TMUX_PANE inherited.
    let out = Command::new("script")
        .args([
            "-qec",
            &format!("'{}' shell-start --shell bash", bin()),
            "/dev/null",
        ])
        .env("TMUX", &inherited)
        .env("TMUX_PANE", &pane)
        .env("AGTERM_BACKUP_HOME", state.root())
        .env("HOME", root)
        .current_dir(&dir)
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        !said.contains("resum"),
        "an impostor under script resumed: {said}"
    );

    // 2. A pane of a second tmux server, told it is the real pane.
    let other = Tmux::new(root.join("other.sock"));
    let impostor = other.spawn("side", &dir, &env, &["bash", "--norc", "--noprofile"]);
    let out2 = root.join("impostor.out");
    other.send_text(
        &impostor,
        &format!(
            "TMUX='{inherited}' TMUX_PANE='{pane}' '{}' shell-start --shell bash > '{}' 2>&1; echo DONE >> '{}'",
            bin(),
            out2.display(),
            out2.display()
        ),
        true,
    );
    let said = wait_file(&out2);
    assert!(
        !said.contains("resum"),
        "an impostor in another server resumed: {said}"
    );

    // 3. The real pane, idle again, resumes its own conversation.
    real.ok(&["send-keys", "-t", &pane, "C-c"]);
    // The line typed next reaches the shell only once ^C ended the sleep (readline would drop what
    // arrives while it handles the interrupt).
    wait_foreground(&real, &pane, "bash");
    let out3 = root.join("real.out");
    real.send_text(
        &pane,
        &format!(
            "'{}' shell-start --shell bash > '{}' 2>&1; echo DONE >> '{}'",
            bin(),
            out3.display(),
            out3.display()
        ),
        true,
    );
    let said = wait_file(&out3);
    assert!(
        said.contains(&format!("resuming claude conversation {ID}")),
        "{said}"
    );
    assert!(said.contains(&format!("'--resume' '{ID}'")), "{said}");
}

#[test]
fn an_inherited_zmx_session_environment_gets_nothing_and_the_session_resumes() {
    if !on_path("tmux") || !on_path("script") {
        assert!(
            std::env::var_os("CI").is_none(),
            "tmux and script are required in CI"
        );
        eprintln!("SKIPPED: no tmux or script");
        return;
    }
    let tmp = agterm_backup_testkit::scratch::tempdir();
    let root = tmp.path();
    let state = StateDir::at(root.join("state"));
    state.ensure().unwrap();
    let dir = root.join("api");
    std::fs::create_dir_all(&dir).unwrap();
    let zmx = FakeZmx::new(root);
    let out = zmx
        .command(&["attach", "api"])
        .env("AGTERM_BACKUP_HOME", state.root())
        .env("AGTERM_BACKUP_ANSWER", "no")
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let row = zmx.wait_for_session("api", WAIT);
    let mut rec = claude_record(root, &dir);
    rec.set_zmx(&ZmxSession {
        socket_dir: zmx.socket_dir().display().to_string(),
        name: "api".into(),
        started: row.get("created").and_then(|c| c.parse().ok()),
    });
    agterm_backup_terminals::write_record(&state, &rec).unwrap();
    zmx.send("api", "sleep 100000\r");

    // A shell under `script` that inherited the session's ZMX_SESSION and ZMX_DIR.
    let path = format!(
        "{}:{}",
        zmx.bin_dir().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = Command::new("script")
        .args([
            "-qec",
            &format!("'{}' shell-start --shell bash", bin()),
            "/dev/null",
        ])
        .env("ZMX_SESSION", "api")
        .env("ZMX_DIR", zmx.socket_dir())
        .env("PATH", &path)
        .env("AGTERM_BACKUP_HOME", state.root())
        .env("AGTERM_BACKUP_ANSWER", "no")
        .env("HOME", root)
        .current_dir(&dir)
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        !said.contains("resum"),
        "an impostor under script resumed: {said}"
    );

    // The session's own shell, idle again, resumes its conversation.
    zmx.send("api", "\u{3}");
    let out2 = root.join("real.out");
    zmx.send(
        "api",
        &format!(
            // A login bash resets PATH: zmx is put back, as a user's rc file has it.
            "PATH='{}':\"$PATH\" '{}' shell-start --shell bash > '{}' 2>&1; echo DONE >> '{}'\r",
            zmx.bin_dir().display(),
            bin(),
            out2.display(),
            out2.display()
        ),
    );
    let said = wait_file(&out2);
    assert!(
        said.contains(&format!("resuming claude conversation {ID}")),
        "{said}"
    );
}
