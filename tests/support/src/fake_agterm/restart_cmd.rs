//! `session.restart` (agterm after 0.34, `ControlServer+Restart.swift`): replaces a Live pane's shell
//! with a new login shell running `command`, keeping the pane's identity, token, environment and pin.
//! Checks in agterm's order with its error strings; the new shell gets the line typed at its first
//! prompt (as the fake's replay does), where agterm passes it as the daemon's creation command.
//! Without a command the fake starts a plain shell (agterm would replay the foreground argv). Every
//! restart is appended to [`RESTARTED_LOG`], so tests can count them.

use super::app::App;
use super::commands::{ok, Args};
use super::server::error;
use super::views::realized;
use agterm_backup_core::pane::PaneRole;
use agterm_backup_core::terminal::RestoreMode;
use serde_json::{json, Value};
use std::io::Write;
use std::time::Duration;

/// The file every `session.restart` that restarted a pane is logged to, one JSON object per line.
pub const RESTARTED_LOG: &str = "restarted.jsonl";

/// agterm's limit on the line (`ControlSessionRestartOptions`).
pub const MAX_RESTART_BYTES: usize = 4096;

pub fn restart(app: &mut App, target: Option<&str>, args: &Args) -> Value {
    let (sid, role) = match restart_target(app, target, args) {
        Ok(found) => found,
        Err(e) => return error(&e),
    };
    let command = args.command.clone().filter(|c| !c.is_empty());
    if command
        .as_ref()
        .is_some_and(|c| c.len() > MAX_RESTART_BYTES)
    {
        return error("command too long (max 4096 bytes)");
    }
    let session = app.state.session(&sid).expect("resolved session exists");
    let pane = session.pane(role).expect("resolved pane exists");
    let identity = pane.identity.clone();
    let old = pane.tmux_pane.clone();
    let Some(old_pid) = old.as_deref().and_then(|p| app.host.pid(p)) else {
        return error("the pane's shell is not running");
    };
    // The kill hangs up the pty: the old program gets its SIGHUP, as under agterm.
    if let Some(old) = &old {
        app.host.kill(old);
    }
    let fresh = match app.spawn_pane(&sid, role) {
        Ok(p) => p,
        Err(e) => {
            return error(&format!(
                "the old shell ended (pid {old_pid}) and the pane could not be rebuilt: {e}; it was closed"
            ))
        }
    };
    app.save();
    if let Some(line) = &command {
        app.host.wait_for_prompt(&fresh, Duration::from_secs(5));
        if let Err(e) = app.host.type_text(&fresh, &format!("{line}\n")) {
            eprintln!("fake-agterm: cannot run the restart line in {fresh}: {e}");
        }
    }
    let Some(new_pid) = app.host.pid(&fresh) else {
        return error(&format!(
            "the old shell ended (pid {old_pid}) and no new one was observed"
        ));
    };
    log_restart(app, &sid, role, command.as_deref());
    ok(json!({
        "id": sid,
        "text": format!("restarted {} pane: shell {old_pid} -> {new_pid}", role.as_str()),
        "pane": role.as_str(),
        "restart": {"paneID": identity, "oldPid": old_pid, "newPid": new_pid},
    }))
}

/// `resolveRestartTarget`: the session, a local one, the pane (token first), realized, and Live.
fn restart_target(
    app: &App,
    target: Option<&str>,
    args: &Args,
) -> Result<(String, PaneRole), String> {
    let sid = super::resolve::resolve_session(&app.state, target, args.window.as_deref())?;
    let session = app.state.session(&sid).expect("resolved session exists");
    if let Some(host) = session.remote_host.as_deref().filter(|h| !h.is_empty()) {
        return Err(format!(
            "session.restart needs a local pane; this session runs on {host}"
        ));
    }
    let token = args.pane_id.as_deref().filter(|t| !t.is_empty());
    let by_token = token.map(|t| {
        [PaneRole::Left, PaneRole::Right]
            .into_iter()
            .find(|r| {
                session
                    .pane(*r)
                    .is_some_and(|p| p.token.eq_ignore_ascii_case(t))
            })
            .ok_or_else(|| format!("unknown pane id: {t}"))
    });
    let role = match (by_token, args.pane.as_deref()) {
        (Some(found), _) => found?,
        (None, None | Some("left" | "primary" | "top")) => PaneRole::Left,
        (None, Some("right" | "split" | "bottom")) => PaneRole::Right,
        (None, Some(_)) => return Err("session.restart does not address the scratch pane".into()),
    };
    if role == PaneRole::Right && session.right.is_none() {
        return Err("session has no split pane".into());
    }
    if !realized(app, session, role) {
        return Err("session not realized".into());
    }
    let live = session.pane(role).is_some_and(|p| p.live);
    if app.active != RestoreMode::Live || !live {
        return Err(
            "session.restart needs Live sessions mode; this pane has no live shell to replace"
                .into(),
        );
    }
    Ok((sid, role))
}

fn log_restart(app: &App, sid: &str, role: PaneRole, command: Option<&str>) {
    let line = json!({"session": sid, "pane": role.as_str(), "command": command}).to_string();
    let path = app.opts.state_dir.join(RESTARTED_LOG);
    let appended = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .and_then(|mut f| writeln!(f, "{line}"));
    if let Err(e) = appended {
        eprintln!("fake-agterm: {}: {e}", path.display());
    }
}
