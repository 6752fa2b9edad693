//! The world of the restart suite (`tests/e2e_restart_*.rs`): a throwaway HOME and CODEX_HOME, the stub
//! model, the fake agterm with tmux panes, `agterm-backup installer apply --trust` run for real against
//! all of them, and real agents in its panes (who runs where: [`lineup`]).
//!
//! The agents see their hook through a *copy* of the binary: the installer writes the copy's path into
//! the agents' configs (and Codex trusts that command), then the copy is replaced by a wrapper script
//! ([`observe::HookLog`]) that saves each payload with the pane env it ran in and execs the real binary.
//! So the suite reads the agents' own payloads while the hook runs unchanged.
//!
//! `codex` on the panes' PATH is the native binary (as a Homebrew install has it), not npm's node
//! launcher: agterm matches its denylist on the captured argv[0], which for the npm launcher is `node`,
//! so no denylist entry keeps agterm from replaying a bare npm `codex` (the fake shows `replay`).

pub mod checks;
pub mod flavours;
pub mod lineup;
pub mod observe;

use agterm_backup_core::quote::quote;
use agterm_backup_core::terminal::RestoreMode;
use agterm_backup_testkit::agents::rig::Rig;
use agterm_backup_testkit::agents::{is_running, process_tree};
use agterm_backup_testkit::fake_agterm::{FakeAgterm, FakeConfig, RestartKind};
use agterm_backup_testkit::paths::{agent_cli, agent_cli_dir};
use agterm_backup_testkit::settle::wait_hooks_done;
pub use lineup::AgentPane;
use observe::HookLog;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Duration;

/// How long an agent may take to boot (2 cores, several agents booting at once).
pub const AGENT_START: Duration = agterm_backup_testkit::agents::AGENT_START;
/// How long one model turn (with its hooks) may take.
pub const TURN: Duration = agterm_backup_testkit::agents::TURN;

/// Fields drop in order: the fake agterm (and its panes) before the rig's temp folder.
pub struct World {
    pub fake: FakeAgterm,
    pub rig: Rig,
    pub log: HookLog,
    pub panes: Vec<AgentPane>,
    /// The real `agterm-backup` the wrapper execs.
    pub real_bin: PathBuf,
}

impl World {
    /// Everything up to (not including) the agents: `None` (after a SKIPPED line) without the CLIs.
    pub fn start(version: &str, mode: RestoreMode) -> Option<World> {
        World::start_in(version, mode, None, &[])
    }

    /// [`World::start`] with the panes' login shell (`None`: bash) and extra pane environment.
    pub fn start_in(
        version: &str,
        mode: RestoreMode,
        shell: Option<&str>,
        pane_env: &[(&str, &str)],
    ) -> Option<World> {
        let claude = agent_cli("claude")?;
        agent_cli("codex")?;
        let rig = Rig::new(&lineup::DIRS);
        // The user's own settings before the install: Bash allowed (see AgentHome::write_claude_hooks),
        // Codex pointed at the stub.
        rig.pre_install_config(false);
        let agent_bin = rig.root.join("agent-bin");
        std::fs::create_dir_all(&agent_bin).unwrap();
        std::os::unix::fs::symlink(&claude, agent_bin.join("claude")).unwrap();
        std::os::unix::fs::symlink(native_codex(), agent_bin.join("codex")).unwrap();
        // Gemini, Copilot, Qwen and Kimi as npm installs them: node launchers (where installed; the lineups
        // that run them check for them first).
        let clis = agent_cli_dir().expect("agent CLIs");
        for name in ["gemini", "copilot", "qwen", "opencode", "kimi"] {
            if clis.join(name).exists() {
                std::os::unix::fs::symlink(clis.join(name), agent_bin.join(name)).unwrap();
            }
        }
        let dirs: Vec<PathBuf> = lineup::DIRS.iter().map(|d| rig.root.join(d)).collect();
        let dir_refs: Vec<&Path> = dirs.iter().map(PathBuf::as_path).collect();
        rig.home.seed_more_agents(&dir_refs, None);
        rig.home.seed_opencode(&rig.stub);
        // Kimi Code runs on the Node 22 beside the CLIs (first on PATH there), against the stub.
        let kimi = clis.join("kimi").exists();
        if kimi {
            rig.home.seed_kimi(&dir_refs, None);
        }

        let mut env = rig.home.env(&rig.stub);
        if kimi {
            env.extend(
                rig.home
                    .kimi_env(&rig.stub)
                    .into_iter()
                    .filter(|(k, _)| k != "PATH"),
            );
        }
        for (k, v) in env.iter_mut() {
            if k == "PATH" {
                *v = format!("{}:{v}", agent_bin.display());
            }
        }
        env.push((
            "AGTERM_BACKUP_HOME".into(),
            rig.state_dir.display().to_string(),
        ));
        env.extend(pane_env.iter().map(|(k, v)| (k.to_string(), v.to_string())));
        let mut config = FakeConfig::new(version, mode);
        config.shell = shell.map(String::from);
        for (k, v) in &env {
            config = config.env(k, v);
        }
        let fake = FakeAgterm::start(config);

        let real_bin = PathBuf::from(agterm_backup_testkit::agterm_backup_bin!());
        let copy = rig.root.join("bin/agterm-backup");
        std::fs::create_dir_all(copy.parent().unwrap()).unwrap();
        std::fs::copy(&real_bin, &copy).expect("copy agterm-backup");
        let world_env = env.clone();
        let world = World {
            log: HookLog::new(rig.root.join("hook-calls")),
            fake,
            rig,
            panes: Vec::new(),
            real_bin,
        };
        world.install(&copy, &world_env);
        world.log.install_wrapper(&copy, &world.real_bin);
        Some(world)
    }

    /// `installer apply --trust` for real: HOME, CODEX_HOME and AGTERM_STATE_DIR all in the sandbox, so
    /// the denylist it edits is the one the fake agterm reads at its next launch.
    fn install(&self, copy: &Path, env: &[(String, String)]) {
        let path = env.iter().find(|(k, _)| k == "PATH").unwrap().1.clone();
        let mut apply = Command::new(copy);
        apply
            .args(["installer", "apply", "--trust"])
            .env_clear()
            .envs(agterm_backup_testkit::hermetic::places())
            .env("HOME", &self.rig.home.home)
            .env("CODEX_HOME", &self.rig.home.codex_home)
            .env("AGTERM_STATE_DIR", self.fake.state_dir())
            .env("PATH", &path);
        // The copy was just written (see `output_past_busy_text`).
        let out = agterm_backup_testkit::fds::output_past_busy_text(&mut apply)
            .expect("agterm-backup runs");
        assert!(
            out.status.success(),
            "installer apply --trust failed ({}):\n{}{}",
            out.status,
            text(&out.stdout),
            text(&out.stderr)
        );
        let hook = |agent: &str| format!("{} hook {agent}", quote(&copy.display().to_string()));
        let settings =
            std::fs::read_to_string(self.rig.home.home.join(".claude/settings.json")).unwrap();
        assert!(settings.contains(&json_str(&hook("claude"))), "{settings}");
        assert!(settings.contains("acceptEdits"), "kept: {settings}");
        let config = std::fs::read_to_string(self.rig.home.codex_home.join("config.toml")).unwrap();
        assert!(config.contains(&hook("codex")), "{config}");
        assert!(config.contains("trusted_hash"), "--trust: {config}");
        let denylist = std::fs::read_to_string(self.fake.denylist_path()).unwrap();
        let entries: Vec<&str> = denylist
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .collect();
        for name in ["tmux", "screen", "zellij", "claude", "codex"] {
            assert!(
                entries.contains(&name),
                "{name} in the denylist:\n{denylist}"
            );
        }
    }

    /// A reboot: agterm quits cleanly (an OS shutdown does), then every process dies — the panes (the
    /// fake kills its tmux server) and Codex's app-server daemons, which live in their own session.
    pub fn reboot(&mut self) {
        let pids = self.pane_processes();
        self.fake.end(RestartKind::Reboot);
        // As after a real reboot, nothing of the old panes runs on: each agent gets its hangup's time
        // to report its end (its hook run too), then what is left is killed.
        end_processes(&pids, Duration::from_secs(15));
        wait_hooks_done(&self.rig.root, TURN);
        kill_codex_daemons(&self.rig.home.codex_home);
        self.fake.launch();
    }

    /// Every process of the panes: their shells and all below them.
    fn pane_processes(&self) -> Vec<u32> {
        let out = self
            .fake
            .tmux()
            .cmd(&["list-panes", "-a", "-F", "#{pane_pid}"]);
        String::from_utf8_lossy(&out.stdout)
            .split_whitespace()
            .filter_map(|p| p.parse().ok())
            .flat_map(process_tree)
            .collect()
    }

    /// Waits until every pane of the world sits at its shell prompt, runs [`World::restore`] and
    /// asserts it succeeded; returns its output and the plan.
    pub fn restore_at_prompts(&self) -> (Output, serde_json::Value) {
        for pane in &self.panes {
            self.fake.wait_for_prompt(&pane.session, pane.role);
        }
        let (out, plan) = self.restore();
        assert!(
            out.status.success(),
            "restore --yes failed ({}):\n{}\n{}",
            out.status,
            text(&out.stdout),
            text(&out.stderr)
        );
        (out, plan)
    }

    /// Runs `agterm-backup restore --yes --json` as the user would after agterm is back (outside any pane).
    pub fn restore(&self) -> (Output, serde_json::Value) {
        self.restore_with(&["--yes", "--json"])
    }

    /// Runs `agterm-backup restore <args>` outside any pane; the plan when `--json` is among `args`.
    pub fn restore_with(&self, args: &[&str]) -> (Output, serde_json::Value) {
        let out = Command::new(&self.real_bin)
            .arg("restore")
            .args(args)
            .env_clear()
            .envs(agterm_backup_testkit::hermetic::places())
            .env("PATH", std::env::var("PATH").unwrap_or_default())
            .env("HOME", &self.rig.home.home)
            .env("CODEX_HOME", &self.rig.home.codex_home)
            .env("AGTERM_STATE_DIR", self.fake.state_dir())
            .env("AGTERM_SOCKET", self.fake.socket())
            .env("AGTERM_BACKUP_HOME", &self.rig.state_dir)
            // Managed policy files (`/etc/claude-code`, …) never from the machine.
            .env(
                "AGTERM_BACKUP_SYSTEM_ROOT",
                std::path::Path::new(&&self.rig.state_dir).join("system-root"),
            )
            .env("AGTERM_BACKUP_DIALOG_TIMEOUT_SECS", "15")
            .env("AGTERM_BACKUP_CONFIRM_TIMEOUT_SECS", "30")
            .stdin(std::process::Stdio::null())
            .output()
            .expect("agterm-backup restore runs");
        let plan = serde_json::from_slice(&out.stdout).unwrap_or(serde_json::Value::Null);
        (out, plan)
    }
}

impl Drop for World {
    /// Ends every process the panes started, and the daemons, before the temp folders go: an agent that
    /// outlived its pane would write into (and recreate) the removed folder on its way out.
    fn drop(&mut self) {
        let pids = self.pane_processes();
        self.fake.tmux().kill_server();
        end_processes(&pids, Duration::from_secs(5));
        kill_codex_daemons(&self.rig.home.codex_home);
    }
}

/// Waits up to `grace` for `pids` (the hung-up panes' processes) to exit, then kills those left.
fn end_processes(pids: &[u32], grace: Duration) {
    agterm_backup_testkit::fake_agterm::wait_until(grace, || !pids.iter().any(|p| is_running(*p)));
    for pid in pids.iter().filter(|p| is_running(**p)) {
        // SAFETY: kill has no memory preconditions; the pid is a process of this test's panes.
        unsafe { libc::kill(*pid as i32, libc::SIGKILL) };
    }
}

/// Ends the Codex app-server daemons this test started: those whose `CODEX_HOME` is this test's.
fn kill_codex_daemons(codex_home: &Path) {
    let home = codex_home.display().to_string();
    let ours = |pid: i32| {
        let argv = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
        let env = std::fs::read(format!("/proc/{pid}/environ")).unwrap_or_default();
        String::from_utf8_lossy(&argv).contains("app-server")
            && env
                .split(|b| *b == 0)
                .any(|kv| kv == format!("CODEX_HOME={home}").as_bytes())
    };
    let pids: Vec<i32> = std::fs::read_dir("/proc")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| e.file_name().to_string_lossy().parse::<i32>().ok())
        .filter(|pid| ours(*pid))
        .collect();
    for pid in &pids {
        // SAFETY: kill has no memory preconditions; the pid is a daemon of this test's CODEX_HOME.
        unsafe { libc::kill(*pid, libc::SIGTERM) };
    }
    let gone = |pid: &i32| !std::path::Path::new(&format!("/proc/{pid}")).exists() || !ours(*pid);
    agterm_backup_testkit::fake_agterm::wait_until(Duration::from_secs(5), || {
        pids.iter().all(gone)
    });
    for pid in pids.iter().filter(|p| !gone(p)) {
        // SAFETY: as above.
        unsafe { libc::kill(*pid, libc::SIGKILL) };
    }
}

/// The native Codex binary of the npm package (`@openai/codex-<platform>/vendor/<triple>/bin/codex`).
fn native_codex() -> PathBuf {
    let modules = agent_cli_dir().expect("agent CLIs").join("..");
    for entry in std::fs::read_dir(modules.join("@openai"))
        .expect("@openai")
        .flatten()
    {
        let vendor = entry.path().join("vendor");
        for triple in std::fs::read_dir(&vendor).into_iter().flatten().flatten() {
            let bin = triple.path().join("bin/codex");
            if bin.is_file()
                && bin
                    .metadata()
                    .is_ok_and(|m| m.permissions().mode() & 0o111 != 0)
            {
                return bin.canonicalize().unwrap();
            }
        }
    }
    panic!("no native codex binary under {}", modules.display());
}

pub fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// `s` as it appears inside a JSON string.
fn json_str(s: &str) -> String {
    let quoted = serde_json::to_string(s).unwrap();
    quoted[1..quoted.len() - 1].to_string()
}
