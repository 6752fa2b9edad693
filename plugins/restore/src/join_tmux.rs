//! Which pane of the running tmux server a tmux record belongs to.
//!
//! Layout restorers (tmux-resurrect, tmuxp, tmuxinator) rebuild sessions by name and windows and panes
//! by index on the same socket, with a shell in each saved directory; `%N` ids start again at `%0`, so
//! they are never joined on. A record joins the pane at its server + session + window + pane index, and
//! only when that pane's directory confirms it (the pane's directory when the record was written, the
//! agent's, or the hook's): a layout that changed since (a pane closed, so the indexes shifted; another
//! layout loaded) would otherwise put a conversation into a stranger's pane. An uncertain join is
//! skipped with the reason, never guessed. A record whose pane (same server, same `%N`) wrote a newer
//! record at another place moved there: the old place is stale.

use crate::plan::{CapturedPane, SkipReason};
use agterm_backup_core::pane::tmux::TmuxPane;
use agterm_backup_core::record::LiveRecord;
use agterm_backup_core::terminal::PaneView;

/// The index in `panes` of the pane `recorded` (the record `rec`'s tmux pane) joins, or why none does.
pub fn join(
    panes: &[PaneView],
    recorded: &TmuxPane,
    rec: &LiveRecord,
    captured: &[CapturedPane],
) -> Result<usize, SkipReason> {
    if let Some(now_at) = moved_to(recorded, rec, captured) {
        return Err(SkipReason::JoinUncertain {
            why: format!(
                "the pane moved to {} later (its newer record is there)",
                now_at.target()
            ),
        });
    }
    let (index, pane, now) = panes
        .iter()
        .enumerate()
        .find_map(|(i, p)| {
            let now = p.tmux.as_ref()?;
            now.same_place(recorded).then_some((i, p, now))
        })
        .ok_or(SkipReason::PaneGone)?;
    let confirming = [
        recorded.cwd.as_deref(),
        Some(rec.agent_cwd.as_str()),
        Some(rec.hook_cwd.as_str()),
    ];
    match pane.cwd.as_deref() {
        Some(cwd) if confirming.contains(&Some(cwd)) => Ok(index),
        cwd => Err(SkipReason::JoinUncertain {
            why: format!(
                "{} is in {}, but the pane recorded there was in {}: the layout changed since",
                now.target(),
                cwd.unwrap_or("an unknown directory"),
                recorded.cwd.as_deref().unwrap_or(&rec.agent_cwd)
            ),
        }),
    }
}

/// Where the same pane (server pid + start, `%N`) wrote a newer current record, if not here.
fn moved_to(recorded: &TmuxPane, rec: &LiveRecord, captured: &[CapturedPane]) -> Option<TmuxPane> {
    let same_pane = |t: &TmuxPane| {
        t.pane_id.is_some()
            && t.pane_id == recorded.pane_id
            && t.server_pid == recorded.server_pid
            && t.server_started == recorded.server_started
            && t.socket == recorded.socket
    };
    captured
        .iter()
        .filter_map(|c| c.record.as_ref())
        .filter(|r| r.written_at() > rec.written_at())
        .filter_map(LiveRecord::tmux)
        .find(|t| same_pane(t) && !t.same_place(recorded))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::{record, ID_A, ID_B};
    use agterm_backup_core::pane::{PaneKey, PaneRole};

    fn place(session: &str, window: u32, pane: u32, id: &str, cwd: &str) -> TmuxPane {
        TmuxPane {
            socket: "/tmp/tmux-1/default".into(),
            session: session.into(),
            window,
            pane,
            pane_id: Some(id.into()),
            server_pid: Some(100),
            server_started: Some(1_700_000_000),
            cwd: Some(cwd.into()),
        }
    }

    fn tmux_record(id: &str, at: &str, t: &TmuxPane) -> LiveRecord {
        let mut r = record(id, PaneRole::Left, at);
        r.agent_cwd = t.cwd.clone().unwrap();
        r.hook_cwd = format!("{}/sub", r.agent_cwd);
        r.set_tmux(t);
        r
    }

    fn view(t: TmuxPane, cwd: &str) -> PaneView {
        let mut p = crate::fixtures::pane(PaneRole::Left);
        p.pane_id = Some("%0".into());
        p.cwd = Some(cwd.into());
        p.tmux = Some(TmuxPane {
            pane_id: Some("%0".into()),
            server_pid: Some(200),
            server_started: Some(1_800_000_000),
            ..t
        });
        p
    }

    fn captured(r: LiveRecord) -> CapturedPane {
        CapturedPane {
            key: r.pane_key().unwrap(),
            record: Some(r),
            journal: vec![],
        }
    }

    #[test]
    fn joins_by_name_and_index_when_the_directory_confirms() {
        let was = place("work", 1, 0, "%7", "/w/a");
        let rec = tmux_record(ID_A, "2026-11-30T10:00:00Z", &was);
        let panes = [
            view(place("work", 0, 0, "%0", "/w/b"), "/w/b"),
            view(place("work", 1, 0, "%1", "/w/a"), "/w/a"),
        ];
        let all = [captured(rec.clone())];
        assert_eq!(join(&panes, &was, &rec, &all), Ok(1));
        assert!(matches!(rec.pane_key(), Some(PaneKey::Tmux(_))));
    }

    #[test]
    fn a_shifted_layout_is_uncertain_and_a_missing_pane_is_gone() {
        let was = place("work", 0, 1, "%7", "/w/a");
        let rec = tmux_record(ID_A, "2026-11-30T10:00:00Z", &was);
        let all = [captured(rec.clone())];
        let shifted = [view(place("work", 0, 1, "%0", "/w/other"), "/w/other")];
        let got = join(&shifted, &was, &rec, &all);
        assert!(
            matches!(&got, Err(SkipReason::JoinUncertain { why }) if why.contains("/w/other")),
            "{got:?}"
        );
        let other_session = [view(place("play", 0, 1, "%0", "/w/a"), "/w/a")];
        assert_eq!(
            join(&other_session, &was, &rec, &all),
            Err(SkipReason::PaneGone)
        );
        let mut other_server = view(place("work", 0, 1, "%0", "/w/a"), "/w/a");
        other_server.tmux.as_mut().unwrap().socket = "/tmp/tmux-1/other".into();
        assert_eq!(
            join(&[other_server], &was, &rec, &all),
            Err(SkipReason::PaneGone)
        );
    }

    #[test]
    fn a_pane_that_moved_is_stale_at_its_old_place() {
        let old = place("work", 0, 1, "%7", "/w/a");
        let new = place("work", 0, 0, "%7", "/w/a");
        let before = tmux_record(ID_A, "2026-11-30T10:00:00Z", &old);
        let after = tmux_record(ID_B, "2026-11-30T11:00:00Z", &new);
        let all = [captured(before.clone()), captured(after.clone())];
        let panes = [
            view(place("work", 0, 0, "%0", "/w/a"), "/w/a"),
            view(place("work", 0, 1, "%1", "/w/a"), "/w/a"),
        ];
        assert!(matches!(
            join(&panes, &old, &before, &all),
            Err(SkipReason::JoinUncertain { .. })
        ));
        assert_eq!(join(&panes, &new, &after, &all), Ok(0));
    }

    #[test]
    fn the_plan_types_a_confirmed_tmux_pane_and_skips_a_shifted_one_before_the_server_start() {
        use crate::plan::{plan, Action, PlanInput};
        let a = place("work", 0, 0, "%3", "/w/a");
        let b = place("work", 0, 1, "%4", "/w/b");
        let ra = tmux_record(ID_A, "2026-11-30T10:00:00Z", &a);
        let rb = tmux_record(ID_B, "2026-11-30T10:00:00Z", &b);
        let mut transcripts = crate::transcripts::Transcripts::default();
        for r in [&ra, &rb] {
            transcripts.paths.insert(r.transcript_path.clone().unwrap());
        }
        // Pane work:0.1 came back in another directory (the layout changed since).
        let panes = [view(a.clone(), "/w/a"), view(b.clone(), "/w/elsewhere")];
        let captured = [captured(ra), captured(rb)];
        let server_start = crate::fixtures::ts("2026-12-01T00:00:00Z");
        let rows = plan(&PlanInput {
            captured: &captured,
            panes: &panes,
            mode: None,
            launched_at: Some(server_start),
            as_of: None,
            now: Some(server_start),
            transcripts: &transcripts,
            launch: None,
            restart: false,
        });
        let code = |i: usize| match &rows[i].action {
            Action::Type { line, .. } => format!("type {line}"),
            Action::Create { line, .. } => format!("create {line}"),
            Action::Restart { line, .. } => format!("restart {line}"),
            Action::Skip { reason } => reason.code().to_string(),
        };
        assert!(
            code(0).starts_with("type") && code(0).contains(ID_A),
            "{rows:#?}"
        );
        assert_eq!(rows[0].joined_by, Some(crate::plan::JoinedBy::TmuxPlace));
        assert_eq!(code(1), "join-uncertain", "{rows:#?}");
    }
}
