//! The status report for a person: the hooks, one line per terminal instance, the panes' table, the
//! warnings.

use super::{PaneStatus, StatusReport, TerminalState};

/// One pane's row: who it is (a session's name and the pane's role, or the name its terminal gives it:
/// the registry's `pane_label`), the agent and whether it is captured, the id prefix, the agent's
/// directory (`~` for `home`) when it differs from the pane's, the pin, and what `restore` would do —
/// with the cutoff it used when that is not its terminal's launch (a pane that is its own session with
/// a daemon: its own start).
fn pane_cells(p: &PaneStatus, home: Option<&str>, launches: &[&str]) -> [String; 6] {
    let pane = match (p.session.is_empty(), p.role.is_empty()) {
        (true, true) => p.pane.clone(),
        (false, true) => p.session.clone(),
        (true, false) => format!(
            "{}… · {}",
            p.pane.chars().take(8).collect::<String>(),
            p.role
        ),
        (false, false) => format!("{} · {}", p.session, p.role),
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
    let restore = match p.cutoff.as_deref().filter(|c| !launches.contains(c)) {
        Some(c) => format!("{} (cutoff {c})", p.restore),
        None => p.restore.clone(),
    };
    [pane, agent, id, dir, pin, restore]
}

/// One line per terminal instance: what runs, or that it does not (one line, never a failure), in its
/// terminal's words (its row's `report`).
fn terminal_line(t: &TerminalState) -> String {
    let report = agterm_backup_terminals::report::of(&t.terminal);
    let place = t
        .place
        .as_deref()
        .map_or(String::new(), |p| format!(" ({p})"));
    if !t.running {
        return format!(
            "{}{place} is not running{}: {}\n",
            t.terminal,
            report.not_running_hint,
            t.error.as_deref().unwrap_or("")
        );
    }
    let mut line = (report.running_line)(&super::sections::answered(t), &place);
    if let Some(l) = &t.launched_at {
        line.push_str(&format!(" · launched {l}"));
    }
    line.push('\n');
    line
}

/// The report for a person; directories under `home` are shown with `~`.
pub fn render(r: &StatusReport, home: Option<&str>) -> String {
    let mut out = String::new();
    for h in &r.hooks {
        let trust = match (h.trusted, &h.switched_off) {
            (_, Some(_)) => ", NOT RUN (see the warning)",
            (Some(true), None) => ", trusted",
            (Some(false), None) => ", NOT trusted",
            (None, None) => "",
        };
        out.push_str(&format!(
            "hook {:<8} {}{trust}  ({})\n",
            h.agent, h.state, h.path
        ));
    }
    for t in &r.terminals {
        out.push_str(&terminal_line(t));
    }
    if r.panes.is_empty() {
        out.push_str("no pane runs an agent or has a record\n");
    }
    let launches: Vec<&str> = r
        .terminals
        .iter()
        .filter_map(|t| t.launched_at.as_deref())
        .collect();
    let cells: Vec<[String; 6]> = r
        .panes
        .iter()
        .map(|p| pane_cells(p, home, &launches))
        .collect();
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
