//! The tmux end-to-end rig: a user's tmux server (their config, their environment) on a private socket,
//! the real Claude Code and Codex offline in its panes with agterm-backup's hooks installed by
//! `installer apply`, a "reboot" (`kill-server`), and what a person sees afterwards.

#![allow(dead_code)]

use agterm_backup_core::quote::quote_words;
use agterm_backup_testkit::agents::rig::Rig;
use agterm_backup_testkit::agents::{
    find_descendant, process_tree, type_at_prompt, type_prompt, wait_ready, wait_screen,
    wait_shell_prompt, Agent,
};
use agterm_backup_testkit::tmux::Tmux;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::time::Duration;

pub const AGENT_START: Duration = agterm_backup_testkit::agents::AGENT_START;
pub const TURN: Duration = agterm_backup_testkit::agents::TURN;
/// How long restore (started in the background by the hook line) may take to bring every pane back.
pub const COMEBACK: Duration = Duration::from_secs(180);

/// The user's tmux config before agterm-backup is installed.
/// `PS1=… exec bash`, not `env PS1=… bash`: a new pane is a shell at every step, never an `env` that
/// restore, looking at once, would read as a busy program.
pub const USER_TMUX_CONF: &str =
    "# my tmux\nset -g default-command \"PS1='pane$ ' exec /bin/bash --noprofile --norc -i\"\n\
set -g history-limit 5000\nset -g @resurrect-processes 'ssh \"~tail -f\"'\n";

pub struct TmuxRig {
    pub rig: Rig,
    pub tmux: Tmux,
    pub claude: PathBuf,
    pub codex: PathBuf,
    pub bin: PathBuf,
}

impl TmuxRig {
    /// `None` (after a SKIPPED line) without the real CLIs.
    pub fn new(dirs: &[&str]) -> Option<TmuxRig> {
        let claude = agterm_backup_testkit::paths::agent_cli("claude")?;
        let codex = agterm_backup_testkit::paths::agent_cli("codex")?;
        let rig = Rig::new(dirs);
        let bin = PathBuf::from(agterm_backup_testkit::agterm_backup_bin!());
        std::fs::write(rig.home.home.join(".tmux.conf"), USER_TMUX_CONF).unwrap();
        // Codex runs only hooks it trusts (`apply --trust` trusts ours): the payload logger is Claude's.
        rig.pre_install_config(false);
        rig.home
            .write_claude_hooks(&[agterm_backup_testkit::agents::payload_logger_command(
                &rig.payloads,
            )]);
        let mut env = rig.home.env(&rig.stub);
        env.extend([
            (
                "AGTERM_BACKUP_HOME".into(),
                rig.state_dir.display().to_string(),
            ),
            ("PS1".into(), "pane$ ".into()),
            // A user's UTF-8 locale (tmux writes `_` for tabs and non-ASCII without one).
            ("LANG".into(), "C.UTF-8".into()),
            // Restore runs in the background after the hook line: keep its waits short.
            ("AGTERM_BACKUP_DIALOG_TIMEOUT_SECS".into(), "20".into()),
        ]);
        let tmux = Tmux::as_user(rig.root.join("user.sock"), &env);
        Some(TmuxRig {
            rig,
            tmux,
            claude,
            codex,
            bin,
        })
    }

    pub fn dir(&self, name: &str) -> PathBuf {
        self.rig.root.join(name)
    }

    /// `installer apply` as the user runs it (both agents, Codex's hooks trusted).
    pub fn install(&self) -> String {
        self.rig.install(&self.bin, "claude,codex", true)
    }

    pub fn tmux_conf(&self) -> String {
        std::fs::read_to_string(self.rig.home.home.join(".tmux.conf")).unwrap()
    }

    /// Waits until the shell in `target` is back at its prompt (the cursor's line is the bare prompt).
    /// A detached 200×50 session `name` whose first pane starts in `dir`.
    pub fn new_session(&self, name: &str, dir: &str) {
        self.tmux.ok(&[
            "new-session",
            "-d",
            "-s",
            name,
            "-x",
            "200",
            "-y",
            "50",
            "-c",
            dir,
        ]);
    }

    pub fn wait_prompt(&self, target: &str) {
        wait_shell_prompt(&self.tmux, target, Duration::from_secs(60));
    }

    /// Types the command `line` at the prompt of `target` once the prompt is back.
    pub fn type_line(&self, target: &str, line: &str) {
        type_at_prompt(&self.tmux, target, line);
    }

    /// Types `claude --model sonnet <prompt>` (plus `extra` words first) at the pane's prompt and waits
    /// for the reply.
    pub fn run_claude(&self, target: &str, prompt: &str) {
        let argv = [
            self.claude.display().to_string(),
            "--model".into(),
            "sonnet".into(),
            prompt.into(),
        ];
        self.type_line(target, &quote_words(&argv));
        wait_screen(
            &self.tmux,
            target,
            AGENT_START + TURN,
            "claude's reply",
            |s| s.contains(&format!("stub reply to: {prompt}")),
        );
    }

    /// Quits the Claude of `target` and waits for its shell.
    /// `/exit` in the pane `target` (`session:window.pane`), until its record says the user ended it:
    /// Claude prints its goodbye before the `SessionEnd` hook has written, and a reboot right after the
    /// screen would kill that hook.
    pub fn exit_claude(&self, target: &str) {
        type_prompt(&self.tmux, target, "/exit");
        wait_screen(&self.tmux, target, TURN, "claude's exit", |s| {
            s.contains("Resume this session with:")
        });
        let (session, at) = target.split_once(':').expect("session:window.pane");
        let (window, pane) = at.split_once('.').expect("window.pane");
        let record = self.wait_record(
            session,
            window.parse().unwrap(),
            pane.parse().unwrap(),
            "claude's record",
        );
        self.rig
            .wait_ended(record["session_id"].as_str().unwrap(), TURN);
    }

    /// Starts `codex --no-daemon -m mock-model` at the pane's prompt, sends `prompt`, waits for the reply.
    pub fn run_codex(&self, target: &str, prompt: &str) {
        let argv = [
            self.codex.display().to_string(),
            "--no-daemon".into(),
            "-m".into(),
            "mock-model".into(),
        ];
        self.type_line(target, &quote_words(&argv));
        wait_ready(&self.tmux, target, Agent::Codex, AGENT_START);
        type_prompt(&self.tmux, target, prompt);
        wait_screen(&self.tmux, target, TURN, "codex's reply", |s| {
            s.contains(&format!("stub reply to: {prompt}"))
        });
    }

    /// The state dir's tmux layout files, for a failure's message.
    fn layouts(&self) -> String {
        let dir = self.rig.state_dir.join("tmux");
        std::fs::read_dir(dir)
            .into_iter()
            .flatten()
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().starts_with("layout-"))
            .map(|e| std::fs::read_to_string(e.path()).unwrap_or_default())
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// Every live record in the state dir.
    pub fn records(&self) -> Vec<Value> {
        let live = self.rig.state_dir.join("live");
        let mut out: Vec<Value> = std::fs::read_dir(&live)
            .into_iter()
            .flatten()
            .flatten()
            .filter(|e| {
                let n = e.file_name().to_string_lossy().into_owned();
                n.ends_with(".json") && !n.ends_with(".history.jsonl")
            })
            .filter_map(|e| serde_json::from_slice(&std::fs::read(e.path()).ok()?).ok())
            .collect();
        out.sort_by_key(|r: &Value| r["ts"].as_str().unwrap_or_default().to_string());
        out
    }

    /// The record of tmux pane `session:window.pane` (waiting for it).
    pub fn wait_record(&self, session: &str, window: u32, pane: u32, what: &str) -> Value {
        let start = std::time::Instant::now();
        loop {
            if let Some(r) = self.records().into_iter().find(|r| {
                r["terminal"] == "tmux"
                    && r["tmux"]["session"] == session
                    && r["tmux"]["window"] == window
                    && r["tmux"]["pane"] == pane
            }) {
                return r;
            }
            assert!(
                start.elapsed() < TURN,
                "no record for {session}:{window}.{pane} ({what}); records: {:#?}\nlog: {}",
                self.records(),
                std::fs::read_to_string(self.rig.state_dir.join("hook.log")).unwrap_or_default()
            );
            std::thread::sleep(Duration::from_millis(150));
        }
    }

    /// "Reboot": the server and every process of its panes end.
    pub fn reboot(&self) {
        let out = self.tmux.cmd(&["list-panes", "-a", "-F", "#{pane_pid}"]);
        let pids: Vec<u32> = String::from_utf8_lossy(&out.stdout)
            .split_whitespace()
            .filter_map(|p| p.parse().ok())
            .collect();
        self.tmux.kill_server();
        for pid in pids {
            Tmux::wait_for(
                Duration::from_secs(10),
                "the pane's processes to end",
                || (!Path::new(&format!("/proc/{pid}")).exists()).then_some(()),
            );
        }
        // Agents the shells started may take a moment after SIGHUP, and so may the hooks they started.
        Tmux::wait_for(
            Duration::from_secs(15),
            "the agents and hooks to end",
            || {
                let programs = [
                    self.claude.as_path(),
                    self.codex.as_path(),
                    self.bin.as_path(),
                ];
                (!programs.iter().any(|a| running_under(&self.rig.root, a))).then_some(())
            },
        );
        // A reboot outlasts the second of the last record written before it, and the new server's start
        // (tmux gives whole seconds) is the journal rule's cutoff: end it past that second, or a record
        // written in the second the rebuild starts reads as written after it.
        let newest = self
            .records()
            .iter()
            .filter_map(|r| {
                r["ts"]
                    .as_str()
                    .and_then(|t| t.parse::<chrono::DateTime<chrono::Utc>>().ok())
            })
            .max();
        if let Some(newest) = newest {
            Tmux::wait_for(
                Duration::from_secs(5),
                "the clock past the last record's second",
                || (chrono::Utc::now().timestamp() > newest.timestamp()).then_some(()),
            );
        }
    }

    /// The pane's foreground argv is the agent, resuming `id`.
    pub fn wait_resumed(&self, target: &str, agent: &str, id: &str) {
        let pane_pid: u32 = self
            .tmux
            .ok(&["display-message", "-p", "-t", target, "#{pane_pid}"])
            .parse()
            .unwrap();
        let start = std::time::Instant::now();
        loop {
            let found = find_descendant(pane_pid, agent, true).and_then(|pid| {
                let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).ok()?;
                String::from_utf8_lossy(&cmdline).contains(id).then_some(())
            });
            if found.is_some() {
                return;
            }
            assert!(
                start.elapsed() < COMEBACK,
                "{agent} did not come back resuming {id} in {target} within {COMEBACK:?}; \
                 the pane shows:\n{}\nhook log:\n{}\nrestore log:\n{}\nlayouts:\n{}",
                self.tmux.capture(target, true),
                std::fs::read_to_string(self.rig.state_dir.join("hook.log")).unwrap_or_default(),
                std::fs::read_to_string(self.rig.state_dir.join("tmux/restore.log"))
                    .unwrap_or_default(),
                self.layouts()
            );
            std::thread::sleep(Duration::from_millis(150));
        }
    }

    /// How many resume lines naming `id` were typed at the pane's shell prompt (its scrollback).
    pub fn typed_resume_lines(&self, target: &str, id: &str) -> usize {
        self.tmux
            .capture(target, true)
            .lines()
            .filter(|l| l.contains("pane$") && l.contains("resume") && l.contains(id))
            .count()
    }

    /// How many agent processes in the pane run conversation `id` (the native binaries, not their node
    /// wrappers): exactly one when the conversation came back once.
    pub fn agents_running(&self, target: &str, agent: &str, id: &str) -> usize {
        let pane_pid: u32 = self
            .tmux
            .ok(&["display-message", "-p", "-t", target, "#{pane_pid}"])
            .parse()
            .unwrap();
        agents_under(pane_pid, agent, id).len()
    }

    /// How many requests the stub model has answered (a line typed into an agent's input box and sent
    /// would be one more).
    pub fn model_requests(&self) -> usize {
        std::fs::read_to_string(self.rig.root.join("stub-requests.jsonl"))
            .map(|t| t.lines().count())
            .unwrap_or(0)
    }

    /// Every resume line typed at the pane's prompt, whatever it resumes.
    pub fn any_resume_lines(&self, target: &str) -> usize {
        self.tmux
            .capture(target, true)
            .lines()
            .filter(|l| l.contains("pane$") && l.contains("resume"))
            .count()
    }
}

/// The processes in `root`'s tree (`root` included) that are `agent` running conversation `id`: the
/// native binaries, not their node wrappers nor an agent's fork about to exec (a hook), never a 2nd agent.
pub fn agents_under(root: u32, agent: &str, id: &str) -> Vec<u32> {
    let mut tree = process_tree(root);
    tree.push(root);
    let agents: Vec<u32> = tree
        .into_iter()
        .filter(|pid| {
            let exe = std::fs::read_link(format!("/proc/{pid}/exe")).ok();
            let argv = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
            let argv = String::from_utf8_lossy(&argv).into_owned();
            let argv0 = argv.split('\0').next().unwrap_or_default().to_string();
            let named = Path::new(&argv0).file_name().is_some_and(|n| n == agent)
                || exe
                    .as_ref()
                    .is_some_and(|e| e.file_name().is_some_and(|n| n == agent));
            let node = exe.is_some_and(|e| e.file_name().is_some_and(|n| n == "node"));
            named && !node && argv.contains(id)
        })
        .collect();
    agents
        .iter()
        .copied()
        .filter(|pid| parent_of(*pid).is_none_or(|parent| !agents.contains(&parent)))
        .collect()
}

/// The parent pid of `pid` (`/proc/<pid>/stat`'s fourth field, after the parenthesised name).
fn parent_of(pid: u32) -> Option<u32> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    stat.rsplit_once(") ")?.1.split(' ').nth(1)?.parse().ok()
}

/// Whether a process whose argv mentions `program` runs with its cwd under `root`.
fn running_under(root: &Path, program: &Path) -> bool {
    let name = program.file_name().unwrap().to_string_lossy().into_owned();
    std::fs::read_dir("/proc")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| e.file_name().to_string_lossy().parse::<u32>().ok())
        .any(|pid| {
            let cwd = std::fs::read_link(format!("/proc/{pid}/cwd")).ok();
            let argv = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
            cwd.is_some_and(|c| c.starts_with(root))
                && String::from_utf8_lossy(&argv).contains(&name)
        })
}

/// A git repository in `repo` with one commit and a worktree at `worktree` on branch `feature`.
pub fn git_worktree(repo: &Path, worktree: &Path) {
    let git = |dir: &Path, args: &[&str]| {
        let out = std::process::Command::new("git")
            .args(args)
            .current_dir(dir)
            .env("GIT_AUTHOR_NAME", "t")
            .env("GIT_AUTHOR_EMAIL", "t@example.invalid")
            .env("GIT_COMMITTER_NAME", "t")
            .env("GIT_COMMITTER_EMAIL", "t@example.invalid")
            .output()
            .expect("git runs");
        assert!(
            out.status.success(),
            "git {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    git(repo, &["init", "-q"]);
    git(repo, &["commit", "-q", "--allow-empty", "-m", "start"]);
    git(
        repo,
        &[
            "worktree",
            "add",
            "-q",
            "-b",
            "feature",
            &worktree.display().to_string(),
        ],
    );
}
