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
pub mod end_terminal;
pub mod lock;
pub mod pane_env;
pub mod payload;
pub mod pipeline;
pub mod repair;
pub mod skip;
pub mod stdin;
pub mod terminal_pane;

use agterm_backup_core::state::StateDir;
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

/// payload → terminal pane → hot path → process facts → decision → pin → write ([`pipeline`]).
fn run(agent_name: &str, started: Instant, state: &StateDir) {
    let Some(event) = pipeline::read_event(agent_name, started, state) else {
        return;
    };
    let Some(pane) = pipeline::pane(&event) else {
        return;
    };
    if pipeline::is_fresh(&event, &pane) {
        return;
    }
    // About to write: learn the pane's name again where its terminal keeps one (a renamed session, a
    // moved pane).
    let pane = terminal_pane::refresh(pane, &event.state);
    let Some(mut write) = pipeline::decide_write(&event, &pane) else {
        return;
    };
    pipeline::pin(&event, &mut write);
    pipeline::commit(&event.state, &write);
}

/// Appends the journal line, or leaves the journal as it was: a short write (a full disk) is cut back so
/// that the next line does not glue onto a torn one.
fn append_journal_whole(
    state: &StateDir,
    key: &agterm_backup_core::pane::PaneKey,
    record: &agterm_backup_core::record::LiveRecord,
) -> std::io::Result<()> {
    let path = state.journal_path(key);
    let before = repair::own_file(state, &path)?;
    if let Some(len) = before {
        repair::end_torn_line(state, &path, len)?;
    }
    let before = std::fs::metadata(&path).map(|m| m.len()).ok();
    let result = agterm_backup_terminals::append_journal(state, record);
    if result.is_err() {
        if let Some(len) = before {
            if let Ok(f) = agterm_backup_core::state::guard::open_existing(&path) {
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

/// Notes a daemon-run Codex hook that could not be given to a pane (for `status`).
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
    if let Err(e) = codex_daemon::unattributed::append(state, &entry) {
        log(
            state,
            &format!("cannot note the unattributed Codex conversation: {e}"),
        );
    }
}
