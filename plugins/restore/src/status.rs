//! `status`: is the hook installed, what is the running agterm, and what is captured for each pane —
//! built as plain data from the installer's report, the terminal's answers and a restore plan.
//!
//! `status --json`, version 1: `{"v":1,"hooks":[{"agent","state","path","trusted"}],
//! "agterm":{"running":bool,"version","mode","error"},"panes":[{"pane","session","role","agent",
//! "captured","session_id","agent_cwd","pane_cwd","pin","pin_outcome","restore"}],"warnings":[string]}`.
//! `agent_cwd` is given only when it differs from the pane's cwd; `restore` is what `restore` would do.

use crate::plan::{foreground_agent_args, Action, PlanRow};
use agterm_backup_core::agent::AGENTS;
use agterm_backup_core::record::{LiveRecord, PinOutcome};
use agterm_backup_core::terminal::{PaneView, RestoreMode, TerminalInfo};
use serde::Serialize;

/// One agent's hook, as the installer sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct HookState {
    pub agent: String,
    /// `present` | `outdated` | `partial` | `duplicate` | `absent` | `unreadable` (the Claude Code plugin
    /// route counts as `present`).
    pub state: String,
    pub path: String,
    /// Codex: every hook has a trust record; `None` for agents without trust.
    pub trusted: Option<bool>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AgtermState {
    pub running: bool,
    pub version: Option<String>,
    pub mode: Option<RestoreMode>,
    /// agterm has `session.restart` (replaces a replayed agent in a Live pane).
    #[serde(default)]
    pub restart: bool,
    pub error: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PaneStatus {
    pub pane: String,
    pub session: String,
    pub role: String,
    pub agent: Option<String>,
    pub captured: bool,
    pub session_id: Option<String>,
    pub agent_cwd: Option<String>,
    pub pane_cwd: Option<String>,
    /// agterm's stored pin: `none`, `plain shell` or the line.
    pub pin: String,
    pub pin_outcome: Option<PinOutcome>,
    pub restore: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StatusReport {
    pub v: u32,
    pub hooks: Vec<HookState>,
    pub agterm: AgtermState,
    pub panes: Vec<PaneStatus>,
    pub warnings: Vec<String>,
}

/// Everything `status` looks at.
pub struct StatusInput<'a> {
    pub hooks: Vec<HookState>,
    /// `Some(false)`: the denylist lacks claude or codex; `None`: unknown.
    pub denylist_ok: Option<bool>,
    pub terminal: Result<&'a TerminalInfo, String>,
    pub panes: &'a [PaneView],
    pub rows: &'a [PlanRow],
    /// The pin outcome of each row's current record.
    pub pin_outcomes: &'a [Option<PinOutcome>],
    /// Each row's current record, before the journal rule: what the hook captured in this launch.
    pub current: &'a [Option<LiveRecord>],
}

pub fn build(input: StatusInput<'_>) -> StatusReport {
    let agterm = match &input.terminal {
        Ok(i) => AgtermState {
            running: true,
            version: i.version.clone(),
            mode: i.restore_mode,
            restart: i.supports_restart,
            error: None,
        },
        Err(e) => AgtermState {
            running: false,
            version: None,
            mode: None,
            restart: false,
            error: Some(e.clone()),
        },
    };
    let mut panes = Vec::new();
    let mut used = vec![false; input.rows.len()];
    for p in input.panes {
        // The row that joined this pane, else the row of this pane's own record file (a record the
        // journal rule set aside joins nothing, but it is still this pane's).
        let row = input
            .rows
            .iter()
            .position(|r| {
                r.target.as_ref().is_some_and(|t| {
                    t.session_id.eq_ignore_ascii_case(&p.session_id) && t.role == p.role
                })
            })
            .or_else(|| {
                input.rows.iter().position(|r| {
                    r.target.is_none()
                        && r.key.agterm().is_some_and(|k| {
                            k.session.eq_ignore_ascii_case(&p.session_id) && k.role == p.role
                        })
                })
            });
        let fg_agent = p.foreground.as_ref().and_then(|fg| {
            AGENTS
                .iter()
                .find(|a| foreground_agent_args(a, fg).is_some())
                .map(|a| a.name.to_string())
        });
        if row.is_none() && fg_agent.is_none() {
            continue;
        }
        if let Some(i) = row {
            used[i] = true;
        }
        let r = row.map(|i| &input.rows[i]);
        // The agent running now, captured by its current record — before any restart the journal rule
        // sets that record aside (it was written in this launch), but it is what the hook captured.
        let running = fg_agent.as_ref().and_then(|a| {
            row.and_then(|i| input.current.get(i).cloned().flatten())
                .filter(|c| &c.agent == a)
        });
        let agent_cwd = running
            .as_ref()
            .map(|c| c.agent_cwd.clone())
            .or_else(|| r.and_then(|r| r.agent_cwd.clone()))
            .filter(|c| p.cwd.as_deref() != Some(c.as_str()));
        panes.push(PaneStatus {
            pane: format!("{}-{}", p.session_id, p.role),
            session: p.session_name.clone().unwrap_or_default(),
            role: p.role.to_string(),
            agent: fg_agent.or_else(|| r.and_then(|r| r.agent.clone())),
            captured: running.is_some() || r.and_then(|r| r.session_id.as_ref()).is_some(),
            session_id: running
                .as_ref()
                .map(|c| c.session_id.clone())
                .or_else(|| r.and_then(|r| r.session_id.clone())),
            agent_cwd,
            pane_cwd: p.cwd.clone(),
            pin: match p.pin.as_deref() {
                None => "none".into(),
                Some("") => "plain shell".into(),
                Some(line) => line.to_string(),
            },
            pin_outcome: row.and_then(|i| input.pin_outcomes.get(i).copied().flatten()),
            restore: match (r, &running) {
                (Some(r), Some(_)) if r.session_id.is_none() => {
                    "nothing to do: the agent runs, captured in this launch".into()
                }
                (Some(r), _) => describe(r),
                (None, _) => "not captured".into(),
            },
        });
    }
    for (i, r) in input.rows.iter().enumerate().filter(|(i, _)| !used[*i]) {
        panes.push(PaneStatus {
            pane: r.key.to_string(),
            session: String::new(),
            role: r
                .key
                .agterm()
                .map(|k| k.role.to_string())
                .unwrap_or_default(),
            agent: r.agent.clone(),
            captured: r.session_id.is_some(),
            session_id: r.session_id.clone(),
            agent_cwd: r.agent_cwd.clone(),
            pane_cwd: None,
            pin: "none".into(),
            pin_outcome: input.pin_outcomes.get(i).copied().flatten(),
            restore: describe(r),
        });
    }
    let warnings = warnings(&input, &agterm);
    StatusReport {
        v: 1,
        hooks: input.hooks,
        agterm,
        panes,
        warnings,
    }
}

fn describe(r: &PlanRow) -> String {
    let j = if r.from_journal { " [journal]" } else { "" };
    match &r.action {
        Action::Type { .. } => format!("would type the resume line{j}"),
        Action::Create { .. } => format!("would recreate the session running the resume line{j}"),
        Action::Restart { .. } => format!(
            "restore would restart the pane (agterm's session restart) running the resume line{j}: agterm replayed a bare agent, a new conversation"
        ),
        Action::Skip { reason } => format!("{}{j}", reason.describe()),
    }
}

fn warnings(input: &StatusInput<'_>, agterm: &AgtermState) -> Vec<String> {
    let mut w = Vec::new();
    for h in input.hooks.iter().filter(|h| h.state != "present") {
        w.push(match h.state.as_str() {
            // `apply` refuses a file it cannot parse: the user fixes it first.
            "unreadable" => format!(
                "the {} hook file {} cannot be parsed: fix it (`agterm-backup installer status` says where), then run `agterm-backup installer apply`",
                h.agent, h.path
            ),
            "duplicate" => format!(
                "the {} hook runs more than once per event from {}: run `agterm-backup installer apply` to keep one",
                h.agent, h.path
            ),
            _ => format!(
                "the {} hook is {} in {}: run `agterm-backup installer apply`",
                h.agent, h.state, h.path
            ),
        });
    }
    if input
        .hooks
        .iter()
        .any(|h| h.trusted == Some(false) && h.state != "absent")
    {
        w.push("Codex has not trusted our hooks, so they do not run: open codex and choose \"Trust all and continue\", or run `agterm-backup installer apply --trust`".into());
    }
    if input.denylist_ok == Some(false) {
        w.push("agterm's restore-denylist.conf does not list claude and codex: after a reboot a bare agent may be replayed and start a new conversation (run `agterm-backup installer apply`)".into());
    }
    if input
        .pin_outcomes
        .iter()
        .flatten()
        .any(|o| *o == PinOutcome::SettingOff)
    {
        w.push("\"Restore running commands on restart\" is off in agterm, so pins will not run: turn it on (Settings ▸ General ▸ Sessions), or run `agterm-backup restore` after each restart".into());
    }
    if agterm.mode == Some(RestoreMode::Live) {
        w.push("agterm runs in Live mode: pins never fire; agents survive a quit, but after a reboot run `agterm-backup restore`".into());
    }
    w
}

/// One pane's row: who it is (agterm's session name and role), the agent and whether it is captured, the
/// id prefix, the agent's directory (`~` for `home`) when it differs from the pane's, the pin, and what
/// `restore` would do.
fn pane_cells(p: &PaneStatus, home: Option<&str>) -> [String; 6] {
    let pane = if p.session.is_empty() {
        format!(
            "{}… · {}",
            p.pane.chars().take(8).collect::<String>(),
            p.role
        )
    } else {
        format!("{} · {}", p.session, p.role)
    };
    let agent = match (&p.agent, p.captured) {
        (Some(a), true) => a.clone(),
        (Some(a), false) => format!("{a} (NOT captured)"),
        (None, _) => "-".into(),
    };
    let id = p
        .session_id
        .as_deref()
        .map_or("-".to_string(), |s| s.chars().take(8).collect());
    let dir = p
        .agent_cwd
        .as_deref()
        .map_or("-".to_string(), |d| crate::render::tilde(d, home));
    let outcome = p.pin_outcome.and_then(|o| {
        serde_json::to_value(o)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
    });
    let pin = match outcome {
        Some(o) => format!("{} ({o})", p.pin),
        None => p.pin.clone(),
    };
    [pane, agent, id, dir, pin, p.restore.clone()]
}

/// The report for a person; directories under `home` are shown with `~`.
pub fn render(r: &StatusReport, home: Option<&str>) -> String {
    let mut out = String::new();
    for h in &r.hooks {
        let trust = match h.trusted {
            Some(true) => ", trusted",
            Some(false) => ", NOT trusted",
            None => "",
        };
        out.push_str(&format!(
            "hook {:<8} {}{trust}  ({})\n",
            h.agent, h.state, h.path
        ));
    }
    match (&r.agterm.running, &r.agterm.error) {
        (true, _) => out.push_str(&format!(
            "agterm {} · restore mode {}: {}\n",
            r.agterm
                .version
                .as_deref()
                .unwrap_or("(version unknown: before 0.25)"),
            r.agterm
                .mode
                .map_or("unknown (before 0.26)".to_string(), |m| format!("{m:?}")
                    .to_lowercase()),
            what_brings_back(r.agterm.mode, r.agterm.restart)
        )),
        (false, e) => out.push_str(&format!(
            "agterm is not running (or its socket is elsewhere): {}\n",
            e.as_deref().unwrap_or("")
        )),
    }
    if r.panes.is_empty() {
        out.push_str("no pane runs an agent or has a record\n");
    }
    let cells: Vec<[String; 6]> = r.panes.iter().map(|p| pane_cells(p, home)).collect();
    if !cells.is_empty() {
        out.push_str(&crate::render::aligned(
            &["PANE", "AGENT", "ID", "DIRECTORY", "PIN", "RESTORE"],
            &cells,
            &[],
        ));
    }
    for w in &r.warnings {
        out.push_str(&format!("warning: {w}\n"));
    }
    // Paths, versions and error texts above come from outside: nothing raw reaches the terminal.
    agterm_backup_core::printable::printable_lines(&out).into_owned()
}

/// What brings each pane's conversation back after a restart in agterm's `mode` (pins fire only in
/// Re-run; in Fresh and Live agterm stores them for a later Re-run launch).
pub fn what_brings_back(mode: Option<RestoreMode>, restart: bool) -> &'static str {
    match (mode, restart) {
        (Some(RestoreMode::Rerun), _) => {
            "agterm types each pane's pin itself at its launch; the shell line or `restore` brings back the panes without one"
        }
        (Some(RestoreMode::None), _) => {
            "pins are only stored (they fire in Re-run); each pane's shell line or `restore` brings its conversation back"
        }
        (Some(RestoreMode::Live), true) => {
            "pins are only stored; Live daemons keep agents across agterm's quit; after a reboot the shell line or `restore` types into denylisted panes, and `restore` restarts a replayed bare agent (session restart) into its pane's conversation"
        }
        (Some(RestoreMode::Live), false) => {
            "pins are only stored; Live daemons keep agents across agterm's quit; after a reboot the shell line or `restore` types into denylisted panes, and a replayed bare agent must be quit by hand before `restore` (this agterm has no session restart)"
        }
        (None, _) => "the pin fires only if agterm's \"restore running commands\" is on; otherwise the shell line or `restore`",
    }
}

#[cfg(test)]
#[path = "status_tests.rs"]
mod tests;
