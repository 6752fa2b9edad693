//! The registry of terminals: one row per terminal agterm-backup serves (agterm, tmux, zmx). Every
//! consumer that needs "each terminal" — restore, `status`, `answer`, `snap`, `shell-start` and the
//! hook — asks this crate instead of naming the terminals' crates; a terminal's own code stays in its
//! folder under `terminals/`.
//!
//! - [`Scope`]: one running instance of a terminal (agterm; one tmux server by its socket; one zmx
//!   socket directory), as records name it and as restore acts on it.
//! - [`ROWS`]: the terminals, each with how to find its instances and how to open one.
//! - [`open`]: the [`Terminal`] behind a scope.
//! - [`everywhere`]: the instances worth a look: those of the environment plus those with records.
//! - [`pane`]: which terminal's pane a process runs in ([`FoundPane`], [`HookPane`]), innermost first.
//! - [`join`]: how a record finds its pane after a restart, each terminal's own join behind its row.

pub mod join;
pub mod pane;
mod scope;

pub use pane::{FoundPane, HookPane, Stamp};

pub use scope::Scope;

use agterm_backup_core::join::{CapturedPane, Join, JoinInput, PaneLaunch};
use agterm_backup_core::pane::TerminalKind;
use agterm_backup_core::terminal::{PaneView, Terminal};
use std::path::Path;
use std::time::Duration;

/// The terminals' own crates, for the code that speaks one terminal's language (the hook's pane name
/// cache, agterm's pins, the tmux config's hook line): reached through the registry, never named
/// elsewhere.
pub use agterm_backup_agterm as agterm;
pub use agterm_backup_tmux as tmux;
pub use agterm_backup_zmx as zmx;

/// A lookup of environment variables (empty values are the caller's to filter).
pub type Env<'a> = &'a dyn Fn(&str) -> Option<String>;

/// A terminal opened, or why not (where we looked).
pub type Opened = Result<Box<dyn Terminal>, String>;

/// One terminal: its kind, and how its instances are found and opened.
pub struct Row {
    pub kind: TerminalKind,
    /// The instance the environment names, if any: `explicit` is `--socket` (agterm's socket, a tmux
    /// server's socket, a zmx socket directory). `None`: the environment names none that exists.
    pub here: fn(explicit: Option<&Path>, env: Env) -> Option<Scope>,
    /// The instance `--terminal <kind>` means: as `here`, but always one (the default place).
    pub named: fn(explicit: Option<&Path>, env: Env) -> Scope,
    /// The terminal behind one of its scopes; the error says where we looked.
    pub open: fn(scope: &Scope, explicit: Option<&Path>, env: Env) -> Opened,
    /// The terminal device (`st_rdev`) of pane `pane` (a tmux `%N`, a zmx session name) of one
    /// instance, asked within `budget`: what proves a shell is that pane's own. `None`: unknown, or a
    /// terminal that reports no tty (agterm).
    pub tty: fn(scope: &Scope, pane: &str, budget: Duration) -> Option<u64>,
    /// What the terminal does to every captured pane before any join (tmux: each record follows its
    /// pane through its server's layouts kept in the state directory at `state_root`).
    pub follow: fn(captured: &mut [CapturedPane], state_root: &Path),
    /// A captured pane that is its own terminal for the journal rule (a zmx session): `Some(start)` of
    /// it now, `Some(None)` when gone or unknown (the terminal's launch then stands). `None`: not such
    /// a pane of this terminal.
    pub launch: fn(pane: &CapturedPane, panes: &[PaneView]) -> Option<PaneLaunch>,
    /// Which pane a record of this terminal belongs to after a restart, or why none (see [`join`]).
    pub join: fn(input: &JoinInput<'_>) -> Join,
}

/// Every terminal, in the order they are shown.
pub static ROWS: [Row; 3] = [
    Row {
        kind: TerminalKind::Agterm,
        here: scope::agterm_here,
        named: scope::agterm_named,
        open: scope::open_agterm,
        tty: |_, _, _| None,
        follow: |_, _| {},
        launch: |_, _| None,
        join: agterm::join::join_record,
    },
    Row {
        kind: TerminalKind::Tmux,
        here: scope::tmux_here,
        named: scope::tmux_named,
        open: scope::open_tmux,
        tty: scope::tmux_tty,
        follow: tmux::join::follow,
        launch: |_, _| None,
        join: tmux::join::join_record,
    },
    Row {
        kind: TerminalKind::Zmx,
        here: scope::zmx_here,
        named: scope::zmx_named,
        open: scope::open_zmx,
        tty: scope::zmx_tty,
        follow: |_, _| {},
        launch: zmx::join::launch_of,
        join: zmx::join::join_record,
    },
];

/// The row of `kind`.
pub fn row(kind: TerminalKind) -> &'static Row {
    ROWS.iter()
        .find(|r| r.kind == kind)
        .expect("every terminal kind has a row")
}

/// The terminal behind `scope`. `explicit` (`--socket`) applies only to the scope it was resolved for
/// (the caller passes it for that scope alone).
pub fn open(scope: &Scope, explicit: Option<&Path>, env: Env) -> Opened {
    (row(scope.kind()).open)(scope, explicit, env)
}

/// The terminal device of pane `pane` of `scope` (see [`Row::tty`]).
pub fn pane_tty(scope: &Scope, pane: &str, budget: Duration) -> Option<u64> {
    (row(scope.kind()).tty)(scope, pane, budget)
}

/// The scope `--terminal <kind>` names.
pub fn named(kind: TerminalKind, explicit: Option<&Path>, env: Env) -> Scope {
    (row(kind).named)(explicit, env)
}

/// The instances worth a look, each once, in the registry's order: agterm always (its absence is one
/// line, not a failure), then per terminal the one the environment names (if it exists) and every one
/// `with_records` names.
pub fn everywhere(explicit: Option<&Path>, env: Env, with_records: &[Scope]) -> Vec<Scope> {
    let mut out: Vec<Scope> = vec![Scope::Agterm];
    for r in &ROWS {
        let here = (r.here)(explicit.filter(|_| r.kind == TerminalKind::Agterm), env);
        let recorded = with_records.iter().filter(|s| s.kind() == r.kind).cloned();
        for s in here.into_iter().chain(recorded) {
            if !out.contains(&s) {
                out.push(s);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An environment whose roots (`HOME`, `TMUX_TMPDIR`, `TMPDIR`) are `root`'s folders: every
    /// default place (tmux's socket, zmx's socket dir, agterm's socket) lies under it, never the
    /// machine's `/tmp/tmux-$UID`, `/tmp/zmx-$UID` or `~/.local/share/agterm`.
    fn rooted(root: &Path) -> impl Fn(&str) -> Option<String> {
        let root = root.display().to_string();
        move |k: &str| match k {
            "HOME" => Some(format!("{root}/home")),
            "TMUX_TMPDIR" | "TMPDIR" => Some(root.clone()),
            _ => None,
        }
    }

    fn uid() -> u32 {
        // SAFETY: getuid has no preconditions and cannot fail.
        unsafe { libc::getuid() }
    }

    #[test]
    fn agterm_is_always_looked_at_and_each_instance_once() {
        let empty = tempfile::tempdir().unwrap();
        let none = rooted(empty.path());
        let tmux = Scope::Tmux {
            socket: "/nonexistent/tmux-1/work".into(),
        };
        let zmx = Scope::Zmx {
            dir: "/nonexistent/zmx".into(),
        };
        let with = [tmux.clone(), zmx.clone(), tmux.clone()];
        assert_eq!(
            everywhere(None, &none, &with),
            vec![Scope::Agterm, tmux, zmx]
        );
    }

    #[test]
    fn a_scope_crosses_a_command_line_as_its_kind_and_place() {
        let scopes = [
            Scope::Agterm,
            Scope::Tmux {
                socket: "/tmp/tmux-1/work".into(),
            },
            Scope::Zmx {
                dir: "/run/user/1/zmx".into(),
            },
        ];
        for s in scopes {
            let back = Scope::at(s.kind(), s.place().map(String::from));
            assert_eq!(back, s);
        }
        // Restore's grouping: agterm is one instance; tmux and zmx are told apart by their place.
        assert_eq!(Scope::single(TerminalKind::Agterm), Some(Scope::Agterm));
        assert_eq!(Scope::single(TerminalKind::Tmux), None);
        assert_eq!(Scope::single(TerminalKind::Zmx), None);
    }

    #[test]
    fn the_environments_own_tmux_server_and_zmx_dir_count_when_they_exist() {
        let tmp = tempfile::tempdir().unwrap();
        let sock = tmp.path().join("tmux-sock");
        let _listener = std::os::unix::net::UnixListener::bind(&sock).unwrap();
        let zdir = tmp.path().join("zmx");
        std::fs::create_dir(&zdir).unwrap();
        let (s, z) = (sock.display().to_string(), zdir.display().to_string());
        let env = move |k: &str| match k {
            "TMUX" => Some(format!("{s},1,0")),
            "ZMX_DIR" => Some(z.clone()),
            _ => None,
        };
        let found = everywhere(None, &env, &[]);
        assert_eq!(found.len(), 3, "{found:?}");
        assert_eq!(found[1].kind(), TerminalKind::Tmux);
        assert_eq!(found[2].kind(), TerminalKind::Zmx);
    }

    #[test]
    fn the_default_places_are_the_environments_roots_and_count_once_they_exist() {
        let root = tempfile::tempdir().unwrap();
        let env = rooted(root.path());
        let tmux_default = root.path().join(format!("tmux-{}/default", uid()));
        let zmx_default = root.path().join(format!("zmx-{}", uid()));
        assert_eq!(
            named(TerminalKind::Tmux, None, &env),
            Scope::Tmux {
                socket: tmux_default.display().to_string()
            }
        );
        assert_eq!(
            named(TerminalKind::Zmx, None, &env),
            Scope::Zmx {
                dir: zmx_default.display().to_string()
            }
        );
        let agterm = agterm::resolve_socket_path(None, &env).unwrap();
        assert!(agterm.starts_with(root.path().join("home")), "{agterm:?}");
        // Nothing at the roots yet: agterm alone, whatever the machine runs.
        assert_eq!(everywhere(None, &env, &[]), vec![Scope::Agterm]);
        std::fs::create_dir_all(tmux_default.parent().unwrap()).unwrap();
        let _server = std::os::unix::net::UnixListener::bind(&tmux_default).unwrap();
        std::fs::create_dir(&zmx_default).unwrap();
        assert_eq!(
            everywhere(None, &env, &[]),
            vec![
                Scope::Agterm,
                named(TerminalKind::Tmux, None, &env),
                named(TerminalKind::Zmx, None, &env)
            ]
        );
    }
}
