//! The I/O side of daemon attribution: is the hook under the daemon, which TUIs are attached to it,
//! which threads it holds loaded. Each fact comes through [`ProcessLookup`] so the joins are testable
//! over a plain table; [`ProcFsLookup`] reads Linux's `/proc`.

use super::{client_kind, pane_vars, Client, DaemonView, Env, LaunchDir, LoadedThread};
use agterm_backup_core::agent::CODEX;
use agterm_backup_core::process::{agent_args, ProcFs, ProcessSource, MAX_WALK_DEPTH};
use std::fs;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

/// Interpreters that run Codex's npm launcher, which spawns the native `codex`: the launcher is skipped
/// so that one TUI is one client.
const SCRIPT_RUNNERS: &[&str] = &["node", "nodejs", "bun"];

/// A rollout's first line (`session_meta`, which embeds the base instructions) is read up to this size.
const ROLLOUT_HEAD_CAP: u64 = 1 << 20;

/// Facts about processes beyond [`ProcessSource`]. Unreadable facts are `None`/empty, never errors.
pub trait ProcessLookup: ProcessSource {
    /// Every live pid.
    fn pids(&self) -> Vec<u32>;
    /// The process's environment.
    fn environ(&self, pid: u32) -> Option<Env>;
    /// The paths of the files the process holds open.
    fn open_files(&self, pid: u32) -> Vec<PathBuf>;
    /// `(id, cwd)` from the `session_meta` line that starts a Codex rollout file.
    fn rollout_head(&self, path: &Path) -> Option<(String, String)>;
    /// `path` with symlinks resolved, or unchanged when that fails.
    fn canonical(&self, path: &str) -> String;
}

/// The pid of the Codex app-server above `hook_pid`, when the nearest Codex process above the hook is
/// one (`codex app-server …`: the managed daemon, or an app-server a client started itself).
pub fn daemon_above(procs: &dyn ProcessLookup, hook_pid: u32) -> Option<u32> {
    let mut pid = procs.parent(hook_pid)?;
    for _ in 0..MAX_WALK_DEPTH {
        if pid <= 1 {
            return None;
        }
        let argv = procs.argv(pid)?;
        if let Some(args) = agent_args(&CODEX, &argv) {
            return args.iter().any(|a| a == "app-server").then_some(pid);
        }
        pid = procs.parent(pid)?;
    }
    None
}

/// The Codex home an environment points at: `$CODEX_HOME`, else `$HOME/.codex`.
pub fn codex_home(env: &Env) -> Option<String> {
    let non_empty = |k: &str| env.get(k).filter(|v| !v.is_empty());
    non_empty("CODEX_HOME")
        .cloned()
        .or_else(|| non_empty("HOME").map(|h| format!("{}/.codex", h.trim_end_matches('/'))))
}

/// What the daemon `daemon_pid` serves: its TUIs (same Codex home as the daemon's environment, which is
/// the hook's) and its loaded threads.
pub fn view(procs: &dyn ProcessLookup, daemon_pid: u32, daemon_env: &Env) -> DaemonView {
    let home = codex_home(daemon_env).map(|h| procs.canonical(&h));
    let clients = procs
        .pids()
        .into_iter()
        .filter(|&pid| pid != daemon_pid)
        .filter_map(|pid| client(procs, pid, home.as_deref()))
        .collect();
    let loaded = procs
        .open_files(daemon_pid)
        .iter()
        .filter(|p| is_rollout(p))
        .filter_map(|p| procs.rollout_head(p))
        .map(|(id, cwd)| LoadedThread {
            id,
            cwd: procs.canonical(&cwd),
        })
        .collect();
    DaemonView {
        daemon_pid,
        clients,
        loaded,
    }
}

fn is_rollout(path: &Path) -> bool {
    path.file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.starts_with("rollout-") && n.ends_with(".jsonl"))
}

/// `pid` as a client of the daemon of Codex home `home`, when it is one.
fn client(procs: &dyn ProcessLookup, pid: u32, home: Option<&str>) -> Option<Client> {
    let argv = procs.argv(pid)?;
    let program = argv.first()?.rsplit('/').next().unwrap_or_default();
    if SCRIPT_RUNNERS.contains(&program) {
        return None;
    }
    let args = agent_args(&CODEX, &argv)?;
    let (kind, dir) = client_kind(args)?;
    let env = procs.environ(pid)?;
    let its_home = codex_home(&env).map(|h| procs.canonical(&h));
    if its_home.as_deref() != home || home.is_none() {
        return None;
    }
    let cwd = procs.cwd(pid);
    let thread_cwd = match (dir, cwd) {
        (LaunchDir::Unknown, _) | (_, None) => None,
        (LaunchDir::Own, Some(cwd)) => Some(cwd.to_string_lossy().into_owned()),
        (LaunchDir::Cd(dir), Some(cwd)) => Some(procs.canonical(&cwd.join(dir).to_string_lossy())),
    };
    Some(Client {
        pid,
        start_s: procs.start_time(pid),
        kind,
        thread_cwd,
        pane_env: pane_vars(&env),
        argv,
    })
}

/// [`ProcessLookup`] over `/proc`.
#[derive(Debug, Clone, Copy, Default)]
pub struct ProcFsLookup;

impl ProcessSource for ProcFsLookup {
    fn parent(&self, pid: u32) -> Option<u32> {
        ProcFs.parent(pid)
    }
    fn argv(&self, pid: u32) -> Option<Vec<String>> {
        ProcFs.argv(pid)
    }
    fn cwd(&self, pid: u32) -> Option<PathBuf> {
        ProcFs.cwd(pid)
    }
    fn start_time(&self, pid: u32) -> Option<i64> {
        ProcFs.start_time(pid)
    }
}

impl ProcessLookup for ProcFsLookup {
    fn pids(&self) -> Vec<u32> {
        fs::read_dir("/proc")
            .into_iter()
            .flatten()
            .flatten()
            .filter_map(|e| e.file_name().to_str()?.parse().ok())
            .collect()
    }

    fn environ(&self, pid: u32) -> Option<Env> {
        let raw = fs::read(format!("/proc/{pid}/environ")).ok()?;
        Some(parse_environ(&raw))
    }

    fn open_files(&self, pid: u32) -> Vec<PathBuf> {
        fs::read_dir(format!("/proc/{pid}/fd"))
            .into_iter()
            .flatten()
            .flatten()
            .filter_map(|e| fs::read_link(e.path()).ok())
            .filter(|p| p.is_absolute())
            .collect()
    }

    fn rollout_head(&self, path: &Path) -> Option<(String, String)> {
        let file = fs::File::open(path).ok()?;
        let mut line = String::new();
        BufReader::new(file.take(ROLLOUT_HEAD_CAP))
            .read_line(&mut line)
            .ok()?;
        parse_rollout_head(&line)
    }

    fn canonical(&self, path: &str) -> String {
        fs::canonicalize(path)
            .map(|p| p.to_string_lossy().into_owned())
            .unwrap_or_else(|_| path.to_string())
    }
}

/// `KEY=value` pairs separated by NUL bytes.
pub fn parse_environ(raw: &[u8]) -> Env {
    raw.split(|&b| b == 0)
        .filter_map(|kv| {
            let kv = String::from_utf8_lossy(kv);
            let (k, v) = kv.split_once('=')?;
            (!k.is_empty()).then(|| (k.to_string(), v.to_string()))
        })
        .collect()
}

/// `(payload.id, payload.cwd)` of a `{"type":"session_meta","payload":{…}}` line.
pub fn parse_rollout_head(line: &str) -> Option<(String, String)> {
    let value: serde_json::Value = serde_json::from_str(line.trim_end()).ok()?;
    if value.get("type")?.as_str()? != "session_meta" {
        return None;
    }
    let payload = value.get("payload")?;
    let id = payload.get("id")?.as_str()?.to_string();
    let cwd = payload.get("cwd")?.as_str()?.to_string();
    Some((id, cwd))
}
