//! `agterm-backup shell-start --shell <sh>` (hidden): run once by the `init` snippet at a shell's first
//! prompt. Prints nothing — or, when restore's plan for this very pane says to resume a conversation now,
//! two lines: what is resumed (printable) and the resume line for the shell to run itself.
//!
//! The decision is restore's plan ([`gather_for`] with [`Trigger::ShellStart`]) read for the asking pane,
//! whose own view says what the shell knows: it sits at its prompt, up, in its directory. The line is
//! printed only after the once-per-launch markers are taken (`once.rs`), so a second shell, a split or a
//! `restore` running meanwhile never brings the same conversation back twice. A hard time budget ends
//! the process silently; a pane with nothing captured costs a few file lookups and no socket call.

use crate::cli::ShellStartArgs;
use crate::cmd::restore::open_terminal;
use crate::CliResult;
use agterm_backup_core::pane::PaneKey;
use agterm_backup_core::printable::printable;
use agterm_backup_core::record::{parse_journal, LiveRecord};
use agterm_backup_core::state::StateDir;
use agterm_backup_core::terminal::TerminalInfo;
use agterm_backup_core::terminal::{PaneRef, PaneView, ScreenRange, Terminal, TerminalError};
use agterm_backup_hook::pane_env::Env;
use agterm_backup_hook::terminal_pane::{find, FoundPane};
use agterm_backup_restore::execute::find_pane;
use agterm_backup_restore::execute::ExecOptions;
use agterm_backup_restore::gather::{gather_for, Scope};
use agterm_backup_restore::once::give_back_shell_claim;
use agterm_backup_restore::once::Trigger;
use agterm_backup_restore::plan::{Action, PlanRow};
use std::io::Write;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

mod at_prompt;

/// Environment variable: the hard budget in milliseconds (default [`DEFAULT_BUDGET_MS`]).
pub const BUDGET_ENV: &str = "AGTERM_BACKUP_SHELL_START_BUDGET_MS";
pub const DEFAULT_BUDGET_MS: u64 = 2000;
/// Environment variable: `0` turns the shell trigger off (the snippet checks it too).
pub const AUTO_ENV: &str = "AGTERM_BACKUP_AUTO";
/// How often a terminal that does not answer yet is asked again.
const RETRY: Duration = Duration::from_millis(100);

pub fn run(args: ShellStartArgs, socket: Option<PathBuf>) -> CliResult {
    // The line is the same in every shell (one quoting); `--shell` names the asker for the log.
    let shell = format!("{:?}", args.shell).to_lowercase();
    let env: Env = std::env::vars().collect();
    // Never a word on the shell's terminal but the two lines: a panic ends the process silently.
    std::panic::set_hook(Box::new(|_| std::process::exit(0)));
    if args.give_back {
        give_back(&env, args.shell_pid);
        return Ok(());
    }
    // Ctrl-C at the prompt meanwhile reaches the shell, which gives the claim back (the snippet's INT
    // trap): this process finishes, so a claim is never taken without its two lines printed.
    // SAFETY: setting a signal's disposition to "ignore" before any other thread exists.
    unsafe { libc::signal(libc::SIGINT, libc::SIG_IGN) };
    let printing = Arc::new(Mutex::new(()));
    let budget = budget(&env);
    start_watchdog(budget, Arc::clone(&printing));
    // Within the budget too (a hung state folder); an atomic write, so an exit midway leaves the old file.
    refresh_init_file(&env, args.shell.into());
    if let Some(resume) = decide(&env, socket, Instant::now() + budget * 3 / 4) {
        // Under the lock the watchdog takes before it exits: the markers taken and both lines printed,
        // or neither.
        let _printing = printing.lock();
        if let Some((message, line)) = resume.commit(&env, &shell, args.shell_pid) {
            let mut out = std::io::stdout().lock();
            let _ = writeln!(out, "{message}\n{line}");
            let _ = out.flush();
        }
    }
    Ok(())
}

/// `--give-back`: the shell ran the resume line and it returned. A claim this shell took less than
/// restore's settle time ago goes back (the agent did not stay up), as restore gives back the claim of
/// an agent that exited at once.
fn give_back(env: &Env, shell_pid: Option<u32>) {
    let (Some(pid), Some(state)) = (shell_pid, StateDir::resolve(|k| env.get(k).cloned())) else {
        return;
    };
    let settle = ExecOptions::from_env(None, |k| env.get(k).cloned()).settle;
    if give_back_shell_claim(&state, pid, settle) > 0 {
        state.log(&format!(
            "shell-start: shell {pid}: the agent did not stay up; its claim is given back"
        ));
    }
}

/// An upgrade leaves the init file the rc line sources holding the old release's snippet: this shell
/// already read it, the next one reads this binary's. The snippet keeps calling the binary by the path
/// it called this process by (argv[0], the path `installer apply` chose: a Homebrew symlink that
/// survives upgrades, not the versioned file behind it). Silent, whatever happens.
fn refresh_init_file(env: &Env, shell: crate::shell_init::Shell) {
    let Some(state) = StateDir::resolve(|k| env.get(k).cloned()) else {
        return;
    };
    let argv0 = std::env::args_os()
        .next()
        .and_then(|a| a.into_string().ok());
    let Some(bin) = argv0.filter(|a| a.starts_with('/')) else {
        return;
    };
    if crate::shell_init::refresh_init_file(&state, shell, &bin).is_ok_and(|wrote| wrote) {
        state.log(&format!(
            "shell-start: the init file for {shell:?} is refreshed for {bin}"
        ));
    }
}

/// The budget from the environment (a number of milliseconds), else the default.
fn budget(env: &Env) -> Duration {
    let ms = env
        .get(BUDGET_ENV)
        .and_then(|v| v.trim().parse::<u64>().ok())
        .unwrap_or(DEFAULT_BUDGET_MS);
    Duration::from_millis(ms)
}

/// Ends the process, printing nothing, once `budget` has passed — unless the lines are being printed.
fn start_watchdog(budget: Duration, printing: Arc<Mutex<()>>) {
    std::thread::spawn(move || {
        std::thread::sleep(budget);
        let _held = printing.lock();
        std::process::exit(0);
    });
}

/// The resume line planned for this pane, or `None` (nothing to do, or any error). A terminal
/// not answering yet (it restores panes before its socket is up) is asked again until `deadline`.
fn decide(env: &Env, socket: Option<PathBuf>, deadline: Instant) -> Option<Resume> {
    if env.get(AUTO_ENV).is_some_and(|v| v.trim() == "0") {
        return None;
    }
    let src = agterm_backup_core::process::default_source();
    let found = find(env, &*src, std::os::unix::process::parent_id()).ok()?;
    let state = StateDir::resolve(|k| env.get(k).cloned())?;
    let scope = fast_path(&found, &state)?;
    // The pane the environment names, proven by this shell's tty (an inherited environment is not).
    let own_tty = agterm_backup_core::pane::tty::own_terminal();
    let ancestry = || {
        let shell = std::os::unix::process::parent_id();
        let pids: Vec<u32> = agterm_backup_core::process::ancestors(&*src, shell).collect();
        agterm_backup_core::pane::tty::controlling_ttys(&pids)
    };
    if !found.is_own(env, own_tty, ancestry) {
        return log(
            &state,
            "not this pane's own terminal (an inherited environment)",
        );
    }
    let lookup = |k: &str| env.get(k).cloned();
    // `--socket` as the registry's rows apply it to this pane's terminal (no `--terminal` here).
    let socket = agterm_backup_terminals::socket_for(&scope, socket.as_deref(), false);
    let mut term = OwnPrompt {
        inner: open_terminal(&scope, socket.map(PathBuf::from), &lookup).ok()?,
        own: &found,
        cwd: std::env::current_dir()
            .ok()
            .map(|d| d.display().to_string()),
    };
    let planned = loop {
        let trigger = Trigger::ShellStart;
        match gather_for(
            &mut term,
            &state,
            None,
            Duration::ZERO,
            &lookup,
            &scope,
            trigger,
        ) {
            Ok(planned) => break planned,
            Err(TerminalError::Unreachable(_))
                if Instant::now() < deadline
                    && agterm_backup_terminals::may_come_up(&scope, socket, &lookup) =>
            {
                std::thread::sleep(RETRY);
                term.inner = open_terminal(&scope, socket.map(PathBuf::from), &lookup).ok()?;
            }
            Err(e) => return log(&state, &format!("{}: {e}", scope.label())),
        }
    };
    let Some(row) = own_row(&planned.rows, &planned.panes, &found) else {
        return log(&state, "nothing planned for this pane");
    };
    let resume = match &row.action {
        Action::Type { resume, .. } => resume,
        Action::Skip { reason } => return log(&state, &format!("{}: {}", row.key, reason.code())),
        // A session to create is restore's (a terminal whose panes are sessions of their own): this shell
        // runs in a session that exists.
        Action::Create { .. } => return log(&state, &format!("{}: create", row.key)),
        // A pane to restart holds a replayed agent, not this shell: restore's job.
        Action::Restart { .. } => return log(&state, &format!("{}: restart", row.key)),
    };
    Some(Resume {
        state,
        scope,
        row: row.clone(),
        line: resume.line.clone(),
    })
}

/// A resume line planned for this pane, not yet claimed.
struct Resume {
    state: StateDir,
    scope: Scope,
    row: PlanRow,
    line: String,
}

impl Resume {
    /// Takes the once-per-launch markers and leaves the answerer for Claude; the two lines to print, or
    /// `None` when someone else holds a marker. Input typed at the prompt (the terminal typed a pinned
    /// resume line or a replayed command meanwhile, or the user typed ahead) runs next: no claim, and
    /// the lines say so and how to resume (`:`, nothing to run).
    fn commit(self, env: &Env, shell: &str, shell_pid: Option<u32>) -> Option<(String, String)> {
        let (state, row) = (&self.state, &self.row);
        if !at_prompt::clear(state, shell) {
            state.log(&format!(
                "shell-start: {shell}: {}: input is waiting at the prompt; not resumed",
                row.key
            ));
            return Some((at_prompt::held_back(row, &self.scope), ":".to_string()));
        }
        if let Err(e) = row
            .claim
            .as_ref()?
            .take_for(state, Trigger::ShellStart, shell_pid)
        {
            return log(state, &format!("{shell}: {}: {e}", row.key));
        }
        if row.agent.as_deref() == Some("claude") {
            if let Some(target) = &row.target {
                super::shell_answer::spawn(&self.scope, target, env);
            }
        }
        Some((message(row), self.line))
    }
}

/// Notes in the state directory's log why this shell resumed nothing (after a socket call only: the fast
/// path stays silent), for `status` readers and bug reports.
fn log<T>(state: &StateDir, why: &str) -> Option<T> {
    state.log(&format!("shell-start: {why}"));
    None
}

/// The terminal to ask, or `None` when the state directory shows nothing this pane could resume — no
/// record (a new pane), or only a conversation the user ended — decided from files alone.
fn fast_path(found: &FoundPane, state: &StateDir) -> Option<Scope> {
    let (key, scope) = found.recorded_key(state)?;
    (!nothing_to_resume(state, &key)).then_some(scope)
}

/// No record and no journal, or every word the pane ever recorded names one conversation and the newest
/// says the user ended it: whatever the terminal's launch time, the plan would skip this pane.
fn nothing_to_resume(state: &StateDir, key: &PaneKey) -> bool {
    let record = state.read_record(key);
    let journal = std::fs::read_to_string(state.journal_path(key)).ok();
    let Some(rec) = record else {
        return journal.is_none();
    };
    let one_conversation = |r: &LiveRecord| r.agent == rec.agent && r.session_id == rec.session_id;
    rec.ended_by_user()
        && journal
            .is_some_and(|j| j.len() < 1 << 20 && parse_journal(&j).iter().all(one_conversation))
}

/// The row whose target is the asking pane (found as restore finds a row's pane before typing): its
/// `type` row if it has one, else the first that names it.
fn own_row<'a>(rows: &'a [PlanRow], panes: &[PaneView], found: &FoundPane) -> Option<&'a PlanRow> {
    let mine = |r: &&PlanRow| {
        r.target
            .as_ref()
            .and_then(|t| find_pane(panes, t))
            .is_some_and(|p| found.shows(p))
    };
    let mut named = rows.iter().filter(mine);
    let first = named.clone().next();
    named.find(|r| r.line().is_some()).or(first)
}

/// `agterm-backup: resuming claude conversation <id> in <dir>`, with nothing raw in it.
fn message(row: &PlanRow) -> String {
    printable(&format!(
        "agterm-backup: resuming {} conversation {} in {} (AGTERM_BACKUP_AUTO=0 turns this off)",
        row.agent.as_deref().unwrap_or("agent"),
        row.session_id.as_deref().unwrap_or("?"),
        row.agent_cwd.as_deref().unwrap_or("?"),
    ))
    .into_owned()
}

/// The terminal, with the asking pane shown as what its shell knows it is: at its prompt (the snippet
/// runs from the prompt hook), up, in the shell's directory. A terminal may still list the `shell-start`
/// process itself in front, or a pane not yet realized.
struct OwnPrompt<'a> {
    inner: Box<dyn Terminal>,
    own: &'a FoundPane,
    cwd: Option<String>,
}

impl Terminal for OwnPrompt<'_> {
    fn info(&mut self) -> Result<TerminalInfo, TerminalError> {
        self.inner.info()
    }

    fn panes(&mut self) -> Result<Vec<PaneView>, TerminalError> {
        let mut panes = self.inner.panes()?;
        for p in panes.iter_mut().filter(|p| self.own.shows(p)) {
            p.foreground = None;
            p.shell_in_front = Some(true);
            p.realized = Some(true);
            p.cwd = self.cwd.clone().or(p.cwd.take());
        }
        Ok(panes)
    }

    fn type_text(&mut self, pane: &PaneRef, text: &str) -> Result<(), TerminalError> {
        self.inner.type_text(pane, text)
    }

    fn screen(&mut self, pane: &PaneRef, range: ScreenRange) -> Result<String, TerminalError> {
        self.inner.screen(pane, range)
    }

    fn pin(&mut self, pane: &PaneRef, line: &str) -> Result<Option<String>, TerminalError> {
        self.inner.pin(pane, line)
    }
}
