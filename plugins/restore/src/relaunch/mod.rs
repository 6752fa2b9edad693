//! `agterm-backup restart`: quit each idle agent the way its user would and resume the same
//! conversation in the same pane, on whatever binary is installed now.
//!
//! - [`decide`]: the pure precedence table (restart, finish, wait with a reason, skip with a reason).
//! - [`screen`]: what an agent's screen says (its quit, a permission question, text in its input box).
//! - [`version`]: the agent's version before (its transcript) and after (the installed binary).
//! - [`run`]: the edge: panes and records of one terminal, the marker, the quit, the resume line typed
//!   by restore's own `execute::type_plan`.

pub mod decide;
pub mod run;
pub mod screen;
pub mod version;
