//! Read-only views: `window.list`, `tree` (one window) and `zmx.list`, with each field gated by the
//! version that introduced it and nil fields omitted.

use super::app::App;
use super::commands::{app_identity, ok, restore_status, Args};
use super::model::{Session, Window};
use super::resolve::resolve_window;
use super::server::error;
use agterm_backup_core::pane::PaneRole;
use serde_json::{json, Map, Value};

pub fn window_list(app: &App) -> Value {
    let front = app.state.frontmost.as_deref();
    let windows: Vec<Value> = app
        .state
        .windows
        .iter()
        .map(|w| json!({"id": w.id, "name": w.name, "open": w.open, "active": w.open && Some(w.id.as_str()) == front}))
        .collect();
    ok(json!({"windows": windows}))
}

pub fn tree(app: &App, args: &Args) -> Value {
    let window = match resolve_window(&app.state, args.window.as_deref()) {
        Ok(w) => w,
        Err(e) => return error(&e),
    };
    let _pids = app.host.snapshot();
    let shapes = app.state.shapes;
    let mut top_level = Vec::new();
    let mut workspaces = Vec::new();
    for ws in &window.workspaces {
        let sessions = session_nodes(app, window, &ws.sessions);
        if ws.root && shapes.root_top_level {
            top_level = sessions;
            continue;
        }
        let active = ws
            .sessions
            .iter()
            .any(|s| Some(&s.id) == window.selected.as_ref());
        let mut node =
            json!({"id": ws.id, "name": ws.name, "active": active, "sessions": sessions});
        if ws.root {
            node["root"] = json!(true);
        }
        workspaces.push(node);
    }
    let mut tree = Map::new();
    tree.insert("workspaces".into(), Value::Array(workspaces));
    if !top_level.is_empty() {
        tree.insert("sessions".into(), Value::Array(top_level));
    }
    if app.version.has_version_cmd() {
        tree.insert("app".into(), app_identity(app));
    }
    ok(json!({"tree": tree}))
}

/// A workspace's session nodes: flat, companions carrying `parentID` — or, with
/// [`Shapes::companions_nested`](super::model::Shapes), each companion inside its lead's `companions`.
fn session_nodes(app: &App, window: &Window, sessions: &[Session]) -> Vec<Value> {
    let nested = app.state.shapes.companions_nested;
    let mut nodes: Vec<(String, Value)> = Vec::new();
    for s in sessions {
        let node = session_node(app, window, s);
        let lead = s
            .parent
            .as_ref()
            .filter(|_| nested)
            .and_then(|p| nodes.iter_mut().find(|(id, _)| id == p).map(|(_, n)| n));
        match lead {
            Some(n) => {
                let list = n
                    .as_object_mut()
                    .expect("session nodes are objects")
                    .entry("companions")
                    .or_insert_with(|| json!([]));
                list.as_array_mut().expect("a list").push(node);
            }
            None => nodes.push((s.id.clone(), node)),
        }
    }
    nodes.into_iter().map(|(_, n)| n).collect()
}

/// Whether the pane's terminal exists (its shell runs and the test has not marked it unrealized).
pub fn realized(app: &App, session: &Session, role: PaneRole) -> bool {
    session
        .pane(role)
        .is_some_and(|p| !p.unrealized && p.tmux_pane.as_deref().is_some_and(|t| app.host.alive(t)))
}

fn session_node(app: &App, window: &Window, s: &Session) -> Value {
    let v = app.version;
    let mut n = Map::new();
    let live_cwd = s.left.tmux_pane.as_deref().and_then(|t| app.host.cwd(t));
    n.insert("id".into(), json!(s.id));
    n.insert("name".into(), json!(s.name));
    n.insert(
        "cwd".into(),
        json!(live_cwd.unwrap_or_else(|| s.left.cwd.clone())),
    );
    n.insert(
        "active".into(),
        json!(window.selected.as_ref() == Some(&s.id)),
    );
    n.insert("split".into(), json!(s.right.is_some() && s.split_visible));
    if s.right.is_some() {
        n.insert("hasSplit".into(), json!(true));
        n.insert("splitAxis".into(), json!("vertical"));
    }
    n.insert("overlay".into(), json!(false));
    n.insert("scratch".into(), json!(false));
    n.insert("flagged".into(), json!(s.flagged));
    let mut surfaces = Vec::new();
    for (role, fg_key, pin_key, shell_key, attribution_key) in [
        (
            PaneRole::Left,
            "foreground",
            "restoreCommand",
            "foregroundShell",
            "liveAttribution",
        ),
        (
            PaneRole::Right,
            "splitForeground",
            "splitRestoreCommand",
            "splitForegroundShell",
            "splitLiveAttribution",
        ),
    ] {
        let Some(pane) = s.pane(role) else { continue };
        let running = pane.tmux_pane.as_deref().filter(|t| app.host.alive(t));
        // agterm omits `foreground` for a program whose argv it may not read (setuid `sudo`), and
        // `foregroundShell` names the shell only when the shell itself holds the foreground.
        match running.and_then(|t| app.host.foreground(t)) {
            Some(argv) => {
                n.insert(fg_key.into(), json!(argv));
            }
            None if running.is_some_and(|t| app.host.shell_in_front(t)) && v.has_live() => {
                n.insert(shell_key.into(), json!(app.host.shell()));
            }
            None => {}
        }
        if let Some(pin) = s.pin(role) {
            n.insert(pin_key.into(), json!(pin));
        }
        if v.has_live() && pane.live {
            n.insert(attribution_key.into(), json!("supervisor"));
        }
        let visible = role == PaneRole::Left || s.split_visible;
        let mut surface = json!({
            "id": format!("surface:{}:{}", s.id, role),
            "kind": role.as_str(),
            "active": role == PaneRole::Left,
            "visible": visible,
        });
        if v.at_least(0, 34, 0) && pane.live {
            surface["backedByZmx"] = json!(true);
        }
        if v.has_surface_pane_ids() {
            surface["paneID"] = json!(pane.token);
        }
        surfaces.push(surface);
    }
    if v.has_realized() {
        n.insert("realized".into(), json!(realized(app, s, PaneRole::Left)));
    }
    // Font sizes are omitted while a pane is unrealized, which is how agterm shows per-pane liveness.
    for (role, key) in [
        (PaneRole::Left, "fontSize"),
        (PaneRole::Right, "splitFontSize"),
    ] {
        if s.pane(role).is_some() && realized(app, s, role) {
            n.insert(key.into(), json!(13));
        }
    }
    n.insert("surfaces".into(), Value::Array(surfaces));
    if let Some(right) = s.right.as_ref().filter(|_| v.has_split_cwd()) {
        let live = right.tmux_pane.as_deref().and_then(|t| app.host.cwd(t));
        n.insert(
            "splitCwd".into(),
            json!(live.unwrap_or_else(|| right.cwd.clone())),
        );
    }
    if let Some(host) = s.remote_host.as_ref().filter(|_| v.has_live()) {
        n.insert("remoteHost".into(), json!(host));
        if v.has_remote_flag() {
            n.insert("remote".into(), json!(true));
        }
    }
    if let Some(lead) = s.parent.as_ref().filter(|_| v.has_companions()) {
        n.insert("parentID".into(), json!(lead));
    }
    if let Some(dir) = s.scratch_cwd.as_ref().filter(|_| v.has_scratch_cwd()) {
        n.insert("scratchCwd".into(), json!(dir));
    }
    if v.has_live() {
        let panes: Vec<_> = [Some(&s.left), s.right.as_ref()]
            .into_iter()
            .flatten()
            .collect();
        if panes.iter().all(|p| p.live) {
            n.insert("backedByZmx".into(), json!(true));
        }
    }
    Value::Object(n)
}

/// `zmx.list`: one row per Live pane (`claimed`; `running` while its process lives, else `absent`).
pub fn zmx_list(app: &App) -> Value {
    let mut entries = Vec::new();
    for (w, ws, s) in app.state.sessions() {
        for role in [PaneRole::Left, PaneRole::Right] {
            let Some(pane) = s.pane(role).filter(|p| p.live) else {
                continue;
            };
            let pid = pane.tmux_pane.as_deref().and_then(|t| app.host.pid(t));
            let mut row = json!({
                "daemon": daemon_name(&pane.identity),
                "state": "claimed",
                "observation": if pid.is_some() { "running" } else { "absent" },
                "windowID": w.id, "windowName": w.name,
                "windowState": if w.open { "open" } else { "closed" },
                "workspaceID": ws.id, "workspaceName": ws.name,
                "sessionID": s.id, "sessionName": s.name,
                "pane": role.as_str(),
            });
            if let Some(pid) = pid {
                row["clients"] = json!(u32::from(w.open));
                row["leaderPID"] = json!(pid);
            }
            entries.push(row);
        }
    }
    ok(json!({"zmx": {
        "restore": restore_status(app),
        "inventoryComplete": true,
        "endpoint": {
            "executable": "fake-agterm",
            "socketDirectory": format!("/tmp/agterm-zmx-{:016x}", fnv1a64(&app.opts.state_dir.display().to_string())),
        },
        "entries": entries,
    }}))
}

/// `ZmxSupport.daemonName(for:)`: `agterm-` + the pane identity's 32 lowercase hex digits.
pub fn daemon_name(identity: &str) -> String {
    format!("agterm-{}", identity.replace('-', "").to_lowercase())
}

fn fnv1a64(text: &str) -> u64 {
    let mut hash: u64 = 14695981039346656037;
    for b in text.bytes() {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(1099511628211);
    }
    hash
}
