//! The restore plan: one pure function from plain data to one row per captured pane.
//!
//! Precedence, first match wins (in the style of the first row's own restore plan; see its crate's
//! `restore_facts.rs`). The rows speak of what a pane's terminal can do and what its view declares; each
//! terminal's own reasons live in its crate, behind its registry row (its `join`, `pin`, `restore`).
//!
//! | #  | condition                                                                          | row                                 |
//! |----|------------------------------------------------------------------------------------|-------------------------------------|
//! | 1  | no record, or every record was written after the cutoff                            | skip `no-record`                    |
//! | 1b | shell start: the terminal's launch time is unknown (no journal rule, no marker)    | skip `no-launch-time`               |
//! | 2  | the chosen record's agent is unknown / its session id is invalid                   | skip `unknown-agent` / `invalid-id` |
//! | 2b | the chosen record's time is not a date, before 2020, or in the future (see below)  | skip `bad-time`                     |
//! | 3  | no open pane joins the record (the row's join: pane id, session + role, a place)   | skip `pane-gone`                    |
//! | 3b | a multiplexer whose join checks the pane's place and directory: the directory does | skip `join-uncertain`               |
//! |    | not confirm it, or the pane moved since                                            |                                     |
//! | 3e | …a record whose place a layout restorer rebuilt from another server's save         | skip `other-save`                   |
//! | 3c | a pane that is a named session with a daemon of its own, gone but alive after the  | skip `session-closed`               |
//! |    | boot (closed by the user since)                                                    |                                     |
//! | 3d | such a session the reboot took, which restore creates: rows 4, 5, 13 and 14 as for | `create <resume line>`              |
//! |    | a pane, else                                                                       |                                     |
//! | 4  | the user ended the conversation (its newest record in any pane)                    | skip `ended`                        |
//! | 5  | another joined pane held the same (agent, conversation) later (in this launch too) | skip `duplicate`                    |
//! | 6  | a pane on another machine (its terminal's remote session)                          | skip `remote`                       |
//! | 7  | the agent in the foreground runs a conversation started in this launch             | skip `new-conversation`             |
//! | 7b | …and the terminal replayed it (Live, the pane's daemon created in this launch,     | `restart <resume line>`             |
//! |    | nobody typed into it; rows 9b, 12b, 13 and 14 first), a terminal that can restart  |                                     |
//! |    | a pane running a line                                                              |                                     |
//! | 7c | …but the replayed agent left no record at all since the launch (hooks unproven)    | skip `hooks-unproven` (+ the line)  |
//! | 8  | the pane's foreground is the agent (a Live daemon kept it, a pin fired, …)         | skip `already-running`              |
//! | 9  | anything else in the foreground (vim, a build, …)                                  | skip `busy`                         |
//! | 9b | the conversation or the pane got its resume in this launch (a marker; shell start: | skip `resumed`                      |
//! |    | also any record naming the conversation written since the launch)                 |                                     |
//! | 10 | a terminal that types a pane's pin itself after its launch is still to type it     | skip `pinned`                       |
//! |    | (Re-run; unrealized, or just launched; shell start: any pin in Re-run, however     |                                     |
//! |    | long ago the launch)                                                               |                                     |
//! | 11 | the pane's terminal is not up (`realized: false`) after restore's wait             | skip `not-realized`                 |
//! | 12 | the terminal sees no shell in front either (it cannot see past a setuid `sudo`)    | skip `hidden-foreground`            |
//! | 12b| the record's directory is gone, or is not a directory                              | skip `dir-gone`                     |
//! | 13 | the conversation's transcript / rollout is gone                                    | skip `transcript-gone`              |
//! | 14 | a directory or flag no shell line can carry                                        | skip `unquotable`                   |
//! | 15 | otherwise                                                                          | `type <resume line>`                |
//!
//! Each skip row is one [`SkipReason`] variant (`skip.rs`; rows 3, 3b, 3c and 3e are
//! `SkipReason::NotJoined`, the reason the record's terminal gave); a new decision is a new row here.
//! Rows 1–3 and 5 are computed for all panes first (`plan_join.rs`), since row 5 compares panes with
//! each other. Row 3's pane comes from the record's terminal: its row's join in the registry
//! (`terminals/<name>/src/join.rs`), a data step feeding this table.
//!
//! **The journal rule.** The cutoff is `--as-of` when given, else the terminal's launch time. A live
//! record written after the cutoff belongs to a session started in this launch (a replayed bare `claude`,
//! or one the user started and closed) — never the one the pane held before. The plan steps back to the
//! newest journal entry written at or before the cutoff and marks the row `[journal]`. With neither, the
//! rule is off (the table says so) and the current record is used.
//!
//! **Times nobody could have written (row 2b).** A record's `ts` is the hook's clock. The journal rule
//! sets aside a record dated after the cutoff like any record of this launch (a record from the future
//! is always after it), and steps back to the journal. The record it then chooses is skipped, and its
//! time shown, when the time is not a date, is before [`EARLIEST_RECORD`] (a clock reset to 1970 at
//! boot: no agent had hooks then), or is more than [`FUTURE_TOLERANCE_SECS`] after the run (with no
//! cutoff, or `--as-of` in the future). Such a record chooses no conversation.
//!
//! **One conversation, one pane (row 5).** A conversation quit in pane A and resumed by hand in pane B
//! leaves both records naming it. It goes to the pane whose newest record naming it is newest — the one
//! that held it last, including after the cutoff (a pane restore typed it into, or the user resumed it
//! in by hand since the launch, holds it now); the others name that pane. Only panes that joined
//! compete, so a conversation whose newest pane is closed comes back in the next one. A second restore
//! keeps the choice: the pane typed the first time runs the agent now (row 8), the others stay
//! `duplicate`.
//!
//! **Pins (row 10).** In Re-run mode a terminal that types a pane's pin itself (its row's `pin`) does so
//! once the pane is realized, so a line typed by restore would land in the agent's input box. A pin *will
//! fire* while its pane is not realized yet, and is taken to be still on its way for [`PIN_GRACE_SECS`]
//! after the terminal's launch (or always, with the launch time unknown). After that, a realized idle
//! pane's pin has fired without bringing the agent back (or never fires: a window reopened later), and
//! the pane is planned like any other. With the mode unknown (a terminal that cannot say) a pin counts
//! only when the terminal confirmed it would run it when the hook set it (`pin: ok` in the record); a
//! pin set by hand, or with the setting off, says nothing about firing.
//!
//! Live panes: a terminal that keeps each pane in a daemon shows it in [`PaneView::live`], and its
//! foreground sees through a surviving daemon, so an agent that a Live daemon kept alive shows as the
//! pane's foreground (row 8, marked as kept by Live). A daemon recreated after a reboot runs a fresh
//! shell (or a replayed argv), which rows 7, 9 and 15 handle like any pane.
//!
//! Named sessions with a daemon of their own (the row's `launch` and `join`): a session is a pane; its
//! journal cutoff is its own daemon's start, or for a session that is gone the machine's boot. A
//! session the reboot took is created again (row 3d) running the resume line, a login shell after it;
//! one that lived after the boot and is gone now was closed by the user, and stays closed (row 3c).
//!
//! **Once per launch (rows 1b, 9b; `once.rs`).** With [`PlanInput::launch`] the plan reads the markers
//! `restore` and `shell-start` take before they type or run a line; a `type` row then carries the
//! [`Claim`] to take. A shell's start-up trigger ([`Trigger::ShellStart`]) stands aside whenever anyone
//! else may bring the conversation back: without a launch time (no journal rule, no marker), after a run
//! of the conversation in this launch, and under any Re-run pin (the terminal types it; the line would
//! land in the agent).
//!
//! Row 7 is what keeps a replayed bare agent from winning (Live after a reboot without the denylist: the
//! npm agents run as `node <script>`, which the denylist cannot name): the pane is busy with a *new*
//! conversation, so nothing is typed. Row 7b replaces it: when the terminal created the pane's daemon in
//! this launch (its shell is younger than the terminal's launch — proof, where a missing record would
//! only be the absence of news), no record of the pane since the launch shows a prompt, and the terminal
//! can restart a pane running a line ([`PlanInput::restart`]), the pane's shell is replaced by one
//! running the resume line. A pane someone typed into, a remote one, one not Live, or a terminal that
//! cannot restart keeps row 7, whose text says what to do.

pub use crate::captured::CapturedPane;
use crate::once::{Claim, ThisLaunch, Trigger};
pub use crate::skip::SkipReason;
use crate::transcripts::Transcripts;
use agterm_backup_core::agent::agent;
pub use agterm_backup_core::join::JoinedBy;
use agterm_backup_core::join::NotJoined;
use agterm_backup_core::pane::PaneKey;
use agterm_backup_core::record::{LiveRecord, PinOutcome};
use agterm_backup_core::resume::ResumeLine;
use agterm_backup_core::terminal::{PaneRef, PaneView, RestoreMode};
use chrono::{DateTime, Utc};
use join::{holder, holders, join, Joined};

#[path = "plan_join.rs"]
mod join;
pub use join::record_at;

#[path = "plan_foreground.rs"]
mod foreground;
pub use crate::skip::NewHint;
pub use foreground::foreground_agent_args;
use foreground::foreground_reason;

#[path = "plan_create.rs"]
mod rows;

#[path = "plan_time.rs"]
mod time;
use rows::{create_row, ended_or_held, resume_line};
pub use time::{bad_time, EARLIEST_RECORD, FUTURE_TOLERANCE_SECS};

/// The planner's whole input. `panes` are the panes of every open window, each Live daemon already
/// joined into [`PaneView::live`] by the terminal client.
#[derive(Debug, Clone, Copy)]
pub struct PlanInput<'a> {
    pub captured: &'a [CapturedPane],
    pub panes: &'a [PaneView],
    pub mode: Option<RestoreMode>,
    /// When the running terminal started (its launch).
    pub launched_at: Option<DateTime<Utc>>,
    /// `--as-of`: overrides `launched_at` as the cutoff.
    pub as_of: Option<DateTime<Utc>>,
    /// The time of planning (`None`: unknown — a pin is then always taken to be still firing).
    pub now: Option<DateTime<Utc>>,
    pub transcripts: &'a Transcripts,
    /// Who asks and what this launch brought back already; `None`: `restore` without markers (the launch
    /// time unknown, or a caller from before the markers).
    pub launch: Option<&'a ThisLaunch>,
    /// The terminal can restart a pane running a line (probed): row 7b may replace a replayed agent.
    pub restart: bool,
}

/// How long after the terminal's launch a realized pane's pin may still be on its way in: the terminal
/// typed it when the pane came up, and a slow login shell or agent start can take this long to show it.
pub const PIN_GRACE_SECS: i64 = 90;

/// What to do with one pane.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    /// Type `line` (then Return); `resume` holds the checked argv (for over-long lines, a script).
    Type {
        line: String,
        resume: ResumeLine,
    },
    Skip {
        reason: SkipReason,
    },
    /// Create the session `target` names (a named session the reboot took), detached, in the record's
    /// directory, running `line`
    /// and a login shell after it.
    Create {
        line: String,
        resume: ResumeLine,
    },
    /// Replace the pane's shell, and the replayed agent in it, with a login shell running `line`
    /// (the terminal's restart, row 7b).
    Restart {
        line: String,
        resume: ResumeLine,
    },
}

/// One row of the plan.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlanRow {
    pub key: PaneKey,
    /// Where to type, when a pane joined.
    pub target: Option<PaneRef>,
    pub joined_by: Option<JoinedBy>,
    /// The joined pane's session name as its terminal shows it, for people reading the plan.
    pub pane_name: Option<String>,
    pub agent: Option<String>,
    pub session_id: Option<String>,
    pub agent_cwd: Option<String>,
    pub pane_cwd: Option<String>,
    /// The record's kept flags (execute rebuilds the line when the pane's directory moved).
    pub flags: Vec<String>,
    /// The record came from the journal (the current one was written after the cutoff).
    pub from_journal: bool,
    /// The journal rule's cutoff this row used: `--as-of`, else its terminal's launch (a live named
    /// session's own start, the boot for one that is gone).
    pub cutoff: Option<DateTime<Utc>>,
    pub action: Action,
    /// The once-per-launch markers to take right before typing (a `type` row with a known launch).
    pub claim: Option<Claim>,
}

impl PlanRow {
    pub fn line(&self) -> Option<&str> {
        match &self.action {
            Action::Type { line, .. }
            | Action::Create { line, .. }
            | Action::Restart { line, .. } => Some(line),
            Action::Skip { .. } => None,
        }
    }

    /// The row creates its pane (a named session) rather than typing into one.
    pub fn creates(&self) -> bool {
        matches!(self.action, Action::Create { .. })
    }

    /// The row restarts its pane running the line (the terminal's restart).
    pub fn restarts(&self) -> bool {
        matches!(self.action, Action::Restart { .. })
    }
}

/// The cutoff in force: `--as-of`, else the terminal's launch time, else none.
pub fn cutoff(input: &PlanInput<'_>) -> Option<DateTime<Utc>> {
    input.as_of.or(input.launched_at)
}

/// Plans every captured pane, in the order given.
pub fn plan(input: &PlanInput<'_>) -> Vec<PlanRow> {
    let cut = cutoff(input);
    let joined: Vec<Joined<'_>> = input
        .captured
        .iter()
        .map(|c| join(c, cut, input.launched_at, input))
        .collect();
    let holders = holders(&joined);
    joined
        .iter()
        .zip(input.captured)
        .enumerate()
        .map(|(i, (j, c))| {
            let held = holder(&holders, &joined, i);
            let held_by = held
                .filter(|&(w, _)| w != i)
                .map(|(w, _)| SkipReason::Duplicate {
                    winner: input.captured[w].key.clone(),
                    winner_name: joined[w]
                        .pane
                        .and_then(|(p, _)| input.panes[p].session_name.clone())
                        .filter(|n| !n.is_empty()),
                });
            // Row 4 asks the conversation, not the pane: its newest word is the holder's.
            let newest = held.map(|(_, r)| r).or(j.latest);
            plan_one(input, c, j, newest, held_by)
        })
        .collect()
}

fn plan_one(
    input: &PlanInput<'_>,
    c: &CapturedPane,
    j: &Joined<'_>,
    newest: Option<&LiveRecord>,
    held_by: Option<SkipReason>,
) -> PlanRow {
    let mut row = PlanRow {
        key: c.key.clone(),
        target: None,
        joined_by: None,
        pane_name: None,
        agent: None,
        session_id: None,
        agent_cwd: None,
        pane_cwd: None,
        flags: Vec::new(),
        from_journal: false,
        cutoff: j.cut,
        action: Action::Skip {
            reason: SkipReason::NotJoined {
                why: NotJoined::PaneGone,
                terminal: c.key.terminal(),
            },
        },
        claim: None,
    };
    let trigger = input.launch.map_or(Trigger::Restore, |l| l.trigger);
    // 1b. A shell start needs the journal rule and the markers, both keyed by the launch.
    if trigger == Trigger::ShellStart && input.launch.and_then(|l| l.id.as_ref()).is_none() {
        return row.skip(SkipReason::NoLaunchTime);
    }
    // 1. A record in force at the cutoff.
    let Some((rec, from_journal)) = j.record else {
        let why = match (&c.record, cutoff(input)) {
            // The pane has a file in `live/` (that is how it is listed), but nothing in it could be used.
            (None, _) if c.journal.is_empty() => {
                "its record and journal files could not be used (each is named with why)"
                    .to_string()
            }
            (_, Some(t)) => format!("every record was written after {}", t.to_rfc3339()),
            _ => "the record is unreadable".to_string(),
        };
        return row.skip(SkipReason::NoRecord { why });
    };
    row.from_journal = from_journal;
    row.agent = Some(rec.agent.clone());
    row.session_id = Some(rec.session_id.clone());
    row.agent_cwd = Some(rec.agent_cwd.clone());
    row.flags = rec.flags.clone();
    // 2. A known agent and a valid id.
    let Some(spec) = j.spec else {
        return row.skip(match agent(&rec.agent) {
            None => SkipReason::UnknownAgent {
                agent: rec.agent.clone(),
            },
            Some(_) => SkipReason::InvalidId {
                why: format!("{:?} is not a session id", rec.session_id),
            },
        });
    };
    // 2b. A time the record could have been written at.
    if let Some(why) = bad_time(rec, input.now) {
        return row.skip(SkipReason::BadTime {
            ts: rec.ts.clone(),
            why,
        });
    }
    // 3. The pane its terminal's join found (`plan_join.rs`, the registry's row), or why none.
    let Some((index, joined_by)) = j.pane else {
        if let Some(target) = j.create.clone() {
            return create_row(input, row, target, rec, spec, newest, held_by);
        }
        let why = j.not_joined.clone().unwrap_or(NotJoined::PaneGone);
        return row.skip(SkipReason::NotJoined {
            why,
            terminal: c.key.terminal(),
        });
    };
    let pane = &input.panes[index];
    row.joined_by = Some(joined_by);
    row.pane_name = pane.session_name.clone().filter(|n| !n.is_empty());
    row.pane_cwd = pane.cwd.clone();
    row.target = Some(PaneRef {
        session_id: pane.session_id.clone(),
        role: pane.role,
        pane_id: pane.pane_id.clone(),
    });
    // 4. A conversation the user ended stays ended. The newest word on the chosen conversation counts:
    // the current record when it names the same one (ended after the cutoff, or resumed again since),
    // or the pane that held it last (ended there, it is ended here too).
    if let Some(reason) = ended_or_held(rec, newest, held_by) {
        return row.skip(reason);
    }
    // 6. Never into another machine.
    if pane.remote {
        return row.skip(SkipReason::Remote);
    }
    // 7–9. Only an idle shell is typed into; 7b: a replayed agent is replaced.
    if let Some(fg) = pane.foreground.as_ref().filter(|fg| !fg.is_empty()) {
        return match foreground_reason(input, spec, rec, c, from_journal, pane, fg) {
            Err(reason) => row.skip(reason),
            Ok(()) => restart_row(input, row, spec, rec, c),
        };
    }
    // 9b. Once per launch (since the row's own cutoff: a live named session's start, not the boot).
    if let Some(reason) = input
        .launch
        .and_then(|l| l.resumed_reason(input.captured, row.cutoff, &c.key, rec))
    {
        return row.skip(reason);
    }
    // 10. The terminal types the pin itself.
    if let Some(line) = firing_pin(input, pane, rec, trigger) {
        return row.skip(SkipReason::Pinned {
            line,
            terminal: c.key.terminal(),
        });
    }
    // 11–12. Never typed blind: the pane is up and its terminal sees its shell.
    if let Some(reason) = unseen(pane) {
        return row.skip(reason);
    }
    // 13–15. A line, or why none can be built.
    match resume_line(input, spec, rec, pane.cwd.as_deref()) {
        Ok(resume) => {
            row.action = Action::Type {
                line: resume.line.clone(),
                resume,
            };
            row.claim = claim_for(input, rec, &c.key);
            row
        }
        Err(reason) => row.skip(reason),
    }
}

/// Row 7b after rows 9b, 13 and 14: the replayed agent's pane restarts running the resume line, which
/// always carries its `cd` (the new shell starts wherever the terminal puts it).
fn restart_row(
    input: &PlanInput<'_>,
    row: PlanRow,
    spec: &agterm_backup_core::agent::AgentSpec,
    rec: &LiveRecord,
    c: &CapturedPane,
) -> PlanRow {
    let key = &c.key;
    if let Some(reason) = input
        .launch
        .and_then(|l| l.resumed_reason(input.captured, row.cutoff, key, rec))
    {
        return row.skip(reason);
    }
    match resume_line(input, spec, rec, None) {
        // 7c. A replayed agent that wrote no record since the launch may have hooks that never run:
        // the user's prompt would not show, so it is not replaced on our own.
        Ok(resume) if !foreground::hooks_proven(input, rec, c) => {
            row.skip(SkipReason::HooksUnproven {
                agent: rec.agent.clone(),
                line: resume.line,
                terminal: key.terminal(),
            })
        }
        Ok(resume) => PlanRow {
            action: Action::Restart {
                line: resume.line.clone(),
                resume,
            },
            claim: claim_for(input, rec, key),
            ..row
        },
        Err(reason) => row.skip(reason),
    }
}

/// The once-per-launch markers a row that starts `rec`'s conversation in pane `key` takes right before
/// it does (none without a launch identity: `--as-of`-only plans, terminals that cannot say).
fn claim_for(input: &PlanInput<'_>, rec: &LiveRecord, key: &PaneKey) -> Option<Claim> {
    input.launch.and_then(|l| l.id.clone()).map(|launch| Claim {
        launch,
        agent: rec.agent.clone(),
        session_id: rec.session_id.clone(),
        pane: key.clone(),
    })
}

/// Rows 11–12: why the pane's terminal cannot show that the pane sits at a shell — it is not up
/// (`realized: false`), or it reports neither a program nor a shell in front (a setuid program such as
/// `sudo`, whose argv the terminal may not read, holds it).
pub fn unseen(pane: &PaneView) -> Option<SkipReason> {
    if pane.realized == Some(false) {
        return Some(SkipReason::NotRealized);
    }
    (pane.shell_in_front == Some(false)).then(|| SkipReason::HiddenForeground {
        terminal: agterm_backup_terminals::restore_facts::terminal_of(pane),
    })
}

/// Why a pane is not an idle local shell right now (restore's re-check before typing): rows 6, 9
/// (any foreground) and 11–12.
pub fn not_idle(pane: &PaneView) -> Option<SkipReason> {
    if pane.remote {
        return Some(SkipReason::Remote);
    }
    if let Some(fg) = pane.foreground.as_ref().filter(|fg| !fg.is_empty()) {
        return Some(SkipReason::Busy {
            foreground: fg.clone(),
        });
    }
    unseen(pane)
}

/// The pin the terminal will type into `pane` itself, if any: a non-empty pin in Re-run mode (or, with
/// the mode unknown, one the terminal confirmed it will run when the hook set it) that is still to fire
/// — its pane not realized yet, or the terminal launched less than [`PIN_GRACE_SECS`] ago.
fn firing_pin(
    input: &PlanInput<'_>,
    pane: &PaneView,
    rec: &LiveRecord,
    trigger: Trigger,
) -> Option<String> {
    let line = pane.pin.clone().filter(|l| !l.trim().is_empty())?;
    let armed = match input.mode {
        Some(RestoreMode::Rerun) => true,
        Some(RestoreMode::Live | RestoreMode::None) => false,
        None => rec.pin == Some(PinOutcome::Ok),
    };
    let since_launch = input.now.zip(input.launched_at).map(|(n, l)| n - l);
    let still_coming = trigger == Trigger::ShellStart
        || pane.realized == Some(false)
        || since_launch.is_none_or(|d| d < chrono::Duration::seconds(PIN_GRACE_SECS));
    (armed && still_coming).then_some(line)
}

impl PlanRow {
    fn skip(mut self, reason: SkipReason) -> PlanRow {
        self.action = Action::Skip { reason };
        self
    }
}

#[cfg(test)]
#[path = "plan_tests.rs"]
mod tests;

#[cfg(test)]
#[path = "plan_rows_tests.rs"]
mod row_tests;

#[cfg(test)]
#[path = "plan_once_tests.rs"]
mod once_tests;

#[cfg(test)]
#[path = "plan_restart_tests.rs"]
mod restart_tests;

#[cfg(test)]
#[path = "plan_world_tests.rs"]
mod world_tests;

#[cfg(test)]
#[path = "plan_tmux_tests.rs"]
mod tmux_tests;

#[cfg(test)]
#[path = "plan_zmx_tests.rs"]
mod zmx_tests;
