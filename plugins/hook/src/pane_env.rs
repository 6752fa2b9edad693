//! The agterm pane the hook runs in: agterm's own (`terminals/agterm`), reached through the registry.

pub use agterm_backup_terminals::agterm::pane_env::{Env, NotAPane, PaneEnv};
