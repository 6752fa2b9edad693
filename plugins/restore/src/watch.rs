//! Watching resumed Claude panes for the "resume from summary?" question and answering it: for the rows
//! restore typed ([`watch_dialogs`]), and for the one pane a shell resumed in ([`answer_when_asked`], run
//! by `shell-start`'s short-lived background answerer). One look at a pane is [`look`] for both.

use super::{find_pane, ExecOptions, Outcome, Progress};
use crate::dialog::{answer_keys, choice_label, claude_ready, find_dialog};
use crate::plan::{foreground_agent_args, PlanRow};
use crate::render::pane_label;
use agterm_backup_core::agent::agent;
use agterm_backup_core::terminal::{PaneRef, ScreenRange, Terminal};
use std::time::Instant;

/// What one look at a watched pane found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Look {
    /// The dialog showed and the answer was typed.
    Answered,
    /// The dialog showed but typing the answer failed.
    NotTyped,
    /// Claude's ready input box: no question is coming.
    Ready,
    /// Neither yet (booting, or the screen could not be read).
    Waiting,
}

/// Reads the pane's screen once; answers the dialog with `keys` when it shows.
fn look(term: &mut dyn Terminal, target: &PaneRef, keys: &str) -> Look {
    let Ok(screen) = term.screen(target, ScreenRange::Visible) else {
        return Look::Waiting;
    };
    if find_dialog(&screen).is_some() {
        return match term.type_text(target, keys) {
            Ok(()) => Look::Answered,
            Err(_) => Look::NotTyped,
        };
    }
    match claude_ready(&screen) {
        true => Look::Ready,
        false => Look::Waiting,
    }
}

/// Watches the screens of `watch` rows for Claude's dialog and answers `choice`; stops per pane once
/// answered or once Claude's prompt shows without the dialog, and overall at the dialog timeout.
pub(super) fn watch_dialogs(
    term: &mut dyn Terminal,
    rows: &[PlanRow],
    watch: &[usize],
    choice: u8,
    opts: &ExecOptions,
    outcomes: &mut [Option<Outcome>],
    progress: &mut dyn Progress,
) {
    let Ok(keys) = answer_keys(choice) else {
        return;
    };
    let started = Instant::now();
    let deadline = started + opts.dialog_timeout;
    let mut waiting: Vec<usize> = watch.to_vec();
    while !waiting.is_empty() {
        waiting.retain(|&i| {
            let target = rows[i].target.as_ref().expect("typed rows have a target");
            match look(term, target, &keys) {
                Look::Answered => {
                    outcomes[i] = Some(Outcome::Resumed {
                        answered: Some(choice),
                    });
                    progress.line(&format!(
                        "{}: answered the resume question: {choice} ({})",
                        pane_label(&rows[i]),
                        choice_label(choice)
                    ));
                    false
                }
                Look::NotTyped | Look::Ready => false,
                Look::Waiting => true,
            }
        });
        if waiting.is_empty() || Instant::now() >= deadline {
            break;
        }
        let labels: Vec<String> = waiting.iter().map(|&i| pane_label(&rows[i])).collect();
        progress.waiting(
            "Claude to boot (resume question?)",
            &labels,
            started.elapsed(),
        );
        std::thread::sleep(opts.poll);
    }
}

/// Waits (up to the dialog timeout) for Claude in the pane `target` and answers its resume question with
/// `choice` if it asks. Types only while Claude holds the pane's foreground; stops when its ready input
/// box shows, when the pane is gone, or when something else took the pane over after Claude. Returns
/// whether it answered.
pub fn answer_when_asked(
    term: &mut dyn Terminal,
    target: &PaneRef,
    choice: u8,
    opts: &ExecOptions,
) -> Result<bool, String> {
    let keys = answer_keys(choice)?;
    let claude = agent("claude").expect("claude is in the agent table");
    let deadline = Instant::now() + opts.dialog_timeout;
    let mut seen_claude = false;
    while Instant::now() < deadline {
        let panes = term
            .panes()
            .map_err(|e| format!("could not list the panes: {e}"))?;
        let Some(pane) = find_pane(&panes, target) else {
            return Ok(false);
        };
        let is_claude = pane
            .foreground
            .as_ref()
            .is_some_and(|fg| foreground_agent_args(claude, fg).is_some());
        if is_claude {
            seen_claude = true;
            match look(term, target, &keys) {
                Look::Answered => return Ok(true),
                Look::NotTyped | Look::Ready => return Ok(false),
                Look::Waiting => {}
            }
        } else if seen_claude {
            // Claude left the foreground (it exited): whatever holds the pane now is not asking.
            return Ok(false);
        }
        std::thread::sleep(opts.poll);
    }
    Ok(false)
}
