//! Plain-data builders for the unit tests: core's, shared with each terminal's join tests.

pub use agterm_backup_core::fixtures::*;
