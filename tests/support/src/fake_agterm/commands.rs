//! Request decoding and dispatch: which commands exist at which version, and the small app-level
//! commands (`version`, `restore.mode`, `restore.clear`).

use super::app::{mode_name, parse_mode, App};
use super::server::error;
use super::{fake_cmds, restart_cmd, session_cmds, views};
use agterm_backup_core::terminal::RestoreMode;
use serde::Deserialize;
use serde_json::{json, Map, Value};

/// Whether the server keeps serving after this request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
}

#[derive(Deserialize)]
struct RawRequest {
    cmd: String,
    target: Option<String>,
    args: Option<Value>,
}

/// `ControlArgs`: one flat bag of optionals; unknown keys ignored, a wrong type is a decode error.
#[derive(Debug, Default, Deserialize)]
pub struct Args {
    pub window: Option<String>,
    pub mode: Option<String>,
    pub command: Option<String>,
    pub pane: Option<String>,
    #[serde(rename = "paneID")]
    pub pane_id: Option<String>,
    pub text: Option<String>,
    pub select: Option<bool>,
    pub all: Option<bool>,
    pub lines: Option<i64>,
}

/// Decodes one request line and answers it.
pub fn dispatch(app: &mut App, line: &[u8]) -> (Value, Flow) {
    let raw: RawRequest = match serde_json::from_slice(line) {
        Ok(r) => r,
        Err(e) => return (invalid(&e.to_string()), Flow::Continue),
    };
    if let Some(name) = raw.cmd.strip_prefix("fake.") {
        let args = match raw.args {
            Some(Value::Object(m)) => m,
            None | Some(Value::Null) => Map::new(),
            Some(_) => return (invalid("args must be an object"), Flow::Continue),
        };
        return fake_cmds::dispatch(app, name, raw.target.as_deref(), &args);
    }
    if !command_exists(app, &raw.cmd) {
        return (
            invalid(&format!(
                "cannot decode Command from invalid string value {:?}",
                raw.cmd
            )),
            Flow::Continue,
        );
    }
    let args: Args = match raw.args {
        None | Some(Value::Null) => Args::default(),
        Some(v) => match serde_json::from_value(v) {
            Ok(a) => a,
            Err(e) => return (invalid(&e.to_string()), Flow::Continue),
        },
    };
    if let Some(stall) = app.stall_next.take() {
        std::thread::sleep(stall);
    }
    let target = raw.target.as_deref();
    let response = match raw.cmd.as_str() {
        "window.list" => views::window_list(app),
        "tree" => views::tree(app, &args),
        "zmx.list" => views::zmx_list(app),
        "version" => ok(json!({"app": app_identity(app)})),
        "restore.mode" => restore_mode(app, &args),
        "restore.clear" => restore_clear(app),
        "session.restore" => session_cmds::restore(app, target, &args),
        "session.type" => session_cmds::type_text(app, target, &args),
        "session.text" => session_cmds::read_text(app, target, &args),
        "session.restart" => restart_cmd::restart(app, target, &args),
        _ => unreachable!("command_exists covers every arm"),
    };
    (response, Flow::Continue)
}

/// The commands this fake serves, gated by version like agterm's `enum Command` decoding.
fn command_exists(app: &App, cmd: &str) -> bool {
    let v = app.version;
    match cmd {
        "window.list" | "tree" | "session.type" | "session.text" | "restore.clear" => true,
        "session.restore" => v.has_pins(),
        "version" => v.has_version_cmd(),
        "restore.mode" | "zmx.list" => v.has_live(),
        "session.restart" => v.has_restart(),
        _ => false,
    }
}

/// `invalid request: <DecodingError text>`; only the prefix is agterm's contract.
pub fn invalid(detail: &str) -> Value {
    error(&format!("invalid request: The data couldn’t be read because it isn’t in the correct format. ({detail})"))
}

pub fn ok(result: Value) -> Value {
    json!({"ok": true, "result": result})
}

pub fn app_identity(app: &App) -> Value {
    json!({"version": app.version.to_string(), "commit": "fake"})
}

/// `ControlRestoreStatus`.
pub fn restore_status(app: &App) -> Value {
    let configured = app.state.restore_mode.unwrap_or(RestoreMode::None);
    json!({
        "configured": mode_name(configured),
        "requestedAtLaunch": mode_name(app.requested),
        "active": mode_name(app.active),
        "restartRequired": configured != app.requested,
    })
}

fn restore_mode(app: &mut App, args: &Args) -> Value {
    if let Some(raw) = args.mode.as_deref() {
        let Some(mode) = parse_mode(raw) else {
            return error(&format!("invalid restore mode: {raw}"));
        };
        app.state.restore_mode = Some(mode);
        app.save();
    }
    ok(json!({"restore": restore_status(app)}))
}

/// Clears every captured argv (pins untouched); app-global.
fn restore_clear(app: &mut App) -> Value {
    for session in app
        .state
        .windows
        .iter_mut()
        .filter(|w| w.open)
        .flat_map(|w| w.workspaces.iter_mut())
        .flat_map(|ws| ws.sessions.iter_mut())
    {
        session.foreground_command = None;
        session.split_foreground_command = None;
    }
    app.save();
    json!({"ok": true})
}
