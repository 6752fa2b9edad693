//! Waiting until what could still act on a test's panes has finished: a test that asserts "nothing more
//! happened" (no second agent, no line typed, no record written) asserts it once every process that
//! could make it happen has exited, not after a fixed "give it time" sleep.
//!
//! The processes are found the way [`crate::scratch`] finds what to kill: every live process naming the
//! test's folder in its command line, working folder or environment (so an `agterm-backup` a pane's
//! shell starts matches through its `AGTERM_BACKUP_HOME`).

use crate::scratch::processes_naming;
use std::path::Path;
use std::time::{Duration, Instant};

/// Which runs to wait for: `agterm-backup <subcommand>` processes, and scripts by a part of their name.
#[derive(Debug, Clone, Copy)]
pub struct Runs<'a> {
    pub subcommands: &'a [&'a str],
    pub scripts: &'a [&'a str],
}

/// What can start an agent in a pane: `restore` (a hook line runs it in the background), `shell-start`
/// (each pane shell's init snippet, at its first prompts, and its `--give-back`), `tmux-layout` (the
/// resurrect hook line runs it before its `restore`), and tmux-resurrect's hook runner script
/// ([`crate::layout::run_post_restore_hook`]'s), which forks that line. Not `shell-answer` (Claude's
/// background answerer types an answer, never an agent) nor `hook`.
pub const STARTERS: Runs<'static> = Runs {
    subcommands: &["restore", "shell-start", "tmux-layout"],
    scripts: &["resurrect-execute-hook-"],
};

/// The agents' hook handlers (`agterm-backup hook <agent>`), which write records and journals.
pub const HOOKS: Runs<'static> = Runs {
    subcommands: &["hook"],
    scripts: &[],
};

/// Waits until no process naming `dir` could start an agent any more ([`STARTERS`]); panics with the
/// processes left after `timeout`.
pub fn wait_settled(dir: &Path, timeout: Duration) {
    wait_runs_gone(dir, STARTERS, timeout);
}

/// Waits until no hook handler naming `dir` is running ([`HOOKS`]); panics with the ones left after
/// `timeout`.
pub fn wait_hooks_done(dir: &Path, timeout: Duration) {
    wait_runs_gone(dir, HOOKS, timeout);
}

/// Waits until no process naming `dir` is one of `runs`; panics with the ones left after `timeout`.
pub fn wait_runs_gone(dir: &Path, runs: Runs<'_>, timeout: Duration) {
    let start = Instant::now();
    loop {
        let left = running(dir, runs);
        if left.is_empty() {
            return;
        }
        assert!(
            start.elapsed() < timeout,
            "after {timeout:?} these runs of {runs:?} naming {} are still there:\n{}",
            dir.display(),
            left.iter()
                .map(|(pid, cmd)| format!("  {pid}: {cmd}"))
                .collect::<Vec<_>>()
                .join("\n")
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// The live processes naming `dir` that are one of `runs` (pid, command line).
pub fn running(dir: &Path, runs: Runs<'_>) -> Vec<(u32, String)> {
    processes_naming(dir)
        .into_iter()
        .filter(|(_, cmdline)| is_one_of(cmdline, runs))
        .collect()
}

/// Whether a command line (arguments joined by spaces) runs one of `runs`: an `agterm-backup` word
/// (any folder, quoted or not, as `sh -c` gets it) followed by one of the subcommands, or a script's name.
fn is_one_of(cmdline: &str, runs: Runs<'_>) -> bool {
    let words: Vec<&str> = cmdline
        .split(|c: char| c.is_whitespace() || c == '\'' || c == '"' || c == ';' || c == '(')
        .filter(|w| !w.is_empty())
        .collect();
    let runs_subcommand = words.windows(2).any(|pair| {
        let program = Path::new(pair[0]).file_name().and_then(|n| n.to_str());
        program == Some("agterm-backup") && runs.subcommands.contains(&pair[1])
    });
    runs_subcommand || runs.scripts.iter().any(|s| cmdline.contains(s))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subcommands_are_told_by_the_word_after_the_binary() {
        let bin = "/t/target/debug/agterm-backup";
        assert!(is_one_of(
            &format!("{bin} shell-start --shell bash --shell-pid 7"),
            STARTERS
        ));
        assert!(is_one_of(&format!("sh -c '{bin}' hook claude"), HOOKS));
        assert!(is_one_of(
            "bash /tmp/x/resurrect-execute-hook-post-restore-all.sh",
            STARTERS
        ));
        assert!(!is_one_of(
            &format!("{bin} shell-answer --pane p"),
            STARTERS
        ));
        assert!(!is_one_of(&format!("{bin} hook codex"), STARTERS));
        assert!(!is_one_of("/usr/bin/claude --resume restore", STARTERS));
    }
}
