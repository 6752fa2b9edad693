//! agterm's facts for restore's plan (its registry row's `restore`), and how agterm meets the plan's
//! capability rows.
//!
//! - The plan's precedence table follows the style of agterm's own `CommandRestore.restorePlan`.
//! - **Pins (row 10).** In Re-run mode agterm types a pane's pin itself once the pane is realized
//!   (`pin.rs` sets it), so a line typed by restore would land in the agent's input box. With the mode
//!   unknown (agterm before 0.26, where the legacy "Restore running commands" setting decides) a pin
//!   counts only when agterm confirmed it would run it when the hook set it (`pin: ok` in the record).
//! - **Live daemons.** agterm's client joins `zmx.list` rows into each pane's `live` (`panes.rs`), and
//!   agterm's `tree.foreground` sees through a surviving daemon (`ZmxForegroundResolver`), so an agent
//!   that a Live daemon kept alive shows as the pane's foreground (row 8).
//! - **Replays (rows 7–7c).** After a reboot in Live mode agterm recreates each pane's daemon and may
//!   replay a bare agent (a new conversation); `session.restart` (probed, `features.rs`) replaces it.
//! - **What agterm cannot see (rows 6, 12).** A remote session's pane lives on another machine; a setuid
//!   program such as `sudo` holds a pane with neither a foreground nor a shell agterm can read.
//! - **Not realized (row 11).** A pane of a window agterm has not realized yet has no shell to type into.

/// The `not realized` skip's words for an agterm pane that is not up.
pub const UNREALIZED: Option<&str> = Some("agterm has not realized it");
