//! Creating a pane the plan says is gone (a named session with a daemon of its own that the reboot
//! took, row 3d): re-checked right before, like typing. A session that is back by now (the user attached
//! it since the plan) is planned like any pane: an idle shell gets the line typed, anything else is left
//! alone. When the terminal reports that the session already existed as it came to create it
//! ([`Created::Theirs`]: the user's own attach won the race, and the terminal ignored our command; see
//! that terminal's `create`), the same applies to the user's session. Either way one session, the line
//! run once.

use super::{find_pane, release, take_claim, type_one, Outcome};
use crate::plan::PlanRow;
use agterm_backup_core::state::StateDir;
use agterm_backup_core::terminal::{Created, Terminal};

/// Creates row `row`'s session running its line; returns the screen before (empty for a new session)
/// and what was done, for the progress line.
pub(super) fn create_one(
    term: &mut dyn Terminal,
    row: &PlanRow,
    state: &StateDir,
) -> Result<(String, &'static str), Outcome> {
    let (Some(target), Some(line), Some(dir)) =
        (row.target.as_ref(), row.line(), row.agent_cwd.as_deref())
    else {
        return Err(Outcome::Failed("the row has no session or record".into()));
    };
    let now = term
        .panes()
        .map_err(|e| Outcome::Failed(format!("could not list sessions: {e}")))?;
    if find_pane(&now, target).is_some() {
        return type_one(term, row, state).map(|before| (before, "typed"));
    }
    // Once per launch, as for typing: the markers are held while the session is created, and given back
    // when it was not ours to create (typing into the user's session takes them again) or failed.
    take_claim(row, state)?;
    let created = term.create(target, dir, line);
    if !matches!(created, Ok(Created::Ours)) {
        release(row, state);
    }
    match created {
        Ok(Created::Ours) => Ok((String::new(), "created the session, running")),
        Ok(Created::Theirs) => type_one(term, row, state).map(|before| (before, "typed")),
        Err(e) => Err(Outcome::Failed(format!(
            "could not create the session: {e}"
        ))),
    }
}
