//! The shared model of agterm-backup.
//!
//! Everything the hook, the restore plugin and the installer agree on lives here, as plain data and pure
//! functions wherever possible:
//!
//! - [`record`]: the pane's [`LiveRecord`](record::LiveRecord) and its journal line (one JSON object each).
//! - [`pane`]: [`PaneKey`](pane::PaneKey) (a terminal's name and its own key) and
//!   [`PaneRole`](pane::PaneRole); no terminal is named here, each terminal's crate makes its keys.
//! - [`own_pane`]: [`OwnPane`](own_pane::OwnPane), a terminal's typed view of the pane identity its
//!   records keep under its name (each terminal's crate implements it).
//! - [`state`]: the state directory (`$AGTERM_BACKUP_HOME` or `~/.agterm-backup`), atomic 0600 writes,
//!   journal appends and the capped error log.
//! - [`agent`]: the agent table (binaries, npm packages, flags that take values, session-entering flags,
//!   headless markers, resume grammar). Adding an agent is a new row, not new code.
//! - [`flags`]: the launch-flag filter (positional words and session flags out, values attached).
//! - [`id`]: session id validation, applied before an id reaches any shell line.
//! - [`quote`]: quoting that sh, bash, zsh and fish all read as the same words.
//! - [`printable`]: text made safe for a person's terminal (control characters and escape sequences
//!   shown escaped, never run).
//! - [`resume`]: the [`ResumeLine`](resume::ResumeLine) builder (`cd … && <agent> <resume> <flags>`).
//! - [`slug`]: Claude Code's project-slug function, ported exactly.
//! - [`process`]: reading a process's argv, cwd, parent and start time (`/proc` on Linux, `ps`/`lsof`
//!   everywhere), behind a trait so tests can swap it.
//! - [`join`]: a record's pane after a restart: the plain data each terminal's join reads and returns.
//! - [`marked_block`]: our marked block in a file the user owns (its markers, where it sits, appending it).
//! - [`config_file`]: [`TerminalConfigFile`](config_file::TerminalConfigFile), a terminal's own config
//!   file as the installer edits it (each terminal's crate defines its own; the registry's rows hand it on).
//! - [`refusal`]: why and where we will not edit a file the user owns (its editors' one error).
//! - [`tty_input`]: what waits unread on a shell's terminal: typed input, or only the terminal's replies.
//! - [`found_pane`]: the pane a process runs in as each terminal reads it from the environment
//!   ([`EnvPane`](found_pane::EnvPane)) and as the hook's record keeps it
//!   ([`RecordPane`](found_pane::RecordPane)); the registry decides which is innermost.
//! - [`scope`]: [`Scope`](scope::Scope), one running instance of a terminal (its name and, for a
//!   terminal of many instances, its place), as plain data.
//! - [`command_line`]: what a terminal brings to the command line (its help phrases, hidden
//!   subcommands, the variables that locate it), plain data its registry row carries.
//! - [`terminal`]: the seam between agterm-backup and the terminals it restores into (each its own
//!   crate under `terminals/`, the registry's rows list them).

pub mod agent;
pub mod command_line;
pub mod config_file;
#[cfg(any(test, feature = "fixtures"))]
pub mod fixtures;
pub mod flags;
pub mod found_pane;
pub mod id;
pub mod join;
pub mod marked_block;
pub mod own_pane;
pub mod pane;
pub mod printable;
pub mod process;
pub mod quote;
pub mod record;
pub mod refusal;
pub mod restarting;
pub mod resume;
pub mod scope;
pub mod slug;
pub mod state;
pub mod terminal;
pub mod tty_input;
