//! The login shell's rc files in `installer apply|remove|status`: which of them each command edits or
//! shows, and the one question an interactive `apply` asks.
//!
//! `apply` adds the block with `--shell`, or when a person at a terminal says yes (the default answer);
//! any other `apply` (a script, the README's set-up line without `--shell`) adds none, so a user's rc file
//! is never edited unasked. A block already there is refreshed by every `apply` (a moved binary), and moved
//! to the files the login shell reads now, unless `--no-shell`. `remove` and `status` look in the rc files
//! of every shell we wire: the login shell may have changed since.

use crate::cli::ApplyArgs;
use crate::shell_init::{init_file, write_init_file, Shell};
use agterm_backup_core::state::StateDir;
use agterm_backup_installer::engine::{self, Problem, Target};
use agterm_backup_installer::paths::Process;
use agterm_backup_installer::shell_rc::{self, files, Shell as RcShell};
use agterm_backup_installer::status::Report;
use agterm_backup_installer::TargetKind;
use std::io::{BufRead, IsTerminal, Write};
use std::path::Path;

/// What `apply` does to the rc files.
#[derive(Default)]
pub struct ShellPlan {
    /// Files that take (or keep, refreshed) our block.
    pub apply: Vec<Target>,
    /// Files of the login shell holding our block that it no longer reads as we wire it (a profile that
    /// now sources `~/.bashrc`, a `~/.zshrc` beside a new `$ZDOTDIR`): the line would run twice, or never.
    pub remove: Vec<Target>,
    /// Why `--shell` could not be done.
    pub problem: Option<Problem>,
}

/// The rc files `apply` edits: with `--shell`, a yes at the terminal, or a block of ours already in a
/// file of the login shell (the user said yes before), the login shell's files; in every case the
/// other files holding our block, refreshed.
pub fn apply_plan(args: &ApplyArgs, binary: &Path) -> ShellPlan {
    if args.no_shell {
        return ShellPlan::default();
    }
    let held = files::holders(&Process, binary);
    let interactive = !args.dry_run && std::io::stdin().is_terminal();
    let login = match files::wired_targets(&Process, binary) {
        Ok((login, warnings)) => {
            for w in warnings {
                warn!("agterm-backup: warning: {w}");
            }
            login
        }
        Err(why) => {
            if interactive && !args.shell {
                say!("shell     skipped: {why}");
            }
            let problem = args
                .shell
                .then(|| Problem::Failed(format!("--shell: {why}")));
            return ShellPlan {
                apply: held,
                remove: Vec::new(),
                problem,
            };
        }
    };
    let shell = |t: &Target| match t.kind {
        TargetKind::ShellRc(rc) => Some(rc.shell),
        _ => None,
    };
    // Held by a shell we wire (the login shell, or one an `exec` starts): a file of it that it does not
    // read as we wire it now (a `~/.zshrc` beside a `$ZDOTDIR`) loses the block.
    let wired_shells: Vec<_> = login.iter().map(shell).collect();
    let (same, others): (Vec<Target>, Vec<Target>) = held
        .into_iter()
        .partition(|t| wired_shells.contains(&shell(t)));
    let consent = args.shell || !same.is_empty() || (interactive && ask(&login));
    if !consent {
        if args.dry_run && std::io::stdin().is_terminal() {
            say!(
                "shell     {}: unchanged (`apply` asks about the shell line; add --shell to see it)",
                login[0].path.display()
            );
        }
        return ShellPlan {
            apply: others,
            ..ShellPlan::default()
        };
    }
    let wired = all_or_refused(login.clone());
    let remove = if wired == login {
        same.into_iter()
            .filter(|t| !login.iter().any(|l| l.path == t.path))
            .collect()
    } else {
        Vec::new()
    };
    ShellPlan {
        apply: union(wired, others),
        remove,
        problem: None,
    }
}

/// `login` itself, or only those of its files that are refused when any is: the shell's files are wired
/// together (bash's `~/.bashrc` without its login file would resume in some panes only), and the
/// refusals are reported by the plan as for any file.
fn all_or_refused(login: Vec<Target>) -> Vec<Target> {
    let refused: Vec<Target> = login
        .iter()
        .filter(|t| matches!(engine::plan_apply(t), Err(Problem::Refused(_))))
        .cloned()
        .collect();
    if refused.is_empty() {
        login
    } else {
        refused
    }
}

/// The rc files `remove` takes our block out of: every one holding a marker of ours.
pub fn remove_targets(binary: &Path) -> Vec<Target> {
    files::holders(&Process, binary)
}

/// The rc files `status` shows: the login shell's (and those of the shells an `exec` starts), and any
/// other holding a marker of ours.
pub fn status_targets(binary: &Path) -> Vec<Target> {
    let login = files::login_targets(&Process, binary).unwrap_or_default();
    union(login, files::holders(&Process, binary))
}

/// Names, in each shell row of `report` (rows in the order of `targets`), the shell that reads the file,
/// or warns that none does; the warnings of finding the files (zsh could not be asked) go to the rows of
/// the files they are about.
pub fn annotate(report: &mut Report, targets: &[Target]) {
    let wiring = files::wiring(&Process).unwrap_or_default();
    for (row, target) in report.targets.iter_mut().zip(targets) {
        let TargetKind::ShellRc(rc) = target.kind else {
            continue;
        };
        let holds = std::fs::read_to_string(&target.path).is_ok_and(|t| shell_rc::has_ours(&t));
        match files::who_reads(&Process, &wiring, rc, &target.path) {
            Ok(how) => row.read_by = Some(how),
            Err(warning) if holds => row.warnings.push(warning),
            Err(_) => {}
        }
        if rc.shell == RcShell::Zsh && wiring.files.iter().any(|w| w.path == target.path) {
            row.warnings.extend(wiring.warnings.iter().cloned());
        }
    }
}

fn union(mut first: Vec<Target>, second: Vec<Target>) -> Vec<Target> {
    for t in second {
        if !first.iter().any(|f| f.path == t.path) {
            first.push(t);
        }
    }
    first
}

/// The shells whose rc files `targets` wire (each through its init file), once each.
fn init_shells(targets: &[Target]) -> Vec<Shell> {
    let mut shells = Vec::new();
    for t in targets {
        let TargetKind::ShellRc(rc) = t.kind else {
            continue;
        };
        let shell = match rc.shell {
            RcShell::Zsh => Shell::Zsh,
            RcShell::Bash => Shell::Bash,
            RcShell::Fish => Shell::Fish,
        };
        if !shells.contains(&shell) {
            shells.push(shell);
        }
    }
    shells
}

/// Writes the init file each of `targets`' lines sources (`--dry-run`: says so); a failure is the
/// problem returned, the line then runs `init` itself.
pub fn write_init_files(targets: &[Target], binary: &Path, dry_run: bool) -> Option<Problem> {
    let state = StateDir::from_env()?;
    let bin = binary.to_str()?;
    for shell in init_shells(targets) {
        let path = init_file(&state, shell);
        if dry_run {
            say!(
                "shell     {}: the init file the line sources",
                path.display()
            );
            continue;
        }
        match write_init_file(&state, shell, bin) {
            Ok(true) => say!("shell     {}: written", path.display()),
            Ok(false) => say!("shell     {}: unchanged", path.display()),
            Err(e) => return Some(Problem::Failed(format!("{}: {e}", path.display()))),
        }
    }
    None
}

/// After `remove`, the init files go once no rc file holds a line of ours to source them.
pub fn remove_init_files(binary: &Path) {
    let Some(state) = StateDir::from_env() else {
        return;
    };
    if !files::holders(&Process, binary).is_empty() {
        return;
    }
    for path in [Shell::Zsh, Shell::Bash, Shell::Fish].map(|s| init_file(&state, s)) {
        if path.exists() && std::fs::remove_file(&path).is_ok() {
            say!("shell     {}: deleted", path.display());
        }
    }
}

/// Asks on the terminal whether to add the block to `login`'s files; yes unless the answer is no.
fn ask(login: &[Target]) -> bool {
    let names: Vec<String> = login.iter().map(|t| t.path.display().to_string()).collect();
    let question = format!(
        "Resume each pane's conversation as its shell starts after a restart? This adds a marked block with one \
         line to {} (`installer remove` takes it out). [Y/n] ",
        names.join(" and ")
    );
    eprint!(
        "{}",
        agterm_backup_core::printable::printable_lines(&question)
    );
    let _ = std::io::stderr().flush();
    let mut answer = String::new();
    let read = std::io::stdin().lock().read_line(&mut answer);
    says_yes(read.ok().filter(|n| *n > 0).map(|_| answer.as_str()))
}

/// Whether an answer to [`ask`] is yes: Enter, `y` or `yes` (any case). No answer at all (end of input)
/// is no.
fn says_yes(answer: Option<&str>) -> bool {
    answer.is_some_and(|a| matches!(a.trim().to_ascii_lowercase().as_str(), "" | "y" | "yes"))
}

#[cfg(test)]
mod tests {
    #[test]
    fn enter_and_yes_say_yes_anything_else_no() {
        for yes in ["\n", "y\n", "Yes\r\n", " YES "] {
            assert!(super::says_yes(Some(yes)), "{yes:?}");
        }
        for no in ["n\n", "no\n", "nope\n", "q\n"] {
            assert!(!super::says_yes(Some(no)), "{no:?}");
        }
        assert!(!super::says_yes(None), "end of input");
    }
}
