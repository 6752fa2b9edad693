//! Pinning end to end through the real hook binary (`agterm-backup hook claude`), against a scripted
//! agterm socket in the test: the exact pin request, the outcome written into the record (ok /
//! setting-off / unsupported / error), no re-pin of an unchanged line, and a hung socket survived within
//! the hook's budget — with nothing printed and exit 0 every time.

use agterm_backup_core::pane::PaneRole;
use agterm_backup_core::slug::claude_project_slug;
use agterm_backup_core::state::StateDir;
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::os::unix::net::UnixListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

const SID: &str = "6B1E0C2A-AAAA-BBBB-CCCC-0123456789AB";
const TOKEN: &str = "9A2F0000-1111-2222-3333-444444444444";
const ID: &str = "77e8ca85-2b1c-4a8e-9d0b-0c1d2e3f4a5b";

/// A socket that answers each connection with the next line (`None` = accept, read, never answer).
struct Agterm {
    path: PathBuf,
    requests: mpsc::Receiver<String>,
}

fn agterm(dir: &Path, answers: Vec<Option<&'static str>>) -> Agterm {
    let path = dir.join("agterm.sock");
    let listener = UnixListener::bind(&path).unwrap();
    let (tx, rx) = mpsc::channel();
    thread::spawn(move || {
        let mut held = Vec::new();
        for answer in answers {
            let Ok((mut stream, _)) = listener.accept() else {
                return;
            };
            let mut line = String::new();
            let _ = BufReader::new(stream.try_clone().unwrap()).read_line(&mut line);
            let _ = tx.send(line);
            match answer {
                Some(a) => {
                    let _ = stream.write_all(format!("{a}\n").as_bytes());
                }
                None => held.push(stream),
            }
        }
        thread::sleep(Duration::from_secs(10));
    });
    Agterm { path, requests: rx }
}

/// A throwaway world: HOME, state dir, the agent's directory and a stand-in `claude` process (node
/// running a script under `node_modules/@anthropic-ai/claude-code/`, with real flags, in that directory).
struct World {
    root: agterm_backup_testkit::scratch::ScratchDir,
    agent_dir: PathBuf,
    standin: Child,
}

impl World {
    fn new() -> World {
        World::with_flags(&[
            "--model",
            "sonnet",
            "--permission-mode",
            "plan",
            "fix the bug",
        ])
    }

    fn with_flags(flags: &[&str]) -> World {
        let root = agterm_backup_testkit::scratch::tempdir();
        let agent_dir = root.path().join("work/it's a dir");
        std::fs::create_dir_all(agent_dir.join("sub")).unwrap();
        std::fs::create_dir_all(root.path().join("home")).unwrap();
        let pkg = root.path().join("node_modules/@anthropic-ai/claude-code");
        std::fs::create_dir_all(&pkg).unwrap();
        std::fs::write(pkg.join("cli.js"), "setTimeout(() => {}, 600000);\n").unwrap();
        let standin = Command::new("node")
            .arg(pkg.join("cli.js"))
            .args(flags)
            .current_dir(&agent_dir)
            .stdin(Stdio::null())
            .spawn()
            .expect("node runs the stand-in agent");
        World {
            root,
            agent_dir,
            standin,
        }
    }

    fn state(&self) -> StateDir {
        StateDir::at(self.root.path().join("state"))
    }

    fn record(&self, role: PaneRole) -> Value {
        let key = agterm_backup_agterm::key::key(SID, role).unwrap();
        let text = std::fs::read_to_string(self.state().record_path(&key))
            .unwrap_or_else(|e| panic!("no record for {key}: {e}; log: {}", self.log()));
        serde_json::from_str(&text).unwrap()
    }

    fn log(&self) -> String {
        std::fs::read_to_string(self.state().log_path()).unwrap_or_default()
    }

    /// Runs the hook for one event; asserts the hook's promises; returns how long it took.
    fn hook(&self, socket: &Path, role: PaneRole, event: &str) -> Duration {
        let transcript = self
            .root
            .path()
            .join("home/.claude/projects")
            .join(claude_project_slug(self.agent_dir.to_str().unwrap()))
            .join(format!("{ID}.jsonl"));
        let payload = json!({
            "session_id": ID,
            "transcript_path": transcript,
            "cwd": self.agent_dir.join("sub"),
            "hook_event_name": event,
            "source": "startup",
        });
        let mut child = Command::new(agterm_backup_testkit::agterm_backup_bin!())
            .args(["hook", "claude"])
            .env_clear()
            .envs(agterm_backup_testkit::hermetic::places())
            .env("PATH", std::env::var("PATH").unwrap_or_default())
            .env("HOME", self.root.path().join("home"))
            .env("AGTERM_BACKUP_HOME", self.state().root())
            .env("AGTERM_SESSION_ID", SID)
            .env("AGTERM_PANE", role.as_str())
            .env("AGTERM_PANE_ID", TOKEN)
            .env("AGTERM_SOCKET", socket)
            .env("CLAUDE_PID", self.standin.id().to_string())
            .current_dir(self.agent_dir.join("sub"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let started = Instant::now();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(payload.to_string().as_bytes())
            .unwrap();
        let out = child.wait_with_output().unwrap();
        let took = started.elapsed();
        assert_eq!(out.status.code(), Some(0));
        assert!(
            out.stdout.is_empty(),
            "stdout: {:?}",
            String::from_utf8_lossy(&out.stdout)
        );
        assert!(
            out.stderr.is_empty(),
            "stderr: {:?}",
            String::from_utf8_lossy(&out.stderr)
        );
        took
    }

    fn expected_line(&self) -> String {
        format!(
            "cd '{}' && 'claude' '--resume' '{ID}' '--model' 'sonnet' '--permission-mode' 'plan'",
            self.agent_dir.to_str().unwrap().replace('\'', "'\\''")
        )
    }
}

impl Drop for World {
    fn drop(&mut self) {
        let _ = self.standin.kill();
        let _ = self.standin.wait();
    }
}

fn pin_request(role: &str, line: &str) -> String {
    let v = json!({"cmd": "session.restore", "target": SID,
        "args": {"mode": "set", "pane": role, "paneID": TOKEN, "command": line}});
    format!("{}\n", serde_json::to_string(&v).unwrap())
}

#[test]
fn session_start_pins_the_resume_line_once() {
    let w = World::new();
    let sock = agterm(
        w.root.path(),
        vec![Some(
            r#"{"ok":true,"result":{"id":"6B1E0C2A-AAAA-BBBB-CCCC-0123456789AB","pane":"left"}}"#,
        )],
    );
    w.hook(&sock.path, PaneRole::Left, "SessionStart");
    let line = w.expected_line();
    assert_eq!(
        sock.requests.recv_timeout(Duration::from_secs(2)).unwrap(),
        pin_request("left", &line)
    );
    let r = w.record(PaneRole::Left);
    assert_eq!(r["pin"], "ok", "log: {}", w.log());
    assert_eq!(r["pinned_line"], line.as_str());

    // The same line again: no request, the outcome is carried over.
    w.hook(&sock.path, PaneRole::Left, "UserPromptSubmit");
    assert!(
        sock.requests
            .recv_timeout(Duration::from_millis(300))
            .is_err(),
        "re-pinned an unchanged line"
    );
    // (The record may not even be rewritten: the hook skips fresh copies. The carried-over pin of a
    // rewritten record is checked by pin_real_claude's resumed SessionStart.)
    let r = w.record(PaneRole::Left);
    assert_eq!(r["pin"], "ok");
    assert_eq!(r["pinned_line"], line.as_str());
}

#[test]
fn a_split_pane_pins_with_its_role_as_the_fallback() {
    let w = World::new();
    let sock = agterm(
        w.root.path(),
        vec![Some(r#"{"ok":true,"result":{"id":"6B1E","pane":"right"}}"#)],
    );
    w.hook(&sock.path, PaneRole::Right, "SessionStart");
    let req = sock.requests.recv_timeout(Duration::from_secs(2)).unwrap();
    assert_eq!(req, pin_request("right", &w.expected_line()));
    assert_eq!(w.record(PaneRole::Right)["pin"], "ok");
}

#[test]
fn outcomes_setting_off_and_unsupported_are_recorded() {
    let w = World::new();
    let sock = agterm(
        w.root.path(),
        vec![Some(
            r#"{"ok":true,"result":{"id":"6B1E","text":"saved, but \"Restore running commands on restart\" is off, so the override will not run"}}"#,
        )],
    );
    w.hook(&sock.path, PaneRole::Left, "SessionStart");
    let r = w.record(PaneRole::Left);
    assert_eq!(r["pin"], "setting-off");
    assert_eq!(r["pinned_line"], w.expected_line().as_str());

    let w = World::new();
    let sock = agterm(
        w.root.path(),
        vec![Some(
            r#"{"ok":false,"error":"invalid request: The data couldn’t be read because it isn’t in the correct format."}"#,
        )],
    );
    w.hook(&sock.path, PaneRole::Left, "SessionStart");
    assert!(sock.requests.recv_timeout(Duration::from_secs(2)).is_ok());
    let r = w.record(PaneRole::Left);
    assert_eq!(r["pin"], "unsupported");
    assert!(r.get("pinned_line").is_none_or(Value::is_null));
    // An agterm without pins is not asked again at every event (the record is fresh).
    w.hook(&sock.path, PaneRole::Left, "PreToolUse");
    assert!(sock
        .requests
        .recv_timeout(Duration::from_millis(300))
        .is_err());
    assert_eq!(w.record(PaneRole::Left)["pin"], "unsupported");
}

/// agterm quit while its agents keep running (Live daemons): a tool-call storm must not retry the pin,
/// rewrite the record and log at every call. One try and one log line per backoff step.
#[test]
fn an_agterm_error_is_logged_once_per_backoff_step_and_retried_after_it() {
    let w = World::new();
    let sock = agterm(
        w.root.path(),
        vec![
            Some(r#"{"ok":false,"error":"no such session: 6B1E"}"#),
            Some(r#"{"ok":true,"result":{"id":"6B1E"}}"#),
        ],
    );
    w.hook(&sock.path, PaneRole::Left, "SessionStart");
    assert!(sock.requests.recv_timeout(Duration::from_secs(2)).is_ok());
    let r = w.record(PaneRole::Left);
    assert_eq!(r["pin"], "error");
    assert!(r.get("pinned_line").is_none_or(Value::is_null));
    assert!(
        w.log().contains("no such session: 6B1E") && w.log().contains("next try in 10 s"),
        "log: {}",
        w.log()
    );
    let record_path = w
        .state()
        .record_path(&agterm_backup_agterm::key::key(SID, PaneRole::Left).unwrap());
    let written = std::fs::read(&record_path).unwrap();
    for _ in 0..5 {
        w.hook(&sock.path, PaneRole::Left, "PreToolUse");
    }
    assert!(
        sock.requests
            .recv_timeout(Duration::from_millis(300))
            .is_err(),
        "the pin was retried inside its backoff step"
    );
    assert_eq!(w.log().matches("pin failed").count(), 1, "log: {}", w.log());
    assert_eq!(
        std::fs::read(&record_path).unwrap(),
        written,
        "nothing rewritten"
    );
    // The step is over (as ten seconds later): the next event tries again, and it goes through.
    let mut r = w.record(PaneRole::Left);
    r["pin_retry"]["retry_at"] = json!("2000-01-01T00:00:00.000Z");
    std::fs::write(&record_path, r.to_string()).unwrap();
    w.hook(&sock.path, PaneRole::Left, "PreToolUse");
    assert!(
        sock.requests.recv_timeout(Duration::from_secs(2)).is_ok(),
        "retried once the step was over; log: {}",
        w.log()
    );
    let r = w.record(PaneRole::Left);
    assert_eq!(r["pin"], "ok");
    assert_eq!(r["pinned_line"], w.expected_line().as_str());
    assert!(r.get("pin_retry").is_none(), "{r}");
}

#[test]
fn a_hung_socket_costs_at_most_the_budget() {
    let w = World::new();
    let sock = agterm(w.root.path(), vec![None]);
    let took = w.hook(&sock.path, PaneRole::Left, "SessionStart");
    assert!(
        sock.requests.recv_timeout(Duration::from_secs(1)).is_ok(),
        "the hook did connect"
    );
    // 300 ms to read the answer, plus the hook's own work (process walk, stdin, writes).
    assert!(took < Duration::from_millis(1500), "the hook took {took:?}");
    eprintln!("hook against a hung socket took {took:?}");
    let r = w.record(PaneRole::Left);
    assert_eq!(r["pin"], "error");
    assert!(
        w.log().contains("did not answer in time"),
        "log: {}",
        w.log()
    );
}

#[test]
fn no_agterm_is_an_error_outcome_not_a_failure() {
    let w = World::new();
    let missing = w.root.path().join("nobody.sock");
    w.hook(&missing, PaneRole::Left, "SessionStart");
    assert_eq!(w.record(PaneRole::Left)["pin"], "error");
    assert!(w.log().contains("is agterm running?"), "log: {}", w.log());
}

#[test]
fn an_over_long_line_is_pinned_as_a_script_that_follows_the_record() {
    let long = "be terse; ".repeat(120);
    let w = World::with_flags(&["--append-system-prompt", &long]);
    let sock = agterm(
        w.root.path(),
        vec![
            Some(r#"{"ok":true,"result":{"id":"6B1E"}}"#),
            Some(r#"{"ok":true,"result":{"id":"6B1E"}}"#),
        ],
    );
    w.hook(&sock.path, PaneRole::Left, "SessionStart");
    let script = w.state().root().join(format!("scripts/{SID}-left.sh"));
    let want = format!("sh '{}'", script.display());
    let req = sock.requests.recv_timeout(Duration::from_secs(2)).unwrap();
    assert_eq!(req, pin_request("left", &want));
    let r = w.record(PaneRole::Left);
    assert_eq!(
        (r["pin"].as_str(), r["pinned_line"].as_str()),
        (Some("ok"), Some(want.as_str()))
    );
    let body = std::fs::read_to_string(&script).unwrap();
    assert!(
        body.contains(&format!(
            "exec 'claude' '--resume' '{ID}' '--append-system-prompt' '{long}'"
        )),
        "{body}"
    );
    use std::os::unix::fs::PermissionsExt;
    assert_eq!(
        std::fs::metadata(&script).unwrap().permissions().mode() & 0o777,
        0o700
    );
    // Unchanged: neither a new pin nor a rewrite.
    let before = std::fs::metadata(&script).unwrap().modified().unwrap();
    w.hook(&sock.path, PaneRole::Left, "PreToolUse");
    assert!(sock
        .requests
        .recv_timeout(Duration::from_millis(300))
        .is_err());
    assert_eq!(
        std::fs::metadata(&script).unwrap().modified().unwrap(),
        before
    );
}
