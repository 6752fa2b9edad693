//! The edge around the pure planner: ask the terminal, read the state directory, look at the disk for
//! transcripts, then call [`plan`].

use crate::load::captured_panes;
use crate::once::{LaunchId, ThisLaunch, Trigger};
use crate::plan::{cutoff, plan, Action, CapturedPane, PlanInput, PlanRow, SkipReason};
use crate::render::PlanContext;
use crate::transcripts::{codex_home, Transcripts};
use agterm_backup_core::quote::quote;
use agterm_backup_core::record::LiveRecord;
use agterm_backup_core::resume::script_path;
use agterm_backup_core::state::StateDir;
use agterm_backup_core::terminal::{PaneView, Terminal, TerminalError, TerminalInfo};
use chrono::{DateTime, Utc};
use std::time::{Duration, Instant};

/// Everything one planning pass saw, and the rows it produced.
#[derive(Debug, Clone)]
pub struct Planned {
    pub info: TerminalInfo,
    pub panes: Vec<PaneView>,
    pub context: PlanContext,
    pub rows: Vec<PlanRow>,
}

/// Which of the captured conversations (records and journals) are still on disk.
fn transcripts_of(captured: &[CapturedPane], env: &dyn Fn(&str) -> Option<String>) -> Transcripts {
    let records = || {
        captured
            .iter()
            .flat_map(|c| c.record.iter().chain(c.journal.iter()))
    };
    let mut transcripts = Transcripts::scan(records(), codex_home(env).as_deref());
    transcripts.scan_stores(records(), env);
    transcripts
}

/// Plans `scope`'s panes with no terminal (it is not running): every row is `pane-gone` or earlier,
/// but the records show.
pub fn plan_offline(
    state: &StateDir,
    scope: &Scope,
    env: &dyn Fn(&str) -> Option<String>,
) -> Vec<PlanRow> {
    let mut captured = captured_panes(state, None);
    captured.retain(|c| holds(scope, c));
    let transcripts = transcripts_of(&captured, env);
    plan(&PlanInput {
        captured: &captured,
        panes: &[],
        mode: None,
        launched_at: None,
        as_of: None,
        now: Some(Utc::now()),
        transcripts: &transcripts,
        launch: None,
        restart: false,
    })
}

/// Each row's current record, before the journal rule (for `status`).
pub fn current_records(
    state: &StateDir,
    rows: &[PlanRow],
) -> Vec<Option<agterm_backup_core::record::LiveRecord>> {
    rows.iter().map(|r| state.read_record(&r.key)).collect()
}

/// The pin outcome of each current record (for `status`).
pub fn pin_outcomes(
    current: &[Option<agterm_backup_core::record::LiveRecord>],
) -> Vec<Option<agterm_backup_core::record::PinOutcome>> {
    current
        .iter()
        .map(|rec| rec.as_ref().and_then(|r| r.pin))
        .collect()
}

pub use agterm_backup_terminals::Scope;

/// Whether the pane `c` belongs to `scope`: a pane of a terminal of one instance by its key, a pane of
/// a terminal of many to the instance its record or journal names.
pub fn holds(scope: &Scope, c: &CapturedPane) -> bool {
    if scope.place().is_none() {
        return c.key.terminal() == scope.kind();
    }
    c.record
        .iter()
        .chain(c.journal.iter())
        .filter_map(multiplexer_scope)
        .any(|s| s == *scope)
}

/// The instance of a terminal of many that a record names (`None`: a record of a terminal of one
/// instance, or one whose identity is unreadable).
fn multiplexer_scope(rec: &LiveRecord) -> Option<Scope> {
    agterm_backup_terminals::scope_of_record(rec).filter(|s| s.place().is_some())
}

/// Every terminal instance the state directory holds records of, in the registry's order of terminals,
/// then by place.
pub fn scopes_with_records(state: &StateDir) -> Vec<Scope> {
    let mut scopes: Vec<Scope> = Vec::new();
    for c in captured_panes(state, None) {
        let scope = agterm_backup_terminals::single(c.key.terminal()).or_else(|| {
            c.record
                .iter()
                .chain(c.journal.iter())
                .find_map(multiplexer_scope)
        });
        if let Some(s) = scope.filter(|s| !scopes.contains(s)) {
            scopes.push(s);
        }
    }
    agterm_backup_terminals::sort(&mut scopes);
    scopes
}

/// Shows each `type` row's line as it will really be typed: an over-long line becomes the
/// `sh '<script>'` that runs the script restore writes for it (see `ResumeLine::into_typable`).
pub fn as_typed(state: &StateDir, rows: &mut [PlanRow]) {
    for row in rows {
        if let Action::Type { line, resume } = &mut row.action {
            if !resume.fits() {
                let script = script_path(state, &row.key.to_string());
                *line = format!("sh {}", quote(&script.to_string_lossy()));
            }
        }
    }
}

/// Plans a restore against the running terminal of the registry's first row. While a row is `not-realized` (restored panes come up
/// in turns), it plans again every 250 ms for up to `realize_wait`; a pane still down then keeps that
/// row — never typed blind.
pub fn gather(
    term: &mut dyn Terminal,
    state: &StateDir,
    as_of: Option<DateTime<Utc>>,
    realize_wait: Duration,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<Planned, TerminalError> {
    gather_for(
        term,
        state,
        as_of,
        realize_wait,
        env,
        &agterm_backup_terminals::first(),
        Trigger::Restore,
    )
}

/// Plans the panes `scope` holds against its running terminal, for `trigger` (restore, or one shell's
/// start), with this launch's once-per-launch markers read for the plan (`once.rs`).
pub fn gather_for(
    term: &mut dyn Terminal,
    state: &StateDir,
    as_of: Option<DateTime<Utc>>,
    realize_wait: Duration,
    env: &dyn Fn(&str) -> Option<String>,
    scope: &Scope,
    trigger: Trigger,
) -> Result<Planned, TerminalError> {
    let info = term.info()?;
    let launch = ThisLaunch::read(state, trigger, LaunchId::of(scope, &info));
    let cut = as_of.or(info.launched_at);
    let mut captured = captured_panes(state, cut);
    captured.retain(|c| holds(scope, c));
    let transcripts = transcripts_of(&captured, env);
    let deadline = Instant::now() + realize_wait;
    loop {
        let panes = term.panes()?;
        let input = PlanInput {
            captured: &captured,
            panes: &panes,
            mode: info.restore_mode,
            launched_at: info.launched_at,
            as_of,
            now: Some(Utc::now()),
            transcripts: &transcripts,
            launch: Some(&launch),
            restart: info.supports_restart,
        };
        let mut rows = plan(&input);
        let waiting = rows.iter().any(|r| {
            matches!(
                r.action,
                Action::Skip {
                    reason: SkipReason::NotRealized
                }
            )
        });
        if waiting && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(250));
            continue;
        }
        as_typed(state, &mut rows);
        let context = PlanContext {
            mode: info.restore_mode,
            launched_at: info.launched_at,
            cutoff: cutoff(&input),
            dry_run: false,
        };
        return Ok(Planned {
            info,
            panes,
            context,
            rows,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::{pane, record, ID_A};
    use crate::mock::MockTerminal;
    use agterm_backup_core::pane::PaneRole;

    /// A state dir holding one record whose transcript exists, and a terminal whose only pane comes up
    /// after `up_after` reads (never, with `None`).
    fn setup(tmp: &std::path::Path, up_after: Option<usize>) -> (StateDir, MockTerminal) {
        let state = StateDir::at(tmp.join("state"));
        state.ensure().unwrap();
        let transcript = tmp.join("t.jsonl");
        std::fs::write(&transcript, "{}\n").unwrap();
        let mut rec = record(ID_A, PaneRole::Left, "2026-11-30T10:00:00Z");
        rec.transcript_path = Some(transcript.display().to_string());
        rec.agent_cwd = tmp.display().to_string();
        agterm_backup_terminals::write_record(&state, &rec).unwrap();
        let mut down = pane(PaneRole::Left);
        down.realized = Some(false);
        let mut term = MockTerminal::new(TerminalInfo::default(), vec![down]);
        term.on_read = Some(Box::new(move |n, panes| {
            if up_after.is_some_and(|k| n >= k) {
                panes[0].realized = Some(true);
            }
        }));
        (state, term)
    }

    #[test]
    fn a_pane_that_comes_up_within_the_wait_is_planned_once_it_is_up() {
        let tmp = tempfile::tempdir().unwrap();
        let (state, mut term) = setup(tmp.path(), Some(2));
        let none = |_: &str| None;
        let planned = gather(&mut term, &state, None, Duration::from_secs(5), &none).unwrap();
        assert!(planned.rows[0].line().is_some(), "{:?}", planned.rows[0]);
        assert_eq!(term.pane_reads, 3, "it re-planned until the pane was up");
    }

    #[test]
    fn a_pane_still_down_after_the_wait_is_not_realized() {
        let tmp = tempfile::tempdir().unwrap();
        let (state, mut term) = setup(tmp.path(), None);
        let none = |_: &str| None;
        let started = Instant::now();
        let planned = gather(&mut term, &state, None, Duration::from_millis(600), &none).unwrap();
        assert!(started.elapsed() >= Duration::from_millis(600));
        assert!(started.elapsed() < Duration::from_secs(3), "bounded");
        let Action::Skip { reason } = &planned.rows[0].action else {
            panic!("typed blind: {:?}", planned.rows[0])
        };
        assert_eq!(reason.code(), "not-realized");
        let (state, mut term) = setup(tmp.path(), None);
        let started = Instant::now();
        gather(&mut term, &state, None, Duration::ZERO, &none).unwrap();
        assert!(
            started.elapsed() < Duration::from_millis(200),
            "status does not wait"
        );
    }
}
