//! `agterm-backup restart`: in every terminal, restart each idle agent pane onto the version installed
//! now (quit, then resume the same conversation in the same pane), leave busy ones alone with their
//! reason (or, with `--wait`, restart each once it turns idle), and end with a summary.

use crate::cli::RestartArgs;
use crate::cmd::restore::{chosen_scopes, confirm, open_terminal, state_dir, ConsoleProgress};
use crate::{CliError, CliResult};
use agterm_backup_core::printable::printable_lines;
use agterm_backup_core::state::StateDir;
use agterm_backup_core::terminal::Terminal;
use agterm_backup_restore::execute::ExecOptions;
use agterm_backup_restore::relaunch::decide::Verdict;
use agterm_backup_restore::relaunch::run::{
    look, planned_row, restart_one, waiting, Filter, Row, Seen, Versions,
};
use agterm_backup_restore::render::aligned;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// One terminal being restarted.
struct Place {
    label: String,
    term: Box<dyn Terminal>,
}

pub fn run(args: RestartArgs, socket: Option<PathBuf>) -> CliResult {
    let state = state_dir()?;
    let env = |k: &str| std::env::var(k).ok();
    let filter = Filter {
        agents: args.agent.clone(),
        pane: args.pane.clone(),
    };
    let mut places = Vec::new();
    for scope in chosen_scopes(args.terminal, socket.as_deref(), &state, &env) {
        let explicit = socket.clone().filter(|_| args.terminal.is_some());
        match open_terminal(&scope, explicit, &env) {
            Ok(term) => places.push(Place {
                label: scope.label(),
                term,
            }),
            Err(e) if args.terminal.is_some() => return Err(e),
            Err(e) => note(
                &args,
                &format!("{} is not running: {}", scope.label(), e.message),
            ),
        }
    }
    let mut versions = Versions::default();
    // Every pane's row, and the panes (per place) to act on now.
    let mut rows: Vec<Row> = Vec::new();
    let mut todo: Vec<(usize, usize, Seen)> = Vec::new();
    for (p, place) in places.iter_mut().enumerate() {
        // A terminal that is not running is one line, not a failure, unless `--terminal` named it.
        let seen = match look(&mut *place.term, &state, &filter) {
            Ok(seen) => seen,
            Err(e) if args.terminal.is_none() => {
                note(&args, &format!("{} is not running: {e}", place.label));
                continue;
            }
            Err(e) => {
                return Err(CliError::failure(format!(
                    "could not read {}'s panes: {e}",
                    place.label
                )))
            }
        };
        for s in seen {
            rows.push(planned_row(&s, &mut versions));
            todo.push((p, rows.len() - 1, s));
        }
    }
    let acting = todo.iter().filter(|(_, _, s)| acts(&s.verdict)).count();
    let busy = todo.iter().filter(|(_, _, s)| waiting(&s.verdict)).count();
    if !args.json && rows.is_empty() {
        println!(
            "nothing captured: no running pane has a record in {}",
            agterm_backup_core::printable::printable_path(state.root())
        );
    } else if !args.json {
        print!("{}", table(&rows));
    }
    if args.dry_run || (acting == 0 && !(args.wait && busy > 0)) {
        return finish(&args, &rows);
    }
    if !args.yes {
        let mut what = format!("quit and resume {acting} agent(s) in the panes above");
        if args.wait && busy > 0 {
            what.push_str(&format!(", and {busy} more once each turns idle"));
        }
        confirm(&what)?;
    }
    let opts = ExecOptions::from_env(Some(2), env);
    let mut progress = ConsoleProgress::new(args.json);
    let mut pending: Vec<(usize, usize, Seen)> = Vec::new();
    for (p, r, seen) in todo {
        if acts(&seen.verdict) {
            restart_one(
                &mut *places[p].term,
                &state,
                &seen,
                &mut rows[r],
                &opts,
                &mut progress,
            );
        } else if waiting(&seen.verdict) && args.wait {
            pending.push((p, r, seen));
        }
    }
    if args.wait {
        let deadline = Instant::now() + Duration::from_secs(args.timeout);
        wait_for_idle(
            &mut places,
            &state,
            pending,
            &mut rows,
            &opts,
            &mut progress,
            deadline,
        );
    }
    progress.clear();
    finish(&args, &rows)
}

fn acts(v: &Verdict) -> bool {
    matches!(v, Verdict::Restart { .. } | Verdict::Finish)
}

/// `--wait`: looks at each waiting pane again until it turns idle (then restarts it), stops being one
/// we would restart (skip, with the new reason), or the deadline passes (it stays `wait`).
fn wait_for_idle(
    places: &mut [Place],
    state: &StateDir,
    mut pending: Vec<(usize, usize, Seen)>,
    rows: &mut [Row],
    opts: &ExecOptions,
    progress: &mut ConsoleProgress,
    deadline: Instant,
) {
    while !pending.is_empty() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_secs(1));
        let mut still = Vec::new();
        for (p, r, old) in pending {
            let filter = Filter {
                agents: Vec::new(),
                pane: Some(old.key.to_string()),
            };
            let now = look(&mut *places[p].term, state, &filter).unwrap_or_default();
            let Some(seen) = now.into_iter().find(|s| s.key == old.key) else {
                rows[r].status = "skip".into();
                rows[r].reason = Some("the pane is gone".into());
                continue;
            };
            match &seen.verdict {
                v if acts(v) => {
                    restart_one(
                        &mut *places[p].term,
                        state,
                        &seen,
                        &mut rows[r],
                        opts,
                        progress,
                    );
                }
                v if waiting(v) => still.push((p, r, seen)),
                _ => {
                    let mut versions = Versions::default();
                    rows[r] = planned_row(&seen, &mut versions);
                }
            }
        }
        pending = still;
    }
}

/// The rows as a table: pane, agent, status, version, reason.
fn table(rows: &[Row]) -> String {
    let cells: Vec<[String; 5]> = rows
        .iter()
        .map(|r| {
            [
                r.pane.clone(),
                r.agent.clone().unwrap_or_default(),
                r.status.clone(),
                r.version_change.clone().unwrap_or_default(),
                r.reason.clone().unwrap_or_default(),
            ]
        })
        .collect();
    let paints = vec![None; cells.len()];
    aligned(
        &["PANE", "AGENT", "ACTION", "VERSION", "WHY"],
        &cells,
        &paints,
    )
}

/// The summary (and the rows with what happened), then the exit: a failed restart fails the run.
fn finish(args: &RestartArgs, rows: &[Row]) -> CliResult {
    let count = |s: &str| rows.iter().filter(|r| r.status == s).count();
    let (restarted, failed) = (count("restarted"), count("failed"));
    let planned = if args.dry_run {
        format!("to restart {}, ", count("restart") + count("finish"))
    } else {
        String::new()
    };
    let summary = format!(
        "{planned}restarted {restarted}, waiting {}, skipped {}, failed {failed}",
        count("wait"),
        count("skip")
    );
    if args.json {
        let doc = serde_json::json!({
            "v": 1,
            "dry_run": args.dry_run,
            "panes": rows,
            "summary": {
                "restarted": restarted,
                "waiting": count("wait"),
                "skipped": count("skip"),
                "failed": failed,
            },
        });
        println!("{}", serde_json::to_string_pretty(&doc).unwrap_or_default());
    } else {
        if !args.dry_run && (restarted + failed) > 0 {
            print!("{}", table(rows));
        }
        println!("{}", printable_lines(&summary));
    }
    match failed {
        0 => Ok(()),
        n => Err(CliError::failure(format!(
            "{n} agent(s) were not brought back; run `agterm-backup restart` again to finish them"
        ))),
    }
}

fn note(args: &RestartArgs, line: &str) {
    match args.json {
        true => eprintln!("{}", printable_lines(line)),
        false => println!("{}", printable_lines(line)),
    }
}
