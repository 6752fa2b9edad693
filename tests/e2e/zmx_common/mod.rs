//! The zmx end-to-end rig: a fake `zmx` (tests/support's, modelled on zmx's source) whose sessions are
//! real shells on real ptys, the real Claude Code and Codex offline inside them with agterm-backup's
//! hooks installed by `installer apply`, a "reboot" (every daemon and session process SIGKILLed, the
//! sockets left behind refusing), and `agterm-backup restore` run the way a user runs it afterwards.

#![allow(dead_code)]

use agterm_backup_core::quote::quote_words;
use agterm_backup_testkit::agents::rig::Rig;
use agterm_backup_testkit::agents::{
    payload_logger_command, type_at_prompt, type_prompt, wait_ready, wait_screen,
    wait_shell_prompt, Agent,
};
use agterm_backup_testkit::clock::wait_past_second;
use agterm_backup_testkit::fake_zmx::FakeZmx;
use agterm_backup_testkit::tmux::Tmux;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

pub const AGENT_START: Duration = agterm_backup_testkit::agents::AGENT_START;
pub const TURN: Duration = agterm_backup_testkit::agents::TURN;
pub const COMEBACK: Duration = Duration::from_secs(180);

pub struct ZmxRig {
    pub rig: Rig,
    pub zmx: FakeZmx,
    /// The user's environment: every session, agent and `restore` runs with exactly this.
    pub env: Vec<(String, String)>,
    pub claude: PathBuf,
    pub codex: PathBuf,
    pub bin: PathBuf,
    /// The hidden tmux server the fake's sessions run on (to read a screen, type into an agent).
    pub host: Tmux,
}

impl ZmxRig {
    /// `None` (after a SKIPPED line) without the real CLIs; a failure under CI.
    pub fn new(dirs: &[&str]) -> Option<ZmxRig> {
        let claude = agterm_backup_testkit::paths::agent_cli("claude")?;
        let codex = agterm_backup_testkit::paths::agent_cli("codex")?;
        let rig = Rig::new(dirs);
        let bin = PathBuf::from(agterm_backup_testkit::agterm_backup_bin!());
        rig.pre_install_config(false);
        rig.home
            .write_claude_hooks(&[payload_logger_command(&rig.payloads)]);
        let zmx = FakeZmx::new(&rig.root);
        // The user's login shell: a bash with a plain prompt and no rc files (zmx starts `$SHELL` bare as
        // a login shell, `-bash`). Run with arguments it does what they say, as a real `$SHELL` does:
        // Kimi Code reads the login PATH with `$SHELL -l -c /usr/bin/env` at start, and an interactive
        // bash there would take the terminal's foreground from Kimi, which then stops (SIGTTIN).
        let shell_dir = rig.root.join("shell");
        std::fs::create_dir_all(&shell_dir).unwrap();
        let shell = shell_dir.join("bash");
        std::fs::write(
            &shell,
            "#!/bin/sh\n[ $# -eq 0 ] && PS1='pane$ ' exec /bin/bash --noprofile --norc -i\n\
             exec /bin/bash --noprofile --norc \"$@\"\n",
        )
        .unwrap();
        std::fs::set_permissions(&shell, std::os::unix::fs::PermissionsExt::from_mode(0o755))
            .unwrap();
        let mut env: Vec<(String, String)> = rig
            .home
            .env(&rig.stub)
            .into_iter()
            .filter(|(k, _)| k != "SHELL")
            .collect();
        for (k, v) in env.iter_mut() {
            if k == "PATH" {
                *v = format!("{}:{v}", zmx.bin_dir().display());
            }
        }
        env.extend([
            (
                "AGTERM_BACKUP_HOME".into(),
                rig.state_dir.display().to_string(),
            ),
            ("ZMX_DIR".into(), zmx.socket_dir().display().to_string()),
            ("SHELL".into(), shell.display().to_string()),
            ("PS1".into(), "pane$ ".into()),
            ("LANG".into(), "C.UTF-8".into()),
            ("AGTERM_BACKUP_DIALOG_TIMEOUT_SECS".into(), "20".into()),
        ]);
        let host = zmx.host_tmux();
        Some(ZmxRig {
            rig,
            zmx,
            env,
            claude,
            codex,
            bin,
            host,
        })
    }

    pub fn dir(&self, name: &str) -> PathBuf {
        self.rig.root.join(name)
    }

    /// `installer apply` as the user runs it (both agents, Codex's hooks trusted).
    pub fn install(&self) -> String {
        self.rig.install(&self.bin, "claude,codex", true)
    }

    /// `zmx <args>` in `cwd` with the user's environment, stdin closed.
    pub fn zmx_cmd(&self, args: &[&str], cwd: &Path) -> Command {
        let mut cmd = Command::new(self.zmx.zmx());
        cmd.args(args)
            .env_clear()
            .envs(agterm_backup_testkit::hermetic::places())
            .envs(self.env.iter().map(|(k, v)| (k, v)))
            .current_dir(cwd)
            .stdin(Stdio::null());
        cmd
    }

    /// The user creates (or reattaches) session `name` in `dir` with a plain `zmx attach`, and its shell
    /// prompt shows.
    pub fn attach(&self, name: &str, dir: &Path) {
        let out = self.zmx_cmd(&["attach", name], dir).output().unwrap();
        assert!(out.status.success(), "zmx attach {name}: {out:?}");
        self.zmx.wait_for_session(name, Duration::from_secs(15));
        self.wait_prompt(name);
    }

    /// The session's pane on the hidden tmux server.
    pub fn target(&self, name: &str) -> String {
        self.zmx
            .tmux_pane(name)
            .unwrap_or_else(|| panic!("no live zmx session {name}"))
    }

    /// Waits until the session's shell is back at its prompt (the cursor's line is the bare prompt).
    pub fn wait_prompt(&self, name: &str) {
        wait_shell_prompt(&self.host, &self.target(name), Duration::from_secs(60));
    }

    /// Types a line at the session's prompt once it is back, as the user would.
    pub fn type_line(&self, name: &str, line: &str) {
        type_at_prompt(&self.host, &self.target(name), line);
    }

    /// `claude --model sonnet <prompt>` in session `name`, waiting for the reply.
    pub fn run_claude(&self, name: &str, prompt: &str) {
        let argv = [
            self.claude.display().to_string(),
            "--model".into(),
            "sonnet".into(),
            prompt.into(),
        ];
        self.type_line(name, &quote_words(&argv));
        wait_screen(
            &self.host,
            &self.target(name),
            AGENT_START + TURN,
            "claude's reply",
            |s| s.contains(&format!("stub reply to: {prompt}")),
        );
    }

    /// `codex --no-daemon -m mock-model` in session `name`, then `prompt`, waiting for the reply.
    pub fn run_codex(&self, name: &str, prompt: &str) {
        let argv = [
            self.codex.display().to_string(),
            "--no-daemon".into(),
            "-m".into(),
            "mock-model".into(),
        ];
        self.type_line(name, &quote_words(&argv));
        let target = self.target(name);
        wait_ready(&self.host, &target, Agent::Codex, AGENT_START);
        type_prompt(&self.host, &target, prompt);
        wait_screen(&self.host, &target, TURN, "codex's reply", |s| {
            s.contains(&format!("stub reply to: {prompt}"))
        });
    }

    /// Every live record in the state dir.
    pub fn records(&self) -> Vec<Value> {
        let live = self.rig.state_dir.join("live");
        std::fs::read_dir(&live)
            .into_iter()
            .flatten()
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().ends_with(".json"))
            .filter_map(|e| serde_json::from_slice(&std::fs::read(e.path()).ok()?).ok())
            .collect()
    }

    /// The record of zmx session `name` naming `agent` (waiting for it).
    pub fn wait_record(&self, name: &str, agent: &str) -> Value {
        Tmux::wait_for(
            TURN,
            &format!("a {agent} record of zmx session {name}"),
            || {
                self.records().into_iter().find(|r| {
                    r["terminal"] == "zmx" && r["zmx"]["name"] == name && r["agent"] == agent
                })
            },
        )
    }

    /// Waits until the record's conversation is on disk with `reply` in it (agents write their
    /// transcripts asynchronously; a reboot right after the reply shows could lose it).
    pub fn wait_saved(&self, rec: &Value, reply: &str) {
        let path = rec["transcript_path"].as_str().expect("a transcript path");
        agterm_backup_testkit::agents::wait_file_holds_all(
            Path::new(path),
            TURN,
            &format!("{reply:?} in {path}"),
            &[reply],
        );
    }

    /// "Reboot": every zmx daemon and session process is killed; then the machine's boot time is now
    /// (restore reads it from `AGTERM_BACKUP_BOOT_TIME`, the tests' stand-in for `/proc/stat`).
    /// The boot time is whole seconds and the journal rule compares records with it: every record
    /// written before the kill must be older than the boot's second, every one written after the boot
    /// newer, so the boot's second is one the clock entered after the kill, and left before this returns.
    pub fn reboot(&mut self) {
        self.zmx.reboot();
        let killed = SystemTime::now();
        wait_past_second(killed);
        let booted = SystemTime::now();
        let boot = booted.duration_since(UNIX_EPOCH).unwrap().as_secs();
        self.env.retain(|(k, _)| k != "AGTERM_BACKUP_BOOT_TIME");
        self.env
            .push(("AGTERM_BACKUP_BOOT_TIME".into(), boot.to_string()));
        wait_past_second(booted);
    }

    /// `agterm-backup restore <args>` as the user runs it (their environment, no terminal).
    pub fn restore(&self, args: &[&str]) -> Output {
        Command::new(&self.bin)
            .arg("restore")
            .args(args)
            .env_clear()
            .envs(agterm_backup_testkit::hermetic::places())
            .envs(self.env.iter().map(|(k, v)| (k, v)))
            .current_dir(&self.rig.root)
            .stdin(Stdio::null())
            .output()
            .unwrap()
    }

    /// `restore --terminal zmx --dry-run --json`'s plan (it must succeed and print JSON: one plan per
    /// terminal asked, an array, or the plan itself).
    pub fn dry_run_plan(&self) -> Value {
        let dry = self.restore(&["--terminal", "zmx", "--dry-run", "--json"]);
        let said = || {
            format!(
                "{}{}",
                String::from_utf8_lossy(&dry.stdout),
                String::from_utf8_lossy(&dry.stderr)
            )
        };
        assert!(dry.status.success(), "restore --dry-run: {}", said());
        let plan: Value =
            serde_json::from_slice(&dry.stdout).unwrap_or_else(|e| panic!("{e}: {}", said()));
        plan.as_array()
            .and_then(|a| a.first())
            .cloned()
            .unwrap_or(plan)
    }

    /// The live session's pty process (`zmx list`'s `pid`).
    pub fn session_pid(&self, name: &str) -> Option<u32> {
        self.zmx.session(name)?.get("pid")?.parse().ok()
    }

    /// The agent processes of session `name` running conversation `id` (native binaries, not their node
    /// wrappers): exactly one when the conversation came back once.
    pub fn agents_running(&self, name: &str, agent: &str, id: &str) -> Vec<u32> {
        self.session_pid(name)
            .map(|pid| super::tmux_common::agents_under(pid, agent, id))
            .unwrap_or_default()
    }

    /// Waits until `agent` runs conversation `id` in session `name`; returns its pid.
    pub fn wait_resumed(&self, name: &str, agent: &str, id: &str) -> u32 {
        Tmux::wait_for(
            COMEBACK,
            &format!("{agent} resuming {id} in zmx session {name}"),
            || self.agents_running(name, agent, id).first().copied(),
        )
    }

    /// How many requests the stub model has answered.
    pub fn model_requests(&self) -> usize {
        std::fs::read_to_string(self.rig.root.join("stub-requests.jsonl"))
            .map(|t| t.lines().count())
            .unwrap_or(0)
    }

    pub fn hook_log(&self) -> String {
        std::fs::read_to_string(self.rig.state_dir.join("hook.log")).unwrap_or_default()
    }
}

/// The conversation id of a record.
pub fn id(rec: &Value) -> &str {
    rec["session_id"].as_str().unwrap()
}
