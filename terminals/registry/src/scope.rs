//! One running instance of a terminal, and each terminal's row functions (found, named, opened).

use agterm_backup_agterm::{AgtermTerminal, Client, Timeouts};
use agterm_backup_core::pane::TerminalName;
use agterm_backup_core::record::LiveRecord;
use agterm_backup_tmux::command::TmuxServer;
use agterm_backup_tmux::pane::TmuxPart;
use agterm_backup_tmux::terminal::{socket_path as tmux_socket_path, TmuxTerminal};
use agterm_backup_zmx::boot::boot_time;
use agterm_backup_zmx::command::ZmxDir;
use agterm_backup_zmx::session::ZmxPart;
use agterm_backup_zmx::terminal::ZmxTerminal;
use std::path::{Path, PathBuf};

use crate::Env;

/// Which captured panes one terminal instance holds: agterm's, those of one tmux server (its socket),
/// or those of one zmx socket directory.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Scope {
    Agterm,
    Tmux { socket: String },
    Zmx { dir: String },
}

impl Scope {
    pub fn kind(&self) -> TerminalName {
        match self {
            Scope::Agterm => agterm_backup_agterm::key::NAME,
            Scope::Tmux { .. } => agterm_backup_tmux::pane::NAME,
            Scope::Zmx { .. } => agterm_backup_zmx::session::NAME,
        }
    }

    /// The scope a record names: a tmux record's server, a zmx record's socket directory, agterm for an
    /// agterm record. `None`: a multiplexer record whose identity is unreadable.
    pub fn of_record(rec: &LiveRecord) -> Option<Scope> {
        match crate::row_named(&rec.terminal).map(|r| r.name) {
            Some(agterm_backup_tmux::pane::NAME) => {
                rec.tmux().map(|t| Scope::Tmux { socket: t.socket })
            }
            Some(agterm_backup_zmx::session::NAME) => {
                rec.zmx().map(|z| Scope::Zmx { dir: z.socket_dir })
            }
            // Records before the `terminal` field was written are agterm's.
            _ => Some(Scope::Agterm),
        }
    }

    /// The place that tells this instance apart from others of its terminal (`None` for agterm, of
    /// which one runs).
    pub fn place(&self) -> Option<&str> {
        match self {
            Scope::Agterm => None,
            Scope::Tmux { socket } => Some(socket),
            Scope::Zmx { dir } => Some(dir),
        }
    }

    /// The scope of `kind` at `place` (what [`Scope::place`] gave; ignored for agterm): how a scope
    /// crosses a command line.
    pub fn at(kind: TerminalName, place: Option<String>) -> Scope {
        let place = place.unwrap_or_default();
        match kind {
            agterm_backup_tmux::pane::NAME => Scope::Tmux { socket: place },
            agterm_backup_zmx::session::NAME => Scope::Zmx { dir: place },
            _ => Scope::Agterm,
        }
    }

    /// The scope of a terminal that runs as one instance (agterm: every pane of it is that one's);
    /// `None` for one of many instances told apart by their place (tmux servers, zmx socket dirs).
    pub fn single(kind: TerminalName) -> Option<Scope> {
        let scope = Scope::at(kind, None);
        scope.place().is_none().then_some(scope)
    }

    /// For people: `agterm`, `tmux (/tmp/tmux-501/default)`, `zmx (/run/user/501/zmx)`.
    pub fn label(&self) -> String {
        match self.place() {
            None => self.kind().to_string(),
            Some(place) => format!("{} ({place})", self.kind()),
        }
    }
}

pub(crate) fn agterm_here(_explicit: Option<&Path>, _env: Env) -> Option<Scope> {
    Some(Scope::Agterm)
}

pub(crate) fn agterm_named(_explicit: Option<&Path>, _env: Env) -> Scope {
    Scope::Agterm
}

/// agterm behind its control socket (`--socket`, `$AGTERM_SOCKET`, `$AGTERM_STATE_DIR`, the platform's
/// default). The error says where we looked.
pub(crate) fn open_agterm(_scope: &Scope, explicit: Option<&Path>, env: Env) -> crate::Opened {
    let path = agterm_backup_agterm::resolve_socket_path(explicit, env).ok_or_else(|| {
        "cannot find agterm's control socket: set AGTERM_SOCKET or pass --socket PATH".to_string()
    })?;
    Ok(Box::new(AgtermTerminal::new(Client::new(
        path,
        Timeouts::CLI,
    ))))
}

/// agterm may come up while its socket is there, or while an agterm process runs: it brings its panes
/// back before it binds its socket.
pub(crate) fn agterm_may_come_up(_scope: &Scope, explicit: Option<&Path>, env: Env) -> bool {
    agterm_backup_agterm::resolve_socket_path(explicit, env)
        .is_some_and(|p| p.exists() || agterm_backup_agterm::running::agterm_runs(&p))
}

/// A tmux server may come up while its socket is there, a zmx session while its socket directory is.
pub(crate) fn place_exists(scope: &Scope, _explicit: Option<&Path>, _env: Env) -> bool {
    scope.place().is_some_and(|p| Path::new(p).exists())
}

/// The tmux server of `$TMUX` (or `--socket`, or tmux's default socket), when its socket exists.
pub(crate) fn tmux_here(explicit: Option<&Path>, env: Env) -> Option<Scope> {
    let scope = tmux_named(explicit, env);
    is_socket(Path::new(scope.place()?)).then_some(scope)
}

pub(crate) fn tmux_named(explicit: Option<&Path>, env: Env) -> Scope {
    let socket = tmux_socket_path(explicit.map(PathBuf::from), env);
    Scope::Tmux {
        socket: socket.display().to_string(),
    }
}

pub(crate) fn open_tmux(scope: &Scope, _explicit: Option<&Path>, _env: Env) -> crate::Opened {
    let socket = scope.place().ok_or("not a tmux scope")?;
    Ok(Box::new(TmuxTerminal::new(TmuxServer::new(
        socket,
        agterm_backup_tmux::terminal::CLI_TIMEOUT,
    ))))
}

/// The zmx socket directory of the environment (or `--socket`), when zmx has made it.
pub(crate) fn zmx_here(explicit: Option<&Path>, env: Env) -> Option<Scope> {
    let scope = zmx_named(explicit, env);
    Path::new(scope.place()?).is_dir().then_some(scope)
}

pub(crate) fn zmx_named(explicit: Option<&Path>, env: Env) -> Scope {
    // SAFETY: getuid has no preconditions and cannot fail.
    let uid = unsafe { libc::getuid() };
    let dir = match explicit {
        Some(p) => p.display().to_string(),
        None => agterm_backup_zmx::session::socket_dir(env, uid),
    };
    Scope::Zmx { dir }
}

pub(crate) fn open_zmx(scope: &Scope, _explicit: Option<&Path>, env: Env) -> crate::Opened {
    let dir = scope.place().ok_or("not a zmx scope")?;
    Ok(Box::new(ZmxTerminal::new(
        ZmxDir::new(dir, agterm_backup_zmx::terminal::CLI_TIMEOUT),
        boot_time(env),
    )))
}

pub(crate) fn tmux_tty(scope: &Scope, pane: &str, budget: std::time::Duration) -> Option<u64> {
    let server = TmuxServer::new(scope.place()?, budget);
    agterm_backup_tmux::tty::pane_tty(&server, pane)
}

pub(crate) fn zmx_tty(scope: &Scope, name: &str, budget: std::time::Duration) -> Option<u64> {
    agterm_backup_zmx::tty::session_tty(&ZmxDir::new(scope.place()?, budget), name)
}

fn is_socket(p: &Path) -> bool {
    use std::os::unix::fs::FileTypeExt;
    std::fs::metadata(p).is_ok_and(|m| m.file_type().is_socket())
}
