//! The running fake agterm: its options, its launch (bringing panes back the way agterm does in each
//! restore mode) and its clean quit (capturing each pane's foreground argv).

use super::model::{new_uuid, FakeState, LaunchEntry, Pane, Session, Version};
use super::panes::PaneHost;
use super::plan::{launch_action, parse_denylist, LaunchAction, PaneLaunch, STARTER_DENYLIST};
use agterm_backup_core::pane::PaneRole;
use agterm_backup_core::terminal::RestoreMode;
use std::path::PathBuf;
use std::time::Duration;

/// Command-line options of the `fake-agterm` binary.
#[derive(Debug, Clone)]
pub struct Options {
    pub state_dir: PathBuf,
    pub socket: PathBuf,
    pub version: Version,
    /// Overrides the persisted `restoreMode` when given.
    pub mode: Option<RestoreMode>,
    pub denylist: PathBuf,
    pub tmux_socket: PathBuf,
}

pub const USAGE: &str = "usage: fake-agterm --state-dir DIR [--socket PATH] [--version 0.34] \
[--mode none|rerun|live] [--denylist PATH] [--tmux-socket PATH]";

impl Options {
    pub fn parse(args: impl IntoIterator<Item = String>) -> Result<Options, String> {
        let mut args = args.into_iter();
        let (mut state_dir, mut socket, mut version, mut mode, mut denylist, mut tmux) =
            (None, None, Version(0, 34, 0), None, None, None);
        while let Some(flag) = args.next() {
            let mut value = || args.next().ok_or(format!("{flag} needs a value\n{USAGE}"));
            match flag.as_str() {
                "--state-dir" => state_dir = Some(PathBuf::from(value()?)),
                "--socket" => socket = Some(PathBuf::from(value()?)),
                "--version" => version = Version::parse(&value()?)?,
                "--mode" => {
                    mode = Some(
                        parse_mode(&value()?)
                            .ok_or(format!("--mode: want none, rerun or live\n{USAGE}"))?,
                    )
                }
                "--denylist" => denylist = Some(PathBuf::from(value()?)),
                "--tmux-socket" => tmux = Some(PathBuf::from(value()?)),
                other => return Err(format!("unknown option {other}\n{USAGE}")),
            }
        }
        let state_dir = state_dir.ok_or(format!("--state-dir is required\n{USAGE}"))?;
        Ok(Options {
            socket: socket.unwrap_or_else(|| state_dir.join("agterm.sock")),
            denylist: denylist.unwrap_or_else(|| state_dir.join("config/restore-denylist.conf")),
            tmux_socket: tmux.unwrap_or_else(|| state_dir.join("tmux.sock")),
            state_dir,
            version,
            mode,
        })
    }
}

/// Strict mode parse (`restore.mode` refuses typos).
pub fn parse_mode(text: &str) -> Option<RestoreMode> {
    match text {
        "none" => Some(RestoreMode::None),
        "rerun" => Some(RestoreMode::Rerun),
        "live" => Some(RestoreMode::Live),
        _ => None,
    }
}

pub fn mode_name(mode: RestoreMode) -> &'static str {
    match mode {
        RestoreMode::None => "none",
        RestoreMode::Rerun => "rerun",
        RestoreMode::Live => "live",
    }
}

/// One running fake agterm.
pub struct App {
    pub opts: Options,
    pub version: Version,
    /// The mode configured when this process launched (frozen per process).
    pub requested: RestoreMode,
    /// The mode this process actually runs (Live needs 0.26+).
    pub active: RestoreMode,
    pub denylist: Vec<String>,
    pub host: PaneHost,
    pub state: FakeState,
    /// Test knob (`fake.stall`): hold the next agterm request this long before answering.
    pub stall_next: Option<Duration>,
}

impl App {
    /// Loads the state, reads the denylist (seeding agterm's starter file when absent) and brings every
    /// pane of every open window back.
    pub fn launch(opts: Options) -> Result<App, String> {
        std::fs::create_dir_all(&opts.state_dir)
            .map_err(|e| format!("{}: {e}", opts.state_dir.display()))?;
        let mut state = FakeState::load(&opts.state_dir)?;
        if let Some(mode) = opts.mode {
            state.restore_mode = Some(mode);
        }
        let requested = state.restore_mode.unwrap_or(RestoreMode::None);
        let active = match requested {
            RestoreMode::Live if !opts.version.has_live() => RestoreMode::None,
            other => other,
        };
        let denylist = read_denylist(&opts.denylist);
        let host = PaneHost::new(&opts.tmux_socket, state.shell.as_deref().unwrap_or("bash"));
        state.launches += 1;
        let mut app = App {
            version: opts.version,
            opts,
            requested,
            active,
            denylist,
            host,
            state,
            stall_next: None,
        };
        if app.state.windows.is_empty() {
            app.add_window("main", true);
        }
        app.restore_panes();
        app.save();
        Ok(app)
    }

    pub fn save(&self) {
        if let Err(e) = self.state.save(&self.opts.state_dir) {
            eprintln!("fake-agterm: cannot save state: {e}");
        }
    }

    pub fn add_window(&mut self, name: &str, open: bool) -> String {
        let id = new_uuid();
        self.state.windows.push(super::model::Window {
            id: id.clone(),
            name: name.to_string(),
            open,
            workspaces: Vec::new(),
            selected: None,
        });
        if open && self.state.frontmost.is_none() {
            self.state.frontmost = Some(id.clone());
        }
        id
    }

    /// The environment agterm puts on a session pane (`surfaceEnv`), plus the test's extra variables.
    pub fn pane_env(&self, session_id: &str, role: PaneRole, token: &str) -> Vec<(String, String)> {
        let (window, workspace) = self
            .state
            .sessions()
            .find(|(_, _, s)| s.id == session_id)
            .map(|(w, ws, _)| (w.id.clone(), ws.id.clone()))
            .unwrap_or_default();
        let mut env = vec![
            ("AGTERM_ENABLED".to_string(), "1".to_string()),
            ("AGTERM_SESSION_ID".into(), session_id.to_string()),
            ("AGTERM_WINDOW_ID".into(), window),
            ("AGTERM_WORKSPACE_ID".into(), workspace),
            (
                "AGTERM_SOCKET".into(),
                self.opts.socket.display().to_string(),
            ),
            ("AGTERM_PANE".into(), role.as_str().to_string()),
            ("AGTERM_PANE_ID".into(), token.to_string()),
            ("TERM_PROGRAM".into(), "agterm".into()),
            ("TERM_PROGRAM_VERSION".into(), self.version.to_string()),
        ];
        env.extend(self.state.pane_env.iter().cloned());
        env
    }

    /// Starts a fresh login shell for the pane (a new `AGTERM_PANE_ID` before 0.26), recording its tmux id.
    pub fn spawn_pane(&mut self, session_id: &str, role: PaneRole) -> Result<String, String> {
        let persistent = self.version.has_live();
        let live = self.active == RestoreMode::Live;
        let session = self.state.session(session_id).ok_or("no such session")?;
        let pane = session.pane(role).ok_or("no such pane")?;
        let token = if persistent {
            pane.identity.clone()
        } else {
            new_uuid()
        };
        let cwd = pane.cwd.clone();
        let env = self.pane_env(session_id, role, &token);
        let tmux_pane = self.host.spawn(&cwd, &env)?;
        let pane = self
            .state
            .session_mut(session_id)
            .and_then(|s| s.pane_mut(role))
            .expect("pane exists");
        pane.token = token;
        pane.tmux_pane = Some(tmux_pane.clone());
        pane.live = live;
        Ok(tmux_pane)
    }

    /// A new pane record (identity fixed for life).
    pub fn new_pane(cwd: &str) -> Pane {
        let identity = new_uuid();
        Pane {
            token: identity.clone(),
            identity,
            cwd: cwd.to_string(),
            tmux_pane: None,
            live: false,
            unrealized: false,
        }
    }

    /// The launch restore: every shown pane of every open window, decided by [`launch_action`].
    fn restore_panes(&mut self) {
        let mut todo = Vec::new();
        for window in &mut self.state.windows {
            for session in window
                .workspaces
                .iter_mut()
                .flat_map(|ws| ws.sessions.iter_mut())
            {
                for role in [PaneRole::Left, PaneRole::Right] {
                    let shown = session.shown_roles().contains(&role);
                    let Some(pane) = session.pane_mut(role) else {
                        continue;
                    };
                    let survived = pane
                        .tmux_pane
                        .as_deref()
                        .is_some_and(|p| self.host.alive(p));
                    if !survived {
                        pane.tmux_pane = None;
                    }
                    if window.open && shown {
                        todo.push((session.id.clone(), role, survived));
                    }
                }
            }
        }
        let mut log = Vec::new();
        for (sid, role, survived) in todo {
            let session = self.state.session(&sid).expect("session listed");
            let pane = session.pane(role).expect("pane listed");
            let action = launch_action(
                &PaneLaunch {
                    mode: self.active,
                    pin: session.pin(role).as_deref(),
                    capture: captured(session, role),
                    survived,
                    was_live: pane.live,
                },
                &self.denylist,
            );
            let old = pane.tmux_pane.clone();
            let entry = self.apply_launch(&sid, role, old, action);
            log.push(entry);
            if let Some(s) = self.state.session_mut(&sid) {
                *s.capture_mut(role) = None;
            }
        }
        self.state.last_launch = log;
    }

    fn apply_launch(
        &mut self,
        sid: &str,
        role: PaneRole,
        old: Option<String>,
        action: LaunchAction,
    ) -> LaunchEntry {
        let entry = |action: &str, typed: Option<String>| LaunchEntry {
            session: sid.to_string(),
            pane: role,
            action: action.to_string(),
            typed,
        };
        if action == LaunchAction::Reattach {
            return entry("reattach", None);
        }
        if let Some(old) = old {
            self.host.kill(&old);
        }
        let tmux_pane = match self.spawn_pane(sid, role) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("fake-agterm: cannot spawn {sid} {role}: {e}");
                return entry("failed", None);
            }
        };
        match action {
            LaunchAction::Type { line, why } => {
                // agterm writes initial_input at spawn; waiting for the prompt keeps the screen readable.
                self.host
                    .wait_for_prompt(&tmux_pane, Duration::from_secs(5));
                if let Err(e) = self.host.type_text(&tmux_pane, &format!("{line}\n")) {
                    eprintln!("fake-agterm: cannot type into {tmux_pane}: {e}");
                }
                entry(why, Some(line))
            }
            LaunchAction::Shell { why } => entry(why, None),
            LaunchAction::Reattach => unreachable!("handled above"),
        }
    }

    /// A clean quit: capture each shown pane's foreground argv (rerun and live, on the configured mode),
    /// then close every pane except Live ones (their daemons survive), and save.
    pub fn quit(&mut self) {
        let configured = self.state.restore_mode.unwrap_or(RestoreMode::None);
        let capture = matches!(configured, RestoreMode::Rerun | RestoreMode::Live);
        let keep_live = self.active == RestoreMode::Live;
        let host = &self.host;
        for window in &mut self.state.windows {
            for session in window
                .workspaces
                .iter_mut()
                .flat_map(|ws| ws.sessions.iter_mut())
            {
                for role in session.shown_roles() {
                    let tmux_pane = session.pane(role).and_then(|p| p.tmux_pane.clone());
                    if capture && window.open {
                        *session.capture_mut(role) =
                            tmux_pane.as_deref().and_then(|p| host.foreground(p));
                    }
                }
                for role in [PaneRole::Left, PaneRole::Right] {
                    let Some(pane) = session.pane_mut(role) else {
                        continue;
                    };
                    if let Some(tp) = pane.tmux_pane.clone() {
                        if !(keep_live && pane.live) {
                            host.kill(&tp);
                            pane.tmux_pane = None;
                        }
                    }
                }
            }
        }
        self.save();
    }
}

fn captured(session: &Session, role: PaneRole) -> Option<&[String]> {
    match role {
        PaneRole::Left => session.foreground_command.as_deref(),
        PaneRole::Right => session.split_foreground_command.as_deref(),
    }
}

/// Reads the denylist once at launch; writes agterm's starter file when it is absent.
fn read_denylist(path: &std::path::Path) -> Vec<String> {
    if !path.exists() {
        if let Some(parent) = path.parent() {
            let _ = std::fs::create_dir_all(parent);
        }
        let _ = std::fs::write(path, STARTER_DENYLIST);
    }
    std::fs::read_to_string(path)
        .map(|t| parse_denylist(&t))
        .unwrap_or_default()
}
