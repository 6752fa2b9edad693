//! One hook run as a pipeline: payload → terminal pane → hot path → process facts → decision → pin →
//! write. Each stage either hands its result on or ends the run, logging why when that is worth it
//! (into the state directory the event belongs to).

use crate::codex_daemon;
use crate::decide::{self, decide, Decision, HookInput, ProcessFacts};
use crate::lock::{self, PaneLock};
use crate::pane_env::Env;
use crate::payload::Payload;
use crate::stdin;
use crate::terminal_pane::{self, FoundPane, HookPane};
use crate::{
    append_journal_whole, log, record_unattributed, END_PIN_BUDGET, LOCK_BUDGET, PIN_BUDGET,
    STDIN_BUDGET,
};
use agterm_backup_core::agent::{self, AgentSpec};
use agterm_backup_core::pane::PaneKey;
use agterm_backup_core::process::{self, locate_agent, ProcessSource};
use agterm_backup_core::record::LiveRecord;
use agterm_backup_core::state::StateDir;
use std::time::Instant;

/// A read hook event: whose it is and what it says.
pub struct Event {
    pub env: Env,
    /// The state directory of the event's pane (a Codex daemon's hook may belong to another one).
    pub state: StateDir,
    pub spec: &'static AgentSpec,
    pub payload: Payload,
    pub found: FoundPane,
    /// The agent's pid when known without a walk (`$CLAUDE_PID`, or the TUI of a Codex daemon).
    pub pinned: Option<u32>,
}

/// Stage 1: the payload, the agent and the terminal pane of the environment. `None`: nothing to record.
pub fn read_event(agent_name: &str, started: Instant, state: &StateDir) -> Option<Event> {
    let mut env = process_env();
    let mut state = state.clone();
    // Codex's shared app-server daemon runs the hooks of every TUI with the environment of the TUI that
    // started it, so its pane variables may name another pane: find the TUI that runs this thread first,
    // and take the pane (and the agent process) from it — or record nothing when that is not certain.
    let mut early_payload = None;
    let mut daemon_tui = None;
    if agent_name == agent::CODEX.name {
        let (payload, tui) = attribute_codex(&mut env, &mut state, started)?;
        early_payload = Some(payload);
        daemon_tui = tui;
    }
    // Cheap checks first: outside a captured terminal the hook costs nothing more than this.
    let src = process::default_source();
    let found = match terminal_pane::find(&env, &*src, std::os::unix::process::parent_id()) {
        Ok(p) => p,
        Err(skip) => {
            if skip.worth_logging() {
                log(&state, &skip.to_string());
            }
            return None;
        }
    };
    let Some(spec) = agent::agent(agent_name) else {
        log(
            &state,
            &format!(
                "unknown agent {agent_name:?} in the hook command (known: {}); fix the hook \
                 command in the agent's settings or run `agterm-backup installer apply`",
                agent::agent_names().join(", ")
            ),
        );
        return None;
    };
    let payload = match early_payload {
        Some(p) => p,
        None => read_payload(agent_name, started, &state)?,
    };
    let pinned = daemon_tui.or_else(|| {
        spec.pid_env
            .and_then(|var| env.get(var))
            .and_then(|v| v.trim().parse().ok())
    });
    Some(Event {
        env,
        state,
        spec,
        payload,
        found,
        pinned,
    })
}

fn process_env() -> Env {
    std::env::vars_os()
        .map(|(k, v)| {
            (
                k.to_string_lossy().into_owned(),
                v.to_string_lossy().into_owned(),
            )
        })
        .collect()
}

fn cut_note(cut: bool) -> &'static str {
    if cut {
        " (stdin cut at the size or time budget)"
    } else {
        ""
    }
}

fn read_payload(agent_name: &str, started: Instant, state: &StateDir) -> Option<Payload> {
    let (bytes, cut) = stdin::read_bounded(0, stdin::STDIN_CAP, started + STDIN_BUDGET);
    match Payload::parse(&bytes) {
        Ok(p) => Some(p),
        Err(e) => {
            let why = cut_note(cut);
            log(state, &format!("{agent_name}: {e}{why}; nothing recorded"));
            None
        }
    }
}

/// A Codex event's payload, with `env` and `state` switched to the TUI's pane when a daemon ran it.
fn attribute_codex(
    env: &mut Env,
    state: &mut StateDir,
    started: Instant,
) -> Option<(Payload, Option<u32>)> {
    let (bytes, cut) = stdin::read_bounded(0, stdin::STDIN_CAP, started + STDIN_BUDGET);
    let Ok(payload) = Payload::parse(&bytes) else {
        // Worth a line only from a pane the hook would record (a Codex outside every pane is none of
        // ours); the process tree is read only when several multiplexers name one.
        let parent = std::os::unix::process::parent_id();
        if terminal_pane::find(env, &*process::default_source(), parent).is_ok() {
            let why = cut_note(cut);
            log(
                state,
                &format!("codex: unreadable hook payload{why}; nothing recorded"),
            );
        }
        return None;
    };
    let lookup = codex_daemon::probe::ProcFsLookup;
    let verdict = codex_daemon::attribute(
        env,
        &payload.session_id,
        payload.cwd.as_deref().unwrap_or(""),
        std::process::id(),
        &lookup,
    );
    match verdict {
        codex_daemon::Attribution::Own => Some((payload, None)),
        codex_daemon::Attribution::Pane(tui) => {
            *env = tui.env_for_hook(env);
            if let Some(own) = StateDir::resolve(|k| env.get(k).cloned()) {
                *state = own;
            }
            Some((payload, Some(tui.tui_pid)))
        }
        codex_daemon::Attribution::Uncertain(reason) => {
            record_unattributed(state, &payload, &reason);
            None
        }
    }
}

/// Stage 2: the terminal pane, resolved by the registry (a pane whose name its terminal must tell is
/// asked once per pane and server, then read from the cache).
pub fn pane(event: &Event) -> Option<HookPane> {
    match terminal_pane::resolve(event.found.clone(), &event.state) {
        Ok(p) => Some(p),
        Err(e) => {
            log(&event.state, &e);
            None
        }
    }
}

/// Stage 3, the hot path: the same agent process as the record (its pid is pinned, or — Codex execs its
/// hook through `$SHELL -lc` — it is our parent) and nothing but per-event fields would change. The
/// record is replaced atomically, so reading it without the lock never sees a torn one.
pub fn is_fresh(event: &Event, pane: &HookPane) -> bool {
    let Some(previous) = event.state.read_record(&pane.key()) else {
        return false;
    };
    let pid = event
        .pinned
        .unwrap_or_else(std::os::unix::process::parent_id);
    let Some(facts) = decide::facts_from_previous(event.spec, &previous, pid) else {
        return false;
    };
    decide(&input(event, pane, &facts, Some(&previous))) == Decision::Fresh
}

fn input<'a>(
    event: &'a Event,
    pane: &'a HookPane,
    process: &'a ProcessFacts,
    previous: Option<&'a LiveRecord>,
) -> HookInput<'a> {
    HookInput {
        spec: event.spec,
        env: &event.env,
        payload: &event.payload,
        process,
        previous,
        pane: pane.record_pane(),
        now: chrono::Utc::now(),
    }
}

/// What a run writes, under the pane's lock.
pub struct Write {
    pub key: PaneKey,
    pub record: LiveRecord,
    pub journal: bool,
    pub previous: Option<LiveRecord>,
    _lock: PaneLock,
}

/// Stages 4 and 5: the process facts (the walk, under the pane lock) and the decision.
pub fn decide_write(event: &Event, pane: &HookPane) -> Option<Write> {
    let state = &event.state;
    let src = process::default_source();
    let parent = std::os::unix::process::parent_id();
    let located = locate_agent(&*src, event.spec, parent, event.pinned);
    if let Err(e) = state.ensure() {
        // Probably unwritable; the log below is best effort for the same reason.
        let root = state.root().display();
        log(
            state,
            &format!("cannot create the state directory {root}: {e}"),
        );
        return None;
    }
    let key = pane.key();
    let lock_path = state.lock_path(&key);
    let lock = match lock::lock_until(&lock_path, Instant::now() + LOCK_BUDGET) {
        Ok(l) => l,
        // A link at the lock's path: removed (never followed), and the lock taken on our own file.
        Err(e) if agterm_backup_core::state::guard::is_symlink_refusal(&e) => {
            log(state, &format!("{key}: {e}"));
            let relocked = crate::repair::own_file(state, &lock_path)
                .and_then(|_| lock::lock_until(&lock_path, Instant::now() + LOCK_BUDGET));
            match relocked {
                Ok(l) => l,
                Err(e) => {
                    log(state, &format!("{key}: {e}; this event was not recorded"));
                    return None;
                }
            }
        }
        Err(e) => {
            log(state, &format!("{key}: {e}; this event was not recorded"));
            return None;
        }
    };
    let previous = state.read_record(&key);
    let agent_pid = located.agent.as_ref().map_or(parent, |a| a.pid);
    let facts = process_facts(event, &*src, located, previous.as_ref());
    match decide(&input(event, pane, &facts, previous.as_ref())) {
        Decision::Write {
            mut record,
            journal,
        } => {
            // SessionEnd only: `agterm-backup restart` quitting the agent to resume it is no end at
            // all; else whether the agent still has the pane's terminal says who ended it, unless the
            // user already quit this very conversation here.
            if record.end_reason().is_some()
                && crate::end_terminal::restart_quit(state, &key, &record, previous.as_ref())
            {
                record.set_end_reason(None);
            } else if record.end_reason().is_some()
                && !crate::end_terminal::keep_the_users_quit(previous.as_ref(), &mut record)
            {
                record.set_end_terminal(crate::end_terminal::probe(agent_pid));
            }
            Some(Write {
                key,
                record: *record,
                journal,
                previous,
                _lock: lock,
            })
        }
        Decision::Fresh => None,
        Decision::Skip(skip) => {
            if skip.worth_logging() {
                log(state, &format!("{key}: {skip}"));
            }
            None
        }
    }
}

/// The agent's cwd and start time only when this event can use them: each is a `ps`/`lsof` run on
/// macOS, and under the pane lock.
fn process_facts(
    event: &Event,
    src: &dyn ProcessSource,
    located: process::Located,
    previous: Option<&LiveRecord>,
) -> ProcessFacts {
    let agent_pid = located.agent.as_ref().map(|a| a.pid);
    let needs = decide::process_reads(event.spec, &event.payload, previous, agent_pid);
    ProcessFacts {
        cwd: agent_pid
            .filter(|_| needs.cwd)
            .and_then(|pid| src.cwd(pid))
            .map(|p| p.to_string_lossy().into_owned()),
        start_time: needs
            .known_start_time
            .or_else(|| agent_pid.and_then(|pid| src.start_time(pid))),
        stdin_raw_terminal: agent_pid
            .filter(|_| event.spec.tui_raw_terminal)
            .and_then(|pid| src.stdin_raw_terminal(pid)),
        located,
    }
}

/// Stage 6: the pin, where the pane's terminal types a pane's resume line itself after its restart (its
/// row's [`Pinning`](agterm_backup_terminals::Pinning)); a multiplexer's layout restorer runs restore
/// through its own hook instead.
pub fn pin(event: &Event, write: &mut Write) {
    let Some(pinning) = agterm_backup_terminals::pinning::of_pane(&write.key) else {
        return;
    };
    let budget = match write.record.end_reason() {
        Some(_) => END_PIN_BUDGET,
        None => PIN_BUDGET,
    };
    (pinning.pin)(
        &event.env,
        write.previous.as_ref(),
        &mut write.record,
        Instant::now() + budget,
    );
}

/// Stage 7. Journal first: if the record write then fails, the next event sees the old record and
/// appends again (a duplicate line) rather than never journalling the change.
pub fn commit(state: &StateDir, write: &Write) {
    let key = &write.key;
    if write.journal {
        if let Err(e) = append_journal_whole(state, key, &write.record) {
            let path = state.journal_path(key);
            log(state, &format!("cannot append to {}: {e}", path.display()));
            return;
        }
    }
    // No readable record before: whatever sits at its path (a link, an empty folder) is repaired first.
    if write.previous.is_none() {
        if let Err(e) = crate::repair::own_file(state, &state.record_path(key)) {
            log(
                state,
                &format!("cannot write {}: {e}", state.record_path(key).display()),
            );
            return;
        }
    }
    if let Err(e) = agterm_backup_terminals::write_record(state, &write.record) {
        let path = state.record_path(key);
        log(state, &format!("cannot write {}: {e}", path.display()));
    }
}
