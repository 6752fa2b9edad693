//! Running the real Claude Code and Codex CLIs offline in tmux panes: a throwaway `HOME`/`CODEX_HOME`
//! wired to the [stub model](crate::stub_model), hooks written into their config, agterm's pane
//! environment, and typing prompts into their input boxes.
//!
//! The facts behind this (what `.claude.json` must hold for a dialog-free start, Codex's mock provider)
//! are in `research/agent-clis-offline.md`.

mod agy;
mod drive;
mod kimi;
mod more;
pub mod rig;

pub use agy::FAKE_AGY;
pub use drive::{
    find_descendant, is_running, poll_until, process_tree, run_cli, start_in_pane, start_in_split,
    submit_until, type_at_prompt, type_prompt, type_quit, wait_ready, wait_screen,
    wait_shell_prompt, Agent, ENTER_AFTER_KEYS, PANE_PROMPT,
};
pub use kimi::{kimi_path, node22_dir, run_kimi, work_dir_key};
pub use more::copilot_cache;

use crate::stub_model::StubModel;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The most an agent's TUI may take to show its input box, and a turn against the stub model to end. These
/// bound waits on states (an input box drawn, a hook logged), so a passing test never waits them out;
/// they are generous because a node CLI starting on a 2-core machine busy compiling can take a minute.
pub const AGENT_START: Duration = Duration::from_secs(120);
/// See [`AGENT_START`].
pub const TURN: Duration = Duration::from_secs(120);

/// The fake API key both CLIs are given; Claude approves it by its last 20 characters.
pub const API_KEY: &str = "sk-ant-agterm-backup-stub-0123456789";
/// The hook events agterm-backup captures (the installer's `OUR_EVENTS`).
pub const HOOK_EVENTS: [&str; 5] = [
    "SessionStart",
    "UserPromptSubmit",
    "PreToolUse",
    "Stop",
    "SessionEnd",
];

/// A throwaway home for both agents: `<root>/home` (Claude's `HOME`) and `<root>/codex-home`
/// (`CODEX_HOME`).
pub struct AgentHome {
    pub home: PathBuf,
    pub codex_home: PathBuf,
    trusted: Vec<PathBuf>,
}

impl AgentHome {
    /// Creates the folders and a `.claude.json` with onboarding done, the key approved and `trusted_dirs`
    /// trusted (given as absolute paths; symlinks are resolved as Claude does).
    pub fn new(root: &Path, trusted_dirs: &[&Path]) -> AgentHome {
        let home = root.join("home");
        let codex_home = root.join("codex-home");
        std::fs::create_dir_all(home.join(".claude")).expect("create HOME/.claude");
        std::fs::create_dir_all(&codex_home).expect("create CODEX_HOME");
        let mut agent_home = AgentHome {
            home,
            codex_home,
            trusted: Vec::new(),
        };
        for dir in trusted_dirs {
            agent_home.trust_claude_dir(dir);
        }
        if trusted_dirs.is_empty() {
            agent_home.write_claude_json();
        }
        agent_home
    }

    /// Adds `dir` to the folders Claude trusts without asking.
    pub fn trust_claude_dir(&mut self, dir: &Path) {
        let real = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
        self.trusted.push(real);
        self.write_claude_json();
    }

    fn write_claude_json(&self) {
        let projects: serde_json::Map<String, Value> = self
            .trusted
            .iter()
            .map(|d| {
                let entry =
                    json!({"hasTrustDialogAccepted": true, "hasCompletedProjectOnboarding": true});
                (d.display().to_string(), entry)
            })
            .collect();
        let key_tail: String = API_KEY.chars().skip(API_KEY.chars().count() - 20).collect();
        let state = json!({
            "hasCompletedOnboarding": true,
            "lastOnboardingVersion": "2.1.332",
            "numStartups": 1,
            // With `defaultMode: acceptEdits`, 2.1.328 may offer "make auto mode your default?" at a
            // startup once several sessions share a HOME; the offer eats the keys of a typed prompt.
            "hasSeenAutoDefaultNudge": true,
            "customApiKeyResponses": {"approved": [key_tail], "rejected": []},
            "projects": projects,
        });
        write_json(&self.home.join(".claude.json"), &state);
    }

    /// `~/.claude/settings.json` with one group per captured event, running each of `commands`, and
    /// permissions that let the Bash tool run without asking: 2.1.328 starts in auto mode, which sends
    /// commands it deems risky (running another `claude`, say) to a server-side safety check the stub
    /// cannot give, and then stops the turn with a dialog. `acceptEdits` plus an allow rule avoids that.
    pub fn write_claude_hooks(&self, commands: &[String]) {
        let settings = json!({
            "permissions": {"allow": ["Bash"], "defaultMode": "acceptEdits"},
            "hooks": hook_groups(commands),
        });
        write_json(&self.home.join(".claude/settings.json"), &settings);
    }

    /// `$CODEX_HOME/config.toml`: the mock provider pointing at `stub`, and one `[[hooks.<Event>]]` group
    /// per captured event running each of `commands` (they still need trust, or
    /// `--dangerously-bypass-hook-trust` on the command line).
    pub fn write_codex_config(&self, stub: &StubModel, commands: &[String]) {
        let mut toml = format!(
            "model = \"mock-model\"\nmodel_provider = \"mock\"\ncheck_for_update_on_startup = false\n\n\
             [model_providers.mock]\nname = \"Mock\"\nbase_url = \"{}/v1\"\nwire_api = \"responses\"\n\
             env_key = \"MOCK_API_KEY\"\nrequest_max_retries = 0\nstream_max_retries = 0\n\n\
             [analytics]\nenabled = false\n",
            stub.base_url()
        );
        for event in HOOK_EVENTS.iter().filter(|_| !commands.is_empty()) {
            toml.push_str(&format!("\n[[hooks.{event}]]\n"));
            for command in commands {
                toml.push_str(&format!(
                    "[[hooks.{event}.hooks]]\ntype = \"command\"\ncommand = {}\ntimeout = 10\n",
                    toml_string(command)
                ));
            }
        }
        std::fs::write(self.codex_home.join("config.toml"), toml).expect("write config.toml");
    }

    /// The environment that makes both CLIs run offline against `stub` with this home, with the agent
    /// CLIs first on `PATH` (a resume line names the agent bare, as a user's shell finds it).
    pub fn env(&self, stub: &StubModel) -> Vec<(String, String)> {
        let mut path = std::env::var("PATH").unwrap_or_else(|_| "/usr/bin:/bin".into());
        if let Some(dir) = crate::paths::agent_cli_dir() {
            path = format!("{}:{path}", dir.display());
        }
        [
            ("HOME", self.home.display().to_string()),
            ("CODEX_HOME", self.codex_home.display().to_string()),
            ("ANTHROPIC_BASE_URL", stub.base_url()),
            ("ANTHROPIC_API_KEY", API_KEY.to_string()),
            ("MOCK_API_KEY", "stub".to_string()),
            ("DISABLE_AUTOUPDATER", "1".to_string()),
            ("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1".to_string()),
            ("PATH", path),
            ("TERM", "xterm-256color".to_string()),
            ("SHELL", "/bin/bash".to_string()),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .chain(self.private_dirs())
        .chain(self.more_agents_env(stub))
        .collect()
    }

    /// `TMPDIR`, tmux's default socket folder and the XDG folders, inside this home: the agents write their daemons' sockets, compile
    /// caches and state there (Codex's `codex-daemon-<uid>`, node's compile cache, opencode's data),
    /// never in the machine's `/tmp` or the user's `~/.config`, and a [`crate::scratch::ScratchDir`] finds
    /// a detached daemon by them.
    fn private_dirs(&self) -> Vec<(String, String)> {
        crate::hermetic::home_places(&self.home)
    }

    /// Claude's projects folder (`~/.claude/projects`).
    pub fn claude_projects(&self) -> PathBuf {
        self.home.join(".claude/projects")
    }

    /// Every Claude transcript (`projects/<slug>/<id>.jsonl`), sorted.
    pub fn claude_transcripts(&self) -> Vec<PathBuf> {
        let mut found = Vec::new();
        for project in read_dir(&self.claude_projects()) {
            found.extend(
                read_dir(&project)
                    .into_iter()
                    .filter(|f| f.extension().is_some_and(|e| e == "jsonl")),
            );
        }
        found.sort();
        found
    }

    /// Every Codex rollout (`sessions/YYYY/MM/DD/rollout-*.jsonl`), sorted.
    pub fn codex_rollouts(&self) -> Vec<PathBuf> {
        let mut level = vec![self.codex_home.join("sessions")];
        for _ in 0..3 {
            level = level.iter().flat_map(|d| read_dir(d)).collect();
        }
        let mut found: Vec<PathBuf> = level
            .into_iter()
            .flat_map(|d| read_dir(&d))
            .filter(|f| {
                f.file_name()
                    .is_some_and(|n| n.to_string_lossy().starts_with("rollout-"))
            })
            .collect();
        found.sort();
        found
    }
}

fn read_dir(dir: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(dir)
        .map(|it| it.flatten().map(|e| e.path()).collect())
        .unwrap_or_default()
}

fn write_json(path: &Path, value: &Value) {
    let text = serde_json::to_string_pretty(value).expect("serialize");
    std::fs::write(path, text).unwrap_or_else(|e| panic!("write {}: {e}", path.display()));
}

fn hook_groups(commands: &[String]) -> Value {
    let handlers: Vec<Value> = commands
        .iter()
        .map(|c| json!({"type": "command", "command": c, "timeout": 10}))
        .collect();
    HOOK_EVENTS
        .iter()
        .filter(|_| !commands.is_empty())
        .map(|event| {
            (
                event.to_string(),
                json!([{"matcher": "", "hooks": handlers}]),
            )
        })
        .collect::<serde_json::Map<String, Value>>()
        .into()
}

/// A TOML basic string (JSON string escapes are valid TOML ones for the characters a path has).
fn toml_string(s: &str) -> String {
    serde_json::to_string(s).expect("string")
}

/// The hook command that appends each payload (as the agent sent it) to `file`: a second handler next to the
/// real one, so a test sees what the agent sent without changing the real hook's process tree.
pub fn payload_logger_command(file: &Path) -> String {
    format!(
        "cat >> {}",
        agterm_backup_core::quote::quote(&file.display().to_string())
    )
}

/// Reads the payloads a [`payload_logger_command`] wrote: JSON objects back to back (Claude ends each
/// payload with a newline, Codex does not).
pub fn read_payloads(file: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(file).unwrap_or_default();
    serde_json::Deserializer::from_str(&text)
        .into_iter::<Value>()
        .map_while(Result::ok)
        .collect()
}

/// agterm's environment for one pane (what agterm exports into the pane's shell).
#[derive(Debug, Clone)]
pub struct AgtermPane {
    pub session_id: String,
    /// `left` or `right`.
    pub role: String,
    pub pane_id: String,
    /// `AGTERM_SOCKET` (a path nothing listens on is fine: the hook's pin then fails quietly).
    pub socket: PathBuf,
    /// `AGTERM_BACKUP_HOME`, the state dir the hook writes into.
    pub state_dir: PathBuf,
}

impl AgtermPane {
    pub fn env(&self) -> Vec<(String, String)> {
        vec![
            ("AGTERM_SESSION_ID".into(), self.session_id.clone()),
            ("AGTERM_PANE".into(), self.role.clone()),
            ("AGTERM_PANE_ID".into(), self.pane_id.clone()),
            ("AGTERM_SOCKET".into(), self.socket.display().to_string()),
            (
                "AGTERM_BACKUP_HOME".into(),
                self.state_dir.display().to_string(),
            ),
        ]
    }

    /// `<state>/live/<SESSION>-<role>.json`.
    pub fn record_path(&self) -> PathBuf {
        self.state_dir.join("live").join(format!(
            "{}-{}.json",
            self.session_id.to_uppercase(),
            self.role
        ))
    }

    /// `<state>/live/<SESSION>-<role>.history.jsonl`.
    pub fn journal_path(&self) -> PathBuf {
        self.state_dir.join("live").join(format!(
            "{}-{}.history.jsonl",
            self.session_id.to_uppercase(),
            self.role
        ))
    }

    /// The pane's live record, if there is one that parses.
    pub fn record(&self) -> Option<Value> {
        serde_json::from_slice(&std::fs::read(self.record_path()).ok()?).ok()
    }

    /// The pane's journal (panics when there is none: the tests read it after a record was written).
    pub fn journal(&self) -> String {
        let path = self.journal_path();
        std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("no journal at {}: {e}", path.display()))
    }
}

/// Waits until the file at `path` (a transcript or rollout, which agents write asynchronously)
/// contains every one of `needles`.
pub fn wait_file_holds_all(path: &Path, timeout: Duration, what: &str, needles: &[&str]) {
    crate::tmux::Tmux::wait_for(timeout, what, || {
        let text = std::fs::read_to_string(path).unwrap_or_default();
        needles.iter().all(|n| text.contains(n)).then_some(())
    });
}
