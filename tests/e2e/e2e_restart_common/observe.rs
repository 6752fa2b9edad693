//! What the restart suite looks at: the agents' own hook payloads (saved by a wrapper around the hook
//! binary, with the pane each came from), the resumed agents' processes (argv and cwd from /proc), and
//! the conversation each belongs to.

use super::{AgentPane, World};
use agterm_backup_core::process::agent_args;
use agterm_backup_core::quote::quote;
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

    /// The submitted prompt's text: a string, or Kimi's content parts (`[{"type":"text","text":…}]`).
    pub fn prompt(&self) -> Option<String> {
        match &self.payload["prompt"] {
            Value::String(s) => Some(s.clone()),
            Value::Array(parts) => Some(parts.iter().filter_map(|p| p["text"].as_str()).collect()),
            _ => None,
        }
    }

    /// Whether the hook ran with `pane`'s agterm environment (`AGTERM_SESSION_ID`, `AGTERM_PANE`). Under
    /// Codex's daemon that is the daemon's environment, which may be another pane's.
    pub fn env_of(&self, pane: &AgentPane) -> bool {
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

/// Waits until the pane's foreground is `pane`'s agent running its conversation id; returns it.
pub fn wait_resumed_process(world: &World, pane: &AgentPane, timeout: Duration) -> AgentProcess {
    let mut last = None;
    let found = wait_until(timeout, || {
        last = world
            .fake
            .foreground_pid(&pane.session, pane.role)
            .and_then(process);
        last.as_ref().is_some_and(|p| {
            super::checks::renamed(pane, &p.argv)
                || agent_args(pane.spec(), &p.argv)
                    .is_some_and(|args| args.iter().any(|w| w.ends_with(pane.id.as_str())))
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
