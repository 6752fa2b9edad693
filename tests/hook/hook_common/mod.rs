//! Shared by the `hook_*` integration tests: runs the built `agterm-backup hook <agent>` (directly, or
//! under a fake agent process tree) with a crafted environment and payload, and checks the hook's promises
//! on every run: exit 0, nothing on stdout, nothing on stderr.
//!
//! Every run is **detached**: a throwaway shell starts it in a background subshell and exits, so the
//! subshell is re-parented to init. The hook's parent walk therefore sees only the tree the test built,
//! never the processes running the tests (which may well include a real `claude`).

#![allow(dead_code)]

use agterm_backup_core::pane::{PaneKey, PaneRole};
use agterm_backup_core::record::LiveRecord;
use agterm_backup_core::state::StateDir;
use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

pub const PANE_SESSION: &str = "6b1e0c2a-aaaa-bbbb-cccc-0123456789ab";
pub const ID_A: &str = "77e8ca85-2b1c-4a8e-9d0b-0c1d2e3f4a5b";
pub const ID_B: &str = "019a0b1c-2d3e-7f40-8a9b-0c1d2e3f4a5b";

pub fn hook_bin() -> PathBuf {
    PathBuf::from(agterm_backup_testkit::agterm_backup_bin!())
}

/// A test's world: a temp folder holding a HOME, the state dir and scratch files.
pub struct World {
    pub dir: agterm_backup_testkit::scratch::ScratchDir,
    pub env: Vec<(String, String)>,
    counter: std::cell::Cell<u32>,
}

/// What one detached run did.
#[derive(Debug)]
pub struct Outcome {
    pub code: i32,
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    pub elapsed: Duration,
}

/// Where the payload comes from.
pub enum Stdin<'a> {
    Bytes(&'a [u8]),
    /// A FIFO whose writer (this test) writes `bytes` and never closes it while the hook runs.
    NeverCloses(&'a [u8]),
}

impl World {
    /// A world whose pane env is agterm's left pane of [`PANE_SESSION`].
    pub fn new() -> World {
        let dir = agterm_backup_testkit::scratch::tempdir();
        let home = dir.path().join("home");
        fs::create_dir_all(&home).unwrap();
        let env = vec![
            (
                "PATH".into(),
                std::env::var("PATH").unwrap_or_else(|_| "/usr/bin:/bin".into()),
            ),
            ("HOME".into(), home.display().to_string()),
            (
                "AGTERM_BACKUP_HOME".into(),
                dir.path().join("state").display().to_string(),
            ),
            ("AGTERM_SESSION_ID".into(), PANE_SESSION.into()),
            ("AGTERM_PANE".into(), "left".into()),
            (
                "AGTERM_PANE_ID".into(),
                "9A2F0000-0000-0000-0000-000000000001".into(),
            ),
            ("AGTERM_WINDOW_ID".into(), "W-1".into()),
        ];
        World {
            dir,
            env,
            counter: Default::default(),
        }
    }

    /// This world's environment, for a command a test runs itself.
    pub fn env_pairs(&self) -> impl Iterator<Item = (&String, &String)> {
        self.env.iter().map(|(k, v)| (k, v))
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    pub fn set(&mut self, key: &str, value: &str) {
        self.unset(key);
        self.env.push((key.into(), value.into()));
    }

    pub fn unset(&mut self, key: &str) {
        self.env.retain(|(k, _)| k != key);
    }

    pub fn state(&self) -> StateDir {
        let root = self
            .env
            .iter()
            .find(|(k, _)| k == "AGTERM_BACKUP_HOME")
            .map(|(_, v)| v.clone())
            .unwrap();
        StateDir::at(root)
    }

    pub fn key(&self) -> PaneKey {
        agterm_backup_agterm::key::key(PANE_SESSION, PaneRole::Left).unwrap()
    }

    pub fn record(&self) -> Option<LiveRecord> {
        self.state().read_record(&self.key())
    }

    pub fn journal(&self) -> Vec<LiveRecord> {
        self.state().read_journal(&self.key())
    }

    /// The raw journal text (to look for torn lines).
    pub fn journal_text(&self) -> String {
        fs::read_to_string(self.state().journal_path(&self.key())).unwrap_or_default()
    }

    fn scratch(&self, name: &str) -> PathBuf {
        let n = self.counter.get();
        self.counter.set(n + 1);
        self.path().join(format!("run-{n}-{name}"))
    }

    /// Starts `argv` detached, in `cwd`, with this world's env; returns the run folder to wait on.
    pub fn start(
        &self,
        argv: &[impl AsRef<std::ffi::OsStr>],
        cwd: &Path,
        stdin: &Stdin<'_>,
    ) -> Run {
        let run_dir = self.scratch("d");
        fs::create_dir_all(&run_dir).unwrap();
        let input = run_dir.join("in");
        let mut writer = None;
        match stdin {
            Stdin::Bytes(b) => fs::write(&input, b).unwrap(),
            Stdin::NeverCloses(b) => {
                let c = std::ffi::CString::new(input.as_os_str().as_encoded_bytes()).unwrap();
                // SAFETY: a valid NUL-terminated path.
                assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0, "mkfifo");
                // Read-write open: does not block, and keeps a writer for as long as we hold it.
                let mut f = fs::OpenOptions::new()
                    .read(true)
                    .write(true)
                    .open(&input)
                    .unwrap();
                std::io::Write::write_all(&mut f, b).unwrap();
                writer = Some(f);
            }
        }
        let started = Instant::now();
        let script = r#"( "$@" <"$HB_DIR/in" >"$HB_DIR/out" 2>"$HB_DIR/err"; echo $? >"$HB_DIR/rc.tmp"; mv "$HB_DIR/rc.tmp" "$HB_DIR/rc" ) & exit 0"#;
        let status = Command::new("/bin/sh")
            .arg("-c")
            .arg(script)
            .arg("detach")
            .args(argv)
            .env_clear()
            .envs(agterm_backup_testkit::hermetic::places())
            .envs(self.env.iter().map(|(k, v)| (k, v)))
            .env("HB_DIR", &run_dir)
            .current_dir(cwd)
            .status()
            .unwrap();
        assert!(status.success());
        Run {
            dir: run_dir,
            started,
            _writer: writer,
        }
    }

    /// Runs `agterm-backup hook <agent>` with `payload`, waits, and checks the promises.
    pub fn hook(&self, agent: &str, payload: &[u8]) -> Outcome {
        self.hook_with(agent, &Stdin::Bytes(payload))
    }

    pub fn hook_with(&self, agent: &str, stdin: &Stdin<'_>) -> Outcome {
        let argv = [
            hook_bin().display().to_string(),
            "hook".into(),
            agent.into(),
        ];
        self.start(&argv, self.path(), stdin).wait_silent()
    }

    /// Writes a fake agent: a copy of `/bin/sh` named `name`. Run as `<name> <script> <flags…>`, its argv
    /// is `[<name>, <script>, <flags…>]`, exactly what the hook's walk reads from a real agent.
    pub fn fake_agent(&self, name: &str) -> PathBuf {
        let bin = self.path().join("bin");
        fs::create_dir_all(&bin).unwrap();
        let path = bin.join(name);
        if !path.exists() {
            fs::copy("/bin/sh", &path).unwrap();
            fs::set_permissions(&path, fs::Permissions::from_mode(0o755)).unwrap();
        }
        path
    }

    /// Writes a shell script (run by a fake agent) and returns its path.
    pub fn script(&self, body: &str) -> PathBuf {
        let path = self.scratch("script.sh");
        fs::write(&path, body).unwrap();
        path
    }
}

/// A detached run in progress.
pub struct Run {
    dir: PathBuf,
    started: Instant,
    _writer: Option<fs::File>,
}

impl Run {
    /// Waits (up to 20 s) for the run to finish.
    pub fn wait(self) -> Outcome {
        let rc = self.dir.join("rc");
        let limit = Duration::from_secs(20);
        while !rc.exists() {
            assert!(
                self.started.elapsed() < limit,
                "run in {} did not finish",
                self.dir.display()
            );
            std::thread::sleep(Duration::from_millis(2));
        }
        let elapsed = self.started.elapsed();
        Outcome {
            code: fs::read_to_string(&rc).unwrap().trim().parse().unwrap(),
            stdout: fs::read(self.dir.join("out")).unwrap(),
            stderr: fs::read(self.dir.join("err")).unwrap(),
            elapsed,
        }
    }

    /// Waits and asserts the hook's promises: exit 0, silent.
    pub fn wait_silent(self) -> Outcome {
        let out = self.wait();
        out.assert_silent();
        out
    }
}

impl Outcome {
    pub fn assert_silent(&self) {
        assert_eq!(
            self.code,
            0,
            "exit code; stderr: {}",
            String::from_utf8_lossy(&self.stderr)
        );
        assert!(
            self.stdout.is_empty(),
            "stdout: {:?}",
            String::from_utf8_lossy(&self.stdout)
        );
        assert!(
            self.stderr.is_empty(),
            "stderr: {:?}",
            String::from_utf8_lossy(&self.stderr)
        );
    }
}

/// A Claude-shaped payload.
pub fn claude_payload(event: &str, id: &str, cwd: &str, start_dir: &str) -> Vec<u8> {
    let slug = agterm_backup_core::slug::claude_project_slug(start_dir);
    let mut v = serde_json::json!({
        "session_id": id,
        "transcript_path": format!("/h/.claude/projects/{slug}/{id}.jsonl"),
        "cwd": cwd,
        "hook_event_name": event,
    });
    if event == "SessionStart" {
        v["source"] = "startup".into();
    }
    serde_json::to_vec(&v).unwrap()
}

/// The hook's error log (empty when absent).
pub fn log_text(world: &World) -> String {
    fs::read_to_string(world.state().log_path()).unwrap_or_default()
}
