//! The edge around the pure planner: ask the terminal, read the state directory, look at the disk for
//! transcripts, then call [`plan`].

use crate::load::captured_panes;
use crate::plan::{cutoff, plan, CapturedPane, PlanInput, PlanRow};
use crate::render::PlanContext;
use crate::transcripts::{codex_home, Transcripts};
use agterm_backup_core::state::StateDir;
use agterm_backup_core::terminal::{PaneView, Terminal, TerminalError, TerminalInfo};
use chrono::{DateTime, Utc};

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

/// Plans with no terminal (agterm not running): every row is `pane-gone` or earlier, but the records show.
pub fn plan_offline(state: &StateDir, env: &dyn Fn(&str) -> Option<String>) -> Vec<PlanRow> {
    let captured = captured_panes(state, None);
    let transcripts = transcripts_of(&captured, env);
    plan(&PlanInput {
        captured: &captured,
        panes: &[],
        mode: None,
        launched_at: None,
        as_of: None,
        transcripts: &transcripts,
    })
}

/// The pin outcome of each row's current record (for `status`).
pub fn pin_outcomes(
    state: &StateDir,
    rows: &[PlanRow],
) -> Vec<Option<agterm_backup_core::record::PinOutcome>> {
    rows.iter()
        .map(|r| state.read_record(&r.key).and_then(|rec| rec.pin))
        .collect()
}

/// Plans a restore against the running terminal.
pub fn gather(
    term: &mut dyn Terminal,
    state: &StateDir,
    as_of: Option<DateTime<Utc>>,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<Planned, TerminalError> {
    let info = term.info()?;
    let panes = term.panes()?;
    let cut = as_of.or(info.launched_at);
    let captured = captured_panes(state, cut);
    let transcripts = transcripts_of(&captured, env);
    let input = PlanInput {
        captured: &captured,
        panes: &panes,
        mode: info.restore_mode,
        launched_at: info.launched_at,
        as_of,
        transcripts: &transcripts,
    };
    let rows = plan(&input);
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
