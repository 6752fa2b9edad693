//! The test-side handle: starts the `fake-agterm` binary as a child process, talks to it over its socket,
//! restarts it, and reads its state files and tmux panes directly.

use super::locate::fake_agterm_bin;
use super::model::{FakeState, Version};
use crate::tmux::Tmux;
use agterm_backup_core::pane::PaneRole;
use agterm_backup_core::terminal::RestoreMode;
use serde_json::{json, Value};
use std::io::{Read, Write};
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// How to configure a fake agterm. `FakeConfig::new("0.34", RestoreMode::Rerun)`.
#[derive(Debug, Clone)]
pub struct FakeConfig {
    /// `0.15`, `0.16`, `0.24`, `0.26`, `0.34` or any `x.y.z`.
    pub version: String,
    /// The configured restore mode. Before 0.26 `Rerun` means the legacy "Restore running commands on
    /// restart" setting is on, anything else that it is off (Live needs 0.26+; below it runs as none).
    pub mode: RestoreMode,
    /// Extra environment on every pane (HOME, PATH, AGTERM_BACKUP_HOME, …).
    pub pane_env: Vec<(String, String)>,
    /// Contents of `restore-denylist.conf`; `None` = agterm's starter file (tmux, screen, zellij).
    pub denylist: Option<String>,
    /// The pane shell (default `bash`), run as a login shell with the prompt `$ `.
    pub shell: Option<String>,
    /// Where the Linux ports keep things when `$AGTERM_STATE_DIR` is unset (nickalie/agterm-linux):
    /// the socket in `$XDG_DATA_HOME/agterm` (else `~/.local/share/agterm`) and the denylist in
    /// `~/.config/agterm`, for the panes' `HOME` (and `XDG_DATA_HOME`) of `pane_env`. Otherwise the
    /// fake's own folder plays `$AGTERM_STATE_DIR`.
    pub linux_paths: bool,
}

impl FakeConfig {
    pub fn new(version: &str, mode: RestoreMode) -> FakeConfig {
        FakeConfig {
            version: version.to_string(),
            mode,
            pane_env: Vec::new(),
            denylist: None,
            shell: None,
            linux_paths: false,
        }
    }

    /// The Linux ports' default folders under the panes' `HOME` ([`FakeConfig::linux_paths`]).
    pub fn linux_paths(mut self) -> FakeConfig {
        self.linux_paths = true;
        self
    }

    /// `(socket, denylist)` for a fake whose own folder is `dir`.
    fn paths(&self, dir: &Path) -> (PathBuf, PathBuf) {
        if !self.linux_paths {
            return (
                dir.join("agterm.sock"),
                dir.join("config/restore-denylist.conf"),
            );
        }
        let var = |k: &str| {
            self.pane_env
                .iter()
                .rev()
                .find(|(n, _)| n == k)
                .map(|(_, v)| PathBuf::from(v))
        };
        let home = var("HOME").expect("linux_paths: a HOME in pane_env");
        let data = var("XDG_DATA_HOME")
            .filter(|d| d.is_absolute())
            .unwrap_or_else(|| home.join(".local/share"));
        (
            data.join("agterm/agterm.sock"),
            home.join(".config/agterm/restore-denylist.conf"),
        )
    }

    pub fn env(mut self, key: &str, value: impl AsRef<str>) -> FakeConfig {
        self.pane_env
            .push((key.to_string(), value.as_ref().to_string()));
        self
    }

    pub fn denylist(mut self, text: &str) -> FakeConfig {
        self.denylist = Some(text.to_string());
        self
    }
}

/// How [`FakeAgterm::restart`] ends the running instance.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RestartKind {
    /// Quit agterm cleanly (captures foreground argv); Live panes keep running.
    CleanQuit,
    /// Clean quit (an OS shutdown quits cleanly), then every process dies (the tmux server is killed).
    Reboot,
    /// SIGKILL agterm (no capture), then every process dies.
    Crash,
}

/// One pane of a session created with [`FakeAgterm::add_session`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PaneHandle {
    /// The tmux pane (`%N`) running the pane's shell now.
    pub tmux: String,
    /// The `AGTERM_PANE_ID` the shell got.
    pub pane_id: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionHandle {
    /// `AGTERM_SESSION_ID` (upper-case UUID).
    pub id: String,
    pub window: String,
    pub workspace: String,
    pub left: PaneHandle,
    pub right: Option<PaneHandle>,
}

/// A running (or stopped) fake agterm. Drop kills the process and its tmux server and removes its dir.
pub struct FakeAgterm {
    pub(super) dir: crate::scratch::ScratchDir,
    pub(super) version: String,
    pub(super) child: Option<Child>,
    pub(super) tmux: Tmux,
    pub(super) shell: String,
    pub(super) socket: PathBuf,
    pub(super) denylist: PathBuf,
}

impl FakeAgterm {
    /// Creates `/tmp/agb-XXXXXX/` (short, for sun_path), writes the config, starts the binary and waits
    /// until it answers.
    pub fn start(config: FakeConfig) -> FakeAgterm {
        Version::parse(&config.version).expect("FakeConfig.version");
        let dir = crate::scratch::tempdir_named("a");
        let mut pane_env = config.pane_env.clone();
        // Panes are login shells that read ~/.profile and ~/.bashrc: a test that gives them no HOME
        // gets an empty one, never the machine user's (whose rc files — `pyenv rehash` waiting on a lock
        // a killed pane left behind, say — would stall every pane, and whose state the hook would write).
        if !pane_env.iter().any(|(k, _)| k == "HOME") {
            let home = dir.path().join("home");
            std::fs::create_dir(&home).expect("pane HOME");
            pane_env.push(("HOME".into(), home.display().to_string()));
        }
        let state = FakeState {
            restore_mode: Some(config.mode),
            pane_env,
            shell: config.shell.clone(),
            ..FakeState::default()
        };
        state.save(dir.path()).expect("initial state");
        let (socket, denylist) = config.paths(dir.path());
        std::fs::create_dir_all(socket.parent().unwrap()).unwrap();
        if let Some(text) = &config.denylist {
            std::fs::create_dir_all(denylist.parent().unwrap()).unwrap();
            std::fs::write(&denylist, text).unwrap();
        }
        let tmux = Tmux::new(dir.path().join("tmux.sock"));
        let mut fake = FakeAgterm {
            version: config.version.clone(),
            shell: config.shell.unwrap_or_else(|| "bash".into()),
            dir,
            child: None,
            tmux,
            socket,
            denylist,
        };
        fake.launch();
        fake
    }

    pub fn state_dir(&self) -> &Path {
        self.dir.path()
    }
    pub fn socket(&self) -> PathBuf {
        self.socket.clone()
    }
    pub fn denylist_path(&self) -> PathBuf {
        self.denylist.clone()
    }
    pub fn tmux(&self) -> &Tmux {
        &self.tmux
    }
    pub fn version(&self) -> &str {
        &self.version
    }
    /// The pid of the running fake (the socket's peer).
    pub fn pid(&self) -> u32 {
        self.child.as_ref().expect("fake agterm is running").id()
    }

    /// Starts a new `fake-agterm` process on the same state dir (after [`FakeAgterm::stop`]).
    pub fn launch(&mut self) {
        assert!(self.child.is_none(), "fake agterm already running");
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(self.dir.path().join("fake-agterm.log"))
            .expect("log file");
        let child = Command::new(fake_agterm_bin())
            .arg("--state-dir")
            .arg(self.dir.path())
            .arg("--version")
            .arg(&self.version)
            .arg("--socket")
            .arg(&self.socket)
            .arg("--denylist")
            .arg(&self.denylist)
            .stdin(Stdio::null())
            .stdout(log.try_clone().unwrap())
            .stderr(log)
            .env_remove("TMUX")
            .spawn()
            .expect("fake-agterm starts");
        self.child = Some(child);
        let start = Instant::now();
        loop {
            if let Ok(Some(status)) = self.child.as_mut().unwrap().try_wait() {
                self.child = None;
                panic!("fake-agterm exited ({status}) at launch:\n{}", self.log());
            }
            if self.try_request(&json!({"cmd": "fake.state"})).is_ok() {
                return;
            }
            assert!(
                start.elapsed() < Duration::from_secs(30),
                "fake-agterm not up:\n{}",
                self.log()
            );
            std::thread::sleep(Duration::from_millis(30));
        }
    }

    /// The fake's own stderr so far.
    pub fn log(&self) -> String {
        std::fs::read_to_string(self.dir.path().join("fake-agterm.log")).unwrap_or_default()
    }

    /// Quits cleanly (`fake.quit`: capture, close non-Live panes, save) and waits for the process to exit.
    pub fn stop(&mut self) {
        if self.child.is_none() {
            return;
        }
        let answer = self.request(&json!({"cmd": "fake.quit"}));
        assert_eq!(answer["ok"], json!(true), "fake.quit: {answer}");
        let status = self.child.take().unwrap().wait().expect("wait fake-agterm");
        assert!(
            status.success(),
            "fake-agterm exited with {status}:\n{}",
            self.log()
        );
    }

    /// Kills every pane process (the tmux server), as a reboot does. Use while stopped.
    pub fn kill_all_panes(&mut self) {
        self.tmux.kill_server();
    }

    /// Ends this instance the `kind` way and launches a new process (new pid, new launch time).
    pub fn restart(&mut self, kind: RestartKind) {
        self.end(kind);
        self.launch();
    }

    /// Like [`FakeAgterm::restart`] but the next process reports `version` (an agterm update).
    pub fn restart_as(&mut self, kind: RestartKind, version: &str) {
        Version::parse(version).expect("version");
        self.end(kind);
        self.version = version.to_string();
        self.launch();
    }

    /// Ends the running instance the `kind` way, leaving it stopped.
    pub fn end(&mut self, kind: RestartKind) {
        match kind {
            RestartKind::CleanQuit => self.stop(),
            RestartKind::Reboot => {
                self.stop();
                self.kill_all_panes();
            }
            RestartKind::Crash => {
                if let Some(mut child) = self.child.take() {
                    let _ = child.kill();
                    let _ = child.wait();
                }
                self.kill_all_panes();
            }
        }
    }

    /// Sends one request line and returns the parsed response; panics when the socket fails.
    pub fn request(&self, request: &Value) -> Value {
        self.try_request(request)
            .unwrap_or_else(|e| panic!("fake agterm request {request} failed: {e}\n{}", self.log()))
    }

    fn try_request(&self, request: &Value) -> Result<Value, String> {
        let line = raw_request(&self.socket(), format!("{request}\n").as_bytes())?;
        serde_json::from_str(line.trim_end()).map_err(|e| format!("bad response {line:?}: {e}"))
    }

    /// Types `line` + Return into the pane with `session.type` (logged like any client's request).
    pub fn type_line(&self, session: &str, role: PaneRole, line: &str) {
        let r = self.request(&json!({"cmd": "session.type", "target": session,
            "args": {"text": format!("{line}\n"), "select": false, "pane": role.as_str()}}));
        assert_eq!(r["ok"], json!(true), "session.type: {r}");
    }

    /// Pins `line` on the pane whose `AGTERM_PANE_ID` is `pane_id` (`session.restore` set); returns the
    /// answer's `result` (`id`, `pane` from 0.26, `text` when it will not run).
    pub fn set_pin(&self, session: &str, pane_id: &str, line: &str) -> Value {
        let r = self.request(&json!({"cmd": "session.restore", "target": session,
            "args": {"mode": "set", "paneID": pane_id, "command": line}}));
        assert_eq!(r["ok"], json!(true), "session.restore: {r}");
        r["result"].clone()
    }

    /// Adds a window (`open` or closed); returns its id.
    pub fn add_window(&self, name: &str, open: bool) -> String {
        let r =
            self.request(&json!({"cmd": "fake.add_window", "args": {"name": name, "open": open}}));
        r["result"]["id"].as_str().expect("window id").to_string()
    }

    /// Adds a session (in `window`, default frontmost; `workspace` by id or name, created when absent)
    /// whose main pane is a fresh login shell in `cwd`, plus a split when `split`. It becomes the
    /// window's active session.
    pub fn add_session(
        &self,
        window: Option<&str>,
        workspace: Option<&str>,
        cwd: &Path,
        split: bool,
    ) -> SessionHandle {
        let mut extra = json!({});
        if let Some(w) = window {
            extra["window"] = json!(w);
        }
        if let Some(ws) = workspace {
            extra["workspace"] = json!(ws);
        }
        self.add_session_with(cwd, split, extra)
    }

    /// [`FakeAgterm::add_session`] with more `fake.add_session` arguments in `extra`: `window`,
    /// `workspace` (`"root"`: a top-level session, 0.44+), `remote` (the host of a remote session),
    /// `companion_of` (the lead session's id, 0.43+), `scratch_cwd`, `name`, `select`.
    pub fn add_session_with(&self, cwd: &Path, split: bool, extra: Value) -> SessionHandle {
        let mut args = json!({"cwd": cwd.display().to_string(), "split": split});
        if let (Some(a), Some(e)) = (args.as_object_mut(), extra.as_object()) {
            a.extend(e.clone());
        }
        let r = self.request(&json!({"cmd": "fake.add_session", "args": args}));
        assert_eq!(r["ok"], json!(true), "fake.add_session: {r}");
        let res = &r["result"];
        let pane = |v: &Value| PaneHandle {
            tmux: v["tmux"].as_str().expect("tmux pane").to_string(),
            pane_id: v["paneID"].as_str().expect("pane id").to_string(),
        };
        let handle = SessionHandle {
            id: res["id"].as_str().unwrap().to_string(),
            window: res["window"].as_str().unwrap().to_string(),
            workspace: res["workspace"].as_str().unwrap().to_string(),
            left: pane(&res["left"]),
            right: (!res["right"].is_null()).then(|| pane(&res["right"])),
        };
        self.wait_for_prompt(&handle.id, PaneRole::Left);
        if handle.right.is_some() {
            self.wait_for_prompt(&handle.id, PaneRole::Right);
        }
        handle
    }
}

impl Drop for FakeAgterm {
    fn drop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
        self.tmux.kill_server();
    }
}

/// Polls `f` every 50 ms until it returns true or `timeout` passes.
pub fn wait_until(timeout: Duration, mut f: impl FnMut() -> bool) -> bool {
    let start = Instant::now();
    loop {
        if f() {
            return true;
        }
        if start.elapsed() > timeout {
            return false;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Writes `bytes` to the socket, shuts the write side, reads the answer to EOF (10 s timeouts).
pub fn raw_request(socket: &Path, bytes: &[u8]) -> Result<String, String> {
    let mut stream =
        UnixStream::connect(socket).map_err(|e| format!("connect {}: {e}", socket.display()))?;
    stream.set_read_timeout(Some(Duration::from_secs(10))).ok();
    stream.set_write_timeout(Some(Duration::from_secs(10))).ok();
    stream.write_all(bytes).map_err(|e| format!("write: {e}"))?;
    let _ = stream.shutdown(std::net::Shutdown::Write);
    let mut out = String::new();
    stream
        .read_to_string(&mut out)
        .map_err(|e| format!("read: {e}"))?;
    Ok(out)
}
