//! The rc file of the user's login shell: a marked block whose one line brings in `init`'s snippet in
//! every interactive shell, so a pane rebuilt after a restart resumes its conversation as its shell
//! starts (what the snippet does is `init`'s business; this module only wires it in and out).
//!
//! The line, for the binary's absolute path POSIX-quoted (which fish reads the same way), acts only in a
//! pane a terminal captures and only while the binary is there — elsewhere it starts no process and
//! costs one test of a variable per terminal (the quick pane test generated from the terminals' rows,
//! `agterm_backup_terminals::shell_pane_test`: `<pane vars>` below is each terminal's last variable,
//! `${V-}` each); a binary deleted without `installer remove` says nothing:
//! - zsh, bash: `if [ -n "<pane vars>" ] && [ -x '<binary>' ]; then
//!   if [ -r <init file> ]; then . <init file>; else eval "$('<binary>' init zsh)"; fi; fi` (`bash`),
//!   on one line. The init file, `"${AGTERM_BACKUP_HOME:-${HOME-}/.agterm-backup}/init.zsh"`, is the
//!   snippet `installer apply` writes in the state folder (the binary's `shell_init`): sourcing it
//!   starts no process, where `init` was one more per pane; without it the line runs `init` as before;
//! - bash's `~/.profile`, which `sh` and `dash` read too: `[ -n "${BASH_VERSION-}" ] && ` first in the
//!   condition, so only bash runs it;
//! - fish: `if test -n "<pane vars>" -a -x '<binary>'; set -l s
//!   "$AGTERM_BACKUP_HOME"; test -n "$s"; or set s "$HOME/.agterm-backup"; if test -r "$s/init.fish";
//!   source "$s/init.fish"; else; '<binary>' init fish | source; end; end` (`s` spelled
//!   `__agterm_backup_state`, local to the `if`): the same init file, found the same way.
//!
//! The lines earlier releases wrote (`eval "$('<binary>' init zsh)"`, the same in
//! `if [ -n "${BASH_VERSION-}" ]; then …; fi` or in today's condition without the init file,
//! `'<binary>' init fish | source`, bare or in today's condition) are ours too: `apply` refreshes them
//! to today's, `remove` takes them out. So are lines whose pane test names other terminals (a release
//! with fewer or more rows): the condition is not what makes a line ours.
//!
//! [`files`] says which files take the block. The block has the markers of our blocks in the terminals'
//! config files. Unlike those, a file whose markers do not pair up (a lone marker, a second block) is refused
//! with the line to fix: the file runs at every shell start, so nothing is guessed. Between our markers,
//! comments and blank lines the user adds stay where they are (a refresh replaces only our line, `remove`
//! keeps them); a command of the user's there is refused by `apply` (it may be our line edited, which
//! would then run twice) and kept by `remove`.

pub mod exec;
pub mod files;
mod lex;
mod report;
mod scan;
pub mod zdotdir;

pub use report::report;

pub use crate::rc_file::{RcFile, Shell};
use crate::refusal::Refusal;
use agterm_backup_core::marked_block::{
    appended, body, lines_with_offsets, BLOCK_END, BLOCK_START,
};
use agterm_backup_core::quote::quote;
use agterm_backup_terminals::shell_pane_test::{self, PaneVars};
use std::ops::Range;

/// Why the block is there, for the person who opens the file.
const BLOCK_NOTE: &str = "# agterm-backup: a pane rebuilt after a restart resumes its conversation when its shell starts (AGTERM_BACKUP_AUTO=0 turns it off); `agterm-backup installer remove` takes this block out.";

/// The condition that keeps our line to bash in a file `sh` reads too (bash's `~/.profile`).
const BASH_ONLY: &str = "[ -n \"${BASH_VERSION-}\" ] && ";

/// The init file (the snippet `init` prints, written by `installer apply --shell` and refreshed by
/// `shell-start` after an upgrade) as zsh and bash expand it: in the state folder, found as the binary
/// finds it (`$AGTERM_BACKUP_HOME`, else `~/.agterm-backup`), so the line names no path of its own.
fn init_file_sh(shell: Shell) -> String {
    format!(
        "\"${{AGTERM_BACKUP_HOME:-${{HOME-}}/.agterm-backup}}/init.{}\"",
        shell.name()
    )
}

/// The same for fish, which has no `${…:-…}`: a variable local to the line's `if` holds the state
/// folder. What comes before the fallback `'<binary>' init fish | source` (then `; end`).
const INIT_FILE_FISH: &str = "set -l __agterm_backup_state \"$AGTERM_BACKUP_HOME\"; \
     test -n \"$__agterm_backup_state\"; or set __agterm_backup_state \"$HOME/.agterm-backup\"; \
     if test -r \"$__agterm_backup_state/init.fish\"; source \"$__agterm_backup_state/init.fish\"; else; ";

impl RcFile {
    /// Our line for `binary`, exactly as written.
    pub fn line(self, binary: &str) -> String {
        self.line_for(binary, &shell_pane_test::of_rows())
    }

    /// [`RcFile::line`] for the terminals whose pane tests are `tests` (the registry's rows in
    /// [`RcFile::line`]). The condition is the quick one: a pane a terminal captures (the snippet checks
    /// the rest). Which line is ours never depends on it ([`RcFile::binary_in`]), so a line written for
    /// other rows (an earlier or later release's terminals) is still ours.
    pub fn line_for(self, binary: &str, tests: &[PaneVars]) -> String {
        let program = quote(binary);
        match self.shell {
            Shell::Fish => format!(
                "if test {} -a -x {program}; {INIT_FILE_FISH}{program} init fish | source; end; end",
                shell_pane_test::rc_fish(tests)
            ),
            shell => {
                let only_bash = if self.read_by_sh { BASH_ONLY } else { "" };
                let (name, file) = (shell.name(), init_file_sh(shell));
                format!(
                    "if {only_bash}{} && [ -x {program} ]; then if [ -r {file} ]; then . {file}; \
                     else eval \"$({program} init {name})\"; fi; fi",
                    shell_pane_test::rc_sh(tests)
                )
            }
        }
    }

    /// The binary path `line` names when it is our line for this file (any binary, today's line or one
    /// an earlier release wrote), else `None`.
    pub fn binary_in(self, line: &str) -> Option<String> {
        let line = line.trim();
        let command = match self.shell {
            Shell::Fish => {
                // `if test <condition>; <command>; end`, the command bare in the oldest lines.
                let command = match line.strip_prefix("if test ") {
                    Some(guarded) => guarded.strip_suffix("; end")?.split_once("; ")?.1,
                    None => line,
                };
                // Today's: the init file sourced, `init`'s output when the file is not there.
                let command = match command.strip_prefix(INIT_FILE_FISH) {
                    Some(fallback) => fallback.strip_suffix("; end")?,
                    None => command,
                };
                command.strip_suffix("| source")?
            }
            _ => {
                // `if <condition>; then <eval>; fi` (today's, and earlier `~/.profile` lines), or the bare
                // eval earlier releases wrote elsewhere.
                let eval = match line.strip_prefix("if ") {
                    Some(guarded) => guarded.strip_suffix("; fi")?.split_once("; then ")?.1,
                    None if !self.read_by_sh => line,
                    None => return None,
                };
                // Today's: the init file sourced, `init`'s output when the file is not there.
                let file = init_file_sh(self.shell);
                let eval =
                    match eval.strip_prefix(&format!("if [ -r {file} ]; then . {file}; else ")) {
                        Some(fallback) => fallback.strip_suffix("; fi")?,
                        None => eval,
                    };
                eval.strip_prefix("eval \"$(")?.strip_suffix(")\"")?
            }
        };
        crate::command::our_binary_running(command, "init", self.shell.name())
    }

    /// Our block for `binary`, exactly as written (LF, ending with a newline).
    pub fn block(self, binary: &str) -> String {
        format!(
            "{BLOCK_START}\n{BLOCK_NOTE}\n{}\n{BLOCK_END}\n",
            self.line(binary)
        )
    }
}

/// What a line between our markers is.
#[derive(Debug, PartialEq, Eq)]
enum Inside {
    /// Our line (naming any binary).
    Ours,
    /// Our note, a comment or a blank line.
    Comment,
    /// A command of the user's.
    Theirs,
}

fn classify(rc: RcFile, line: &str) -> Inside {
    let line = body(line).trim();
    if rc.binary_in(line).is_some() {
        Inside::Ours
    } else if line.is_empty() || line.starts_with('#') {
        Inside::Comment
    } else {
        Inside::Theirs
    }
}

/// Where our block sits (start marker line to end marker line, its newline included), `None` when there
/// is none; refused when the markers do not pair up. A marker line counts with spaces around it (an
/// editor's re-indent), so an edited marker is refused rather than taken for the user's comment.
pub fn block_range(text: &str) -> Result<Option<Range<usize>>, Refusal> {
    let line_of = |offset: usize| text[..offset].matches('\n').count() + 1;
    let mut open: Option<usize> = None;
    let mut found: Option<Range<usize>> = None;
    for (here, line) in lines_with_offsets(text) {
        let why = match (line.trim(), open, &found) {
            (BLOCK_START, Some(start), _) => format!(
                "a second `{BLOCK_START}` before the block opened at line {} ends; put back the `{BLOCK_END}` \
                 line where that block ends, or delete one of them, then run again",
                line_of(start)
            ),
            (BLOCK_START, None, Some(first)) => format!(
                "a second agterm-backup block (the first starts at line {}); delete one, then run again",
                line_of(first.start)
            ),
            (BLOCK_START, None, None) => {
                open = Some(here);
                continue;
            }
            (BLOCK_END, Some(start), _) => {
                found = Some(start..here + line.len());
                open = None;
                continue;
            }
            (BLOCK_END, None, _) => format!(
                "a `{BLOCK_END}` line without a `{BLOCK_START}` line above it; delete it, or put the start \
                 line back where our block begins, then run again"
            ),
            _ => continue,
        };
        return Err(Refusal::at_offset(text, here, why));
    }
    if let Some(start) = open {
        return Err(Refusal::at_offset(
            text,
            start,
            format!(
                "our block starts here but has no `{BLOCK_END}` line; add it back where the block ends, or \
                 delete the block, then run again"
            ),
        ));
    }
    Ok(found)
}

/// `original` with our block for `binary` in place: our line refreshed where it is (the user's comments
/// around it stay), else the block appended after a blank line. An absent file becomes the block.
pub fn apply(rc: RcFile, original: Option<&str>, binary: &str) -> Result<String, Refusal> {
    let Some(text) = original else {
        return Ok(rc.block(binary));
    };
    let range = block_range(text)?;
    let exec = exec::first(rc, text)?;
    let range = match (range, exec) {
        (Some(range), Some(exec)) if range.start > exec.at => {
            // Our block sits after an `exec` (an earlier release appended it there): it moves before it.
            return apply(rc, Some(&remove(rc, text)?), binary);
        }
        (Some(range), _) => range,
        (None, Some(exec)) => {
            let at = exec.before;
            return Ok(format!(
                "{}{}\n{}",
                &text[..at],
                rc.block(binary),
                &text[at..]
            ));
        }
        (None, None) => return Ok(appended(text, &rc.block(binary))),
    };
    let ours = rc.line(binary);
    let mut out = text[..range.start].to_string();
    let mut placed = false;
    let lines: Vec<(usize, &str)> = lines_with_offsets(&text[range.clone()]).collect();
    let last = lines.len() - 1;
    for (i, &(offset, line)) in lines.iter().enumerate() {
        if i == 0 {
            out.push_str(line);
            continue;
        }
        if i == last {
            if !placed {
                out.push_str(&ours);
                out.push('\n');
            }
            out.push_str(line);
            continue;
        }
        match classify(rc, line) {
            // One line of ours, in the place of the first; a second would run the snippet twice.
            Inside::Ours if !placed => {
                out.push_str(&ours);
                out.push_str(&line[body(line).len()..]);
                placed = true;
            }
            Inside::Ours => {}
            Inside::Comment => out.push_str(line),
            Inside::Theirs => {
                return Err(Refusal::at_offset(
                    text,
                    range.start + offset,
                    format!(
                        "`{}` between our markers is not our line; move it out of the block (above \
                         `{BLOCK_START}`), then run again",
                        body(line).trim().escape_debug()
                    ),
                ))
            }
        }
    }
    out.push_str(&text[range.end..]);
    Ok(out)
}

/// `text` without our block (and the one blank line we put before it). Everything else stays, the
/// user's lines between our markers included.
pub fn remove(rc: RcFile, text: &str) -> Result<String, Refusal> {
    let Some(range) = block_range(text)? else {
        return Ok(text.to_string());
    };
    let lines: Vec<&str> = lines_with_offsets(&text[range.clone()])
        .map(|(_, l)| l)
        .collect();
    let kept: String = lines[1..lines.len() - 1]
        .iter()
        .filter(|l| body(l) != BLOCK_NOTE && classify(rc, l) != Inside::Ours)
        .copied()
        .collect();
    let (mut start, mut end) = (range.start, range.end);
    let before_exec = || {
        // The blank line `apply` puts after a block it places before an `exec`: the text without them
        // has that `exec`'s statement right where the block was.
        let rest = text[end..].strip_prefix('\n')?;
        let joined = format!("{}{rest}", &text[..start]);
        let exec = exec::first(rc, &joined).ok()??;
        (exec.before == start).then_some(())
    };
    if kept.is_empty() && before_exec().is_some() {
        end += 1;
    } else if kept.is_empty()
        && text[..start].ends_with("\n\n")
        && !text[..start - 1].trim().is_empty()
    {
        // The blank line `appended` puts before our block (not before one in a blank file).
        start -= 1;
    }
    Ok(format!("{}{kept}{}", &text[..start], &text[end..]))
}

/// Whether `text` holds a marker of ours (a whole block or half of one).
pub fn has_ours(text: &str) -> bool {
    lines_with_offsets(text).any(|(_, l)| matches!(l.trim(), BLOCK_START | BLOCK_END))
}

#[cfg(test)]
mod exec_tests;
#[cfg(test)]
mod files_tests;
#[cfg(test)]
mod tests;
