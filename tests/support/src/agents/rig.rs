//! One end-to-end rig: a temp folder, the stub model, a private tmux server, a throwaway agent home with
//! the capture hook wired in, and agterm's pane environment pointing at a temp state dir.

use super::{payload_logger_command, AgentHome, AgtermPane};
use crate::stub_model::StubModel;
use crate::tmux::Tmux;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

pub struct Rig {
    /// Canonical path of the temp folder everything lives in.
    pub root: PathBuf,
    pub stub: StubModel,
    pub tmux: Tmux,
    pub home: AgentHome,
    /// `AGTERM_BACKUP_HOME` for every pane of this rig.
    pub state_dir: PathBuf,
    /// Where the payload-logging hook handler appends what the agents sent.
    pub payloads: PathBuf,
    _tmp: crate::scratch::ScratchDir,
}

impl Rig {
    /// A rig whose agents run `hook_command` (e.g. `<agterm-backup> hook claude`) on every captured
    /// event, next to a payload logger. `project_dirs` are created under the root and trusted by Claude.
    pub fn new(project_dirs: &[&str]) -> Rig {
        let tmp = crate::scratch::tempdir_named("e2e");
        let root = tmp.path().canonicalize().expect("canonical temp dir");
        let dirs: Vec<PathBuf> = project_dirs.iter().map(|d| root.join(d)).collect();
        for dir in &dirs {
            std::fs::create_dir_all(dir)
                .unwrap_or_else(|e| panic!("create {}: {e}", dir.display()));
        }
        let dir_refs: Vec<&Path> = dirs.iter().map(PathBuf::as_path).collect();
        let home = AgentHome::new(&root, &dir_refs);
        let stub = StubModel::start_logging_to(Some(root.join("stub-requests.jsonl")))
            .expect("stub model starts");
        let tmux = Tmux::new(root.join("tmux.sock"));
        let state_dir = root.join("state");
        Rig {
            payloads: root.join("payloads.jsonl"),
            root,
            stub,
            tmux,
            home,
            state_dir,
            _tmp: tmp,
        }
    }

    /// Writes the Claude hooks: `hook_command` and the payload logger on each captured event.
    pub fn wire_claude(&self, hook_command: &str) {
        self.home.write_claude_hooks(&[
            hook_command.to_string(),
            payload_logger_command(&self.payloads),
        ]);
    }

    /// Writes the Codex config: the mock provider, `hook_command` and the payload logger.
    pub fn wire_codex(&self, hook_command: &str) {
        self.home.write_codex_config(
            &self.stub,
            &[
                hook_command.to_string(),
                payload_logger_command(&self.payloads),
            ],
        );
    }

    /// The user's own hooks before agterm-backup is installed: only the payload logger for Claude, the
    /// mock provider (with the logger when `log_payloads`) for Codex.
    pub fn pre_install_config(&self, log_payloads: bool) {
        let logger = [payload_logger_command(&self.payloads)];
        let hooks: &[String] = if log_payloads { &logger } else { &[] };
        self.home.write_claude_hooks(hooks);
        self.home.write_codex_config(&self.stub, hooks);
    }

    /// Wires Claude's hooks the way a user does: their own hooks first (here the payload logger), then
    /// `agterm-backup installer apply` for real, which must merge into them and keep them.
    pub fn install_claude(&self, agterm_backup: &Path) {
        self.pre_install_config(true);
        self.install(agterm_backup, "claude", false);
        let settings =
            std::fs::read_to_string(self.home.home.join(".claude/settings.json")).unwrap();
        assert!(
            settings.contains("hook claude"),
            "the installer wired the hook: {settings}"
        );
        assert!(
            settings.contains("payloads.jsonl"),
            "the installer kept the user's hooks: {settings}"
        );
        assert!(
            settings.contains("acceptEdits"),
            "the installer kept the user's settings: {settings}"
        );
    }

    /// Runs `<agterm_backup> installer apply --no-denylist --agents <agents> [--trust]` for real with this
    /// rig's `HOME` and `CODEX_HOME` (the agent CLIs on `PATH`, as `--trust` asks `codex app-server`);
    /// panics with its output when it fails. Returns its stdout.
    pub fn install(&self, agterm_backup: &Path, agents: &str, trust: bool) -> String {
        let mut args = vec!["installer", "apply", "--no-denylist", "--agents", agents];
        if trust {
            args.push("--trust");
        }
        let mut path = std::env::var("PATH").unwrap_or_else(|_| "/usr/bin:/bin".into());
        if let Some(dir) = crate::paths::agent_cli_dir() {
            path = format!("{}:{path}", dir.display());
        }
        let out = std::process::Command::new(agterm_backup)
            .args(&args)
            .env_clear()
            .envs(crate::hermetic::places())
            .env("HOME", &self.home.home)
            .env("CODEX_HOME", &self.home.codex_home)
            .env("PATH", path)
            .output()
            .expect("agterm-backup runs");
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        assert!(
            out.status.success(),
            "agterm-backup {args:?} failed ({}):\n{stdout}{}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
        stdout
    }

    /// agterm's env for a pane with `role` in a new agterm session (a lower-case UUID, as the hook must
    /// upper-case it).
    pub fn pane(&self, role: &str) -> AgtermPane {
        let session_id = uuid::Uuid::new_v4().to_string();
        AgtermPane {
            session_id: session_id.clone(),
            role: role.into(),
            pane_id: format!("pane-{}-{role}", &session_id[..8]),
            socket: self.root.join("no-agterm.sock"),
            state_dir: self.state_dir.clone(),
        }
    }

    /// The other pane (`role`) of `beside`'s agterm session.
    pub fn split_pane(&self, beside: &AgtermPane, role: &str) -> AgtermPane {
        AgtermPane {
            role: role.into(),
            pane_id: format!("pane-{}-{role}", &beside.session_id[..8]),
            ..beside.clone()
        }
    }

    /// The agents' offline env plus the pane's agterm env.
    pub fn pane_env(&self, pane: &AgtermPane) -> Vec<(String, String)> {
        let mut env = self.home.env(&self.stub);
        env.extend(pane.env());
        env
    }

    /// The payloads of `event` the agents sent so far, in order.
    pub fn payloads_of(&self, event: &str) -> Vec<serde_json::Value> {
        super::read_payloads(&self.payloads)
            .into_iter()
            .filter(|p| p["hook_event_name"] == event)
            .collect()
    }

    /// Who took the once-per-launch marker of `agent`'s conversation `id` (`shell-start`, `restore`), in
    /// every launch so far: the state directory's `resumed/<launch>/conversation.<agent>.<id>`.
    pub fn resumed_by(&self, agent: &str, id: &str) -> Vec<String> {
        let name = format!("conversation.{agent}.{id}");
        let launches = std::fs::read_dir(self.state_dir.join("resumed"));
        launches
            .into_iter()
            .flatten()
            .flatten()
            .filter_map(|l| std::fs::read_to_string(l.path().join(&name)).ok())
            .filter_map(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
            .map(|v| v["by"].as_str().unwrap_or_default().to_string())
            .collect()
    }

    /// Waits until a payload the agent sent satisfies `pred` and returns it; panics with every payload seen
    /// on timeout.
    pub fn wait_payload(
        &self,
        timeout: Duration,
        what: &str,
        pred: impl Fn(&serde_json::Value) -> bool,
    ) -> serde_json::Value {
        let start = Instant::now();
        loop {
            if let Some(found) = super::read_payloads(&self.payloads)
                .into_iter()
                .find(|p| pred(p))
            {
                return found;
            }
            assert!(
                start.elapsed() < timeout,
                "timed out after {timeout:?} waiting for {what}; payloads the agent sent:\n{}",
                std::fs::read_to_string(&self.payloads).unwrap_or_default()
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Waits until a record of the conversation `id` carries its `SessionEnd` (`end_reason`): the
    /// agent's goodbye on screen and the payload log come before our hook has written it, and a reboot
    /// or a restart in that moment would kill the hook and lose the user's quit.
    pub fn wait_ended(&self, id: &str, timeout: Duration) -> serde_json::Value {
        let start = Instant::now();
        loop {
            let live = std::fs::read_dir(self.state_dir.join("live"));
            let ended = live
                .into_iter()
                .flatten()
                .flatten()
                .filter(|e| e.path().extension().is_some_and(|x| x == "json"))
                .filter_map(|e| std::fs::read_to_string(e.path()).ok())
                .filter_map(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
                .find(|r| r["session_id"] == id && r["end_reason"].is_string());
            if let Some(record) = ended {
                return record;
            }
            assert!(
                start.elapsed() < timeout,
                "timed out after {timeout:?} waiting for {id}'s SessionEnd in its record; log:\n{}",
                std::fs::read_to_string(self.state_dir.join("hook.log")).unwrap_or_default()
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Waits until the pane's record exists and `pred` holds for it; panics with what is there (record,
    /// state dir log, payloads seen) on timeout.
    pub fn wait_record(
        &self,
        pane: &AgtermPane,
        timeout: Duration,
        what: &str,
        pred: impl Fn(&serde_json::Value) -> bool,
    ) -> serde_json::Value {
        let start = Instant::now();
        loop {
            if let Some(record) = pane.record() {
                if pred(&record) {
                    return record;
                }
            }
            if start.elapsed() > timeout {
                let log = std::fs::read_dir(&self.state_dir)
                    .map(|it| {
                        it.flatten()
                            .map(|e| e.path().display().to_string())
                            .collect::<Vec<_>>()
                    })
                    .unwrap_or_default();
                panic!(
                    "timed out after {timeout:?} waiting for {what} in {}\nrecord: {:?}\nstate dir: {log:?}\n\
                     payloads the agent sent:\n{}",
                    pane.record_path().display(),
                    pane.record(),
                    std::fs::read_to_string(&self.payloads).unwrap_or_default()
                );
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

impl Drop for Rig {
    /// Ends the panes' process trees before the temp folder goes: an agent or hook that outlived the
    /// tmux server would otherwise write into (and recreate) the removed folder.
    fn drop(&mut self) {
        let out = self.tmux.cmd(&["list-panes", "-a", "-F", "#{pane_pid}"]);
        let pids: Vec<u32> = String::from_utf8_lossy(&out.stdout)
            .split_whitespace()
            .filter_map(|p| p.parse().ok())
            .flat_map(super::drive::process_tree)
            .collect();
        self.tmux.kill_server();
        let deadline = Instant::now() + Duration::from_secs(5);
        while pids.iter().any(|p| super::drive::is_running(*p)) && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(50));
        }
        for pid in pids.into_iter().filter(|p| super::drive::is_running(*p)) {
            // Only processes this rig's panes started.
            let _ = nix::sys::signal::kill(
                nix::unistd::Pid::from_raw(pid as i32),
                nix::sys::signal::Signal::SIGKILL,
            );
        }
    }
}
