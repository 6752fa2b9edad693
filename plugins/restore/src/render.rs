//! The plan as a person reads it (an aligned table) and as a script reads it (versioned JSON).
//!
//! `restore --json` prints one object, schema version 1:
//!
//! ```json
//! {
//!   "v": 1,
//!   "mode": "rerun",                       // the terminal's active restore mode, null when unknown
//!   "launched_at": "2026-12-01T08:00:00Z", // the running terminal's start, null when unknown
//!   "cutoff": "2026-12-01T08:00:00Z",     // --as-of, else launched_at, else null
//!   "journal_rule": "launch",             // "as-of" | "launch" | "off" (no cutoff: launch time unknown)
//!   "dry_run": false,
//!   "rows": [
//!     {
//!       "pane": "6B1E…-left",             // PANE-KEY of the record
//!       "session": "6B1E…", "role": "left", "pane_id": "9A2F…",   // the joined pane (null: none)
//!       "joined_by": "pane-id",            // how its terminal's join found the pane ("pane-id" |
//!                                          //   "session-role" | a terminal's own: README), or null
//!       "name": "api",                     // the joined pane's name in its terminal (a session's
//!                                          //   name, a multiplexer pane's place), or null
//!       "agent": "claude", "session_id": "77e8…", "agent_cwd": "/w/p", "pane_cwd": "/w",
//!       "journal": false,                  // true: the record came from the journal (journal rule)
//!       "cutoff": "2026-12-01T08:00:00Z",  // the cutoff this row used: --as-of, else its terminal's
//!                                          //   launch (a pane that is its own session with a
//!                                          //   daemon: its own start), else null
//!       "action": "type",                  // "type" | "skip" | "create" (a session the reboot took) |
//!                                          //   "restart" (a pane its terminal restarts)
//!       "line": "cd '/w/p' && 'claude' '--resume' '77e8…'",   // when "type": exactly what is typed
//!                                          //   (`sh '<script>'` for a line over 1024 bytes); when
//!                                          //   "create": what the new session runs
//!       "reason": null,                    // when "skip": no-record | invalid-id | pane-gone |
//!                                          //   join-uncertain | other-save | session-closed | ended |
//!                                          //   duplicate | remote | new-conversation | already-running |
//!                                          //   busy | pinned | not-realized | hidden-foreground |
//!                                          //   transcript-gone | unquotable
//!       "why": null,                       // when "skip": the sentence the table shows
//!       "outcome": null                    // after typing: "resumed" | "typed-unconfirmed" | "exited: …" |
//!                                          //   "not-idle: …" | "failed: …"; "+answered N" when answered
//!     }
//!   ]
//! }
//! ```
//! New keys may be added within version 1; a key's meaning never changes without bumping `v`.

use crate::plan::{Action, PlanRow};
use agterm_backup_core::terminal::RestoreMode;
use chrono::{DateTime, SecondsFormat, Utc};
use serde_json::{json, Value};

/// The JSON schema version of `restore --json`.
pub const SCHEMA_VERSION: u32 = 1;

/// The context printed above (and into) the plan.
#[derive(Debug, Clone, Default)]
pub struct PlanContext {
    pub mode: Option<RestoreMode>,
    pub launched_at: Option<DateTime<Utc>>,
    pub cutoff: Option<DateTime<Utc>>,
    pub dry_run: bool,
}

impl PlanContext {
    /// Where the journal rule's cutoff comes from: `as-of`, `launch`, or `off`.
    pub fn journal_rule(&self) -> &'static str {
        match (self.cutoff, self.launched_at) {
            (None, _) => "off",
            (Some(c), Some(l)) if c == l => "launch",
            (Some(_), _) => "as-of",
        }
    }
}

/// The lines printed under the table: the journal rule when it is off, and with `--dry-run` the line
/// each `type` row will really type.
pub fn footer(ctx: &PlanContext, rows: &[PlanRow]) -> String {
    let mut out = String::new();
    if ctx.journal_rule() == "off" {
        out.push_str(
            "journal rule off: the terminal's launch time is unknown, so a record written after this launch \
             is not told apart from the one before it; pass --as-of <time|snapshot> to set the cutoff\n",
        );
    }
    if ctx.dry_run {
        for r in rows {
            if let Some(line) = r.line() {
                let verb = if r.creates() {
                    "would create the session"
                } else if r.restarts() {
                    "would restart"
                } else {
                    "would type into"
                };
                let text = format!("{verb} {}: {line}", pane_label(r));
                out.push_str(&agterm_backup_core::printable::printable(&text));
                out.push('\n');
            }
        }
    }
    out
}

fn stamp(t: Option<DateTime<Utc>>) -> Value {
    t.map_or(Value::Null, |t| {
        Value::String(t.to_rfc3339_opts(SecondsFormat::Secs, true))
    })
}

/// The versioned JSON document; `outcomes[i]` belongs to `rows[i]` when given.
pub fn to_json(ctx: &PlanContext, rows: &[PlanRow], outcomes: &[Option<String>]) -> Value {
    let rows: Vec<Value> = rows
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let (action, line, reason, why) = match &r.action {
                Action::Type { line, .. } => ("type", Some(line.clone()), None, None),
                Action::Create { line, .. } => ("create", Some(line.clone()), None, None),
                Action::Restart { line, .. } => ("restart", Some(line.clone()), None, None),
                Action::Skip { reason } => {
                    ("skip", None, Some(reason.code()), Some(reason.describe()))
                }
            };
            json!({
                "pane": r.key.to_string(),
                "session": r.target.as_ref().map(|t| t.session_id.clone()),
                "role": r.target.as_ref().map(|t| t.role.as_str()),
                "pane_id": r.target.as_ref().and_then(|t| t.pane_id.clone()),
                "joined_by": r.joined_by,
                "name": r.pane_name,
                "agent": r.agent, "session_id": r.session_id,
                "agent_cwd": r.agent_cwd, "pane_cwd": r.pane_cwd,
                "journal": r.from_journal,
                "cutoff": stamp(r.cutoff),
                "action": action, "line": line, "reason": reason, "why": why,
                "outcome": outcomes.get(i).cloned().flatten(),
            })
        })
        .collect();
    json!({
        "v": SCHEMA_VERSION,
        "mode": ctx.mode,
        "launched_at": stamp(ctx.launched_at),
        "cutoff": stamp(ctx.cutoff),
        "journal_rule": ctx.journal_rule(),
        "dry_run": ctx.dry_run,
        "rows": rows,
    })
}

/// The first 8 characters of an id (enough to tell conversations apart on screen).
pub fn id_prefix(id: &str) -> &str {
    id.get(..8).unwrap_or(id)
}

/// Pads to display width, counting chars (paths and names may be non-ASCII).
fn pad(s: &str, width: usize) -> String {
    let n = s.chars().count();
    format!("{s}{}", " ".repeat(width.saturating_sub(n)))
}

/// How a person recognises a row's pane: a pane that is a session's role by the session's name and the
/// role (`api · left`), else the session id's prefix; a pane with a name of its own (a multiplexer's
/// pane by its place, a session by its name) by its terminal's name and that name (`<terminal>
/// work:0.1`). Which one, its terminal's row says (`report.session_role`).
pub fn pane_label(r: &PlanRow) -> String {
    let session_role = agterm_backup_terminals::report::session_role(&r.key);
    match (&r.pane_name, &r.target) {
        (Some(name), Some(_)) if session_role.is_none() => format!("{} {name}", r.key.terminal()),
        (Some(name), Some(t)) => format!("{name} · {}", t.role),
        (None, Some(t)) => format!("{}… · {}", id_prefix(&t.session_id), t.role),
        (_, None) => match session_role {
            Some(k) => format!("{}… · {}", id_prefix(&k.session), k.role),
            None => r.key.to_string(),
        },
    }
}

/// `/home/me/src/api` → `~/src/api` when `home` is `/home/me`.
pub fn tilde(path: &str, home: Option<&str>) -> String {
    match home.filter(|h| h.len() > 1) {
        Some(h) if path == h => "~".to_string(),
        Some(h) => path
            .strip_prefix(h)
            .filter(|rest| rest.starts_with('/'))
            .map_or_else(|| path.to_string(), |rest| format!("~{rest}")),
        None => path.to_string(),
    }
}

/// The plan as an aligned table: PANE ([`pane_label`]), AGENT, ID (its prefix), DIRECTORY (`~` for
/// `home`), ACTION (what will happen and why). `color` adds green/yellow to the action (the caller
/// decides: a tty and no `NO_COLOR`).
pub fn table(rows: &[PlanRow], color: bool, home: Option<&str>) -> String {
    let header = ["PANE", "AGENT", "ID", "DIRECTORY", "ACTION"];
    let cells: Vec<[String; 5]> = rows
        .iter()
        .map(|r| {
            let pane = pane_label(r);
            let action = match &r.action {
                Action::Type { .. } => {
                    format!("type{}", if r.from_journal { " [journal]" } else { "" })
                }
                Action::Create { .. } => format!(
                    "create{}: the session, running the resume line",
                    if r.from_journal { " [journal]" } else { "" }
                ),
                Action::Restart { .. } => format!(
                    "restart{}: the replayed agent (a new conversation) gives way to the resume line",
                    if r.from_journal { " [journal]" } else { "" }
                ),
                Action::Skip { reason } => format!(
                    "skip{}: {}",
                    if r.from_journal { " [journal]" } else { "" },
                    reason.describe()
                ),
            };
            [
                pane,
                r.agent.clone().unwrap_or_else(|| "-".into()),
                r.session_id
                    .as_deref()
                    .map_or("-".into(), |s| id_prefix(s).to_string()),
                r.agent_cwd
                    .as_deref()
                    .map_or_else(|| "-".into(), |d| tilde(d, home)),
                action,
            ]
        })
        .collect();
    let paints: Vec<Option<&str>> = rows
        .iter()
        .map(|r| color.then_some(if r.line().is_some() { "32" } else { "33" }))
        .collect();
    aligned(&header, &cells, &paints)
}

/// Lays out `cells` under `header` in aligned columns (two spaces apart); the last column is not padded
/// and is painted with the row's ANSI colour code, when it has one. Every cell is made
/// [`printable`](agterm_backup_core::printable::printable) first: paths, names and argv words come from
/// outside, and the paint is the only escape sequence the table may hold.
pub fn aligned<const N: usize>(
    header: &[&str; N],
    cells: &[[String; N]],
    paints: &[Option<&str>],
) -> String {
    use agterm_backup_core::printable::printable;
    let cells: Vec<[String; N]> = cells
        .iter()
        .map(|row| row.each_ref().map(|c| printable(c).into_owned()))
        .collect();
    let cells = &cells[..];
    let mut widths = header.map(|h| h.chars().count());
    for row in cells {
        for (w, c) in widths.iter_mut().zip(row.iter()) {
            *w = (*w).max(c.chars().count());
        }
    }
    let mut out = String::new();
    let mut line = |cols: Vec<&str>, paint: Option<&str>| {
        for (i, c) in cols.iter().enumerate().take(N - 1) {
            out.push_str(&pad(c, widths[i]));
            out.push_str("  ");
        }
        match paint {
            Some(code) => out.push_str(&format!("\x1b[{code}m{}\x1b[0m", cols[N - 1])),
            None => out.push_str(cols[N - 1]),
        }
        out.push('\n');
    };
    line(header.to_vec(), None);
    for (i, row) in cells.iter().enumerate() {
        line(
            row.iter().map(String::as_str).collect(),
            paints.get(i).copied().flatten(),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn tilde_shortens_only_whole_home_prefixes() {
        use super::tilde;
        assert_eq!(tilde("/home/me/src/api", Some("/home/me")), "~/src/api");
        assert_eq!(tilde("/home/me", Some("/home/me")), "~");
        assert_eq!(tilde("/home/meadow/x", Some("/home/me")), "/home/meadow/x");
        assert_eq!(tilde("/x", Some("/")), "/x");
        assert_eq!(tilde("/x", None), "/x");
    }

    use super::*;
    use crate::fixtures::{captured, pane, record, ID_A, ID_B};
    use crate::plan::{plan, PlanInput};
    use crate::transcripts::Transcripts;
    use agterm_backup_core::pane::PaneRole;

    fn rows() -> Vec<PlanRow> {
        let r = record(ID_A, PaneRole::Left, "2026-11-30T10:00:00Z");
        let mut t = Transcripts::default();
        t.paths.insert(r.transcript_path.clone().unwrap());
        let mut busy = pane(PaneRole::Right);
        busy.foreground = Some(vec!["sleep".into(), "9".into()]);
        let b = record(ID_B, PaneRole::Right, "2026-11-30T10:00:00Z");
        plan(&PlanInput {
            captured: &[captured(Some(r), vec![]), captured(Some(b), vec![])],
            panes: &[pane(PaneRole::Left), busy],
            mode: None,
            launched_at: None,
            as_of: None,
            now: None,
            transcripts: &t,
            launch: None,
            restart: false,
        })
    }

    #[test]
    fn table_is_aligned_and_plain_without_color() {
        let text = table(&rows(), false, None);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 3);
        let col = |l: &str| {
            let byte = l.find("claude").or_else(|| l.find("AGENT")).unwrap();
            l[..byte].chars().count()
        };
        assert_eq!(col(lines[0]), col(lines[1]));
        assert_eq!(col(lines[1]), col(lines[2]));
        assert!(lines[1].ends_with("type"));
        assert!(lines[1].starts_with("api · left "), "{text}");
        assert!(lines[2].contains("skip: busy: `sleep 9`"));
        assert!(!text.contains('\x1b'));
        assert!(table(&rows(), true, None).contains("\x1b[32mtype"));
    }

    #[test]
    fn the_footer_says_when_the_journal_rule_is_off_and_what_a_dry_run_types() {
        let mut ctx = PlanContext::default();
        let text = footer(&ctx, &rows());
        assert!(text.starts_with("journal rule off:"), "{text}");
        assert!(!text.contains("would type"));
        assert_eq!(to_json(&ctx, &rows(), &[])["journal_rule"], "off");
        let t = chrono::Utc::now();
        ctx.launched_at = Some(t);
        ctx.cutoff = Some(t);
        ctx.dry_run = true;
        let text = footer(&ctx, &rows());
        assert!(!text.contains("journal rule off"), "{text}");
        assert!(
            text.contains(&format!(
                "would type into api · left: cd '/w/p' && 'claude' '--resume' '{ID_A}'"
            )),
            "{text}"
        );
        assert_eq!(to_json(&ctx, &rows(), &[])["journal_rule"], "launch");
        ctx.cutoff = Some(t - chrono::Duration::hours(1));
        assert_eq!(ctx.journal_rule(), "as-of");
    }

    #[test]
    fn the_dry_run_footer_escapes_the_session_name() {
        let ctx = PlanContext {
            dry_run: true,
            ..PlanContext::default()
        };
        let mut rows = rows();
        rows[0].pane_name = Some("api\u{1b}]0;pwned\u{7}\u{9b}2J".into());
        let text = footer(&ctx, &rows);
        assert!(
            text.contains(r"would type into api\x1b]0;pwned\x07\u{9b}2J · left"),
            "{text}"
        );
        assert!(
            !text.chars().any(|c| c.is_control() && c != '\n'),
            "{text:?}"
        );
    }

    /// Every way a pane is named: a session's role by the session's name, else the id's prefix (also
    /// from the key alone, no pane joined); a pane with a name of its own by its terminal's name and
    /// that name; a key naming neither as itself.
    #[test]
    fn a_pane_is_named_as_its_terminal_names_it() {
        use agterm_backup_core::own_pane::OwnPane;
        let mut rows = rows();
        assert_eq!(pane_label(&rows[0]), "api · left");
        rows[0].pane_name = None;
        assert_eq!(pane_label(&rows[0]), "6B1E0C2A… · left");
        rows[0].target = None;
        assert_eq!(pane_label(&rows[0]), "6B1E0C2A… · left");
        let tmux = agterm_backup_tmux::pane::TmuxPane {
            socket: "/tmp/tmux-1/default".into(),
            session: "work".into(),
            window: 0,
            pane: 1,
            pane_id: None,
            server_pid: None,
            server_started: None,
            cwd: None,
        };
        rows[1].key = tmux.key();
        rows[1].pane_name = Some(tmux.target());
        assert_eq!(pane_label(&rows[1]), "tmux work:0.1");
        rows[1].target = None;
        assert_eq!(pane_label(&rows[1]), rows[1].key.to_string());
    }

    #[test]
    fn json_is_versioned_with_one_row_per_pane() {
        let v = to_json(&PlanContext::default(), &rows(), &[Some("resumed".into())]);
        assert_eq!(v["v"], 1);
        assert_eq!(v["rows"][0]["action"], "type");
        assert_eq!(v["rows"][0]["outcome"], "resumed");
        assert_eq!(v["rows"][1]["reason"], "busy");
        assert_eq!(v["rows"][1]["outcome"], Value::Null);
        assert_eq!(v["rows"][0]["joined_by"], "pane-id");
    }
}
