//! `session.restore`, `session.type` and `session.text`, with agterm's checks in agterm's order and its
//! error strings verbatim.

use super::app::{mode_name, App};
use super::commands::{ok, Args};
use super::panes::TextRange;
use super::resolve::resolve_session;
use super::server::error;
use super::views::realized;
use agterm_backup_core::pane::PaneRole;
use agterm_backup_core::terminal::RestoreMode;
use serde_json::{json, Value};
use std::io::Write;

/// The file `session.type` requests are logged to, one JSON object per line.
pub const TYPED_LOG: &str = "typed.jsonl";

/// The pin limit (`command too long (max 1024 bytes)`).
pub const MAX_PIN_BYTES: usize = 1024;

/// The note agterm adds to a `set` when the (pre-0.26) setting is off.
pub const SETTING_OFF_NOTE: &str =
    "saved, but \"Restore running commands on restart\" is off, so the override will not run";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum PaneArg {
    Role(PaneRole),
    Scratch,
}

/// agterm's `StatusPane` literals, plus the CLI aliases the server parses itself from 0.26.2.
fn parse_pane(app: &App, raw: &str) -> Option<PaneArg> {
    match raw {
        "left" => Some(PaneArg::Role(PaneRole::Left)),
        "right" => Some(PaneArg::Role(PaneRole::Right)),
        "scratch" => Some(PaneArg::Scratch),
        "primary" | "top" if app.version.has_pane_aliases() => Some(PaneArg::Role(PaneRole::Left)),
        "split" | "bottom" if app.version.has_pane_aliases() => {
            Some(PaneArg::Role(PaneRole::Right))
        }
        _ => None,
    }
}

fn has_control(text: &str) -> bool {
    text.chars().any(|c| (c as u32) < 0x20 || c == '\u{7f}')
}

enum PinUpdate {
    Pin(String),
    PinNone,
    Unpin,
}

pub fn restore(app: &mut App, target: Option<&str>, args: &Args) -> Value {
    // 1. Mode (before target resolution, so `mode:"probe"` is a side-effect-free feature probe).
    let update = match args.mode.as_deref().unwrap_or("") {
        "set" => {
            let Some(command) = args.command.as_deref() else {
                return error("session.restore set requires a command");
            };
            if has_control(command) {
                return error("command must not contain control characters");
            }
            if command.len() > MAX_PIN_BYTES {
                return error("command too long (max 1024 bytes)");
            }
            if command.is_empty() {
                PinUpdate::PinNone
            } else {
                PinUpdate::Pin(command.to_string())
            }
        }
        "none" => PinUpdate::PinNone,
        "clear" => PinUpdate::Unpin,
        other => return error(&format!("invalid restore mode: {other} (set|none|clear)")),
    };
    // 2. Pane syntax.
    let pane_arg = match args.pane.as_deref() {
        None => None,
        Some(raw) => match parse_pane(app, raw) {
            Some(p) => Some(p),
            None => return error("--pane must be left, right, or scratch"),
        },
    };
    // 3. Target.
    let sid = match resolve_session(&app.state, target, args.window.as_deref()) {
        Ok(id) => id,
        Err(e) => return error(&e),
    };
    let session = app.state.session(&sid).expect("resolved session exists");
    // 4. Pane: a live token first, then the explicit pane, never a silent fallback.
    let token = args.pane_id.as_deref().filter(|t| !t.is_empty());
    let by_token = token.and_then(|t| {
        [PaneRole::Left, PaneRole::Right]
            .into_iter()
            .find(|r| {
                session
                    .pane(*r)
                    .is_some_and(|p| p.token.eq_ignore_ascii_case(t))
            })
            .map(PaneArg::Role)
    });
    let pane = match (by_token, pane_arg, token) {
        (Some(p), _, _) => p,
        (None, Some(p), _) => p,
        (None, None, Some(t)) => return error(&format!("unknown pane id: {t}")),
        (None, None, None) => PaneArg::Role(PaneRole::Left),
    };
    // 5. Pane validity.
    let role = match pane {
        PaneArg::Scratch => return error("the scratch terminal is never restored"),
        PaneArg::Role(PaneRole::Right) if session.right.is_none() => {
            return error("session has no split")
        }
        PaneArg::Role(r) => r,
    };
    // 6. Save at once.
    let value = match &update {
        PinUpdate::Pin(line) => Some(line.clone()),
        PinUpdate::PinNone => Some(String::new()),
        PinUpdate::Unpin => None,
    };
    *app.state.session_mut(&sid).expect("session").pin_mut(role) = value;
    app.save();
    // 7. Result, with the note when the pin will not run.
    let mut result = json!({"id": sid});
    if app.version.has_live() {
        result["pane"] = json!(role.as_str());
        if !matches!(update, PinUpdate::Unpin) && app.active != RestoreMode::Rerun {
            result["text"] = json!(format!(
                "saved for a future \"Re-run commands\" launch; the active restore mode is {}, so the override will not run now",
                mode_name(app.active)
            ));
        }
    } else if matches!(update, PinUpdate::Pin(_))
        && app.state.restore_mode != Some(RestoreMode::Rerun)
    {
        result["text"] = json!(SETTING_OFF_NOTE);
    }
    ok(result)
}

/// Resolves the target and the pane of `session.type`/`session.text` to a running tmux pane.
/// `honours_pane_id`: `session.text` reads `paneID` from 0.34, `session.type` only after 0.34; a token
/// that matches no pane falls back to `pane` (as `session.status` does).
fn io_pane(
    app: &App,
    target: Option<&str>,
    args: &Args,
    honours_pane_id: bool,
) -> Result<(String, PaneRole, String), String> {
    let sid = resolve_session(&app.state, target, args.window.as_deref())?;
    let session = app.state.session(&sid).expect("resolved session exists");
    let by_token = args
        .pane_id
        .as_deref()
        .filter(|t| honours_pane_id && !t.is_empty())
        .and_then(|t| {
            [PaneRole::Left, PaneRole::Right].into_iter().find(|r| {
                session
                    .pane(*r)
                    .is_some_and(|p| p.token.eq_ignore_ascii_case(t))
            })
        });
    let role = match (by_token, args.pane.as_deref()) {
        (Some(role), _) => role,
        (None, None) => PaneRole::Left,
        (None, Some(raw)) => match parse_pane(app, raw) {
            Some(PaneArg::Role(r)) => r,
            Some(PaneArg::Scratch) => return Err("session has no scratch terminal".into()),
            None => return Err(format!("invalid pane: {raw}")),
        },
    };
    if role == PaneRole::Right && session.right.is_none() {
        return Err("session has no split pane".into());
    }
    if !realized(app, session, role) {
        return Err("session not realized".into());
    }
    let tmux_pane = session
        .pane(role)
        .and_then(|p| p.tmux_pane.clone())
        .expect("realized pane runs");
    Ok((sid, role, tmux_pane))
}

pub fn type_text(app: &mut App, target: Option<&str>, args: &Args) -> Value {
    let Some(text) = args.text.as_deref() else {
        return error("session.type requires text");
    };
    if app.version.has_version_cmd() && text.contains('\0') {
        return error("text must not contain a NUL byte");
    }
    let honours_pane_id = app.version.has_surface_pane_ids();
    let (sid, role, tmux_pane) = match io_pane(app, target, args, honours_pane_id) {
        Ok(found) => found,
        Err(e) => return error(&e),
    };
    log_typed(app, &sid, role, text);
    if let Err(e) = app.host.type_text(&tmux_pane, text) {
        eprintln!("fake-agterm: {e}");
    }
    ok(json!({"id": sid}))
}

fn log_typed(app: &App, sid: &str, role: PaneRole, text: &str) {
    let line = json!({"session": sid, "pane": role.as_str(), "text": text}).to_string();
    let path = app.opts.state_dir.join(TYPED_LOG);
    let appended = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .and_then(|mut f| writeln!(f, "{line}"));
    if let Err(e) = appended {
        eprintln!("fake-agterm: {}: {e}", path.display());
    }
}

pub fn read_text(app: &App, target: Option<&str>, args: &Args) -> Value {
    if args.all == Some(true) && args.lines.is_some() {
        return error("use either --all or --lines, not both");
    }
    if args.lines.is_some_and(|n| n <= 0) {
        return error("--lines must be greater than 0");
    }
    let honours_pane_id = app.version.at_least(0, 34, 0);
    let (_, _, tmux_pane) = match io_pane(app, target, args, honours_pane_id) {
        Ok(found) => found,
        Err(e) => return error(&e),
    };
    let range = match (args.all, args.lines) {
        (Some(true), _) => TextRange::All,
        (_, Some(n)) => TextRange::Lines(n as usize),
        _ => TextRange::Visible,
    };
    match app.host.capture(&tmux_pane, range) {
        Ok(text) => ok(json!({"text": text})),
        Err(_) => error("failed to read surface buffer"),
    }
}
