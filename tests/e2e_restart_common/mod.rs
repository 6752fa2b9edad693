//! The world of the restart suite (`tests/e2e_restart_*.rs`): a throwaway HOME and CODEX_HOME, the stub
//! model, the fake agterm with tmux panes, `agterm-backup installer apply --trust` run for real against
//! all of them, and five real agents in five panes:
//!
//! | pane          | agterm pane    | started as (typed into the pane's login shell)                  | then          |
//! |---------------|----------------|-----------------------------------------------------------------|---------------|
//! | `main`        | S1 left        | `claude --model sonnet 'it'\''s …'` (prompt argument)           | –             |
//! | `second`      | S1 right       | `cd <second dir> && claude --model opus '…'`                    | –             |
//! | `cd-sub`      | S2 left        | `claude`                                                        | Bash `cd sub` |
//! | `codex-one`   | S2 right       | `cd <codex one> && codex --no-daemon -m mock-model`              | a tool call   |
//! | `codex-two`   | S3 left        | `codex --no-daemon`                                             | a prompt      |
//!
//! The agents see their hook through a *copy* of the binary: the installer writes the copy's path into
//! the agents' configs (and Codex trusts that command), then the copy is replaced by a wrapper script
//! ([`observe::HookLog`]) that saves each payload with the pane it came from and execs the real binary.
//! So the suite reads the agents' own payloads while the hook runs unchanged.
//!
//! `codex` on the panes' PATH is the native binary (as a Homebrew install has it), not npm's node
//! launcher: agterm matches its denylist on the captured argv[0], which for the npm launcher is `node`,
//! so no denylist entry can keep agterm from replaying it (see the report of issue 6).

#![allow(dead_code)]

pub mod observe;

use agterm_backup_core::pane::PaneRole;
use agterm_backup_core::quote::{quote, quote_words};
use agterm_backup_core::terminal::RestoreMode;
use agterm_backup_testkit::agents::rig::Rig;
use agterm_backup_testkit::agents::{type_prompt, wait_ready, Agent};
use agterm_backup_testkit::fake_agterm::{FakeAgterm, FakeConfig};
use agterm_backup_testkit::paths::{agent_cli, agent_cli_dir};
use observe::HookLog;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Duration;

/// How long an agent may take to boot (2 cores, several agents booting at once).
pub const AGENT_START: Duration = Duration::from_secs(90);
/// How long one model turn (with its hooks) may take.
pub const TURN: Duration = Duration::from_secs(90);

/// The project folders (under the rig's root; Claude trusts each).
const MAIN: &str = "main proj";
const SECOND: &str = "second proj";
const THIRD: &str = "third proj";
const THIRD_SUB: &str = "third proj/sub";
const CODEX_ONE: &str = "codex one";
const CODEX_TWO: &str = "codex two";

/// One agent in one pane, and what it must come back as.
#[derive(Debug, Clone)]
pub struct AgentPane {
    pub name: &'static str,
    pub agent: Agent,
    /// `AGTERM_SESSION_ID` of the pane's agterm session.
    pub session: String,
    pub role: PaneRole,
    /// The directory the conversation lives in (what it must resume from).
    pub dir: PathBuf,
    /// The launch flags the resumed agent must carry again.
    pub flags: Vec<String>,
    /// The first prompt (an argument or typed); it must never be sent again.
    pub prompt: String,
    /// The conversation id, once the first turn has run.
    pub id: String,
}

impl AgentPane {
    pub fn agent_name(&self) -> &'static str {
        match self.agent {
            Agent::Claude => "claude",
            Agent::Codex => "codex",
        }
    }
}

pub struct World {
    pub rig: Rig,
    pub fake: FakeAgterm,
    pub log: HookLog,
    pub panes: Vec<AgentPane>,
    /// The real `agterm-backup` the wrapper execs.
    pub real_bin: PathBuf,
}

impl World {
    /// Everything up to (not including) the agents: `None` (after a SKIPPED line) without the CLIs.
    pub fn start(version: &str, mode: RestoreMode) -> Option<World> {
        let claude = agent_cli("claude")?;
        agent_cli("codex")?;
        let rig = Rig::new(&[MAIN, SECOND, THIRD, THIRD_SUB, CODEX_ONE, CODEX_TWO]);
        // The user's own settings before the install: Bash allowed (see AgentHome::write_claude_hooks),
        // Codex pointed at the stub.
        rig.pre_install_config(false);
        quiet_claude_offers(&rig.home.home.join(".claude.json"));
        let agent_bin = rig.root.join("agent-bin");
        std::fs::create_dir_all(&agent_bin).unwrap();
        std::os::unix::fs::symlink(&claude, agent_bin.join("claude")).unwrap();
        std::os::unix::fs::symlink(native_codex(), agent_bin.join("codex")).unwrap();

        let mut env = rig.home.env(&rig.stub);
        for (k, v) in env.iter_mut() {
            if k == "PATH" {
                *v = format!("{}:{v}", agent_bin.display());
            }
        }
        env.push((
            "AGTERM_BACKUP_HOME".into(),
            rig.state_dir.display().to_string(),
        ));
        let mut config = FakeConfig::new(version, mode);
        for (k, v) in &env {
            config = config.env(k, v);
        }
        let fake = FakeAgterm::start(config);

        let real_bin = PathBuf::from(env!("CARGO_BIN_EXE_agterm-backup"));
        let copy = rig.root.join("bin/agterm-backup");
        std::fs::create_dir_all(copy.parent().unwrap()).unwrap();
        std::fs::copy(&real_bin, &copy).expect("copy agterm-backup");
        let world_env = env.clone();
        let world = World {
            log: HookLog::new(rig.root.join("hook-calls")),
            rig,
            fake,
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
        let out = Command::new(copy)
            .args(["installer", "apply", "--trust"])
            .env_clear()
            .env("HOME", &self.rig.home.home)
            .env("CODEX_HOME", &self.rig.home.codex_home)
            .env("AGTERM_STATE_DIR", self.fake.state_dir())
            .env("PATH", path)
            .output()
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

    fn dir(&self, name: &str) -> PathBuf {
        self.rig.root.join(name)
    }

    /// Opens the three agterm sessions and starts the five agents, each with its first turn, and waits
    /// until every pane's hook has recorded its conversation.
    pub fn start_agents(&mut self) {
        let fake = &self.fake;
        let s1 = fake.add_session(None, None, &self.dir(MAIN), true);
        let s2 = fake.add_session(None, None, &self.dir(THIRD), true);
        let s3 = fake.add_session(None, None, &self.dir(CODEX_TWO), false);
        let root = self.rig.root.clone();
        let pane =
            |name, agent, session: &str, role, dir: &str, flags: &[&str], prompt: &str| AgentPane {
                name,
                agent,
                session: session.to_string(),
                role,
                dir: root.join(dir),
                flags: flags.iter().map(|f| f.to_string()).collect(),
                prompt: prompt.to_string(),
                id: String::new(),
            };
        self.panes = vec![
            pane(
                "main",
                Agent::Claude,
                &s1.id,
                PaneRole::Left,
                MAIN,
                &["--model", "sonnet"],
                "it's the main pane",
            ),
            pane(
                "second",
                Agent::Claude,
                &s1.id,
                PaneRole::Right,
                SECOND,
                &["--model", "opus"],
                "hello from the second pane",
            ),
            pane(
                "cd-sub",
                Agent::Claude,
                &s2.id,
                PaneRole::Left,
                THIRD,
                &[],
                "please RUN:cd sub && pwd",
            ),
            pane(
                "codex-one",
                Agent::Codex,
                &s2.id,
                PaneRole::Right,
                CODEX_ONE,
                &["--no-daemon", "-m", "mock-model"],
                "codex one USE_TOOL",
            ),
            pane(
                "codex-two",
                Agent::Codex,
                &s3.id,
                PaneRole::Left,
                CODEX_TWO,
                &["--no-daemon"],
                "codex two says hi",
            ),
        ];
        // Claude panes with a prompt argument take it at once; the others get it typed once ready.
        let typed_prompt = |p: &AgentPane| p.name != "main" && p.name != "second";
        for p in &self.panes {
            let mut argv = vec![p.agent_name().to_string()];
            argv.extend(p.flags.iter().cloned());
            if !typed_prompt(p) {
                argv.push(p.prompt.clone());
            }
            let cd = if p.dir == self.dir(self.session_dir(p)) {
                String::new()
            } else {
                format!("cd {} && ", quote(&p.dir.display().to_string()))
            };
            self.fake
                .send_keys(&p.session, p.role, &format!("{cd}{}\n", quote_words(&argv)));
        }
        for p in self.panes.iter().filter(|p| typed_prompt(p)) {
            let tmux_pane = self.fake.pane_tmux_id(&p.session, p.role);
            wait_ready(self.fake.tmux(), &tmux_pane, p.agent, AGENT_START);
            type_prompt(self.fake.tmux(), &tmux_pane, &p.prompt);
        }
        for i in 0..self.panes.len() {
            let p = self.panes[i].clone();
            let sub = self.dir(THIRD_SUB).display().to_string();
            let stop = self
                .log
                .wait(TURN, &format!("{}'s first Stop", p.name), |c| {
                    c.from(&p)
                        && c.event() == "Stop"
                        && (p.name != "cd-sub" || c.payload["cwd"] == sub.as_str())
                });
            self.panes[i].id = stop.payload["session_id"]
                .as_str()
                .expect("session_id")
                .to_string();
        }
    }

    /// The directory the pane's agterm session was opened in.
    fn session_dir(&self, p: &AgentPane) -> &'static str {
        match p.name {
            "main" | "second" => MAIN,
            "cd-sub" | "codex-one" => THIRD,
            _ => CODEX_TWO,
        }
    }

    /// Runs `agterm-backup restore --yes --json` as the user would after agterm is back (outside any pane).
    pub fn restore(&self) -> (Output, serde_json::Value) {
        let out = Command::new(&self.real_bin)
            .args(["restore", "--yes", "--json"])
            .env_clear()
            .env("PATH", std::env::var("PATH").unwrap_or_default())
            .env("HOME", &self.rig.home.home)
            .env("CODEX_HOME", &self.rig.home.codex_home)
            .env("AGTERM_STATE_DIR", self.fake.state_dir())
            .env("AGTERM_SOCKET", self.fake.socket())
            .env("AGTERM_BACKUP_HOME", &self.rig.state_dir)
            .env("AGTERM_BACKUP_DIALOG_TIMEOUT_SECS", "15")
            .env("AGTERM_BACKUP_CONFIRM_TIMEOUT_SECS", "30")
            .stdin(std::process::Stdio::null())
            .output()
            .expect("agterm-backup restore runs");
        let plan = serde_json::from_slice(&out.stdout).unwrap_or(serde_json::Value::Null);
        (out, plan)
    }
}

/// Marks Claude's "make auto mode your default?" offer as seen: with `defaultMode: acceptEdits` in the
/// user settings, 2.1.328 shows it at some startups (once several sessions share a HOME), and it takes
/// the keys a typed prompt is made of.
fn quiet_claude_offers(claude_json: &Path) {
    let mut state: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(claude_json).unwrap()).unwrap();
    state["hasSeenAutoDefaultNudge"] = serde_json::json!(true);
    std::fs::write(claude_json, serde_json::to_string_pretty(&state).unwrap()).unwrap();
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
