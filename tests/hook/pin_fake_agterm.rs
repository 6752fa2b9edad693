//! The pin path end to end against the fake agterm: the real hook binary runs *inside* a fake-agterm pane
//! (the pane's own `AGTERM_*` environment, its socket), for a stand-in `claude` process with real flags.
//! The fake must then hold the resume line for exactly that pane (left and split right); an agterm
//! without pins leaves `pin: unsupported`; and after a restart in rerun mode the fake types the pin into
//! a fresh shell, which resumes the stub agent with the id and flags in the agent's directory.

use agterm_backup_core::pane::PaneRole;
use agterm_backup_core::slug::claude_project_slug;
use agterm_backup_core::state::StateDir;
use agterm_backup_core::terminal::RestoreMode;
use agterm_backup_testkit::fake_agterm::{wait_until, FakeAgterm, FakeConfig, RestartKind};
use serde_json::{json, Value};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// A HOME whose login shells find a stub `claude` first, a state dir, and a fake agterm whose panes use
/// both.
struct Setup {
    home: agterm_backup_testkit::scratch::ScratchDir,
    fake: FakeAgterm,
    standins: Vec<Child>,
}

impl Setup {
    fn new(version: &str, mode: RestoreMode) -> Setup {
        let home = agterm_backup_testkit::scratch::tempdir();
        let stubs = home.path().join("stub-bin");
        std::fs::create_dir(&stubs).unwrap();
        let stub = stubs.join("claude");
        let out = home.path().join("resumed");
        std::fs::write(
            &stub,
            format!(
                "#!/bin/sh\nprintf '%s\\n' \"$@\" > '{o}.argv'\npwd > '{o}.cwd'\n",
                o = out.display()
            ),
        )
        .unwrap();
        std::fs::set_permissions(&stub, std::fs::Permissions::from_mode(0o755)).unwrap();
        // /etc/profile resets PATH for login shells; ~/.bash_profile runs after it.
        std::fs::write(
            home.path().join(".bash_profile"),
            format!("export PATH='{}':\"$PATH\"\n", stubs.display()),
        )
        .unwrap();
        let config = FakeConfig::new(version, mode)
            .env("HOME", home.path().to_str().unwrap())
            .env(
                "AGTERM_BACKUP_HOME",
                home.path().join("state").to_str().unwrap(),
            );
        let fake = FakeAgterm::start(config);
        Setup {
            home,
            fake,
            standins: Vec::new(),
        }
    }

    fn state(&self) -> StateDir {
        StateDir::at(self.home.path().join("state"))
    }

    fn agent_dir(&self, name: &str) -> PathBuf {
        let d = self.home.path().join("work").join(name);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    /// Starts a stand-in `claude` (node under `node_modules/@anthropic-ai/claude-code/`) in `dir` with
    /// `flags`, and returns its pid.
    fn standin(&mut self, dir: &Path, flags: &[&str]) -> u32 {
        let pkg = self
            .home
            .path()
            .join("node_modules/@anthropic-ai/claude-code");
        std::fs::create_dir_all(&pkg).unwrap();
        std::fs::write(pkg.join("cli.js"), "setTimeout(() => {}, 600000);\n").unwrap();
        let child = Command::new("node")
            .arg(pkg.join("cli.js"))
            .args(flags)
            .current_dir(dir)
            .stdin(Stdio::null())
            .spawn()
            .expect("node runs");
        let pid = child.id();
        self.standins.push(child);
        pid
    }

    /// Types the hook command into the pane (as Claude would run it there) and waits for it to finish.
    fn run_hook_in_pane(
        &self,
        session: &str,
        role: PaneRole,
        agent_pid: u32,
        dir: &Path,
        id: &str,
    ) {
        let transcript = self
            .home
            .path()
            .join(".claude/projects")
            .join(claude_project_slug(dir.to_str().unwrap()))
            .join(format!("{id}.jsonl"));
        let payload = json!({"session_id": id, "transcript_path": transcript, "cwd": dir,
            "hook_event_name": "SessionStart", "source": "startup"});
        let file = self.home.path().join(format!("payload-{role}.json"));
        std::fs::write(&file, payload.to_string()).unwrap();
        let marker = format!("hook-{role}-done");
        let line = format!(
            "CLAUDE_PID={agent_pid} '{}' hook claude < '{}'; echo \"{marker}-$?\"\n",
            agterm_backup_testkit::agterm_backup_bin!(),
            file.display()
        );
        self.fake.send_keys(session, role, &line);
        self.fake.wait_for_screen(
            session,
            role,
            &format!("{marker}-0"),
            Duration::from_secs(10),
        );
    }

    fn record(&self, session: &str, role: PaneRole) -> Value {
        let key = agterm_backup_agterm::key::key(session, role).unwrap();
        let path = self.state().record_path(&key);
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
            let log = std::fs::read_to_string(self.state().log_path()).unwrap_or_default();
            panic!("no record {}: {e}; log: {log}", path.display())
        });
        serde_json::from_str(&text).unwrap()
    }
}

impl Drop for Setup {
    fn drop(&mut self) {
        for c in &mut self.standins {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

fn line(dir: &Path, id: &str, flags: &str) -> String {
    format!(
        "cd '{}' && 'claude' '--resume' '{id}'{flags}",
        dir.display()
    )
}

const LEFT_ID: &str = "77e8ca85-2b1c-4a8e-9d0b-0c1d2e3f4a5b";
const RIGHT_ID: &str = "0b0c0d0e-1111-4222-8333-444455556666";

#[test]
fn hooks_in_left_and_split_right_pin_their_own_lines() {
    let mut s = Setup::new("0.34", RestoreMode::Rerun);
    let sess = s.fake.add_session(None, None, s.home.path(), true);
    let left_dir = s.agent_dir("api");
    let right_dir = s.agent_dir("web");
    let left_pid = s.standin(&left_dir, &["--model", "sonnet"]);
    let right_pid = s.standin(&right_dir, &["--permission-mode", "plan", "a prompt"]);
    s.run_hook_in_pane(&sess.id, PaneRole::Left, left_pid, &left_dir, LEFT_ID);
    s.run_hook_in_pane(&sess.id, PaneRole::Right, right_pid, &right_dir, RIGHT_ID);

    let want_left = line(&left_dir, LEFT_ID, " '--model' 'sonnet'");
    let want_right = line(&right_dir, RIGHT_ID, " '--permission-mode' 'plan'");
    assert_eq!(
        s.fake.pin(&sess.id, PaneRole::Left).as_deref(),
        Some(want_left.as_str())
    );
    assert_eq!(
        s.fake.pin(&sess.id, PaneRole::Right).as_deref(),
        Some(want_right.as_str())
    );
    let l = s.record(&sess.id, PaneRole::Left);
    assert_eq!(
        (l["pin"].as_str(), l["pinned_line"].as_str()),
        (Some("ok"), Some(want_left.as_str()))
    );
    let r = s.record(&sess.id, PaneRole::Right);
    assert_eq!(r["pin"], "ok");
    assert_eq!(r["pane_id"], sess.right.as_ref().unwrap().pane_id.as_str());
}

#[test]
fn an_agterm_without_pins_leaves_pin_unsupported() {
    let mut s = Setup::new("0.15", RestoreMode::Rerun);
    let sess = s.fake.add_session(None, None, s.home.path(), false);
    let dir = s.agent_dir("api");
    let pid = s.standin(&dir, &[]);
    s.run_hook_in_pane(&sess.id, PaneRole::Left, pid, &dir, LEFT_ID);
    let rec = s.record(&sess.id, PaneRole::Left);
    assert_eq!(rec["pin"], "unsupported");
    assert!(rec.get("pinned_line").is_none());
    assert_eq!(s.fake.pin(&sess.id, PaneRole::Left), None);
}

#[test]
fn fresh_shells_mode_stores_the_pin_but_says_it_will_not_run() {
    let mut s = Setup::new("0.26", RestoreMode::None);
    let sess = s.fake.add_session(None, None, s.home.path(), false);
    let dir = s.agent_dir("api");
    let pid = s.standin(&dir, &[]);
    s.run_hook_in_pane(&sess.id, PaneRole::Left, pid, &dir, LEFT_ID);
    let rec = s.record(&sess.id, PaneRole::Left);
    assert_eq!(rec["pin"], "setting-off");
    assert_eq!(rec["pinned_line"], line(&dir, LEFT_ID, "").as_str());
    assert_eq!(
        s.fake.pin(&sess.id, PaneRole::Left).as_deref(),
        Some(line(&dir, LEFT_ID, "").as_str())
    );
}

#[test]
fn after_a_rerun_restart_the_pin_resumes_the_agent_in_its_directory() {
    let mut s = Setup::new("0.34", RestoreMode::Rerun);
    let sess = s.fake.add_session(None, None, s.home.path(), true);
    let dir = s.agent_dir("it's here");
    let pid = s.standin(&dir, &["--model", "opus", "--add-dir", "/tmp"]);
    s.run_hook_in_pane(&sess.id, PaneRole::Right, pid, &dir, RIGHT_ID);
    assert_eq!(s.record(&sess.id, PaneRole::Right)["pin"], "ok");

    s.fake.restart(RestartKind::Reboot);
    let argv_file = s.home.path().join("resumed.argv");
    let cwd_file = s.home.path().join("resumed.cwd");
    // The stub writes its argv, then its folder: a whole line in the second means both are written.
    assert!(
        wait_until(Duration::from_secs(10), || {
            std::fs::read_to_string(&cwd_file).is_ok_and(|t| t.ends_with('\n'))
        }),
        "the stub agent never ran; right pane:\n{}",
        s.fake.screen(&sess.id, PaneRole::Right)
    );
    let argv = std::fs::read_to_string(&argv_file).unwrap();
    assert_eq!(
        argv,
        format!("--resume\n{RIGHT_ID}\n--model\nopus\n--add-dir\n/tmp\n")
    );
    let cwd = std::fs::read_to_string(&cwd_file).unwrap();
    assert_eq!(cwd.trim_end(), dir.to_str().unwrap());
}
