//! After typing: did each agent come up, and stay up? An agent that refuses its arguments is in the
//! foreground for a moment and then gone; only one still there `settle` after it was first seen counts
//! as running.

use super::{find_pane, ExecOptions, Outcome, Progress};
use crate::plan::{foreground_agent_args, PlanRow};
use crate::prompt::typed_on_prompt;
use crate::render::pane_label;
use agterm_backup_core::agent::agent;
use agterm_backup_core::printable::printable;
use agterm_backup_core::terminal::{PaneView, ScreenRange, Terminal};
use std::time::Instant;

/// Whether row `i`'s agent is in its pane's foreground in `panes`.
fn agent_up(rows: &[PlanRow], i: usize, panes: &[PaneView]) -> bool {
    let row = &rows[i];
    let spec = row.agent.as_deref().and_then(agent);
    row.target
        .as_ref()
        .and_then(|t| find_pane(panes, t))
        .and_then(|p| p.foreground.as_ref())
        .zip(spec)
        .is_some_and(|(fg, spec)| foreground_agent_args(spec, fg).is_some())
}

/// Whether row `i`'s typed line already ran and gave the prompt back without its agent ever showing in
/// the foreground (an argument error exits faster than a poll): the shell holds the pane again, its
/// prompt line is empty, and the screen shows the typed line (its id, or its script's name) more often
/// than before the typing — so the line was echoed and finished, not still waiting to be read.
fn ran_and_returned(term: &mut dyn Terminal, row: &PlanRow, pane: &PaneView, before: &str) -> bool {
    let idle_shell =
        pane.foreground.as_ref().is_none_or(|f| f.is_empty()) && pane.shell_in_front != Some(false);
    let (Some(target), true) = (row.target.as_ref(), idle_shell) else {
        return false;
    };
    let Ok(now) = term.screen(target, ScreenRange::Visible) else {
        return false;
    };
    let key = row.key.to_string();
    let marks = |screen: &str| {
        screen
            .lines()
            .filter(|l| {
                row.session_id.as_deref().is_some_and(|id| l.contains(id)) || l.contains(&key)
            })
            .count()
    };
    typed_on_prompt(&now, pane.cwd.as_deref()).is_none() && marks(&now) > marks(before)
}

/// Polls until each typed pane's agent has been in the foreground for `settle`, or the timeout. An
/// agent seen and then gone, or whose line ran and returned to the prompt unseen, exited at once
/// (`Exited`, with the screen's last line). Returns the rows whose agent stayed up.
pub(super) fn confirm(
    term: &mut dyn Terminal,
    rows: &[PlanRow],
    typed: &[(usize, String)],
    opts: &ExecOptions,
    outcomes: &mut [Option<Outcome>],
    progress: &mut dyn Progress,
) -> Vec<usize> {
    let started = Instant::now();
    let deadline = started + opts.confirm_timeout + opts.settle;
    // Per typed row: when its agent was first seen up, and whether the last poll missed it after that.
    let mut waiting: Vec<(usize, Option<Instant>, bool)> =
        typed.iter().map(|(i, _)| (*i, None, false)).collect();
    let before = |i: usize| {
        typed
            .iter()
            .find(|(j, _)| *j == i)
            .map_or("", |(_, s)| s.as_str())
    };
    let mut done = Vec::new();
    let mut exited = Vec::new();
    loop {
        if let Ok(panes) = term.panes() {
            waiting.retain_mut(|(i, seen, missed)| {
                let up = agent_up(rows, *i, &panes);
                let was_missed = std::mem::replace(missed, !up && seen.is_some());
                match (up, *seen) {
                    (true, None) => {
                        *seen = Some(Instant::now());
                        !opts.settle.is_zero() || {
                            done.push(*i);
                            false
                        }
                    }
                    (true, Some(t)) if t.elapsed() >= opts.settle => {
                        done.push(*i);
                        false
                    }
                    (true, Some(_)) => true,
                    (false, None) => {
                        let gone = find_pane(&panes, rows[*i].target.as_ref().expect("typed"))
                            .is_some_and(|p| ran_and_returned(term, &rows[*i], p, before(*i)));
                        if gone {
                            exited.push(*i);
                        }
                        !gone
                    }
                    // Seen, then missing from the foreground in two polls in a row: gone. One miss alone
                    // is not enough: a pane listed while the agent's process group changes hands (a
                    // hook it runs, a reading of the pane taken mid-fork) can show no agent for a moment.
                    (false, Some(_)) if was_missed => {
                        exited.push(*i);
                        false
                    }
                    (false, Some(_)) => true,
                }
            });
        }
        if waiting.is_empty() || Instant::now() >= deadline {
            break;
        }
        let labels: Vec<String> = waiting
            .iter()
            .map(|(i, ..)| pane_label(&rows[*i]))
            .collect();
        progress.waiting("agents to come up", &labels, started.elapsed());
        std::thread::sleep(opts.poll);
    }
    for &i in &done {
        outcomes[i] = Some(Outcome::Resumed { answered: None });
        let agent = rows[i].agent.as_deref().unwrap_or("agent");
        progress.line(&format!("{}: {agent} is running", pane_label(&rows[i])));
    }
    for i in exited {
        let last = rows[i]
            .target
            .as_ref()
            .and_then(|t| term.screen(t, ScreenRange::Visible).ok())
            .and_then(|s| {
                // The agent's last words: the last line that is not the shell's bare prompt.
                s.lines()
                    .rev()
                    .find(|l| typed_on_prompt(l, None).is_some())
                    .map(str::to_string)
            })
            .unwrap_or_default();
        let last = printable(&last).into_owned();
        progress.line(&format!(
            "{}: the agent exited right after starting: {last}",
            pane_label(&rows[i])
        ));
        outcomes[i] = Some(Outcome::Exited(last));
    }
    for (i, seen, _) in waiting {
        // Seen but not yet settled at the deadline: it is up.
        if seen.is_some() {
            outcomes[i] = Some(Outcome::Resumed { answered: None });
            done.push(i);
            continue;
        }
        outcomes[i] = Some(Outcome::TypedUnconfirmed);
        progress.line(&format!(
            "{}: typed, but the agent did not reach the foreground within {}s",
            pane_label(&rows[i]),
            opts.confirm_timeout.as_secs()
        ));
    }
    done
}
