//! The restore plugin: joins the live records to the panes each terminal of the registry brought
//! back and types each pane's resume line where it is safe; also `status`, `answer`, `snap` and `timer`.
//! It reaches the terminals only through the registry (`agterm_backup_terminals`).
//!
//! - [`plan`]: the pure planner (records + journals × panes × mode × launch time × transcripts → rows);
//!   each record's pane comes from its terminal's join, through the registry's row.
//! - [`captured`]: what was captured for one pane (a record and its journal), below `plan` and `once`.
//! - [`transcripts`]: which conversations still exist (computed at the edge).
//! - [`cutoff`]: the hand-set cutoff of `--as-of`.
//! - [`skip`]: why a row types nothing (one variant per row of the precedence table).
//! - [`prompt`]: whether a pane's prompt line already holds typed text.
//! - [`render`]: the plan as an aligned table or versioned JSON.
//! - [`dialog`]: Claude's "resume from summary?" question: spotting it and the keys that answer it.
//! - [`execute`]: typing the plan through the [`Terminal`](agterm_backup_core::terminal::Terminal) seam,
//!   re-checking each pane first and confirming the agent came up; answering the dialog.
//! - [`gather`]: one planning pass against the running terminal (the edge around [`plan`]).
//! - [`once`]: the once-per-launch markers (`resumed/<launch>/`) that `restore` and `shell-start` take.
//! - [`at_work`]: whether someone is at work in a replayed agent, read again right before a restart.
//! - [`broken`]: the record and journal files a plan could not use, named with their reasons.
//! - [`load`]: reading records, journals and harvested snapshot entries from the state directory.
//! - [`relaunch`]: `restart` (quit each idle agent, resume its conversation in the same pane).
//! - [`snapshot`]: `snap` and `snap --harvest`.
//! - [`status`]: the `status` report.
//! - [`timer`]: launchd / systemd unit generation and installation for `snap` on a schedule.
//! - [`mock`]: an in-memory [`Terminal`](agterm_backup_core::terminal::Terminal) for tests.

pub mod agent_stores;
pub mod at_work;
pub mod broken;
pub mod captured;
pub mod cutoff;
pub mod dialog;
pub mod execute;
pub mod gather;
pub mod load;
pub mod mock;
pub mod once;
pub mod plan;
pub mod prompt;
pub mod relaunch;
pub mod render;
pub mod skip;
pub mod snapshot;
pub mod status;
pub mod timer;
pub mod transcripts;

#[cfg(test)]
mod fixtures;
