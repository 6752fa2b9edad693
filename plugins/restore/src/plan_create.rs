//! Rows shared by a pane that is there and a named session to create (4–5, 12b–14), and row 3d itself.

use super::{claim_for, cutoff, Action, PlanInput, PlanRow, SkipReason};
use agterm_backup_core::agent::AgentSpec;
use agterm_backup_core::record::LiveRecord;
use agterm_backup_core::resume::ResumeLine;
use agterm_backup_core::terminal::PaneRef;

/// Rows 4–5: the user ended the conversation (the newest word on it counts: the current record when it
/// names the same one, or the pane that held it last), or another pane holds it.
pub(super) fn ended_or_held(
    rec: &LiveRecord,
    newest: Option<&LiveRecord>,
    held_by: Option<SkipReason>,
) -> Option<SkipReason> {
    let latest = newest.unwrap_or(rec);
    if latest.ended_by_user() {
        let reason = latest.end_reason().unwrap_or_default().to_string();
        return Some(SkipReason::Ended { reason });
    }
    held_by
}

/// Rows 12b–14: the directory is there (a `cd` into a gone one fails in the pane), the transcript is on
/// disk (never resume into a blank conversation) and a shell line can carry the directory and the flags.
pub(super) fn resume_line(
    input: &PlanInput<'_>,
    spec: &AgentSpec,
    rec: &LiveRecord,
    shell_cwd: Option<&str>,
) -> Result<ResumeLine, SkipReason> {
    if let Some(why) = input.transcripts.dir_gone(rec) {
        return Err(SkipReason::DirGone {
            dir: rec.agent_cwd.clone(),
            why,
        });
    }
    if let Some(what) = input.transcripts.missing(rec) {
        return Err(SkipReason::TranscriptGone { what });
    }
    ResumeLine::build(spec, &rec.session_id, &rec.flags, &rec.agent_cwd, shell_cwd)
        .map_err(|e| SkipReason::from_resume_error(&e))
}

/// Row 3d: a named session the reboot took comes back, created running its resume line (rows 4, 5, 13
/// and 14 first; the rows about a pane's foreground have no pane to look at).
pub(super) fn create_row(
    input: &PlanInput<'_>,
    mut row: PlanRow,
    target: PaneRef,
    rec: &LiveRecord,
    spec: &AgentSpec,
    newest: Option<&LiveRecord>,
    held_by: Option<SkipReason>,
) -> PlanRow {
    row.pane_name = Some(target.session_id.clone());
    row.target = Some(target);
    if let Some(reason) = ended_or_held(rec, newest, held_by) {
        return row.skip(reason);
    }
    // 9b. Once per launch: a restore racing this one, or a shell's start-up trigger, brought it back.
    if let Some(reason) = input
        .launch
        .and_then(|l| l.resumed_reason(input.captured, cutoff(input), &row.key, rec))
    {
        return row.skip(reason);
    }
    match resume_line(input, spec, rec, None) {
        Ok(resume) => {
            row.action = Action::Create {
                line: resume.line.clone(),
                resume,
            };
            row.claim = claim_for(input, rec, &row.key);
            row
        }
        Err(reason) => row.skip(reason),
    }
}
