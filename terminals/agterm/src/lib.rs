//! agterm's control socket client, and agterm as a [`agterm_backup_core::terminal::Terminal`].
//!
//! agterm starts its panes' shells as login shells, so a login bash there reads `~/.bash_profile` (or
//! `~/.bash_login`, `~/.profile`), not `~/.bashrc`: why the installer's rc files cover the profiles too.
//!
//! - [`socket_path`]: where the socket is (`--socket`, `$AGTERM_SOCKET`, `$AGTERM_STATE_DIR`, the platform's default).
//! - [`wire`]: requests exactly as `agtermctl` sends them; [`response`]: lenient typed answers.
//! - [`client`]: one JSON line out, one in, with timeouts and clear errors.
//! - [`peer`]: which agterm launch answered (peer pid and its start time).
//! - [`pin`]: the hook's pin of a pane's resume line (`session.restore`), its plan and its retry backoff;
//!   the registry row's pin.
//! - [`features`]: feature detection by probing, cached per launch.
//! - [`join`]: which pane an agterm record belongs to after a restart (pane id, else session and role);
//!   the registry row's join.
//! - [`key`]: agterm's record key `<SESSION>-<role>` ([`key::NAME`] is agterm's name among the terminals).
//! - [`pane_env`]: the agterm pane a process runs in, from its environment.
//! - [`running`]: whether an agterm runs (by its process's name), its socket answering or not.
//! - [`panes`], [`terminal`]: the [`AgtermTerminal`] implementation of the terminal seam.
//! - [`scope`]: its row's scope rules (one instance, opened behind its socket, may it come up).
//! - [`config_file`]: its row's `config_file`: the restore denylist as the installer edits it.
//! - [`found`]: its row's `found`: [`pane_env::PaneEnv`] as the registry's pane of the environment.
//! - [`restore_facts`]: its row's facts for restore's plan (the `not realized` words, a key's role), and
//!   how agterm meets the plan's rows (pins, Live daemons, replays).
//! - [`report`]: its row's `report`: its `status` line, hint and warnings, its restart's words, the
//!   record `snap --harvest` writes for one of its panes.
//! - [`command_line`]: its row's `command_line`: what the help says about agterm, the variable that
//!   locates it for the timer.

pub mod client;
pub mod command_line;
pub mod config_file;
pub mod features;
pub mod found;
pub mod join;
pub mod key;
pub mod pane_env;
pub mod panes;
pub mod peer;
pub mod pin;
pub mod report;
pub mod response;
pub mod restore_facts;
pub mod running;
pub mod scope;
pub mod socket_path;
pub mod terminal;
pub mod wire;

pub use client::{AgtermError, Client, Reply, Timeouts};
pub use features::Features;
pub use peer::Launch;
pub use socket_path::{default_socket_path, resolve_socket_path, socket_path_from_env};
pub use terminal::AgtermTerminal;
pub use wire::{PaneSelector, PinAction, Request, TextRange};
