//! Test support for agterm-backup: a fake agterm on a real Unix socket whose panes are real shells in a
//! private tmux server, a fake zmx whose sessions are real shells too, a stub of the Anthropic and
//! OpenAI streaming APIs on 127.0.0.1 for the real agent CLIs, and helpers to find and drive them.

pub mod agents;
pub mod clock;
pub mod fake_agterm;
pub mod fake_zmx;
pub mod fds;
pub mod hermetic;
pub mod layout;
pub mod paths;
pub mod pids;
pub mod scratch;
pub mod settle;
pub mod stub_model;
pub mod tmux;

// The test kit's own unit tests run in a sandbox too (see `hermetic`).
#[cfg(test)]
crate::hermetic_test_binary!();

/// The `agterm-backup` binary a test or bench runs (a `&'static str`): the one cargo built for it, or
/// the one `$AGTERM_BACKUP_TEST_BINARY` names ([`paths::agterm_backup_binary`]). A macro because only the
/// calling test crate knows `CARGO_BIN_EXE_agterm-backup`.
#[macro_export]
macro_rules! agterm_backup_bin {
    () => {
        $crate::paths::agterm_backup_binary(env!("CARGO_BIN_EXE_agterm-backup"))
    };
}
