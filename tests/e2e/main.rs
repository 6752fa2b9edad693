//! The `e2e` test binary. End to end with the real agent CLIs (offline, against the testkit's stub model): conversations in agterm, tmux and zmx panes, a restart, and every one resumed in its pane.
//!
//! One binary per area (tests/ARCHITECTURE in ARCHITECTURE.md): a new test file goes in this folder and
//! gets a `mod` line below. The last module checks that the binary left no process or folder behind.

// Before `main`: this process and everything it starts get the sandbox's HOME (the XDG folders follow it),
// tmux and zmx default folders and TMPDIR, never the machine's (agterm_backup_testkit::hermetic).
agterm_backup_testkit::hermetic_test_binary!();

mod e2e_restart_common;
mod tmux_common;
mod zmx_common;

mod e2e_claude;
mod e2e_claude_panes;
mod e2e_claude_resume;
mod e2e_codex;
mod e2e_codex_daemon;
mod e2e_codex_resume;
mod e2e_kimi;
mod e2e_kimi_tmux;
mod e2e_kimi_zmx;
mod e2e_live_restart;
mod e2e_opencode_tmux;
mod e2e_restart_agterm;
mod e2e_restart_codex_daemon;
mod e2e_restart_command;
mod e2e_restart_crash;
mod e2e_restart_flavours;
mod e2e_restart_kimi;
mod e2e_restart_more;
mod e2e_restart_more_agents;
mod e2e_session_end;
mod e2e_session_end_more;
mod e2e_stub_model;
mod e2e_tmux;
mod e2e_zero_touch;
mod e2e_zero_touch_tmux;
mod e2e_zero_touch_zmx;
mod e2e_zmx;
mod restore_real_claude;
