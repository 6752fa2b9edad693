//! A faithful fake `zmx` (neurosnap/zmx) for tests: the `fake-zmx` binary, installed as `zmx` by
//! [`FakeZmx::new`], speaking zmx's command line with zmx's output, files and exit codes, its sessions
//! real processes on real ptys (a hidden tmux server underneath, invisible to them).
//!
//! # Where the behaviour comes from
//!
//! zmx's source at commit `ea45749` (main after v0.7.0, with the CHANGELOG's "Staged" changes: `cwd=`
//! from OSC 7 instead of `start_dir`, `attach --labels`, 2,000 lines of scrollback); `zmx version`
//! says `0.7.0` as that build does. agterm bundles zmx 0.8.1 with its own patches; that is not modelled.
//! File by file: `cfg.zig` (dirs), `socket.zig` (names, stale sockets), `util.zig` (`list` rows),
//! `loop.zig` (`ensureSession`, the daemon), `daemonize.zig` (what the pty child runs), `main.zig`
//! (commands, texts, exit codes). Pinned by `tests/support/tests/fake_zmx*.rs`.
//!
//! # Using it
//!
//! ```no_run
//! use agterm_backup_testkit::fake_zmx::FakeZmx;
//! use std::time::Duration;
//! let dir = tempfile::tempdir().unwrap();
//! let zmx = FakeZmx::new(dir.path());
//! zmx.attach_detached("work", dir.path(), &[]); // a login $SHELL, created detached
//! let row = zmx.wait_for_session("work", Duration::from_secs(10));
//! zmx.send("work", "echo hi\r");
//! zmx.wait_for_history("work", "hi", Duration::from_secs(10));
//! zmx.reboot(); // everything SIGKILLed; the socket file `work` stays, refusing
//! assert_eq!(zmx.stale_sockets(), ["work"]);
//! ```
//!
//! - **Set-up.** [`FakeZmx::new`] makes `<dir>/bin/zmx` (a symlink to the built `fake-zmx`) and uses
//!   `<dir>/zmx` as `ZMX_DIR`; [`FakeZmx::env`] is what a shell or agent needs (PATH, ZMX_DIR, SHELL,
//!   an empty HOME); [`FakeZmx::command`] / [`FakeZmx::run`] run `zmx` outside any session.
//! - **Sessions.** [`FakeZmx::attach_detached`], [`FakeZmx::list`] / [`FakeZmx::session`] (parsed
//!   [`Row`]s), [`FakeZmx::wait_for_session`], [`FakeZmx::wait_gone`], [`FakeZmx::send`],
//!   [`FakeZmx::history`], [`FakeZmx::wait_for_history`].
//! - **A user's terminal.** [`FakeZmx::attach_in`] types [`FakeZmx::attach_line`] into a pane of another
//!   tmux server (a real terminal client: counts in `clients=`, `ctrl+\` detaches).
//! - **Underneath.** [`FakeZmx::host_tmux`] and [`FakeZmx::tmux_pane`] (`=<session>:`; the bare session
//!   target is [`FakeZmx::tmux_target`]) to read a session's screen or type keys as an attached user.
//! - **Failures.** [`FakeZmx::reboot`] (every daemon, session process and the hidden tmux server
//!   SIGKILLed; sockets stay, refusing), [`FakeZmx::crash`] (one daemon and its processes),
//!   [`FakeZmx::stale_sockets`].
//! - **Files.** The fake's own state (hidden tmux socket and config, launch specs) is in
//!   `/tmp/fake-zmx-<uid>/<hash of the socket dir>`, never in the socket dir.
//!
//! # What it models
//!
//! - **Dirs.** Sockets in `$ZMX_DIR`, else `$XDG_RUNTIME_DIR/zmx`, else `${TMPDIR:-/tmp}/zmx-<uid>`; logs
//!   in `$ZMX_DIR/logs`, else `$XDG_STATE_HOME/zmx/logs`, else `~/.local/state/zmx/logs`. Both made
//!   (mode `$ZMX_DIR_MODE`, 0750) by every command. One socket file per session, named as the session
//!   (`$ZMX_SESSION_PREFIX` + name; `/`, NUL, `.`, `..` refused; path ≤ 107 bytes).
//! - **`list`/`ls`/`l` \[`--short`\]**, and `zmx` alone: rows sorted by name,
//!   `<mark>name=N\tpid=P\tclients=C\tcreated=<unix secs>[\tcwd=file://<host><path>][\tcmd=…]
//!   [\tended=T\texit_code=X][\t<label>=<v>…]`, mark `→ ` for `$ZMX_SESSION`'s row and two spaces for
//!   every other (also outside any session). `pid` is the pty child's (shell or command). A socket
//!   that refuses is listed once as `name=N\terr=ConnectionRefused\tstatus=cleaning up` and deleted;
//!   `--short` prints names only and skips such rows. No sessions: `no sessions found in <dir>` on
//!   stderr (nothing with `--short`), exit 0.
//! - **`attach`/`a` \[`--labels kv`\] `<name> [cmd…]`**: create-if-missing — no socket, or a refused one
//!   (deleted first): bind it, start a daemon, print `session "<name>" created`; the command is exec'd
//!   directly (no shell; PATH of the caller), or without one `$SHELL` (else `/bin/sh`) as a login shell
//!   (`argv[0]` = `-<basename>`), in the caller's cwd and environment plus `ZMX_SESSION=<name>` (and
//!   `TERM=xterm-256color` if TERM is unset or `dumb`). A live session is reused and the command ignored
//!   (log line `session already exists, ignoring command session=<name>`). Two racing creators with no
//!   socket file: the bind decides, the loser attaches to the winner or fails `error: AddressInUse`.
//!   Over a *stale* file zmx is not atomic (`ensureSession`: connect refused → delete → bind), and
//!   neither is the fake: a racer that saw the refusal before another's bind deletes that fresh socket
//!   and binds its own, so both create, the first daemon orphaned (unlisted, its command running).
//!   `zmx list` deletes refused sockets, so creating after a `list` takes the atomic path. With
//!   `$ZMX_SESSION` set, `attach` moves the current session's attached client to the target instead of
//!   nesting; with no client attached zmx's daemon fails (`NoLeaderFound`) and the current session
//!   ends — the fake does the same. Stdin a terminal: attached via tmux (`ctrl+\` detaches); otherwise
//!   stdin is forwarded until EOF (so `</dev/null` returns at once), session output not relayed.
//!   A session ends when its command exits (the daemon deletes its socket; zmx waits for the pty's
//!   EOF, so a background child still holding the terminal would keep a real session a little longer).
//! - **`run`/`r` `<name> [-d] [cmd…]`**: create-if-missing with a `bash` login shell, types the command
//!   and `; echo ZMX_TASK_COMPLETED:<id>:$?` (`\r` ended); `-d` prints `command sent!`; `list` then
//!   shows `ended=`/`exit_code=`. Without `-d` it exits with the task's code but relays no output.
//! - **`send`/`s` `<name> <text…>`**: the words joined by spaces (or piped stdin minus one trailing
//!   `\n`) written raw into the pty, nothing appended. Missing name `error: SessionNameRequired`, no text
//!   `error: TextRequired` (exit 1). A stale socket: `cleaned up stale session <name>` on stdout; no
//!   socket: `session <name> is unresponsive (Unexpected)` + `daemon may be busy: try again`; both exit 0.
//! - **`history`/`hi` `[name] [--vt]`**: scrollback + screen as ghostty's plain formatter writes them
//!   (`formatter.zig`, `Options.plain`, read from ghostty's source, not pinned to zmx's exact ghostty
//!   commit): each row as drawn (soft-wrapped rows stay separate), trailing spaces and trailing blank
//!   rows dropped, leading blank rows kept, `\n` between rows and none after the last; the alternate
//!   screen while a program is on it. No socket: `error: session "<name>" does not exist` and
//!   `error: SessionNotFound`, exit 1. `--vt` is tmux's escapes (approximate).
//! - **`kill`/`k` `<name|prefix*>… [--force]`**: `killed session <name>` once the daemon hung up (socket
//!   gone; the processes get SIGHUP, 500 ms, SIGKILL). An unknown name prints nothing, exit 0.
//! - **`version`**: `zmx\t\t0.7.0\nghostty_vt\t<hash>\nsocket_dir\t<dir>\nlog_dir\t\t<dir>\n`.
//! - **Labels** `get`, `set`, `clear`, `attach --labels`: validation and texts of `label.zig`.
//! - **Logs** `<log_dir>/zmx.log` and `<session>.log`, lines `[<secs>] [<level>] (default): <msg>`,
//!   only for the events above.
//!
//! # Not modelled
//!
//! `print`, `write`, `wait`, `tail`, `detach`, `completions`, `history --html` (each exits 2 with
//! `fake-zmx: … is not modelled`); screen restore on re-attach, leader/resize policy, output relay to a
//! client without a terminal, zmx's binary IPC (the fake's daemon speaks JSON lines), a probe timeout of
//! 1 s (the fake waits 5 s), and a help text of its own. Differences on purpose: the session
//! environment never holds `TMUX`/`TMUX_PANE` or CI marks (`CI`, `CI_*`), so tmux underneath and the
//! test runner stay invisible to the agents.

pub mod attach;
pub mod cfg;
pub mod cli;
pub mod daemon;
pub mod format;
pub mod handle;
pub mod host;
pub mod labels;
pub mod log;
pub mod proto;
pub mod run;
pub mod session_cmds;
pub mod sys;

pub use format::{parse_row, Row};
pub use handle::FakeZmx;

/// What `zmx version` prints as zmx's version (`build.zig.zon` at `ea45749`).
pub const ZMX_VERSION: &str = "0.7.0";
/// What `zmx version` prints as ghostty's (the ghostty dependency hash in `build.zig.zon`).
pub const GHOSTTY_VERSION: &str = "ghostty-1.3.2-dev-5UdBCw7jLQVbzMzfCu-BNb7P4o6P3L9WjORwuelawrt6";

/// The `fake-zmx` binary (built on demand, like `fake-agterm`).
pub fn fake_zmx_bin() -> std::path::PathBuf {
    crate::fake_agterm::locate::testkit_bin("fake-zmx")
}
