//! The capture hook: `agterm-backup hook <agent>` turns one agent hook event into the pane's live record,
//! a journal line when the conversation or its directory changed, and a pin of the pane's resume line.
//!
//! The decision is pure ([`decide::decide`] over the environment, the payload, the process walk and the
//! previous record); this module is the thin I/O around it, holding the hook's promises: nothing on
//! stdout or stderr, exit 0, a fixed time budget (stdin, pane lock, pin), atomic 0600 writes, errors to
//! the state directory's capped log.

pub mod agent_cwd;
pub mod codex_daemon;
pub mod decide;
pub mod lock;
pub mod pane_env;
pub mod payload;
pub mod pin;
pub mod skip;
pub mod stdin;

use agterm_backup_core::agent;
use agterm_backup_core::process::{self, locate_agent};
use agterm_backup_core::state::StateDir;
use decide::{decide, Decision, HookInput, ProcessFacts};
use pane_env::{Env, PaneEnv};
use payload::Payload;
use std::time::{Duration, Instant};

/// How long the hook waits for its payload.
pub const STDIN_BUDGET: Duration = Duration::from_secs(2);
/// How long the hook waits for another hook of the same pane to finish.
pub const LOCK_BUDGET: Duration = Duration::from_millis(500);
/// How long pinning may take.
pub const PIN_BUDGET: Duration = Duration::from_millis(1500);
/// How long clearing a pin may take at SessionEnd: Claude Code gives all SessionEnd hooks 1.5 s in
/// total (`CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS`, 2.1.328), and the record is written after the pin.
pub const END_PIN_BUDGET: Duration = Duration::from_millis(500);

/// Runs the hook for `agent` with this process's environment and stdin. Never prints, never panics out,
/// never fails: every error goes to the state directory's log.
pub fn run_from_env(agent: &str) {
    let started = Instant::now();
    let state = StateDir::from_env();
    // The default panic hook prints to stderr, and the release profile aborts on panic: log instead and
    // leave with 0 from inside the hook, which works with either panic strategy.
    let for_panics = state.clone();
    std::panic::set_hook(Box::new(move |info| {
        if let Some(s) = &for_panics {
            s.log(&format!("hook: internal error, nothing recorded: {info}"));
        }
        std::process::exit(0);
    }));
    if let Some(state) = state {
        let _ = std::panic::catch_unwind(|| run(agent, started, &state));
    }
}

fn run(agent_name: &str, started: Instant, state: &StateDir) {
    let mut env: Env = std::env::vars_os()
        .map(|(k, v)| {
            (
                k.to_string_lossy().into_owned(),
                v.to_string_lossy().into_owned(),
            )
        })
        .collect();
    // Codex's shared app-server daemon runs the hooks of every TUI with the environment of the TUI that
    // started it, so its `AGTERM_*` may name another pane: find the TUI that runs this thread first, and
    // take the pane (and the agent process) from it — or record nothing when that is not certain.
    let mut early_payload = None;
    let mut daemon_tui = None;
    let mut state = std::borrow::Cow::Borrowed(state);
    if agent_name == agent::CODEX.name {
        let (bytes, cut) = stdin::read_bounded(0, stdin::STDIN_CAP, started + STDIN_BUDGET);
        let Ok(payload) = Payload::parse(&bytes) else {
            if PaneEnv::from_env(&env).is_ok() {
                let why = if cut {
                    " (stdin cut at the size or time budget)"
                } else {
                    ""
                };
                log(
                    &state,
                    &format!("codex: unreadable hook payload{why}; nothing recorded"),
                );
            }
            return;
        };
        let lookup = codex_daemon::probe::ProcFsLookup;
        let verdict = codex_daemon::attribute(
            &env,
            &payload.session_id,
            payload.cwd.as_deref().unwrap_or(""),
            std::process::id(),
            &lookup,
        );
        match verdict {
            codex_daemon::Attribution::Own => {}
            codex_daemon::Attribution::Pane(tui) => {
                env = tui.env_for_hook(&env);
                if let Some(own) = StateDir::resolve(|k| env.get(k).cloned()) {
                    if own != *state {
                        state = std::borrow::Cow::Owned(own);
                    }
                }
                daemon_tui = Some(tui.tui_pid);
            }
            codex_daemon::Attribution::Uncertain(reason) => {
                record_unattributed(&state, &payload, &reason);
                return;
            }
        }
        early_payload = Some(payload);
    }
    let state: &StateDir = &state;
    // Cheap checks first: outside agterm the hook costs nothing more than this.
    let pane = match PaneEnv::from_env(&env) {
        Ok(p) => p,
        Err(skip) => {
            if skip.worth_logging() {
                log(state, &skip.to_string());
            }
            return;
        }
    };
    let Some(spec) = agent::agent(agent_name) else {
        log(
            state,
            &format!(
                "unknown agent {agent_name:?} in the hook command (known: {}); fix the hook \
                 command in the agent's settings or run `agterm-backup installer apply`",
                agent::agent_names().join(", ")
            ),
        );
        return;
    };
    let parsed = match early_payload {
        Some(p) => Ok((p, false)),
        None => {
            let (bytes, cut) = stdin::read_bounded(0, stdin::STDIN_CAP, started + STDIN_BUDGET);
            Payload::parse(&bytes)
                .map(|p| (p, cut))
                .map_err(|e| (e, cut))
        }
    };
    let payload = match parsed {
        Ok((p, _)) => p,
        Err((e, cut)) => {
            let why = if cut {
                " (stdin cut at the size or time budget)"
            } else {
                ""
            };
            log(state, &format!("{agent_name}: {e}{why}; nothing recorded"));
            return;
        }
    };

    let pinned = daemon_tui.or_else(|| {
        spec.pid_env
            .and_then(|var| env.get(var))
            .and_then(|v| v.trim().parse().ok())
    });
    let parent = std::os::unix::process::parent_id();
    // The hot path: the same agent process as the record (its pid is pinned, or — Codex execs its hook
    // through `$SHELL -lc` — it is our parent) and nothing but per-event fields would change. The record
    // is replaced atomically, so reading it without the lock never sees a torn one.
    if let Some(previous) = state.read_record(&pane.key()) {
        let facts = decide::facts_from_previous(spec, &previous, pinned.unwrap_or(parent));
        if let Some(facts) = facts {
            let input = HookInput {
                spec,
                env: &env,
                payload: &payload,
                process: &facts,
                previous: Some(&previous),
                now: chrono::Utc::now(),
            };
            if decide(&input) == Decision::Fresh {
                return;
            }
        }
    }
    let src = process::default_source();
    let located = locate_agent(&*src, spec, parent, pinned);

    if let Err(e) = state.ensure() {
        // Probably unwritable; the log below is best effort for the same reason.
        log(
            state,
            &format!(
                "cannot create the state directory {}: {e}",
                state.root().display()
            ),
        );
        return;
    }
    let key = pane.key();
    let _lock = match lock::lock_until(&state.lock_path(&key), Instant::now() + LOCK_BUDGET) {
        Ok(l) => l,
        Err(e) => {
            log(state, &format!("{key}: {e}; this event was not recorded"));
            return;
        }
    };
    let previous = state.read_record(&key);
    // The agent's cwd and start time only when this event can use them: each is a `ps`/`lsof` run on
    // macOS, and under the pane lock.
    let agent_pid = located.agent.as_ref().map(|a| a.pid);
    let needs = decide::process_reads(spec, &payload, previous.as_ref(), agent_pid);
    let facts = ProcessFacts {
        cwd: agent_pid
            .filter(|_| needs.cwd)
            .and_then(|pid| src.cwd(pid))
            .map(|p| p.to_string_lossy().into_owned()),
        start_time: needs
            .known_start_time
            .or_else(|| agent_pid.and_then(|pid| src.start_time(pid))),
        located,
    };
    let input = HookInput {
        spec,
        env: &env,
        payload: &payload,
        process: &facts,
        previous: previous.as_ref(),
        now: chrono::Utc::now(),
    };
    let (mut record, journal) = match decide(&input) {
        Decision::Write { record, journal } => (*record, journal),
        Decision::Fresh => return,
        Decision::Skip(skip) => {
            if skip.worth_logging() {
                log(state, &format!("{key}: {skip}"));
            }
            return;
        }
    };
    let target = pin::PinTarget {
        socket: pane.socket.clone(),
        agterm_session: pane.session.clone(),
        pane: pane.pane.clone(),
        pane_id: pane.pane_id.clone(),
    };
    let budget = match record.end_reason() {
        Some(_) => END_PIN_BUDGET,
        None => PIN_BUDGET,
    };
    pin::pin_if_changed(
        &target,
        previous.as_ref(),
        &mut record,
        Instant::now() + budget,
    );
    // Journal first: if the record write then fails, the next event sees the old record and appends
    // again (a duplicate line) rather than never journalling the change.
    if journal {
        if let Err(e) = append_journal_whole(state, &key, &record) {
            log(
                state,
                &format!(
                    "cannot append to {}: {e}",
                    state.journal_path(&key).display()
                ),
            );
            return;
        }
    }
    if let Err(e) = state.write_record(&record) {
        log(
            state,
            &format!("cannot write {}: {e}", state.record_path(&key).display()),
        );
    }
}

/// Appends the journal line, or leaves the journal as it was: a short write (a full disk) is cut back so
/// that the next line does not glue onto a torn one.
fn append_journal_whole(
    state: &StateDir,
    key: &agterm_backup_core::pane::PaneKey,
    record: &agterm_backup_core::record::LiveRecord,
) -> std::io::Result<()> {
    let path = state.journal_path(key);
    let before = std::fs::metadata(&path).map(|m| m.len()).ok();
    let result = state.append_journal(record);
    if result.is_err() {
        if let Some(len) = before {
            if let Ok(f) = std::fs::OpenOptions::new().write(true).open(&path) {
                let _ = f.set_len(len);
            }
        }
    }
    result
}

fn log(state: &StateDir, message: &str) {
    // The log lives in the state directory, which may not exist yet on a fresh machine.
    let _ = state.ensure();
    state.log(&format!("hook: {message}"));
}

/// Notes a daemon-run Codex hook that could not be given to a pane (for `status`), when it plausibly
/// came from agterm at all.
fn record_unattributed(state: &StateDir, payload: &Payload, reason: &str) {
    if state.ensure().is_err() {
        return;
    }
    log(
        state,
        &format!("codex {}: not recorded: {reason}", payload.session_id),
    );
    let entry = codex_daemon::unattributed::Unattributed {
        ts: chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
        session_id: payload.session_id.clone(),
        cwd: payload.cwd.clone().unwrap_or_default(),
        event: payload.hook_event_name.clone().unwrap_or_default(),
        reason: reason.to_string(),
    };
    let _ = codex_daemon::unattributed::append(state, &entry);
}
