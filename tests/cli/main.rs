//! The `cli` test binary. The command line around restore: the agterm client, shell-start and shell-init, plugin routing, completions and man pages, the systemd/launchd timer units.
//!
//! One binary per area (tests/ARCHITECTURE in ARCHITECTURE.md): a new test file goes in this folder and
//! gets a `mod` line below. The last module checks that the binary left no process or folder behind.

// Before `main`: this process and everything it starts get the sandbox's HOME (the XDG folders follow it),
// tmux and zmx default folders and TMPDIR, never the machine's (agterm_backup_testkit::hermetic).
agterm_backup_testkit::hermetic_test_binary!();

mod agent_lists;
mod agterm_client_fake;
mod agterm_client_socket;
mod agterm_linux_paths;
mod cli_ecosystem;
mod cli_restart;
mod cli_start;
mod cli_terminals_help;
mod help_today;
mod module_cycles;
mod pane_identity_tty;
mod plugin_route;
mod shell_init;
mod shell_init_edges;
mod shell_pane_test;
mod shell_start;
mod shell_start_gone;
mod terminal_names;
mod timer_units;
