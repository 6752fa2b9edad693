//! What was captured for one pane: the planner's input per pane, below both [`crate::plan`] (which
//! decides from it) and [`crate::once`] (whose markers read it), so neither imports the other. It lives
//! in core, beside the terminals' joins that read it.

pub use agterm_backup_core::join::CapturedPane;
