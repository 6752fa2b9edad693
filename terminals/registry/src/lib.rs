//! The registry of terminals: one row per terminal agterm-backup serves ([`ROWS`]). Every
//! consumer that needs "each terminal" — restore, `status`, `answer`, `snap`, `shell-start` and the
//! hook — asks this crate instead of naming the terminals' crates; a terminal's own code stays in its
//! folder under `terminals/`.
//!
//! - [`Scope`]: one running instance of a terminal (its name, and its place when the terminal runs as
//!   many), plain data; made from a record, a command line or the environment by the rows' rules
//!   ([`scope_of_record`], [`scope_at`], [`single`]), each terminal's own in its crate's `scope`.
//! - [`ROWS`]: the terminals, each with its name, its record keys (a file stem read, a record's and a
//!   shown pane's key), how to find its instances and how to open one.
//! - [`parse_key`], [`record_key`], [`view_key`], [`pane_label`]: the rows asked for any terminal.
//! - [`open`]: the [`Terminal`](agterm_backup_core::terminal::Terminal) behind a scope.
//! - [`everywhere`]: the instances worth a look: those of the environment plus those with records.
//! - [`pane`]: which terminal's pane a process runs in ([`FoundPane`], [`HookPane`]), innermost first.
//! - [`join`]: how a record finds its pane after a restart, each terminal's own join behind its row.
//! - [`socket_for`], [`may_come_up`]: the rows' scope rules (which scope `--socket` names; whether an
//!   instance that does not answer may still).
//! - [`pinning`]: a terminal that types a pane's resume line itself after its restart (its row's `pin`),
//!   asked by the hook.
//! - [`restore_facts`]: what restore's plan and texts ask of a row beyond its join (its words for a pane
//!   not up, the names a person may type for a pane, a key's role).
//! - [`config_file`]: a terminal's own config file the installer edits (its row's `config_file`).
//! - [`shell_pane_test`]: the shell's "in a pane" test of the `init` snippets and the rc line, from the
//!   rows.
//! - [`report`]: what a terminal says in `status`, restore's plan and `snap` beyond what every terminal
//!   has (its row's `report`).
//! - [`command_line`]: the rows' part of the command line: their phrases, hidden subcommands and the
//!   variables the timer passes on.

pub mod command_line;
pub mod config_file;
pub mod join;
pub mod pane;
pub mod pinning;
pub mod report;
pub mod restore_facts;
mod scope;
pub mod shell_pane_test;

pub use pane::{FoundPane, HookPane};
pub use pinning::Pinning;
pub use report::Report;
pub use restore_facts::RestoreFacts;

pub use scope::{first, scope_at, scope_of_record, single, sort, Scope};

use agterm_backup_core::command_line::CommandLine;
use agterm_backup_core::join::{CapturedPane, Join, JoinInput, PaneLaunch};
use agterm_backup_core::own_pane::OwnPane;
use agterm_backup_core::pane::{PaneKey, TerminalName};
use agterm_backup_core::record::LiveRecord;
use agterm_backup_core::state::StateDir;
use agterm_backup_core::terminal::PaneView;
use std::path::Path;
use std::time::Duration;

pub use agterm_backup_core::scope::{Env, Opened};

/// One terminal: its name, its record keys, and how its instances are found and opened.
pub struct Row {
    /// Its name: a record's `terminal`, `--terminal <name>`.
    pub name: TerminalName,
    /// The key of a record's file stem, when it has this terminal's shape (no two terminals' shapes
    /// overlap).
    pub parse_key: fn(stem: &str) -> Option<PaneKey>,
    /// The key of one of this terminal's records (from the pane it keeps under the terminal's name, or
    /// the record's own fields).
    pub record_key: fn(rec: &LiveRecord) -> Option<PaneKey>,
    /// The key of one of this terminal's panes as it shows it.
    pub view_key: fn(view: &PaneView) -> Option<PaneKey>,
    /// How a person recognises one of this terminal's panes.
    pub label: fn(view: &PaneView) -> String,
    /// Whether it runs as one instance (every pane is that one's; its [`Scope`] has no place), not as
    /// many told apart by their place (a server's socket, a socket directory).
    pub one_instance: bool,
    /// The instance a record of this terminal names (`None`: the record's part of it is unreadable).
    pub of_record: fn(rec: &LiveRecord) -> Option<Scope>,
    /// The instance the environment names, if any: `explicit` is `--socket` (a control socket, a
    /// server's socket, a socket directory). `None`: the environment names none that exists.
    pub here: fn(explicit: Option<&Path>, env: Env) -> Option<Scope>,
    /// The instance `--terminal <name>` means: as `here`, but always one (the default place).
    pub named: fn(explicit: Option<&Path>, env: Env) -> Scope,
    /// The terminal behind one of its scopes; the error says where we looked.
    pub open: fn(scope: &Scope, explicit: Option<&Path>, env: Env) -> Opened,
    /// The terminal device (`st_rdev`) of pane `pane` (its name within the instance, as
    /// [`FoundPane::place`] gives it) of one instance, asked within `budget`: what proves a shell is
    /// that pane's own. `None`: unknown, or a terminal that reports no tty.
    pub tty: fn(scope: &Scope, pane: &str, budget: Duration) -> Option<u64>,
    /// What the terminal does to every captured pane before any join (a multiplexer that moves panes
    /// without agent events: each record follows its pane through the layouts it keeps in the state
    /// directory at `state_root`).
    pub follow: fn(captured: &mut [CapturedPane], state_root: &Path),
    /// A captured pane that is its own terminal for the journal rule (a named session with a daemon of
    /// its own): `Some(start)` of
    /// it now, `Some(None)` when gone or unknown (the terminal's launch then stands). `None`: not such
    /// a pane of this terminal.
    pub launch: fn(pane: &CapturedPane, panes: &[PaneView]) -> Option<PaneLaunch>,
    /// Which pane a record of this terminal belongs to after a restart, or why none (see [`join`]).
    pub join: fn(input: &JoinInput<'_>) -> Join,
    /// Whether `--socket` without `--terminal` names this terminal's instance (the first row's control
    /// socket, as before the other terminals). With `--terminal`, `--socket` names an instance of the terminal named, whichever it is.
    pub takes_bare_socket: bool,
    /// Whether an instance that does not answer yet may still (`shell-start` asks again until its
    /// budget ends): something of it is there. `false` is final: its variables outlived it.
    pub may_come_up: fn(scope: &Scope, explicit: Option<&Path>, env: Env) -> bool,
    /// The shell's test for one of its panes, from the environment alone: these variables are all
    /// non-empty there (the last one is the rc line's quick test; [`shell_pane_test`]).
    pub shell_pane_vars: &'static [&'static str],
    /// The pane the environment names (see [`pane::find`]): `None` when none of its variables are
    /// there; else its pane, or why the environment names none of it worth recording.
    pub found: fn(env: &pane::Env) -> agterm_backup_core::found_pane::Found,
    /// A multiplexer's program among a pane's process's ancestors (its server's, its daemon's): a row
    /// with one runs inside a terminal, so its pane is innermost; between several, the nearest
    /// ancestor running one decides. `None`: a terminal (it answers after every multiplexer).
    pub multiplexer: Option<&'static str>,
    /// Whether its one instance is looked at even with no records and none in the environment (its
    /// absence is then one line of `status`, `answer`, `snap` and `restore`, not a failure).
    pub always_looked_at: bool,
    /// How the hook pins a pane's resume line with the terminal, so that the terminal types it itself
    /// after its own restart ([`pinning`]). `None`: the terminal pins nothing.
    pub pin: Option<Pinning>,
    /// Whether an environment variable says which of its panes a process runs in (all of them, also
    /// those the pane test or the scope rules do not read): the variables a Codex daemon's hook takes
    /// from the TUI it runs for instead of its own.
    pub is_pane_var: fn(name: &str) -> bool,
    /// What restore's plan and its texts ask of the terminal beyond its join ([`restore_facts`]).
    pub restore: RestoreFacts,
    /// What it says in `status`, restore's plan and `snap` of its own ([`report`]).
    pub report: Report,
    /// What it brings to the command line: the phrases of the help, its hidden subcommands, the
    /// variables that locate it for the timer ([`command_line`]).
    pub command_line: CommandLine,
    /// The terminal's own config file that the installer puts a block of ours into ([`config_file`]).
    /// `None`: the installer leaves the terminal's files alone.
    pub config_file: Option<&'static config_file::TerminalConfigFile>,
}

/// Every terminal, in the order they are shown. The first is the terminal whose panes a record's own
/// pane fields name (its session and role, which its crate stamps): a record of no other terminal, or
/// of none (before records said their `terminal`), is its.
pub static ROWS: [Row; 3] = [
    Row {
        name: agterm_backup_agterm::key::NAME,
        parse_key: agterm_backup_agterm::key::parse_key,
        record_key: agterm_backup_agterm::key::record_key,
        view_key: agterm_backup_agterm::key::view_key,
        label: PaneView::session_label,
        one_instance: true,
        of_record: agterm_backup_agterm::scope::of_record,
        here: agterm_backup_agterm::scope::here,
        named: agterm_backup_agterm::scope::named,
        open: agterm_backup_agterm::scope::open,
        tty: |_, _, _| None,
        follow: |_, _| {},
        launch: |_, _| None,
        join: agterm_backup_agterm::join::join_record,
        takes_bare_socket: true,
        may_come_up: agterm_backup_agterm::scope::may_come_up,
        shell_pane_vars: &["AGTERM_SESSION_ID", "AGTERM_PANE"],
        found: agterm_backup_agterm::found::found,
        multiplexer: None,
        always_looked_at: true,
        pin: Some(Pinning {
            pin: agterm_backup_agterm::pin::pin_pane,
            retry_due: agterm_backup_agterm::pin::retry_due,
        }),
        is_pane_var: agterm_backup_agterm::pane_env::is_pane_var,
        restore: RestoreFacts {
            unrealized: agterm_backup_agterm::restore_facts::UNREALIZED,
            ..restore_facts::NO_RESTORE_FACTS
        },
        report: Report {
            status_section: true,
            running_line: |a, _| {
                agterm_backup_agterm::report::running_line(a.version, a.mode, a.restart)
            },
            not_running_hint: agterm_backup_agterm::report::NOT_RUNNING_HINT,
            warnings: |f| {
                agterm_backup_agterm::report::warnings(
                    f.first.and_then(|a| a.mode),
                    f.denylist_ok,
                    f.pin_outcomes,
                )
            },
            session_role: |k| {
                agterm_backup_agterm::key::split(k).map(|p| report::SessionRole {
                    session: p.session,
                    role: p.role,
                })
            },
            record_place: |_| None,
            restart_words: report::RestartWords {
                how: agterm_backup_agterm::report::RESTART_HOW,
                why: agterm_backup_agterm::report::RESTART_WHY,
            },
            harvest: Some(agterm_backup_agterm::report::harvest_record),
        },
        command_line: agterm_backup_agterm::command_line::COMMAND_LINE,
        config_file: Some(&agterm_backup_agterm::config_file::RESTORE_DENYLIST),
    },
    Row {
        name: agterm_backup_tmux::pane::NAME,
        parse_key: <agterm_backup_tmux::pane::TmuxPane as OwnPane>::parse_key,
        record_key: <agterm_backup_tmux::pane::TmuxPane as OwnPane>::record_key,
        view_key: <agterm_backup_tmux::pane::TmuxPane as OwnPane>::view_key,
        label: |v| agterm_backup_tmux::pane::view_label(v).unwrap_or_else(|| v.session_label()),
        one_instance: false,
        of_record: agterm_backup_tmux::scope::of_record,
        here: agterm_backup_tmux::scope::here,
        named: agterm_backup_tmux::scope::named,
        open: agterm_backup_tmux::scope::open,
        tty: agterm_backup_tmux::scope::tty,
        follow: agterm_backup_tmux::join::follow,
        launch: |_, _| None,
        join: agterm_backup_tmux::join::join_record,
        takes_bare_socket: false,
        may_come_up: scope::place_exists,
        shell_pane_vars: &["TMUX_PANE"],
        found: agterm_backup_tmux::found::found,
        multiplexer: Some(agterm_backup_tmux::found::PROGRAM),
        always_looked_at: false,
        pin: None,
        is_pane_var: agterm_backup_tmux::env::is_pane_var,
        restore: RestoreFacts {
            unrealized: agterm_backup_tmux::restore_facts::UNREALIZED,
            names_pane: agterm_backup_tmux::restore_facts::names_pane,
        },
        report: Report {
            record_place: agterm_backup_tmux::report::record_place,
            ..report::PLAIN
        },
        command_line: agterm_backup_tmux::command_line::COMMAND_LINE,
        config_file: Some(&agterm_backup_tmux::conf::CONFIG_FILE),
    },
    Row {
        name: agterm_backup_zmx::session::NAME,
        parse_key: <agterm_backup_zmx::session::ZmxSession as OwnPane>::parse_key,
        record_key: <agterm_backup_zmx::session::ZmxSession as OwnPane>::record_key,
        view_key: <agterm_backup_zmx::session::ZmxSession as OwnPane>::view_key,
        label: |v| agterm_backup_zmx::session::view_label(v).unwrap_or_else(|| v.session_label()),
        one_instance: false,
        of_record: agterm_backup_zmx::scope::of_record,
        here: agterm_backup_zmx::scope::here,
        named: agterm_backup_zmx::scope::named,
        open: agterm_backup_zmx::scope::open,
        tty: agterm_backup_zmx::scope::tty,
        follow: |_, _| {},
        launch: agterm_backup_zmx::join::launch_of,
        join: agterm_backup_zmx::join::join_record,
        takes_bare_socket: false,
        may_come_up: scope::place_exists,
        shell_pane_vars: &["ZMX_SESSION"],
        found: agterm_backup_zmx::found::found,
        multiplexer: Some(agterm_backup_zmx::found::PROGRAM),
        always_looked_at: false,
        pin: None,
        is_pane_var: agterm_backup_zmx::env::is_pane_var,
        restore: RestoreFacts {
            names_pane: agterm_backup_zmx::restore_facts::names_pane,
            ..restore_facts::NO_RESTORE_FACTS
        },
        report: Report {
            record_place: agterm_backup_zmx::report::record_place,
            ..report::PLAIN
        },
        command_line: agterm_backup_zmx::command_line::COMMAND_LINE,
        config_file: None,
    },
];

/// The row of terminal `name` (a name one of the rows gave).
pub fn row(name: TerminalName) -> &'static Row {
    ROWS.iter()
        .find(|r| r.name == name)
        .expect("every terminal name comes from a row")
}

/// The row of the terminal called `name`, if one is.
pub fn row_named(name: &str) -> Option<&'static Row> {
    ROWS.iter().find(|r| r.name == *name)
}

/// The names of every terminal, for messages and `--help`: `a, b or c`.
pub fn names() -> String {
    let all: Vec<&str> = ROWS.iter().map(|r| r.name.as_str()).collect();
    sentence_list(&all, "or")
}

/// `items` as a sentence lists them: `a`, `a and b`, `a, b and c` (`word`: "and", "or").
pub fn sentence_list<S: AsRef<str>>(items: &[S], word: &str) -> String {
    let items: Vec<&str> = items.iter().map(AsRef::as_ref).collect();
    match items.split_last() {
        Some((last, [])) => last.to_string(),
        Some((last, rest)) => format!("{} {word} {last}", rest.join(", ")),
        None => String::new(),
    }
}

/// Whether environment variable `name` says which pane a process runs in, of any terminal
/// ([`Row::is_pane_var`]).
pub fn is_pane_var(name: &str) -> bool {
    ROWS.iter().any(|r| (r.is_pane_var)(name))
}

/// The key of a record's file stem, of any terminal.
pub fn parse_key(stem: &str) -> Option<PaneKey> {
    ROWS.iter().find_map(|r| (r.parse_key)(stem))
}

/// The key of a record's pane: its terminal's rule (see [`ROWS`] for a record of none).
pub fn record_key(rec: &LiveRecord) -> Option<PaneKey> {
    (record_row(rec).record_key)(rec)
}

/// The row of a record's terminal (see [`ROWS`] for a record of none).
fn record_row(rec: &LiveRecord) -> &'static Row {
    row_named(&rec.terminal).unwrap_or(&ROWS[0])
}

/// The row of the terminal a pane view is of: the one whose identity it carries, else the first.
pub(crate) fn view_row(view: &PaneView) -> &'static Row {
    ROWS.iter()
        .find(|r| view.terminal_pane(r.name.as_str()).is_some())
        .unwrap_or(&ROWS[0])
}

/// The record key of a pane as its terminal shows it.
pub fn view_key(view: &PaneView) -> Option<PaneKey> {
    (view_row(view).view_key)(view)
}

/// How a person recognises a pane, by its terminal's rule (a place like `<terminal> work:0.1`, a
/// session's name, a session's name and role like `api · right`).
pub fn pane_label(view: &PaneView) -> String {
    (view_row(view).label)(view)
}

/// Writes `rec` as its pane's record (under [`record_key`]).
pub fn write_record(state: &StateDir, rec: &LiveRecord) -> std::io::Result<()> {
    state.write_record(&key_or_refuse(rec)?, rec)
}

/// Appends `rec` to its pane's journal (under [`record_key`]).
pub fn append_journal(state: &StateDir, rec: &LiveRecord) -> std::io::Result<()> {
    state.append_journal(&key_or_refuse(rec)?, rec)
}

fn key_or_refuse(rec: &LiveRecord) -> std::io::Result<PaneKey> {
    record_key(rec).ok_or_else(|| {
        std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "record has no valid pane key",
        )
    })
}

/// Every pane key with a record or a journal in the state directory.
pub fn pane_keys(state: &StateDir) -> Vec<PaneKey> {
    state.pane_keys(&parse_key)
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

/// `--socket` (`explicit`) as it applies to `scope`: with `--terminal` (`named`) to the scope resolved
/// with it, else only to the terminal whose row takes a bare `--socket` (a control socket).
pub fn socket_for<'a>(scope: &Scope, explicit: Option<&'a Path>, named: bool) -> Option<&'a Path> {
    explicit.filter(|_| named || row(scope.kind()).takes_bare_socket)
}

/// Whether `scope`, not answering yet, may still (see [`Row::may_come_up`]); `explicit` as
/// [`socket_for`] gave it.
pub fn may_come_up(scope: &Scope, explicit: Option<&Path>, env: Env) -> bool {
    (row(scope.kind()).may_come_up)(scope, explicit, env)
}

/// The scope `--terminal <name>` names.
pub fn named(kind: TerminalName, explicit: Option<&Path>, env: Env) -> Scope {
    (row(kind).named)(explicit, env)
}

/// The instances looked at with nothing else to go on: those of the rows [`Row::always_looked_at`].
pub fn always_looked_at() -> Vec<Scope> {
    ROWS.iter()
        .filter(|r| r.always_looked_at)
        .filter_map(|r| single(r.name))
        .collect()
}

/// The instances worth a look, each once, in the registry's order: [`always_looked_at`] (its absence
/// is one line, not a failure), then per terminal the one the environment names (if it exists)
/// and every one `with_records` names.
pub fn everywhere(explicit: Option<&Path>, env: Env, with_records: &[Scope]) -> Vec<Scope> {
    let mut out: Vec<Scope> = always_looked_at();
    for r in &ROWS {
        let here = (r.here)(explicit.filter(|_| r.takes_bare_socket), env);
        let recorded = with_records.iter().filter(|s| s.kind() == r.name).cloned();
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
    use agterm_backup_agterm as agterm;
    use agterm_backup_tmux as tmux;
    use agterm_backup_zmx as zmx;

    #[test]
    fn a_sentence_list_joins_its_last_item_with_the_word() {
        let none: [&str; 0] = [];
        assert_eq!(sentence_list(&none, "and"), "");
        assert_eq!(sentence_list(&["a"], "and"), "a");
        assert_eq!(sentence_list(&["a", "b"], "or"), "a or b");
        assert_eq!(sentence_list(&["a", "b", "c"], "and"), "a, b and c");
        assert_eq!(names(), "agterm, tmux or zmx");
    }

    #[test]
    fn every_variable_a_rows_pane_test_reads_is_a_pane_variable() {
        for row in &ROWS {
            for var in row.shell_pane_vars {
                assert!(is_pane_var(var), "{}: {var}", row.name.as_str());
            }
        }
        for other in [
            "HOME",
            "TMUX_TMPDIR",
            "ZMX_SESSION_PREFIX",
            "XDG_RUNTIME_DIR",
        ] {
            assert!(!is_pane_var(other), "{other}");
        }
    }

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
        let tmux = tmux::scope::server("/nonexistent/tmux-1/work".into());
        let zmx = zmx::scope::socket_dir_scope("/nonexistent/zmx".into());
        assert_eq!(always_looked_at(), vec![agterm::scope::the_instance()]);
        let with = [tmux.clone(), zmx.clone(), tmux.clone()];
        assert_eq!(
            everywhere(None, &none, &with),
            vec![agterm::scope::the_instance(), tmux, zmx]
        );
    }

    #[test]
    fn a_scope_crosses_a_command_line_as_its_kind_and_place() {
        let scopes = [
            agterm::scope::the_instance(),
            tmux::scope::server("/tmp/tmux-1/work".into()),
            zmx::scope::socket_dir_scope("/run/user/1/zmx".into()),
        ];
        for s in scopes {
            let back = scope_at(s.kind(), s.place().map(String::from));
            assert_eq!(back, s);
        }
        // Restore's grouping: agterm is one instance; tmux and zmx are told apart by their place.
        assert_eq!(
            single(agterm::key::NAME),
            Some(agterm::scope::the_instance())
        );
        assert_eq!(single(tmux::pane::NAME), None);
        assert_eq!(single(zmx::session::NAME), None);
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
        assert_eq!(found[1].kind(), tmux::pane::NAME);
        assert_eq!(found[2].kind(), zmx::session::NAME);
    }

    #[test]
    fn a_bare_socket_is_agterms_and_a_named_terminals_socket_is_its_own() {
        let sock = Path::new("/run/x.sock");
        let tmux = tmux::scope::server("/tmp/tmux-1/work".into());
        let zmx = zmx::scope::socket_dir_scope("/z".into());
        assert_eq!(
            socket_for(&agterm::scope::the_instance(), Some(sock), false),
            Some(sock)
        );
        for other in [&tmux, &zmx] {
            assert_eq!(socket_for(other, Some(sock), false), None, "{other:?}");
            assert_eq!(socket_for(other, Some(sock), true), Some(sock), "{other:?}");
        }
        assert_eq!(socket_for(&agterm::scope::the_instance(), None, true), None);
        // `everywhere` applies the same rule: a bare `--socket` naming a live tmux server is not it.
        let tmp = tempfile::tempdir().unwrap();
        let live = tmp.path().join("tmux-sock");
        let _listener = std::os::unix::net::UnixListener::bind(&live).unwrap();
        let none = rooted(tmp.path());
        assert_eq!(
            everywhere(Some(&live), &none, &[]),
            vec![agterm::scope::the_instance()]
        );
    }

    #[test]
    fn an_instance_may_come_up_while_its_place_is_there() {
        let tmp = tempfile::tempdir().unwrap();
        let env = rooted(tmp.path());
        let (sock, dir) = (tmp.path().join("sock"), tmp.path().join("zmx"));
        let tmux = tmux::scope::server(sock.display().to_string());
        let zmx = zmx::scope::socket_dir_scope(dir.display().to_string());
        assert!(!may_come_up(&tmux, None, &env));
        assert!(!may_come_up(&zmx, None, &env));
        let agterm_sock = tmp.path().join("agterm.sock");
        std::fs::write(&sock, "").unwrap();
        std::fs::create_dir(&dir).unwrap();
        std::fs::write(&agterm_sock, "").unwrap();
        assert!(may_come_up(&tmux, None, &env));
        assert!(may_come_up(&zmx, None, &env));
        // agterm's socket is `--socket`'s when given: there, it may come up (whatever runs).
        assert!(may_come_up(
            &agterm::scope::the_instance(),
            Some(&agterm_sock),
            &env
        ));
    }

    #[test]
    fn the_default_places_are_the_environments_roots_and_count_once_they_exist() {
        let root = tempfile::tempdir().unwrap();
        let env = rooted(root.path());
        let tmux_default = root.path().join(format!("tmux-{}/default", uid()));
        let zmx_default = root.path().join(format!("zmx-{}", uid()));
        assert_eq!(
            named(tmux::pane::NAME, None, &env),
            tmux::scope::server(tmux_default.display().to_string())
        );
        assert_eq!(
            named(zmx::session::NAME, None, &env),
            zmx::scope::socket_dir_scope(zmx_default.display().to_string())
        );
        let agterm = agterm::resolve_socket_path(None, &env).unwrap();
        assert!(agterm.starts_with(root.path().join("home")), "{agterm:?}");
        // Nothing at the roots yet: agterm alone, whatever the machine runs.
        assert_eq!(
            everywhere(None, &env, &[]),
            vec![agterm::scope::the_instance()]
        );
        std::fs::create_dir_all(tmux_default.parent().unwrap()).unwrap();
        let _server = std::os::unix::net::UnixListener::bind(&tmux_default).unwrap();
        std::fs::create_dir(&zmx_default).unwrap();
        assert_eq!(
            everywhere(None, &env, &[]),
            vec![
                agterm::scope::the_instance(),
                named(tmux::pane::NAME, None, &env),
                named(zmx::session::NAME, None, &env)
            ]
        );
    }

    /// Every stem today's release wrote (`tests/corpus/state-today/keys/`) is read by exactly one row,
    /// its terminal's, and a record of today's keys as its stem.
    #[test]
    fn todays_stems_are_each_read_by_their_terminals_row_alone() {
        let corpora = [
            (
                agterm::key::NAME,
                include_str!("../../../tests/corpus/state-today/keys/agterm.tsv"),
            ),
            (
                tmux::pane::NAME,
                include_str!("../../../tests/corpus/state-today/keys/tmux.tsv"),
            ),
            (
                zmx::session::NAME,
                include_str!("../../../tests/corpus/state-today/keys/zmx.tsv"),
            ),
        ];
        for (name, corpus) in corpora {
            for line in corpus.lines() {
                let f: Vec<&str> = line.split('\t').collect();
                let (stem, record) = (f[f.len() - 2], f[f.len() - 1]);
                let readers: Vec<TerminalName> = ROWS
                    .iter()
                    .filter(|r| (r.parse_key)(stem).is_some())
                    .map(|r| r.name)
                    .collect();
                assert_eq!(readers, vec![name], "{stem}");
                let key = parse_key(stem).unwrap();
                assert_eq!(key.to_string(), stem);
                let rec: LiveRecord = serde_json::from_str(record).unwrap();
                assert_eq!(record_key(&rec), Some(key), "{stem}");
            }
        }
    }
}
