//! What waits unread at the prompt `shell-start` was asked from, and what it means for the resume.
//!
//! Input someone typed (the user typing ahead, a line the terminal typed: its row's `pin`) runs at this
//! prompt, so no resume line
//! may run before it: it would land in the agent, as `restore` types nothing at a prompt that already
//! holds text. The terminal's replies to a framework's start-up queries (ble.sh's DA2 and cursor-position
//! requests; `core::tty_input` tells them apart) are no input: they are taken off the terminal right
//! before the resume, since the agent would read them as keys.

use agterm_backup_core::printable::printable;
use agterm_backup_core::quote::quote;
use agterm_backup_core::state::StateDir;
use agterm_backup_core::tty_input::io::{can_give_back, give_back, take, waiting, Waiting};
use agterm_backup_core::tty_input::Verdict;
use agterm_backup_restore::gather::Scope;
use agterm_backup_restore::plan::PlanRow;
use std::time::Duration;

/// The shell's terminal: `shell-start`'s stdin (the snippet runs it with stdout captured only).
const STDIN: i32 = 0;
/// How long the rest of a reply that started arriving is waited for (a terminal sends each whole, so the
/// rest follows within a read or two; a lone ESC still alone after this is the Esc key).
const FINISH_REPLY: Duration = Duration::from_millis(100);

/// Right before the claim: whether the prompt is clear for the resume. A whole line waiting in canonical
/// mode is typed (a reply never holds a line end); bytes waiting in raw mode (a line editor such as
/// ble.sh set it) are read to tell: replies are taken off the terminal (noted in the log), typed input
/// found among them is put back, in order.
pub(super) fn clear(state: &StateDir, shell: &str) -> bool {
    match waiting(STDIN) {
        Waiting::Nothing => true,
        Waiting::Lines => false,
        // Bytes that could not be put back are never read: typed keys would be lost. Such a prompt is
        // held back like one with typed input (the pane says so, with the command that resumes it).
        Waiting::Bytes if !can_give_back() => {
            state.log(&format!(
                "shell-start: {shell}: input waits in raw mode and this system refuses to put keys back (TIOCSTI), so it is left unread"
            ));
            false
        }
        Waiting::Bytes => match take(STDIN, FINISH_REPLY) {
            Err(e) => {
                state.log(&format!("shell-start: {shell}: input waits unread ({e})"));
                false
            }
            Ok(taken) => match taken.verdict {
                Verdict::Empty => true,
                Verdict::Replies { replies } => {
                    state.log(&format!(
                        "shell-start: {shell}: {replies} terminal replies ({} bytes) waiting at the prompt are not input: {}",
                        taken.bytes.len(),
                        shown(&taken.bytes)
                    ));
                    true
                }
                Verdict::Typed { .. } | Verdict::Unfinished { .. } => {
                    if !give_back(STDIN, &taken.bytes) {
                        state.log(&format!(
                            "shell-start: {shell}: input typed at the prompt could not be put back: {}",
                            shown(&taken.bytes)
                        ));
                    }
                    false
                }
            },
        },
    }
}

/// The bytes as the log shows them: escaped, at most 200.
fn shown(bytes: &[u8]) -> String {
    let cut = &bytes[..bytes.len().min(200)];
    printable(&String::from_utf8_lossy(cut)).into_owned()
}

/// The pane's one line when input typed ahead holds the resume back: what is not resumed, and the
/// command that resumes it (the binary as the shell called it, `restore` of this pane's terminal).
pub(super) fn held_back(row: &PlanRow, scope: &Scope) -> String {
    let bin = std::env::args_os()
        .next()
        .and_then(|a| a.into_string().ok())
        .filter(|a| a.starts_with('/'))
        .map_or_else(|| "agterm-backup".to_string(), |a| quote(&a));
    printable(&format!(
        "agterm-backup: input was typed at this prompt, so {} conversation {} in {} is not resumed here; `{bin} restore --terminal {}` resumes it",
        row.agent.as_deref().unwrap_or("the agent's"),
        row.session_id.as_deref().unwrap_or("?"),
        row.agent_cwd.as_deref().unwrap_or("?"),
        scope.kind(),
    ))
    .into_owned()
}
