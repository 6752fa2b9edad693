//! What the restart suite looks at: the agents' own hook payloads (saved by a wrapper around the hook
//! binary, with the pane each came from), the resumed agents' processes (argv and cwd from /proc), and
//! the assertions every flavour shares.

use super::{AgentPane, World, AGENT_START, TURN};
use agterm_backup_core::pane::PaneKey;
use agterm_backup_core::quote::quote;
use agterm_backup_core::state::StateDir;
use agterm_backup_testkit::agents::{type_prompt, wait_ready, wait_screen, Agent};
use agterm_backup_testkit::fake_agterm::wait_until;
use serde_json::Value;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// One run of the hook: the payload the agent sent and the agterm pane in the hook's environment.
#[derive(Debug, Clone)]
pub struct HookCall {
    /// Position in the log (calls are numbered in the order they started).
    pub seq: usize,
    /// `{"agent","agterm_session","role","pane_id"}` from the hook's argv and environment.
    pub meta: Value,
    pub payload: Value,
}

impl HookCall {
    pub fn event(&self) -> &str {
        self.payload["hook_event_name"].as_str().unwrap_or("")
    }

    /// Whether the hook ran in `pane`'s agterm pane (its `AGTERM_SESSION_ID` and `AGTERM_PANE`).
    pub fn from(&self, pane: &AgentPane) -> bool {
        self.meta["agterm_session"]
            .as_str()
            .is_some_and(|s| s.eq_ignore_ascii_case(&pane.session))
            && self.meta["role"] == pane.role.as_str()
    }
}

/// The folder of hook calls the wrapper writes: `<ns>-<pid>.meta` then `<ns>-<pid>.json`.
pub struct HookLog {
    dir: PathBuf,
}

impl HookLog {
    pub fn new(dir: PathBuf) -> HookLog {
        std::fs::create_dir_all(&dir).unwrap();
        HookLog { dir }
    }

    /// Replaces `copy` (the binary the installer named in the agents' configs) with a script that saves
    /// each hook payload and the pane it came from, then execs `real` with the payload on stdin.
    pub fn install_wrapper(&self, copy: &Path, real: &Path) {
        let dir = quote(&self.dir.display().to_string());
        let real = quote(&real.display().to_string());
        let script = format!(
            "#!/bin/sh\n# agterm-backup's restart suite: log the payload, then run the real hook.\n\
             if [ \"$1\" = hook ]; then\n\
             \x20 f={dir}/$(date +%s%N)-$$\n\
             \x20 printf '{{\"agent\":\"%s\",\"agterm_session\":\"%s\",\"role\":\"%s\",\"pane_id\":\"%s\"}}\\n' \
             \"$2\" \"$AGTERM_SESSION_ID\" \"$AGTERM_PANE\" \"$AGTERM_PANE_ID\" > \"$f.meta\"\n\
             \x20 cat > \"$f.part\" && mv \"$f.part\" \"$f.json\"\n\
             \x20 exec {real} \"$@\" < \"$f.json\"\n\
             fi\n\
             exec {real} \"$@\"\n"
        );
        let tmp = copy.with_extension("new");
        std::fs::write(&tmp, script).unwrap();
        std::fs::set_permissions(&tmp, std::fs::Permissions::from_mode(0o755)).unwrap();
        std::fs::rename(&tmp, copy).unwrap();
    }

    /// Every finished call so far, in the order they started.
    pub fn calls(&self) -> Vec<HookCall> {
        let mut names: Vec<String> = std::fs::read_dir(&self.dir)
            .unwrap()
            .flatten()
            .filter_map(|e| {
                e.file_name()
                    .to_str()?
                    .strip_suffix(".json")
                    .map(String::from)
            })
            .collect();
        names.sort();
        names
            .iter()
            .enumerate()
            .map(|(seq, name)| {
                let read = |ext: &str| {
                    let text = std::fs::read_to_string(self.dir.join(format!("{name}.{ext}")))
                        .unwrap_or_default();
                    serde_json::from_str(text.trim()).unwrap_or(Value::Null)
                };
                HookCall {
                    seq,
                    meta: read("meta"),
                    payload: read("json"),
                }
            })
            .collect()
    }

    /// Waits until a call satisfies `pred`; panics with every call on timeout.
    pub fn wait(
        &self,
        timeout: Duration,
        what: &str,
        pred: impl Fn(&HookCall) -> bool,
    ) -> HookCall {
        let mut found = None;
        wait_until(timeout, || {
            found = self.calls().into_iter().find(&pred);
            found.is_some()
        });
        found.unwrap_or_else(|| {
            panic!(
                "timed out after {timeout:?} waiting for {what}; hook calls:\n{}",
                self.dump()
            )
        })
    }

    /// One line per call, for failure messages.
    pub fn dump(&self) -> String {
        self.calls()
            .iter()
            .map(|c| {
                format!(
                    "#{} {} {}/{} {} source={} id={} cwd={} prompt={}",
                    c.seq,
                    c.meta["agent"],
                    c.meta["agterm_session"],
                    c.meta["role"],
                    c.event(),
                    c.payload["source"],
                    c.payload["session_id"],
                    c.payload["cwd"],
                    c.payload["prompt"]
                )
            })
            .collect::<Vec<_>>()
            .join("\n")
    }
}

/// An agent process: its argv and cwd from /proc.
#[derive(Debug, Clone)]
pub struct AgentProcess {
    pub pid: u32,
    pub argv: Vec<String>,
    pub cwd: PathBuf,
}

fn process(pid: u32) -> Option<AgentProcess> {
    let raw = std::fs::read(format!("/proc/{pid}/cmdline")).ok()?;
    let argv = raw
        .split(|b| *b == 0)
        .filter(|a| !a.is_empty())
        .map(|a| String::from_utf8_lossy(a).into_owned())
        .collect();
    let cwd = std::fs::read_link(format!("/proc/{pid}/cwd")).ok()?;
    Some(AgentProcess { pid, argv, cwd })
}

fn basename(word: &str) -> &str {
    word.rsplit('/').next().unwrap_or(word)
}

/// Waits until the pane's foreground is `pane`'s agent running its conversation id; returns it.
pub fn wait_resumed_process(world: &World, pane: &AgentPane, timeout: Duration) -> AgentProcess {
    let mut last = None;
    let found = wait_until(timeout, || {
        last = world
            .fake
            .foreground_pid(&pane.session, pane.role)
            .and_then(process);
        last.as_ref().is_some_and(|p| {
            p.argv
                .first()
                .is_some_and(|a| basename(a) == pane.agent_name())
                && p.argv.iter().any(|w| w == &pane.id)
        })
    });
    assert!(
        found,
        "{}: the pane never ran `{} … {}`; foreground {last:?}\nscreen:\n{}",
        pane.name,
        pane.agent_name(),
        pane.id,
        world.fake.screen(&pane.session, pane.role)
    );
    last.unwrap()
}

/// The resumed agent runs its own conversation with its launch flags, in its directory, without its old
/// prompt: argv is exactly `<agent> <resume grammar> <id> <flags…>`.
pub fn assert_process(pane: &AgentPane, proc_: &AgentProcess) {
    let grammar = match pane.agent {
        Agent::Claude => "--resume",
        Agent::Codex => "resume",
    };
    let mut want = vec![grammar.to_string(), pane.id.clone()];
    want.extend(pane.flags.iter().cloned());
    assert_eq!(
        &proc_.argv[1..],
        want.as_slice(),
        "{}: argv of the resumed agent (pid {})",
        pane.name,
        proc_.pid
    );
    assert!(
        !proc_.argv.iter().any(|w| w.contains(&pane.prompt)),
        "{}: the old prompt is replayed: {:?}",
        pane.name,
        proc_.argv
    );
    assert_eq!(proc_.cwd, pane.dir, "{}: the agent's cwd", pane.name);
}

/// Codex fires SessionStart lazily: one prompt after the resume, answered.
pub fn codex_prompt_after_resume(world: &World, pane: &AgentPane) {
    let tmux_pane = world.fake.pane_tmux_id(&pane.session, pane.role);
    wait_ready(world.fake.tmux(), &tmux_pane, Agent::Codex, AGENT_START);
    let prompt = format!("after the restart {}", pane.name);
    type_prompt(world.fake.tmux(), &tmux_pane, &prompt);
    let reply = format!("stub reply to: {prompt}");
    wait_screen(world.fake.tmux(), &tmux_pane, TURN, &reply, |s| {
        s.contains(&reply)
    });
}

/// The resumed agent's own SessionStart (after `mark`): `source: "resume"`, the pane's original id, its
/// directory, from its own pane.
pub fn assert_resumed_session_start(world: &World, pane: &AgentPane, mark: usize) -> HookCall {
    let start = world.log.wait(
        TURN,
        &format!("{}'s resumed SessionStart", pane.name),
        |c| c.seq >= mark && c.from(pane) && c.event() == "SessionStart",
    );
    assert_eq!(
        start.payload["source"], "resume",
        "{}: {}",
        pane.name, start.payload
    );
    assert_eq!(
        start.payload["session_id"],
        pane.id.as_str(),
        "{}: {}",
        pane.name,
        start.payload
    );
    assert_eq!(
        start.payload["cwd"],
        pane.dir.display().to_string().as_str(),
        "{}: {}",
        pane.name,
        start.payload
    );
    start
}

/// After `mark`: every hook call came from a pane running that pane's own conversation, no conversation
/// started (`startup`/`clear`), and no old prompt was sent again.
pub fn assert_only_own_conversations(world: &World, mark: usize) {
    for call in world.log.calls().into_iter().filter(|c| c.seq >= mark) {
        let owner = world
            .panes
            .iter()
            .find(|p| call.from(p))
            .unwrap_or_else(|| {
                panic!(
                    "a hook call from no agent pane: {:?}\n{}",
                    call,
                    world.log.dump()
                )
            });
        assert_eq!(
            call.payload["session_id"],
            owner.id.as_str(),
            "{} runs another conversation:\n{}",
            owner.name,
            world.log.dump()
        );
        if call.event() == "SessionStart" {
            assert_eq!(
                call.payload["source"],
                "resume",
                "{}:\n{}",
                owner.name,
                world.log.dump()
            );
        }
        if let Some(prompt) = call.payload["prompt"].as_str() {
            assert!(
                !world.panes.iter().any(|p| prompt.contains(&p.prompt)),
                "an old prompt was sent again in {}: {prompt:?}",
                owner.name
            );
        }
    }
}

/// The pane's live record names its conversation and directory (the hook kept up across the restart).
pub fn assert_record(world: &World, pane: &AgentPane) {
    let state = StateDir::at(&world.rig.state_dir);
    let key = PaneKey::new(&pane.session, pane.role).expect("pane key");
    let path = state.record_path(&key);
    let record: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap_or_default())
        .unwrap_or_else(|e| panic!("{}: no record at {} ({e})", pane.name, path.display()));
    assert_eq!(
        record["session_id"],
        pane.id.as_str(),
        "{}: {record}",
        pane.name
    );
    assert_eq!(
        record["agent_cwd"],
        pane.dir.display().to_string().as_str(),
        "{}: {record}",
        pane.name
    );
}

/// Waits until every pane's hook has written its record (the restore needs them).
pub fn wait_records(world: &World) {
    let state = StateDir::at(&world.rig.state_dir);
    for pane in &world.panes {
        let key = PaneKey::new(&pane.session, pane.role).expect("pane key");
        let path = state.record_path(&key);
        let ok = wait_until(TURN, || {
            std::fs::read_to_string(&path)
                .ok()
                .and_then(|t| serde_json::from_str::<Value>(&t).ok())
                .is_some_and(|r| r["session_id"] == pane.id.as_str())
        });
        assert!(
            ok,
            "{}: the hook wrote no record for {} at {}; hook log: {}",
            pane.name,
            pane.id,
            path.display(),
            std::fs::read_to_string(state.log_path()).unwrap_or_default()
        );
    }
}
