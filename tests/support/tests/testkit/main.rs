//! The testkit's own tests: the fake agterm and the fake zmx keep the promises of the programs they stand for.
//!
//! One binary (see "Where a new test goes" in ARCHITECTURE.md): a new test file goes in this folder and gets a
//! `mod` line below.

// Before `main`: this process and everything it starts get the sandbox's HOME (the XDG folders follow it),
// tmux and zmx default folders and TMPDIR, never the machine's (agterm_backup_testkit::hermetic).
agterm_backup_testkit::hermetic_test_binary!();

mod fake_agterm_common;
mod fake_zmx_common;

mod fake_agterm_commands;
mod fake_agterm_live;
mod fake_agterm_panes;
mod fake_agterm_protocol;
mod fake_agterm_restart;
mod fake_zmx;
mod fake_zmx_agents;
mod fake_zmx_formats;
mod fake_zmx_io;
mod hermetic;
