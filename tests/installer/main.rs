//! The `installer` test binary. The installer: wiring the hook into each agent's config, the shell line, tmux, the corpus of real config files, the flag bundles, and packaging.
//!
//! One binary per area (tests/ARCHITECTURE in ARCHITECTURE.md): a new test file goes in this folder and
//! gets a `mod` line below. The last module checks that the binary left no process or folder behind.

// Before `main`: this process and everything it starts get the sandbox's HOME (the XDG folders follow it),
// tmux and zmx default folders and TMPDIR, never the machine's (agterm_backup_testkit::hermetic).
agterm_backup_testkit::hermetic_test_binary!();

mod installer_common;

mod flags_bundles;
mod installer_classes;
mod installer_codex_both_files;
mod installer_corpus;
mod installer_fs;
mod installer_gate;
mod installer_gate_real;
mod installer_gate_real_more;
mod installer_more_agents;
mod installer_real_clis;
mod installer_real_clis_shapes;
mod installer_setup;
mod installer_shell;
mod installer_shell_files;
mod installer_shell_init_file;
mod installer_shell_reads;
mod installer_shell_zdotdir;
mod installer_tmux;
mod installer_upgrade_session_end;
mod opencode_plugin_panes;
mod packaging;
mod tmux_continuum;
