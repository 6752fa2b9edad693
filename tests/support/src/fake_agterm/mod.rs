//! A faithful fake agterm for tests: a real Unix-socket server (the `fake-agterm` binary, started as a
//! child process) speaking agterm's control protocol with agterm's own error strings, whose panes are
//! real login shells (`bash -l`, prompt `$ `) in a private tmux server.
//!
//! # Using it
//!
//! ```no_run
//! use agterm_backup_testkit::fake_agterm::{FakeAgterm, FakeConfig, RestartKind};
//! use agterm_backup_core::{pane::PaneRole, terminal::RestoreMode};
//! use serde_json::json;
//! use std::time::Duration;
//!
//! let home = tempfile::tempdir().unwrap();
//! let mut fake = FakeAgterm::start(FakeConfig::new("0.34", RestoreMode::Rerun).env("HOME", home.path().to_str().unwrap()));
//! let s = fake.add_session(None, None, home.path(), /* split */ true);
//! // Talk to it like agterm (one JSON line each way) — or point the real client at `fake.socket()`.
//! let tree = fake.request(&json!({"cmd": "tree"}));
//! fake.request(&json!({"cmd": "session.restore", "target": s.id,
//!     "args": {"mode": "set", "paneID": s.left.pane_id, "command": "echo pinned > f"}}));
//! fake.restart(RestartKind::CleanQuit); // new process; rerun mode types the pin into a fresh shell
//! fake.wait_for_screen(&s.id, PaneRole::Left, "echo pinned", Duration::from_secs(5));
//! ```
//!
//! - **Where things are.** Everything lives in a short `/tmp/agb-XXXXXX/` dir ([`FakeAgterm::state_dir`]):
//!   `agterm.sock` (+ `agterm.sock.lock`, flocked), `tmux.sock`, `fake-state.json` (the whole model; see
//!   [`model::FakeState`]), `typed.jsonl` (every `session.type` request), `config/restore-denylist.conf`
//!   (read once per launch, seeded with agterm's starter text when absent), `fake-agterm.log` (stderr).
//! - **Panes.** Each pane's shell has agterm's env: `AGTERM_ENABLED=1`, `AGTERM_SESSION_ID` (upper-case),
//!   `AGTERM_WINDOW_ID`, `AGTERM_WORKSPACE_ID`, `AGTERM_SOCKET`, `AGTERM_PANE` (`left`/`right`),
//!   `AGTERM_PANE_ID` (persistent from 0.26, a fresh UUID per spawn before), `TERM_PROGRAM=agterm`,
//!   `TERM_PROGRAM_VERSION`, plus [`FakeConfig::pane_env`]. `TMUX` is removed. A `PATH` in `pane_env`
//!   is put back after the login profile (Debian's `/etc/profile` resets it) before the first prompt.
//!   Without a `HOME` in `pane_env`, panes get an empty one in the fake's dir, never the real one.
//! - **Helpers.** [`FakeAgterm::type_line`] / [`FakeAgterm::set_pin`] (over the socket, like a client),
//!   [`FakeAgterm::screen`], [`FakeAgterm::foreground`], [`FakeAgterm::foreground_pid`],
//!   [`FakeAgterm::pane_env`] (from /proc), [`FakeAgterm::wait_for_screen`] /
//!   [`FakeAgterm::wait_for_foreground`], [`FakeAgterm::pins`] / [`FakeAgterm::pin`],
//!   [`FakeAgterm::typed_log`], [`FakeAgterm::launch_actions`], [`FakeAgterm::state`] /
//!   [`FakeAgterm::edit_state`] (while stopped), [`FakeAgterm::pid`] (the socket's peer: a new one per
//!   launch). The state dir plays `$AGTERM_STATE_DIR` (socket and `config/restore-denylist.conf` sit
//!   where agterm would put them); with [`FakeConfig::linux_paths`] the fake plays a Linux port with
//!   it unset (nickalie/agterm-linux): the socket in `$XDG_DATA_HOME/agterm` or
//!   `~/.local/share/agterm`, the denylist in `~/.config/agterm`.
//! - **Commands.** `window.list`, `tree` (one window: `args.window` or the frontmost), `session.restore`
//!   (0.16+), `session.type`, `session.text`, `version` (0.25+), `restore.mode` and `zmx.list` (0.26+),
//!   `restore.clear`, `session.restart` (after 0.34: Live, local panes; `restart_cmd.rs`, logged to
//!   `restarted.jsonl`). Anything else (or a gated command) answers `invalid request: …`. Fields are gated by
//!   version too: `realized` 0.23+, `app` 0.25+, `result.pane`/`backedByZmx`/`liveAttribution`/
//!   `foregroundShell` 0.26+, `splitCwd` 0.28+, `surfaces[].paneID` only after 0.34, `remote: true` beside
//!   `remoteHost` 0.38+, `scratchCwd` 0.42.1+, companions (`parentID`) 0.43+, top-level sessions (a
//!   `root: true` workspace node) 0.44+. `/` is sent as `\/`.
//!   A `tree` answer reads every pane's shell pid with one `tmux list-panes` ([`panes::PidSnapshot`]), so
//!   200 panes answer in milliseconds (`benches/restore_command.rs`).
//! - **What agterm sees in front.** `foreground` is the foreground group leader's argv, omitted at the
//!   shell prompt and for a process of another user (as agterm may not read a setuid `sudo`'s argv):
//!   `setpriv --reuid=65534 … sleep 300` in a pane models it. `foregroundShell` is sent only when the
//!   shell itself holds the foreground, so such a pane has neither.
//! - **0.44 shapes the notes could not verify**, chosen with `fake.set_shapes {root_top_level,
//!   companions_nested}`: top-level sessions as `tree.sessions` instead of a `root: true` node, and
//!   companions nested in their lead's `companions` instead of flat with `parentID`. Remote sessions'
//!   shells run locally (they only carry `remoteHost`).
//! - **Restarts** ([`FakeAgterm::restart`]): [`RestartKind::CleanQuit`] captures each pane's foreground
//!   argv (rerun/live) and closes the panes except Live ones; [`RestartKind::Reboot`] also kills the tmux
//!   server; [`RestartKind::Crash`] captures nothing. The next process then does what agterm does:
//!   *rerun* types the pin (`cmd\n`) into a fresh login shell, else the captured argv (POSIX-quoted) unless
//!   its basename is denylisted, else a plain shell; *live* reattaches surviving panes and replays the
//!   capture (denylist applies) into the others; *none* gives plain shells. Pins never fire under live or
//!   none. [`FakeAgterm::launch_log`] says what happened to each pane.
//! - **Test-only socket commands**, all `fake.*`: `fake.add_window {name, open}`, `fake.add_session
//!   {window?, workspace? ("root": top-level, 0.44+), cwd, split?, select?, name?, remote? (host),
//!   companion_of? (lead session, 0.43+), scratch_cwd?}` ([`FakeAgterm::add_session_with`]),
//!   `fake.set_shapes {root_top_level?, companions_nested?}`, `fake.split` (target), `fake.select` (target),
//!   `fake.set_split_visible {visible}` (target),
//!   `fake.set_window {window, open}`, `fake.set_realized {pane, realized}` (target), `fake.state`,
//!   `fake.stall {ms}` (the next agterm request waits `ms` before its answer — the server is serial, so
//!   everyone else waits too: a hung agterm), `fake.quit`.
//! - **Not modelled**: scratch panes and overlays (type/text on `scratch` answer `session has no scratch
//!   terminal`), pins of hidden splits (a split shown again gets a plain shell), `initialCommand`,
//!   `zmx.kill/prune/reset`, events, the focused-pane default of `session.text` (always `left`), and the
//!   `.unavailable` socket (a second fake on a locked socket exits with an error instead).
//! - **Our wording**: the note `session.restore` returns under Live/Fresh (0.26+) is ours (agterm's exact
//!   text is unknown; it names the active mode), so clients should test for the presence of `result.text`.
//!   The `invalid request: …` detail and the list in `ambiguous session prefix '<t>' → …` (first 8
//!   characters of each id) are ours too; only their prefixes are agterm's contract.

pub mod app;
pub mod commands;
pub mod fake_cmds;
pub mod handle;
pub mod inspect;
pub mod locate;
pub mod model;
pub mod panes;
pub mod plan;
pub mod resolve;
pub mod restart_cmd;
pub mod server;
pub mod session_cmds;
pub mod views;

pub use app::Options;
pub use handle::{
    raw_request, wait_until, FakeAgterm, FakeConfig, PaneHandle, RestartKind, SessionHandle,
};
pub use inspect::Typed;
pub use locate::fake_agterm_bin;
pub use model::{FakeState, LaunchEntry, Version};
pub use server::run;
pub use session_cmds::SETTING_OFF_NOTE;
