//! `agterm-backup restore`: per terminal instance (the registry's scopes: a terminal of one instance, each
//! server or socket directory of one of many), print the plan, ask once, type each resume line (or, for a
//! terminal whose panes are sessions of their own, recreate the session running it), answer Claude's
//! question.

use crate::cli::{RestoreArgs, TerminalArg};
use crate::{CliError, CliResult};
use agterm_backup_core::printable::{printable, printable_lines, printable_path};
use agterm_backup_core::state::StateDir;
use agterm_backup_core::terminal::Terminal;
use agterm_backup_restore::broken;
use agterm_backup_restore::cutoff::parse_as_of;
use agterm_backup_restore::dialog::answer_keys;
use agterm_backup_restore::execute::{type_plan, ExecOptions, Progress};
use agterm_backup_restore::gather::{gather_for, scopes_with_records, Scope};
use agterm_backup_restore::once::Trigger;
use agterm_backup_restore::render::{footer, table, to_json};
use std::io::{BufRead, IsTerminal, Write};
use std::path::PathBuf;

pub fn run(args: RestoreArgs, socket: Option<PathBuf>) -> CliResult {
    let as_of = args
        .as_of
        .as_deref()
        .map(parse_as_of)
        .transpose()
        .map_err(CliError::refused)?;
    let answer = if args.no_answer {
        None
    } else {
        Some(args.answer_choice)
    };
    if let Some(n) = answer {
        answer_keys(n).map_err(|e| CliError::refused(format!("--answer-choice: {e}")))?;
    }
    let state = state_dir()?;
    let env = |k: &str| std::env::var(k).ok();
    let scopes = chosen_scopes(args.terminal, socket.as_deref(), &state, &env);
    let run = Run {
        args: &args,
        state: &state,
        as_of,
        answer,
    };
    // Each terminal that is running; one that is not is one line, not a failure — unless
    // `--terminal` named it and it has records to restore.
    let (mut docs, mut failures) = (Vec::new(), Vec::new());
    for scope in &scopes {
        let explicit =
            agterm_backup_terminals::socket_for(scope, socket.as_deref(), args.terminal.is_some());
        match run.restore_in(scope, explicit.map(PathBuf::from)) {
            Ok(doc) => docs.extend(doc),
            Err(e) if e.code == 1 && e.message.starts_with(UNREACHABLE) => {
                let named = args.terminal.is_some();
                if named && scopes_with_records(&state).contains(scope) {
                    failures.push(e.message);
                    continue;
                }
                let line = format!("{} is not running: {}", scope.label(), e.message);
                match args.json {
                    true => eprintln!("{}", printable_lines(&line)),
                    false => println!("{}", printable_lines(&line)),
                }
            }
            // One terminal, or a refusal (nobody to confirm): the error as it is, with its code.
            Err(e) if scopes.len() == 1 || e.code != 1 => return Err(e),
            Err(e) => failures.push(format!("{}: {}", scope.label(), e.message)),
        }
    }
    if args.json {
        // One terminal: its document alone (as before several terminals); several: an array.
        let doc = match (scopes.len(), docs.len()) {
            (1, 1) => docs.remove(0),
            _ => serde_json::Value::Array(docs),
        };
        println!("{}", serde_json::to_string_pretty(&doc).unwrap_or_default());
    }
    match failures.is_empty() {
        true => Ok(()),
        false => Err(CliError::failure(failures.join("; "))),
    }
}

/// The start of the error a terminal that is not running gives.
const UNREACHABLE: &str = "could not read";

/// The terminals to act on: the one named by `--terminal` (`--socket` then names its instance, whichever
/// terminal it is: `agterm_backup_terminals::socket_for`), else every one with records (when there are
/// none, those the registry always looks at: `Row::always_looked_at`).
pub(crate) fn chosen_scopes(
    terminal: Option<TerminalArg>,
    socket: Option<&std::path::Path>,
    state: &StateDir,
    env: &dyn Fn(&str) -> Option<String>,
) -> Vec<Scope> {
    match terminal {
        Some(t) => vec![agterm_backup_terminals::named(t.kind(), socket, env)],
        None => {
            let with = scopes_with_records(state);
            if with.is_empty() {
                agterm_backup_terminals::always_looked_at()
            } else {
                with
            }
        }
    }
}

/// One restore: the flags, where the records are, the cutoff and the dialog answer.
struct Run<'a> {
    args: &'a RestoreArgs,
    state: &'a StateDir,
    as_of: Option<chrono::DateTime<chrono::Utc>>,
    answer: Option<u8>,
}

impl Run<'_> {
    /// Plans and types into one terminal; returns its `--json` document (when asked for).
    fn restore_in(
        &self,
        scope: &Scope,
        socket: Option<PathBuf>,
    ) -> Result<Option<serde_json::Value>, CliError> {
        let args = self.args;
        let env = |k: &str| std::env::var(k).ok();
        let mut term = open_terminal(scope, socket, &env).map_err(|e| {
            CliError::failure(format!(
                "{UNREACHABLE} {}'s panes: {}",
                scope.kind(),
                e.message
            ))
        })?;
        let what = format!("{}'s", scope.kind());
        let opts = ExecOptions::from_env(self.answer, env);
        let mut planned = gather_for(
            &mut *term,
            self.state,
            self.as_of,
            opts.realize_timeout,
            &env,
            scope,
            Trigger::Restore,
        )
        .map_err(|e| CliError::failure(format!("{UNREACHABLE} {what} panes: {e}")))?;
        planned.context.dry_run = args.dry_run;
        let rows = &planned.rows;
        // Named, and the rest goes on: every good pane is still planned and typed.
        let broken = broken::of_rows(self.state, rows);
        let to_type = rows.iter().filter(|r| r.line().is_some()).count();
        if !args.json {
            print!(
                "{}",
                table(rows, use_color(), std::env::var("HOME").ok().as_deref())
            );
            print!("{}", footer(&planned.context, rows));
            print!("{}", broken::lines(&broken));
            if rows.is_empty() {
                println!(
                    "nothing captured: no pane has a record in {}",
                    printable_path(self.state.root())
                );
            }
        }
        let json = |outcomes: &[Option<String>]| {
            args.json.then(|| {
                let mut doc = to_json(&planned.context, rows, outcomes);
                doc["broken_files"] = serde_json::to_value(&broken).unwrap_or_default();
                doc
            })
        };
        if args.dry_run || to_type == 0 {
            if !args.json && to_type == 0 && !rows.is_empty() {
                println!("nothing to type");
            }
            return Ok(json(&[]));
        }
        if !args.yes {
            let to_create = rows.iter().filter(|r| r.creates()).count();
            let to_restart = rows.iter().filter(|r| r.restarts()).count();
            confirm(&what_to_do(
                to_type - to_create - to_restart,
                to_create,
                to_restart,
            ))?;
        }
        let mut progress = ConsoleProgress::new(args.json);
        let outcomes = type_plan(&mut *term, rows, self.state, &opts, &mut progress);
        progress.clear();
        let words: Vec<Option<String>> = outcomes
            .iter()
            .map(|o| o.as_ref().map(|o| o.word()))
            .collect();
        let failed = outcomes.iter().flatten().filter(|o| o.is_failure()).count();
        if failed > 0 {
            if let Some(doc) = json(&words) {
                println!("{}", serde_json::to_string_pretty(&doc).unwrap_or_default());
            }
            return Err(CliError::failure(format!(
                "{failed} of {to_type} resume lines did not bring their agent up; see the lines above"
            )));
        }
        Ok(json(&words))
    }
}

/// The terminal a scope acts on, from the registry (its row's `open`): `--socket` applies to the scope it
/// was resolved for, else the terminal looks where the environment says.
pub fn open_terminal(
    scope: &Scope,
    socket: Option<PathBuf>,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<Box<dyn Terminal>, CliError> {
    agterm_backup_terminals::open(scope, socket.as_deref(), env).map_err(CliError::failure)
}

/// The state directory, or a failure that says how to name one.
pub fn state_dir() -> Result<StateDir, CliError> {
    StateDir::from_env()
        .ok_or_else(|| CliError::failure("no state directory: set AGTERM_BACKUP_HOME or HOME"))
}

/// Colour only on a terminal, and never with `NO_COLOR` set (https://no-color.org).
pub fn use_color() -> bool {
    std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}

/// What a restore is about to do, for its question: `type 2 resume line(s) into the panes above`, `create
/// 1 session(s) running its resume line`, or both.
fn what_to_do(typed: usize, created: usize, restarted: usize) -> String {
    let parts = [
        (typed, format!("type {typed} resume line(s) into the panes above")),
        (created, format!("create {created} session(s), each running its resume line")),
        (
            restarted,
            format!("restart {restarted} pane(s) whose replayed agent is a new conversation, each running its resume line"),
        ),
    ];
    let said: Vec<String> = parts
        .into_iter()
        .filter(|(n, _)| *n > 0)
        .map(|(_, s)| s)
        .collect();
    said.join(" and ")
}

/// Asks once on the terminal; refuses (exit 2) when stdin is not one.
pub(crate) fn confirm(what: &str) -> CliResult {
    let stdin = std::io::stdin();
    if !stdin.is_terminal() {
        return Err(CliError::refused(format!(
            "stdin is not a terminal, so nobody can confirm: {what}; rerun with --yes (or --dry-run to only see the plan)"
        )));
    }
    let mut question = what.to_string();
    question[..1].make_ascii_uppercase();
    eprint!("{question}? [y/N] ");
    let _ = std::io::stderr().flush();
    let mut answer = String::new();
    stdin
        .lock()
        .read_line(&mut answer)
        .map_err(|e| CliError::failure(format!("reading the answer: {e}")))?;
    if matches!(answer.trim(), "y" | "Y" | "yes" | "YES" | "Yes") {
        Ok(())
    } else {
        Err(CliError::failure("not confirmed: nothing typed"))
    }
}

/// Restore's progress on the console: one line per finished step (on stderr when stdout carries JSON),
/// and, on a terminal only, one status line rewritten in place while restore waits on panes.
pub struct ConsoleProgress {
    json: bool,
    live: bool,
    status_shown: bool,
}

impl ConsoleProgress {
    pub fn new(json: bool) -> ConsoleProgress {
        ConsoleProgress {
            json,
            live: std::io::stderr().is_terminal(),
            status_shown: false,
        }
    }

    /// Erases the status line, if one is shown.
    pub fn clear(&mut self) {
        if self.status_shown {
            eprint!("\r\x1b[K");
            let _ = std::io::stderr().flush();
            self.status_shown = false;
        }
    }
}

impl Progress for ConsoleProgress {
    fn line(&mut self, text: &str) {
        self.clear();
        let text = printable_lines(text);
        if self.json {
            eprintln!("{text}");
        } else {
            println!("{text}");
        }
    }

    fn waiting(&mut self, what: &str, panes: &[String], elapsed: std::time::Duration) {
        if !self.live {
            return;
        }
        let spinner = ['|', '/', '-', '\\'][(elapsed.as_millis() / 250 % 4) as usize];
        eprint!(
            "\r\x1b[K{spinner} {}s waiting for {what}: {}",
            elapsed.as_secs(),
            printable(&panes.join(", "))
        );
        let _ = std::io::stderr().flush();
        self.status_shown = true;
    }
}

#[cfg(test)]
mod tests {
    use super::what_to_do;

    #[test]
    fn the_question_names_what_is_typed_and_what_is_created() {
        assert_eq!(
            what_to_do(2, 0, 0),
            "type 2 resume line(s) into the panes above"
        );
        assert_eq!(
            what_to_do(0, 1, 0),
            "create 1 session(s), each running its resume line"
        );
        assert_eq!(
            what_to_do(1, 3, 0),
            "type 1 resume line(s) into the panes above and create 3 session(s), each running its resume line"
        );
        assert_eq!(
            what_to_do(0, 0, 2),
            "restart 2 pane(s) whose replayed agent is a new conversation, each running its resume line"
        );
    }
}
