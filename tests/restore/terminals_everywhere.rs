//! `status`, `answer`, `snap` and `restore --dry-run` for every terminal, on a machine without agterm: a
//! real tmux server (two panes of one window, Claude's resume question waiting in the right-hand one)
//! and the fake zmx of tests/support (a live session with the question waiting, and a session the
//! reboot took). agterm not running is one line, never a failure; each tmux row is named by its pane;
//! a zmx session restore would create says so; a live zmx session's row shows its own start as cutoff.

use agterm_backup_core::pane::PaneRole;
use agterm_backup_core::record::{LiveRecord, RECORD_VERSION};
use agterm_backup_core::state::StateDir;
use agterm_backup_testkit::fake_zmx::FakeZmx;
use agterm_backup_testkit::tmux::Tmux;
use agterm_backup_tmux::pane::{TmuxPane, TmuxPart};
use agterm_backup_zmx::session::{ZmxPart, ZmxSession};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Duration;

const DIALOG: &str = "This session is 2h 5m old and 143.2k tokens.\nResuming the full session uses a lot of your usage limits. Resuming from a summary uses less.\n> 1. Resume from summary (instant, recommended)\n  2. Resume full session as-is\n  3. Don't ask again\n";
const ID_LEFT: &str = "11111111-2222-4333-8444-555555555501";
const ID_RIGHT: &str = "11111111-2222-4333-8444-555555555502";
const ID_API: &str = "11111111-2222-4333-8444-555555555503";
const ID_GONE: &str = "11111111-2222-4333-8444-555555555504";
const WAIT: Duration = Duration::from_secs(20);

struct World {
    root: agterm_backup_testkit::scratch::ScratchDir,
    state: StateDir,
    tmux: Tmux,
    zmx: FakeZmx,
    boot: i64,
}

impl World {
    fn path(&self, rel: &str) -> PathBuf {
        let p = self.root.path().join(rel);
        std::fs::create_dir_all(&p).unwrap();
        p
    }

    /// A stand-in `claude` that shows the resume question, reads one key and says which.
    fn stand_in(&self) -> PathBuf {
        let bin = self.path("bin");
        let script = format!(
            "#!/bin/bash\nprintf '%s' '{}'\nIFS= read -rsn1 key\necho \"STANDIN answered: $key\"\nexec -a claude sleep 100000\n",
            DIALOG.replace('\'', "'\\''")
        );
        let path = bin.join("claude");
        std::fs::write(&path, script).unwrap();
        std::fs::set_permissions(
            &path,
            <std::fs::Permissions as std::os::unix::fs::PermissionsExt>::from_mode(0o755),
        )
        .unwrap();
        path
    }

    /// Writes a Claude record (an hour old) whose transcript exists.
    fn record(&self, id: &str, cwd: &Path, place: impl FnOnce(&mut LiveRecord)) {
        let transcript = self.path("transcripts").join(format!("{id}.jsonl"));
        std::fs::write(&transcript, "{}\n").unwrap();
        let ts = chrono::Utc::now() - chrono::Duration::hours(1);
        let mut rec = LiveRecord {
            v: RECORD_VERSION,
            agent: "claude".into(),
            session_id: id.into(),
            agterm_session: String::new(),
            role: PaneRole::Left,
            pane_id: None,
            transcript_path: Some(transcript.display().to_string()),
            agent_cwd: cwd.display().to_string(),
            hook_cwd: cwd.display().to_string(),
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
        };
        place(&mut rec);
        agterm_backup_terminals::write_record(&self.state, &rec).unwrap();
    }

    /// `agterm-backup <args>` as a user without agterm runs it.
    fn run(&self, args: &[&str]) -> Output {
        let home = self.path("home");
        Command::new(agterm_backup_testkit::agterm_backup_bin!())
            .args(args)
            .env_clear()
            .envs(agterm_backup_testkit::hermetic::places())
            .env("HOME", &home)
            .env("AGTERM_BACKUP_HOME", self.state.root())
            // Managed policy files (`/etc/claude-code`, …) never from the machine.
            .env(
                "AGTERM_BACKUP_SYSTEM_ROOT",
                std::path::Path::new(&self.state.root()).join("system-root"),
            )
            .env("AGTERM_STATE_DIR", self.path("no-agterm"))
            .env("TMUX", format!("{},1,0", self.tmux.socket().display()))
            .env("ZMX_DIR", self.zmx.socket_dir())
            .env("AGTERM_BACKUP_BOOT_TIME", self.boot.to_string())
            .env(
                "PATH",
                format!(
                    "{}:{}",
                    self.zmx.bin_dir().display(),
                    std::env::var("PATH").unwrap_or_default()
                ),
            )
            .output()
            .unwrap()
    }
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// tmux `work:0.0` idle in `left/` and `work:0.1` with the question waiting in `right/`; zmx `api`
/// with the question waiting and `gone` taken by the reboot; records for all four.
fn world() -> Option<World> {
    if which("tmux").is_none() {
        assert!(std::env::var_os("CI").is_none(), "tmux is required in CI");
        eprintln!("SKIPPED: no tmux");
        return None;
    }
    let root = agterm_backup_testkit::scratch::tempdir();
    let state = StateDir::at(root.path().join("state"));
    state.ensure().unwrap();
    let tmux = Tmux::new(root.path().join("tmux.sock"));
    let zmx = FakeZmx::new(root.path());
    let boot = chrono::Utc::now().timestamp() - 600;
    let w = World {
        root,
        state,
        tmux,
        zmx,
        boot,
    };
    let claude = w.stand_in();
    let (left, right) = (w.path("left"), w.path("right"));
    w.tmux
        .spawn("work", &left, &[], &["bash", "--norc", "--noprofile"]);
    // Typed at a shell, as a person starts it (a pane's first process is its shell).
    w.tmux.ok(&[
        "split-window",
        "-t",
        "work:0",
        "-c",
        right.to_str().unwrap(),
        "bash --norc --noprofile",
    ]);
    w.tmux.send_text(
        "work:0.1",
        &format!("{} --resume {ID_RIGHT}", claude.display()),
        true,
    );
    let socket = w.tmux.socket().display().to_string();
    for (id, dir, pane) in [(ID_LEFT, &left, 0), (ID_RIGHT, &right, 1)] {
        w.record(id, dir, |r| {
            r.set_tmux(&TmuxPane {
                socket: socket.clone(),
                session: "work".into(),
                window: 0,
                pane,
                pane_id: None,
                server_pid: None,
                server_started: None,
                cwd: Some(dir.display().to_string()),
            })
        });
    }
    let api = w.path("api");
    let out = w.zmx.attach_detached("api", &api, &[]);
    assert!(out.status.success(), "{out:?}");
    let listed = w.zmx.wait_for_session("api", WAIT);
    w.zmx
        .send("api", &format!("{} --resume {ID_API}\r", claude.display()));
    let created: i64 = listed.get("created").unwrap().parse().unwrap();
    let dir = w.zmx.socket_dir().display().to_string();
    w.record(ID_API, &api, |r| {
        r.set_zmx(&ZmxSession {
            socket_dir: dir.clone(),
            name: "api".into(),
            started: Some(created),
        })
    });
    let gone = w.path("gone");
    w.record(ID_GONE, &gone, |r| {
        r.set_zmx(&ZmxSession {
            socket_dir: dir.clone(),
            name: "gone".into(),
            started: Some(w.boot - 3000),
        })
    });
    Tmux::wait_for(WAIT, "the question in work:0.1", || {
        w.tmux
            .capture("work:0.1", false)
            .contains("Resume full session")
            .then_some(())
    });
    w.zmx.wait_for_history("api", "Resume full session", WAIT);
    Some(w)
}

fn which(program: &str) -> Option<PathBuf> {
    std::env::var_os("PATH").and_then(|p| {
        std::env::split_paths(&p)
            .map(|d| d.join(program))
            .find(|f| f.is_file())
    })
}

#[test]
fn status_answer_snap_and_restore_serve_tmux_and_zmx_without_agterm() {
    let Some(w) = world() else { return };

    // status: one line for agterm, a line per tmux server and zmx dir, each pane named by itself.
    let out = w.run(&["status"]);
    let human = text(&out.stdout);
    assert!(out.status.success(), "{human}{}", text(&out.stderr));
    assert!(human.contains("agterm is not running"), "{human}");
    assert_eq!(human.matches("agterm is not running").count(), 1, "{human}");
    assert!(
        human.contains("tmux 3") || human.contains("tmux next"),
        "{human}"
    );
    assert!(human.contains("zmx 0.7.0"), "{human}");
    assert!(human.contains("tmux work:0.0"), "{human}");
    assert!(human.contains("tmux work:0.1"), "{human}");
    assert!(!human.contains("work:0.1 · left"), "{human}");
    assert!(human.contains("zmx api"), "{human}");
    let gone_line = human.lines().find(|l| l.contains("zmx gone")).unwrap_or("");
    assert!(
        gone_line.contains("would recreate the session"),
        "the zmx session restore would create: {human}"
    );
    assert!(!gone_line.contains("pane gone"), "{human}");

    let out = w.run(&["status", "--json"]);
    assert!(out.status.success());
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let terminals: Vec<&str> = report["terminals"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["terminal"].as_str().unwrap())
        .collect();
    assert_eq!(terminals, ["agterm", "tmux", "zmx"], "{report}");
    let api = report["panes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["session"] == "zmx api")
        .unwrap_or_else(|| panic!("{report}"));
    let created = w
        .zmx
        .session("api")
        .unwrap()
        .get("created")
        .unwrap()
        .to_string();
    let cutoff = chrono::DateTime::parse_from_rfc3339(api["cutoff"].as_str().unwrap()).unwrap();
    assert_eq!(
        cutoff.timestamp().to_string(),
        created,
        "the live session's own start, not the boot: {report}"
    );

    // snap freezes tmux's and zmx's panes, and notes agterm in one line.
    let out = w.run(&["snap"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("no pane tree of agterm"));
    let snap: Value =
        serde_json::from_str(&std::fs::read_to_string(w.state.latest_snapshot()).unwrap()).unwrap();
    let panes = snap["panes"].as_array().unwrap();
    assert!(panes.iter().any(|p| p["tmux"]["pane"] == 1), "{snap}");
    assert!(panes.iter().any(|p| p["zmx"]["name"] == "api"), "{snap}");
    assert_eq!(snap["terminals"].as_array().unwrap().len(), 3, "{snap}");

    // restore --dry-run: exit 0, the tmux and zmx plans shown, agterm one line.
    let out = w.run(&["restore", "--dry-run"]);
    let plan = text(&out.stdout);
    assert!(out.status.success(), "{plan}{}", text(&out.stderr));
    assert!(plan.contains("would type into tmux work:0.0"), "{plan}");
    assert!(plan.contains("would create the session zmx gone"), "{plan}");

    // answer: finds the question in the tmux pane and the zmx session, and answers both.
    let out = w.run(&["answer", "--dry-run"]);
    let dry = text(&out.stdout);
    assert!(out.status.success(), "{dry}{}", text(&out.stderr));
    assert!(
        dry.contains("tmux work:0.1: waiting, would answer 2"),
        "{dry}"
    );
    assert!(dry.contains("zmx api: waiting, would answer 2"), "{dry}");
    let out = w.run(&["answer", "--choice", "2"]);
    assert!(
        out.status.success(),
        "{}{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    Tmux::wait_for(WAIT, "the tmux pane answered", || {
        w.tmux
            .capture("work:0.1", false)
            .contains("STANDIN answered: 2")
            .then_some(())
    });
    w.zmx.wait_for_history("api", "STANDIN answered: 2", WAIT);
}

#[test]
fn restore_dry_run_without_agterm_and_nothing_captured_exits_0() {
    let root = agterm_backup_testkit::scratch::tempdir();
    let out = Command::new(agterm_backup_testkit::agterm_backup_bin!())
        .args(["restore", "--dry-run"])
        .env_clear()
        .envs(agterm_backup_testkit::hermetic::places())
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("HOME", root.path())
        .env("AGTERM_BACKUP_HOME", root.path().join("state"))
        // Managed policy files (`/etc/claude-code`, …) never from the machine.
        .env(
            "AGTERM_BACKUP_SYSTEM_ROOT",
            std::path::Path::new(&root.path().join("state")).join("system-root"),
        )
        .env("AGTERM_STATE_DIR", root.path().join("no-agterm"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    assert!(text(&out.stdout).contains("agterm is not running"));
}
