//! The edge around the pure planner: ask the terminal, read the state directory, look at the disk for
//! transcripts, then call [`plan`].

use crate::load::captured_panes;
use crate::plan::{cutoff, plan, CapturedPane, PlanInput, PlanRow};
use crate::render::PlanContext;
use crate::transcripts::{codex_home, Transcripts};
use agterm_backup_core::pane::TerminalKind;
use agterm_backup_core::record::LiveRecord;
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

/// Which captured panes one terminal acts on: agterm's, or those of one tmux server (its socket).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Scope {
    Agterm,
    Tmux { socket: String },
}

impl Scope {
    /// Whether the pane `c` belongs to this terminal.
    pub fn holds(&self, c: &CapturedPane) -> bool {
        match self {
            Scope::Agterm => c.key.terminal() == TerminalKind::Agterm,
            Scope::Tmux { socket } => {
                c.key.terminal() == TerminalKind::Tmux
                    && c.record
                        .iter()
                        .chain(c.journal.iter())
                        .filter_map(LiveRecord::tmux)
                        .any(|t| t.socket == *socket)
            }
        }
    }

    /// For people: `agterm`, `tmux (/tmp/tmux-501/default)`.
    pub fn label(&self) -> String {
        match self {
            Scope::Agterm => "agterm".into(),
            Scope::Tmux { socket } => format!("tmux ({socket})"),
        }
    }
}

/// Every terminal the state directory holds records of (agterm first, then each tmux server).
pub fn scopes_with_records(state: &StateDir) -> Vec<Scope> {
    let mut scopes: Vec<Scope> = Vec::new();
    for c in captured_panes(state, None) {
        let scope = match c.key.terminal() {
            TerminalKind::Agterm => Some(Scope::Agterm),
            TerminalKind::Tmux => c
                .record
                .iter()
                .chain(c.journal.iter())
                .find_map(LiveRecord::tmux)
                .map(|t| Scope::Tmux { socket: t.socket }),
        };
        if let Some(s) = scope.filter(|s| !scopes.contains(s)) {
            scopes.push(s);
        }
    }
    scopes.sort();
    scopes
}

/// Plans a restore against the running agterm.
pub fn gather(
    term: &mut dyn Terminal,
    state: &StateDir,
    as_of: Option<DateTime<Utc>>,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<Planned, TerminalError> {
    gather_in(term, state, as_of, env, &Scope::Agterm)
}

/// Plans a restore of the panes `scope` holds against its running terminal.
pub fn gather_in(
    term: &mut dyn Terminal,
    state: &StateDir,
    as_of: Option<DateTime<Utc>>,
    env: &dyn Fn(&str) -> Option<String>,
    scope: &Scope,
) -> Result<Planned, TerminalError> {
    let info = term.info()?;
    let panes = term.panes()?;
    let cut = as_of.or(info.launched_at);
    let mut captured = captured_panes(state, cut);
    captured.retain(|c| scope.holds(c));
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
