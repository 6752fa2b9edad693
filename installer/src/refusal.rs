//! A file we will not edit: [`agterm_backup_core::refusal`] (below every editor, the terminals' config
//! files' too).

pub use agterm_backup_core::refusal::*;
