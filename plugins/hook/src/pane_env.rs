//! The environment the hook reads its pane from, as plain data: the registry's, whose rows each read
//! their own terminal's variables from it.

pub use agterm_backup_terminals::pane::Env;
