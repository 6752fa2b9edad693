//! The `restore` test binary. Restore against stand-in agents and the fake agterm: the plan's cases, modes and promises, status, snap, printable output, the JSON schema, and state written by earlier releases.
//!
//! One binary per area (tests/ARCHITECTURE in ARCHITECTURE.md): a new test file goes in this folder and
//! gets a `mod` line below. The last module checks that the binary left no process or folder behind.

// Before `main`: this process and everything it starts get the sandbox's HOME (the XDG folders follow it),
// tmux and zmx default folders and TMPDIR, never the machine's (agterm_backup_testkit::hermetic).
agterm_backup_testkit::hermetic_test_binary!();

mod framework_doubles;
mod restore_support;
mod shell_rig;

mod agterm_restart_fake;
mod json_schema_readme;
mod output_printable;
mod pane_identity_agterm;
mod restore_cases;
mod restore_claude_ready;
mod restore_modes;
mod restore_promises;
mod shell_busy_start;
mod shell_fish_first_prompt;
mod shell_frameworks;
mod shell_frameworks_real;
mod shell_init_file_resume;
mod shell_leaks;
mod shell_starship_real;
mod shell_start_standin;
mod snap_fake;
mod state_broken;
mod status_fake;
mod status_hooks_off;
mod terminals_everywhere;
mod tmux_join_members;
mod tmux_join_saved;
mod tmux_layout_servers;
mod upgrade_state;
mod upgrade_tmux_layout;
