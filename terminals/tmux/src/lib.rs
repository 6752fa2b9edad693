//! tmux as a terminal of agterm-backup, beside agterm.
//!
//! tmux starts each pane's shell as a login shell, so a login bash there reads `~/.bash_profile` (or
//! `~/.bash_login`, `~/.profile`), not `~/.bashrc`: why the installer's rc files cover the profiles too.
//!
//! - [`env`]: the pane of the hook's environment (`$TMUX`, `$TMUX_PANE`), for free.
//! - [`name`]: the pane's name (session, window index, pane index) learned from the server once, cached
//!   while the pane id and the server are the same.
//! - [`pane`]: a tmux pane's identity ([`pane::TmuxPane`]), its record key `tmux.…` and tmux's part of a
//!   record (the terminal's name [`pane::NAME`]).
//! - [`layout`]: the server's whole layout (`list-panes -a`), kept so restore can follow a pane that moved.
//! - [`join`]: which pane of a running server a tmux record belongs to after a restart (its place,
//!   followed through the kept layouts, confirmed by the directory); the registry row's join.
//! - [`layout_file`]: a server's last known layout in the state directory, with its lock and dirty mark.
//! - [`command`]: `tmux -S <socket> …` with a deadline.
//! - [`foreground`]: a pane's foreground from its tty's foreground process group.
//! - [`panes`]: every pane of a server with its foreground (pure over tmux's and `/proc`'s answers).
//! - [`terminal`]: the server as restore uses it: panes, typing (`send-keys -l`), screens.
//! - [`resurrect`]: the post-restore hook line and the `@resurrect-processes` check.
//! - [`conf`]: the user's tmux config as the installer edits it (our marked block with the resurrect
//!   hooks, where it goes, and whether its hook can fire): its row's `config_file`.
//! - [`tty`]: a pane's terminal device (`#{pane_tty}`), the proof a shell is the pane's own.
//! - [`report`]: its row's `report`: a gone pane named by its record's place in `status`.
//! - [`scope`]: its row's scope rules (a server by its socket: from `$TMUX`, `--socket`, a record).
//! - [`found`]: its row's `found`: [`env::TmuxEnv`] as the registry's pane of the environment, and
//!   the pane with its name for the hook's record.
//! - [`restore_facts`]: its row's facts for restore's plan (the `not realized` words, a pane's place as
//!   a name a person types).
//! - [`command_line`]: its row's `command_line`: what the help says about tmux, and the hidden
//!   subcommand `tmux-layout` its hooks run ([`layout_hook`]).
//! - [`layout_hook`]: `agterm-backup tmux-layout`: keeps the server's layout (or notes a rebuild, a save).

pub mod command;
pub mod command_line;
pub mod conf;
pub mod env;
pub mod foreground;
pub mod found;
pub mod join;
#[cfg(any(test, feature = "fixtures"))]
pub mod join_fixtures;
pub mod layout;
pub mod layout_file;
pub mod layout_hook;
pub mod name;
pub mod pane;
pub mod panes;
pub mod report;
pub mod restore_facts;
pub mod resurrect;
pub mod scope;
pub mod terminal;
pub mod tty;
