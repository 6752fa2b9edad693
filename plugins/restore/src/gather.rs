//! The edge around the pure planner: ask the terminal, read the state directory, look at the disk for
//! transcripts, then call [`plan`].

use crate::load::captured_panes;
use crate::plan::{cutoff, plan, Action, PlanInput, PlanRow};
use crate::render::PlanContext;
use crate::transcripts::{codex_home, Transcripts};
use agterm_backup_core::quote::quote;
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

/// Plans with no terminal (agterm not running): every row is `pane-gone` or earlier, but the records show.
pub fn plan_offline(state: &StateDir, env: &dyn Fn(&str) -> Option<String>) -> Vec<PlanRow> {
    let captured = captured_panes(state, None);
    let records = captured
        .iter()
        .flat_map(|c| c.record.iter().chain(c.journal.iter()));
    let transcripts = Transcripts::scan(records, codex_home(env).as_deref());
    plan(&PlanInput {
        captured: &captured,
        panes: &[],
        mode: None,
        launched_at: None,
        as_of: None,
        now: Some(Utc::now()),
        transcripts: &transcripts,
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

/// The panes, once agterm has realized them all or `wait` is over (restored panes come up in turns;
/// one still down is planned `not-realized`, never typed blind).
pub fn realized_panes(
    term: &mut dyn Terminal,
    wait: Duration,
) -> Result<Vec<PaneView>, TerminalError> {
    let deadline = Instant::now() + wait;
    loop {
        let panes = term.panes()?;
        if Instant::now() >= deadline || panes.iter().all(|p| p.realized != Some(false)) {
            return Ok(panes);
        }
        std::thread::sleep(Duration::from_millis(250));
    }
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

/// Plans a restore against the running terminal, waiting up to `realize_wait` for panes agterm has
/// not realized yet.
pub fn gather(
    term: &mut dyn Terminal,
    state: &StateDir,
    as_of: Option<DateTime<Utc>>,
    realize_wait: Duration,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<Planned, TerminalError> {
    let info = term.info()?;
    let panes = realized_panes(term, realize_wait)?;
    let cut = as_of.or(info.launched_at);
    let captured = captured_panes(state, cut);
    let records = captured
        .iter()
        .flat_map(|c| c.record.iter().chain(c.journal.iter()));
    let transcripts = Transcripts::scan(records, codex_home(env).as_deref());
    let input = PlanInput {
        captured: &captured,
        panes: &panes,
        mode: info.restore_mode,
        launched_at: info.launched_at,
        as_of,
        now: Some(Utc::now()),
        transcripts: &transcripts,
    };
    let mut rows = plan(&input);
    as_typed(state, &mut rows);
    let context = PlanContext {
        mode: info.restore_mode,
        launched_at: info.launched_at,
        cutoff: cutoff(&input),
        dry_run: false,
    };
    Ok(Planned {
        info,
        panes,
        context,
        rows,
    })
}
