//! Process inspection: argv, real cwd, parent and start time of a process, and the walk from the hook up
//! to the agent that ran it.
//!
//! The facts come from a [`ProcessSource`]: [`ProcFs`] reads `/proc` (Linux, the default there),
//! `Darwin` asks the macOS kernel (`sysctl(KERN_PROCARGS2)` for exact argv, `proc_pidinfo` for the
//! rest; the default there), [`Ps`] asks `ps`/`lsof` within a time budget (the macOS fallback, compiled
//! and tested on Linux too), and [`FakeProcesses`] is a plain table for tests. The walk itself
//! ([`locate_agent`]) is pure over a source.

pub mod bounded;
#[cfg(target_os = "macos")]
mod darwin;
mod fake;
pub mod foreground;
pub mod names;
mod procargs;
mod procfs;
mod ps;

#[cfg(target_os = "macos")]
pub use darwin::Darwin;
pub use fake::{FakeProcess, FakeProcesses};
pub use procargs::{parse_procargs2, ProcArgs};
pub use procfs::ProcFs;
pub use ps::{Ps, CHILD_BUDGET};

use crate::agent::{AgentSpec, AGENTS};
use std::path::PathBuf;

/// How far up the tree a walk goes before giving up (a real chain is a handful of levels).
pub const MAX_WALK_DEPTH: usize = 64;

/// Interpreters that run an agent's npm package as a script.
const SCRIPT_RUNNERS: &[&str] = &["node", "nodejs", "bun"];

/// Where facts about processes come from. Every method returns `None` when the process is gone or
/// unreadable; callers treat that as "unknown", never as an error to report.
pub trait ProcessSource {
    /// The parent pid.
    fn parent(&self, pid: u32) -> Option<u32>;
    /// The argument vector, argv\[0] first.
    fn argv(&self, pid: u32) -> Option<Vec<String>>;
    /// The real (symlink-resolved) current directory.
    fn cwd(&self, pid: u32) -> Option<PathBuf>;
    /// Start time in Unix seconds (tells a live process from a reused pid).
    fn start_time(&self, pid: u32) -> Option<i64>;
    /// Whether the process's stdin is a terminal in raw (non-canonical) mode, as a full-screen TUI sets
    /// it: `Some(false)` for a canonical terminal, a pipe or a file, `None` when it cannot be told.
    fn stdin_raw_terminal(&self, _pid: u32) -> Option<bool> {
        None
    }
}

/// The default source of this platform: `/proc` on Linux, the kernel on macOS, `ps`/`lsof` elsewhere.
pub fn default_source() -> Box<dyn ProcessSource> {
    #[cfg(target_os = "linux")]
    {
        Box::new(ProcFs)
    }
    #[cfg(target_os = "macos")]
    {
        Box::new(Darwin::new())
    }
    #[cfg(not(any(target_os = "linux", target_os = "macos")))]
    {
        Box::new(Ps::new())
    }
}

/// The final path component of `path` (`/usr/bin/node` → `node`).
fn basename(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

/// When `argv` is the agent `spec` — its native binary, or node/bun running a script of its npm package
/// (`…/node_modules/<package>/…`) — the agent's own arguments (after the binary or the script).
pub fn agent_args<'a>(spec: &AgentSpec, argv: &'a [String]) -> Option<&'a [String]> {
    let program = basename(argv.first()?);
    if spec.binaries.contains(&program) {
        return Some(&argv[1..]);
    }
    if !SCRIPT_RUNNERS.contains(&program) {
        return None;
    }
    // The script is named by its package path, or by the launcher it was started through: npm's
    // `.bin/gemini` symlink (or a global `/usr/local/bin/gemini`) is what node's argv holds; only the
    // first word after node's own options counts, and only as a path (a shebang launch always gives
    // one), so neither `node tool.js gemini` nor `node -e gemini` is Gemini.
    let launcher = argv[1..]
        .iter()
        .position(|a| !a.starts_with('-'))
        .filter(|&i| argv[i + 1].contains('/') && spec.binaries.contains(&basename(&argv[i + 1])));
    let script = launcher.or_else(|| {
        argv[1..].iter().position(|a| {
            spec.npm_packages
                .iter()
                .any(|pkg| a.contains(&format!("node_modules/{pkg}/")))
        })
    })?;
    Some(&argv[script + 2..])
}

/// The agent `argv` belongs to, if any.
pub fn which_agent(argv: &[String]) -> Option<&'static AgentSpec> {
    AGENTS.iter().find(|spec| agent_args(spec, argv).is_some())
}

/// The agent process that ran the hook.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AgentProcess {
    pub pid: u32,
    pub argv: Vec<String>,
}

/// What the walk found.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Located {
    /// The agent process, when found.
    pub agent: Option<AgentProcess>,
    /// An agent above it (`(pid, agent name)`): the found agent runs nested inside another one.
    pub enclosing: Option<(u32, &'static str)>,
}

/// Finds the agent `spec` that ran the hook: `pinned` (e.g. `$CLAUDE_PID`) when it is readable, else the
/// nearest process at or above `start` (the hook's parent) that is the agent. Then looks further up for
/// an enclosing agent, skipping the agent's own wrappers directly above it (the node launcher of the
/// native `codex`).
pub fn locate_agent(
    src: &dyn ProcessSource,
    spec: &AgentSpec,
    start: u32,
    pinned: Option<u32>,
) -> Located {
    let pinned = pinned.and_then(|pid| src.argv(pid).map(|argv| AgentProcess { pid, argv }));
    let agent = pinned.or_else(|| find_agent(src, spec, start));
    let enclosing = agent
        .as_ref()
        .and_then(|a| enclosing_agent(src, spec, a.pid));
    Located { agent, enclosing }
}

/// `start` and its ancestors, nearest first: at most [`MAX_WALK_DEPTH`] of them, never init (pid 1) or
/// pid 0, and ending where a parent cannot be read. The walk every "which process above us" question takes.
pub fn ancestors(src: &dyn ProcessSource, start: u32) -> impl Iterator<Item = u32> + '_ {
    std::iter::successors(Some(start), move |&pid| src.parent(pid))
        .take(MAX_WALK_DEPTH)
        .take_while(|&pid| pid > 1)
}

fn find_agent(src: &dyn ProcessSource, spec: &AgentSpec, start: u32) -> Option<AgentProcess> {
    for pid in ancestors(src, start) {
        let argv = src.argv(pid)?;
        if agent_args(spec, &argv).is_some() {
            return Some(AgentProcess { pid, argv });
        }
    }
    None
}

fn enclosing_agent(
    src: &dyn ProcessSource,
    spec: &AgentSpec,
    agent_pid: u32,
) -> Option<(u32, &'static str)> {
    let mut in_wrappers = true;
    for pid in ancestors(src, src.parent(agent_pid)?) {
        let argv = src.argv(pid)?;
        match which_agent(&argv) {
            Some(other) if in_wrappers && other.name == spec.name => {}
            Some(other) => return Some((pid, other.name)),
            None => in_wrappers = false,
        }
    }
    None
}

#[cfg(test)]
mod tests;
