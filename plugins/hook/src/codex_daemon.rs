//! Which pane a Codex hook belongs to when the hook runs under Codex's shared app-server daemon.
//!
//! Plain `codex` (0.169.0) starts, or attaches to, one `codex app-server --listen unix:// --managed-daemon`
//! per `CODEX_HOME`; every TUI in every pane talks to it over a Unix socket, and the daemon runs every
//! thread's hooks as its own children, with its own environment — the one of the TUI that started it.
//! So a hook's pane variables may name another pane, and the hook's ancestors are the daemon and the TUI that
//! started it, whatever pane the thread runs in. Nothing the hook receives names its TUI: the payload
//! has the thread id (`session_id`) and `cwd`, the environment has no thread or client id, and the
//! app-server protocol has no call that lists its clients or which client drives a thread.
//!
//! What can be seen is the set of TUIs attached to the daemon (native `codex` processes with the same
//! `CODEX_HOME`, not `--no-daemon`), each with its argv, real cwd, start time and pane variables; and the
//! threads the daemon has loaded (the rollout files it holds open, whose first line names the thread's
//! id and cwd). [`decide`] joins them with facts about how a TUI gets its thread:
//! - `codex resume <id>` runs thread `<id>`;
//! - plain `codex` and `codex fork` create their thread at start-up, in their cwd (`-C` honoured), so
//!   that thread's UUIDv7 timestamp is not older than the process;
//! - `codex resume` with a picker or `--last` takes an older thread of its cwd (`--all`: of any cwd);
//! - `--worktree` moves the thread elsewhere: such a TUI could run any thread.
//!
//! A thread is given to a TUI only when exactly one attached TUI can run it and that TUI cannot be
//! running another loaded thread instead. Everything else is [`Attribution::Uncertain`], and the hook
//! records nothing (see [`unattributed`]): a missing record is repaired by the next hook of that pane,
//! a record under the wrong pane would resume another pane's conversation. What this cannot see is a
//! thread switched inside a TUI (`/resume`, `/fork` of an older thread from another directory); the
//! loaded-thread check catches it unless two TUIs switched in a way that balances out.

pub mod probe;
pub mod unattributed;

pub use probe::{ProcFsLookup, ProcessLookup};

use agterm_backup_core::agent::{Takes, CODEX};
use std::collections::BTreeMap;

/// Hook environment as plain data.
pub type Env = std::collections::HashMap<String, String>;

/// A thread may be owned by a TUI that started up to this long after the thread's id was minted
/// (process start times are read with one-second precision, from a boot time given in whole seconds).
pub const START_SLACK_MS: i64 = 2_000;

/// The verdict for one hook run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Attribution {
    /// Not under the daemon: the hook's own environment and ancestors are the pane's.
    Own,
    /// Under the daemon, the thread runs in the TUI described here: take the pane from its environment
    /// ([`PaneIdentity::env_for_hook`]) and the agent process from it (`tui_pid`, `tui_argv`), never
    /// from the hook's ancestors (the daemon, and the TUI that started it).
    Pane(PaneIdentity),
    /// Under the daemon and not certain which TUI runs the thread: record nothing. The text says why.
    Uncertain(String),
}

/// The TUI a daemon-run hook was attributed to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PaneIdentity {
    /// The native `codex` TUI process (the agent process for the record: `agent_pid`, launch flags).
    pub tui_pid: u32,
    pub tui_argv: Vec<String>,
    /// Every pane variable of the TUI's environment, of any terminal ([`is_pane_var`]).
    pub pane_env: BTreeMap<String, String>,
    /// The hook's own pane variables are the TUI's (the daemon was started from this very pane).
    pub same_as_hook_env: bool,
}

impl PaneIdentity {
    /// The hook's environment with its pane variables replaced by the TUI's: every pane variable of the
    /// hook, of any terminal, is dropped, the TUI's are put in. A TUI outside every terminal thus yields
    /// an environment that names no pane, for which the hook records nothing.
    pub fn env_for_hook(&self, hook_env: &Env) -> Env {
        let mut env: Env = hook_env
            .iter()
            .filter(|(k, _)| !is_pane_var(k))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        env.extend(self.pane_env.iter().map(|(k, v)| (k.clone(), v.clone())));
        env
    }
}

/// Variables that say which pane a process runs in, of any terminal (its row's `is_pane_var`).
pub fn is_pane_var(name: &str) -> bool {
    agterm_backup_terminals::is_pane_var(name)
}

/// The pane variables of an environment.
pub fn pane_vars<'a>(
    env: impl IntoIterator<Item = (&'a String, &'a String)>,
) -> BTreeMap<String, String> {
    env.into_iter()
        .filter(|(k, _)| is_pane_var(k))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect()
}

/// How a TUI came to its thread, from its argv.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClientKind {
    /// Plain `codex` or `codex fork`: a new thread minted at start-up.
    New,
    /// `codex resume <id>`.
    ResumeId(String),
    /// `codex resume` with the picker or `--last`: an older thread.
    ResumePick,
}

/// A TUI attached to the daemon.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Client {
    pub pid: u32,
    pub argv: Vec<String>,
    /// Start time, Unix seconds.
    pub start_s: Option<i64>,
    pub kind: ClientKind,
    /// The directory its thread lives in (`-C` resolved against its real cwd), canonical; `None` when it
    /// cannot be known (`--worktree`, `resume --all`, an unreadable cwd): it could run any thread.
    pub thread_cwd: Option<String>,
    pub pane_env: BTreeMap<String, String>,
}

/// A thread the daemon holds loaded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadedThread {
    pub id: String,
    /// Canonical cwd from the rollout's `session_meta`.
    pub cwd: String,
}

/// Everything [`decide`] needs about the daemon, as plain data.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct DaemonView {
    pub daemon_pid: u32,
    pub clients: Vec<Client>,
    pub loaded: Vec<LoadedThread>,
}

/// What a TUI's argv says about its thread. `None` when the argv is not an interactive Codex TUI that
/// uses the daemon (`exec`, `app-server`, any other subcommand, `--no-daemon`).
pub fn client_kind(args: &[String]) -> Option<(ClientKind, LaunchDir)> {
    let mut positionals: Vec<&str> = Vec::new();
    let mut dir = LaunchDir::Own;
    let mut last_or_pick_all = false;
    let mut i = 0;
    while i < args.len() {
        let arg = args[i].as_str();
        i += 1;
        if arg == "--" {
            positionals.extend(args[i..].iter().map(String::as_str));
            break;
        }
        if !arg.starts_with('-') || arg == "-" {
            positionals.push(arg);
            continue;
        }
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f, Some(v)),
            _ => (arg, None),
        };
        match flag {
            "--no-daemon" => return None,
            "--worktree" => dir = LaunchDir::Unknown,
            "--all" => last_or_pick_all = true,
            _ => {}
        }
        let takes = agterm_backup_core::flags::takes(&CODEX, flag);
        if takes == Some(Takes::One) {
            let value = match inline {
                Some(v) => Some(v),
                None => {
                    i += 1;
                    args.get(i - 1).map(String::as_str)
                }
            };
            if matches!(flag, "-C" | "--cd") && dir != LaunchDir::Unknown {
                dir = value.map_or(LaunchDir::Unknown, |v| LaunchDir::Cd(v.to_string()));
            }
        } else if takes == Some(Takes::Many) && inline.is_none() {
            while args.get(i).is_some_and(|w| !w.starts_with('-')) {
                i += 1;
            }
        }
    }
    let kind = match positionals.first().copied() {
        None => ClientKind::New,
        Some("fork") => ClientKind::New,
        Some("resume") => match positionals.get(1) {
            Some(id) => ClientKind::ResumeId(id.to_string()),
            None => {
                if last_or_pick_all {
                    dir = LaunchDir::Unknown;
                }
                ClientKind::ResumePick
            }
        },
        // A prompt argument (`codex "fix it"`) is a plain start; a subcommand is not a TUI.
        Some(word) if is_subcommand(word) => return None,
        Some(_) => ClientKind::New,
    };
    Some((kind, dir))
}

fn is_subcommand(word: &str) -> bool {
    CODEX.headless_subcommands.contains(&word) || CODEX.session_subcommands.contains(&word)
}

/// Where a TUI's thread lives relative to the TUI's own cwd.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LaunchDir {
    Own,
    /// `-C <dir>` (absolute, or relative to the TUI's cwd).
    Cd(String),
    Unknown,
}

/// The Unix time in milliseconds a UUIDv7 was minted at; `None` for other ids.
pub fn uuid_v7_millis(id: &str) -> Option<i64> {
    let hex: String = id.chars().filter(|c| *c != '-').collect();
    if hex.len() != 32 || !hex.chars().all(|c| c.is_ascii_hexdigit()) || hex.as_bytes()[12] != b'7'
    {
        return None;
    }
    i64::from_str_radix(&hex[..12], 16).ok()
}

/// Whether `client` can be the TUI running thread `id` in `cwd` (without a strong `resume <id>` claim).
fn could_run(client: &Client, id: &str, cwd: &str) -> bool {
    if client.kind == ClientKind::ResumeId(id.to_string()) {
        return true;
    }
    let Some(thread_cwd) = &client.thread_cwd else {
        return true;
    };
    if thread_cwd != cwd {
        return false;
    }
    match client.kind {
        ClientKind::ResumePick => true,
        // It minted its thread at start-up (and `/new` mints later ones): an older thread reached it
        // only through an in-TUI switch, which is not assumed.
        ClientKind::New | ClientKind::ResumeId(_) => match (uuid_v7_millis(id), client.start_s) {
            (Some(minted), Some(start)) => minted + START_SLACK_MS >= start * 1000,
            _ => true,
        },
    }
}

/// Picks the TUI that runs thread `session_id` (payload `cwd`, canonical) among the daemon's clients.
/// Pure: the probing is in [`probe`].
pub fn decide(hook_env: &Env, session_id: &str, cwd: &str, view: &DaemonView) -> Attribution {
    let claims: Vec<&Client> = view
        .clients
        .iter()
        .filter(|c| c.kind == ClientKind::ResumeId(session_id.to_string()))
        .collect();
    let chosen = match claims.as_slice() {
        [one] => *one,
        [] => {
            let able: Vec<&Client> = view
                .clients
                .iter()
                .filter(|c| could_run(c, session_id, cwd))
                .collect();
            match able.as_slice() {
                [one] => *one,
                [] => {
                    return Attribution::Uncertain(format!(
                        "no Codex TUI attached to the app-server daemon (pid {}) can run thread \
                         {session_id} in {cwd}: it runs without a TUI (left after /quit, or queued) \
                         or was switched to inside a TUI",
                        view.daemon_pid
                    ))
                }
                many => {
                    return Attribution::Uncertain(format!(
                        "{} Codex TUIs attached to the app-server daemon (pid {}) can run thread \
                         {session_id} in {cwd} (pids {})",
                        many.len(),
                        view.daemon_pid,
                        pids(many)
                    ))
                }
            }
        }
        many => {
            return Attribution::Uncertain(format!(
                "thread {session_id} is resumed in {} Codex TUIs (pids {})",
                many.len(),
                pids(many)
            ))
        }
    };
    // The chosen TUI must not be able to run another loaded thread instead, unless another TUI
    // resumed that one by id.
    let rival = view.loaded.iter().find(|t| {
        t.id != session_id
            && chosen.kind != ClientKind::ResumeId(session_id.to_string())
            && could_run(chosen, &t.id, &t.cwd)
            && !view
                .clients
                .iter()
                .any(|c| c.pid != chosen.pid && c.kind == ClientKind::ResumeId(t.id.clone()))
    });
    if let Some(rival) = rival {
        return Attribution::Uncertain(format!(
            "the only Codex TUI that can run thread {session_id} (pid {}) can as well be running \
             loaded thread {} in {}",
            chosen.pid, rival.id, rival.cwd
        ));
    }
    Attribution::Pane(PaneIdentity {
        tui_pid: chosen.pid,
        tui_argv: chosen.argv.clone(),
        pane_env: chosen.pane_env.clone(),
        same_as_hook_env: chosen.pane_env == pane_vars(hook_env),
    })
}

fn pids(clients: &[&Client]) -> String {
    clients
        .iter()
        .map(|c| c.pid.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Attributes the hook process `hook_pid` (payload `session_id` and `cwd`): [`Attribution::Own`] when
/// it does not run under the Codex app-server daemon, else the verdict of [`decide`] over what
/// [`probe::view`] sees.
pub fn attribute(
    hook_env: &Env,
    payload_session_id: &str,
    payload_cwd: &str,
    hook_pid: u32,
    procs: &dyn ProcessLookup,
) -> Attribution {
    let Some(daemon_pid) = probe::daemon_above(procs, hook_pid) else {
        return Attribution::Own;
    };
    let view = probe::view(procs, daemon_pid, hook_env);
    let cwd = procs.canonical(payload_cwd);
    decide(hook_env, payload_session_id, &cwd, &view)
}

#[cfg(test)]
mod probe_tests;
#[cfg(test)]
mod tests;
