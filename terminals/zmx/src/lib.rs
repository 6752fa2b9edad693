//! zmx (neurosnap/zmx) as a terminal of agterm-backup, beside agterm and tmux. A zmx session is one
//! pane: a daemon holding a pty, named, with a socket in one directory.
//!
//! - [`env`]: the session of the hook's environment (`$ZMX_SESSION`, the socket directory), for free.
//! - [`join`]: which session a zmx record belongs to after a restart, or whether a gone one comes back;
//!   the registry row's join.
//! - [`command`]: `zmx …` with a deadline, `ZMX_DIR` set and the caller's own session unset.
//! - [`list`]: `zmx list` rows (pure).
//! - [`session`]: a session's identity ([`session::ZmxSession`]: socket directory and name), its record
//!   key `zmx.…`, zmx's part of a record (the terminal's name [`session::NAME`]) and zmx's socket-dir rule.
//! - [`boot`]: the machine's boot time (the journal rule's cutoff for a session that is gone).
//! - [`terminal`]: the socket directory as restore uses it: sessions with their foreground, typing
//!   (`zmx send`), screens (`zmx history`), recreating a session (`zmx attach <name> <command>`).
//! - [`tty`]: a session's terminal device, the proof a shell is the session's own.
//! - [`report`]: its row's `report`: a gone session named by its record's name in `status`.
//! - [`scope`]: its row's scope rules (a socket directory: from the environment, `--socket`, a record).
//! - [`found`]: its row's `found`: [`env::ZmxEnv`] as the registry's pane of the environment.
//! - [`restore_facts`]: its row's facts for restore's plan (a session's name as a name a person types).
//! - [`command_line`]: its row's `command_line`: what the help says about zmx.

pub mod boot;
pub mod command;
pub mod command_line;
pub mod env;
pub mod found;
pub mod join;
pub mod list;
pub mod report;
pub mod restore_facts;
pub mod scope;
pub mod session;
pub mod terminal;
pub mod tty;
