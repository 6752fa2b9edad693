//! The `hook` test binary. The capture hook: what it records from each agent's payload and environment, under agterm, tmux and zmx, its faults and concurrency, and the resume flags and pins it keeps.
//!
//! One binary per area (tests/ARCHITECTURE in ARCHITECTURE.md): a new test file goes in this folder and
//! gets a `mod` line below. The last module checks that the binary left no process or folder behind.

// Before `main`: this process and everything it starts get the sandbox's HOME (the XDG folders follow it),
// tmux and zmx default folders and TMPDIR, never the machine's (agterm_backup_testkit::hermetic).
agterm_backup_testkit::hermetic_test_binary!();

mod hook_common;

mod agent_flags_drift;
mod agy_fake;
#[cfg(target_os = "linux")]
mod binary_hardening;
mod hook_argv;
mod hook_concurrency;
mod hook_dropped_flags;
mod hook_env;
mod hook_faults;
mod hook_flags_help;
mod hook_litter;
mod hook_restart_marker;
mod hook_slug_real;
mod hook_state_guard;
mod hook_state_sources;
mod hook_tmux;
mod hook_tree;
mod hook_zmx;
mod pin_fake_agterm;
mod pin_hook;
mod pin_real_claude;
mod pin_resume_grammar;
mod resume_flags_real;
mod resume_non_utf8;
