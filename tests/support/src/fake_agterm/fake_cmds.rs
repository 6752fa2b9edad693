//! Test-only commands, all prefixed `fake.` (agterm has none of them): build the model, inspect the
//! state, and quit cleanly. Errors are `{"ok":false,"error":"fake: …"}`.

use super::app::App;
use super::commands::{ok, Flow};
use super::model::{new_uuid, Session, Workspace};
use super::resolve::{resolve_session, resolve_window};
use super::server::error;
use agterm_backup_core::pane::PaneRole;
use serde_json::{json, Map, Value};

pub fn dispatch(
    app: &mut App,
    name: &str,
    target: Option<&str>,
    args: &Map<String, Value>,
) -> (Value, Flow) {
    let s = |key: &str| args.get(key).and_then(Value::as_str);
    let b = |key: &str| args.get(key).and_then(Value::as_bool);
    let response = match name {
        "add_window" => {
            let id = app.add_window(s("name").unwrap_or("window"), b("open").unwrap_or(true));
            app.save();
            ok(json!({"id": id}))
        }
        "add_session" => add_session(app, args),
        "split" => match resolve_session(&app.state, target, None) {
            Ok(sid) => add_split(app, &sid),
            Err(e) => error(&format!("fake: {e}")),
        },
        "select" => select(app, target),
        "set_shapes" => {
            let shapes = &mut app.state.shapes;
            shapes.root_top_level = b("root_top_level").unwrap_or(shapes.root_top_level);
            shapes.companions_nested = b("companions_nested").unwrap_or(shapes.companions_nested);
            let now = json!(*shapes);
            app.save();
            ok(json!({"shapes": now}))
        }
        "set_split_visible" => set_split_visible(app, target, b("visible").unwrap_or(true)),
        "set_window" => match s("window").map(str::to_string) {
            Some(wid) => match app.state.windows.iter_mut().find(|w| w.id == wid) {
                Some(w) => {
                    w.open = b("open").unwrap_or(w.open);
                    app.save();
                    ok(json!({"id": wid}))
                }
                None => error(&format!("fake: no window {wid}")),
            },
            None => error("fake: set_window needs window"),
        },
        "set_realized" => set_realized(
            app,
            target,
            s("pane").unwrap_or("left"),
            b("realized").unwrap_or(true),
        ),
        "stall" => {
            let ms = args.get("ms").and_then(Value::as_u64).unwrap_or(0);
            app.stall_next = Some(std::time::Duration::from_millis(ms));
            ok(json!({"ms": ms}))
        }
        "state" => ok(json!({
            "state": serde_json::to_value(&app.state).expect("state serializes"),
            "pid": std::process::id(),
            "version": app.version.to_string(),
            "requested": super::app::mode_name(app.requested),
            "active": super::app::mode_name(app.active),
            "denylist": app.denylist,
        })),
        "quit" => {
            app.quit();
            return (json!({"ok": true}), Flow::Quit);
        }
        other => error(&format!("fake: unknown command fake.{other}")),
    };
    (response, Flow::Continue)
}

fn add_session(app: &mut App, args: &Map<String, Value>) -> Value {
    let s = |key: &str| args.get(key).and_then(Value::as_str);
    let window_id = match resolve_window(&app.state, s("window")) {
        Ok(w) => w.id.clone(),
        Err(e) => return error(&format!("fake: {e}")),
    };
    let Some(cwd) = s("cwd")
        .map(str::to_string)
        .or_else(|| std::env::var("HOME").ok())
    else {
        return error("fake: add_session needs cwd");
    };
    let root = s("workspace") == Some("root");
    if root && !app.version.has_root_sessions() {
        return error("fake: top-level sessions (workspace root) need agterm 0.44");
    }
    if s("companion_of").is_some() && !app.version.has_companions() {
        return error("fake: companions need agterm 0.43");
    }
    let sid = new_uuid();
    let session = Session {
        id: sid.clone(),
        name: s("name").unwrap_or("session").to_string(),
        flagged: false,
        left: App::new_pane(&cwd),
        right: None,
        split_visible: true,
        restore_command: None,
        split_restore_command: None,
        foreground_command: None,
        split_foreground_command: None,
        remote_host: s("remote").map(str::to_string),
        parent: s("companion_of").map(str::to_uppercase),
        scratch_cwd: s("scratch_cwd").map(str::to_string),
    };
    let window = app
        .state
        .windows
        .iter_mut()
        .find(|w| w.id == window_id)
        .expect("window resolved");
    let wanted = s("workspace");
    let ws_index = match window.workspaces.iter().position(|ws| match wanted {
        _ if root => ws.root,
        None => !ws.root,
        Some(t) => !ws.root && (ws.id.eq_ignore_ascii_case(t) || ws.name == t),
    }) {
        Some(i) => i,
        None => {
            window.workspaces.push(Workspace {
                id: new_uuid(),
                name: if root {
                    ""
                } else {
                    wanted.unwrap_or("default")
                }
                .to_string(),
                sessions: Vec::new(),
                root,
            });
            window.workspaces.len() - 1
        }
    };
    window.workspaces[ws_index].sessions.push(session);
    if args.get("select").and_then(Value::as_bool).unwrap_or(true) {
        window.selected = Some(sid.clone());
    }
    if let Err(e) = app.spawn_pane(&sid, PaneRole::Left) {
        return error(&format!("fake: {e}"));
    }
    if args.get("split").and_then(Value::as_bool).unwrap_or(false) {
        let split = add_split(app, &sid);
        if split["ok"] != json!(true) {
            return split;
        }
    }
    app.save();
    ok(describe(app, &sid))
}

fn add_split(app: &mut App, sid: &str) -> Value {
    let session = app.state.session_mut(sid).expect("session exists");
    if session.right.is_some() {
        return error("fake: session already has a split");
    }
    let cwd = session.left.cwd.clone();
    session.right = Some(App::new_pane(&cwd));
    session.split_visible = true;
    if let Err(e) = app.spawn_pane(sid, PaneRole::Right) {
        return error(&format!("fake: {e}"));
    }
    app.save();
    ok(describe(app, sid))
}

/// `{id, window, workspace, left: {tmux, paneID}, right?: {…}}`.
fn describe(app: &App, sid: &str) -> Value {
    let (w, ws, s) = app
        .state
        .sessions()
        .find(|(_, _, s)| s.id == sid)
        .expect("session exists");
    let pane = |role| {
        s.pane(role)
            .map(|p| json!({"tmux": p.tmux_pane, "paneID": p.token, "identity": p.identity}))
    };
    json!({"id": sid, "window": w.id, "workspace": ws.id, "left": pane(PaneRole::Left), "right": pane(PaneRole::Right)})
}

fn select(app: &mut App, target: Option<&str>) -> Value {
    let sid = match resolve_session(&app.state, target, None) {
        Ok(id) => id,
        Err(e) => return error(&format!("fake: {e}")),
    };
    let wid = app
        .state
        .sessions()
        .find(|(_, _, s)| s.id == sid)
        .map(|(w, _, _)| w.id.clone());
    if let Some(w) = app
        .state
        .windows
        .iter_mut()
        .find(|w| Some(&w.id) == wid.as_ref())
    {
        w.selected = Some(sid.clone());
    }
    app.state.frontmost = wid;
    app.save();
    ok(json!({"id": sid}))
}

fn set_realized(app: &mut App, target: Option<&str>, pane: &str, realized: bool) -> Value {
    let sid = match resolve_session(&app.state, target, None) {
        Ok(id) => id,
        Err(e) => return error(&format!("fake: {e}")),
    };
    let Ok(role) = pane.parse::<PaneRole>() else {
        return error(&format!("fake: bad pane {pane}"));
    };
    match app.state.session_mut(&sid).and_then(|s| s.pane_mut(role)) {
        Some(p) => {
            p.unrealized = !realized;
            app.save();
            ok(json!({"id": sid}))
        }
        None => error("fake: no such pane"),
    }
}

/// Hides or shows the split (a hidden split is neither captured nor rebuilt at launch); showing a split
/// whose shell is not running starts a plain one.
fn set_split_visible(app: &mut App, target: Option<&str>, visible: bool) -> Value {
    let sid = match resolve_session(&app.state, target, None) {
        Ok(id) => id,
        Err(e) => return error(&format!("fake: {e}")),
    };
    let session = app
        .state
        .session_mut(&sid)
        .expect("resolved session exists");
    let Some(right) = session.right.as_ref() else {
        return error("fake: session has no split");
    };
    let running = right.tmux_pane.clone();
    session.split_visible = visible;
    if visible && !running.is_some_and(|p| app.host.alive(&p)) {
        if let Err(e) = app.spawn_pane(&sid, PaneRole::Right) {
            return error(&format!("fake: {e}"));
        }
    }
    app.save();
    ok(describe(app, &sid))
}
