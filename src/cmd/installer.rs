//! `agterm-backup installer apply|remove|status`: finds the targets, plans every change, then shows diffs
//! (`--dry-run`) or commits them. A file that cannot be changed (refused, read-only, changed under us) is
//! reported and the others are still done: a broken Codex file never blocks taking Claude's hooks out.
//! Every problem is reported, each on its own line; the exit code is 1 when any operation failed, else 2
//! when any file was refused.

use crate::cli::{ApplyArgs, JsonArgs, RemoveArgs};
use crate::{CliError, CliResult};
use agterm_backup_installer::engine::{self, Change, Problem};
use agterm_backup_installer::paths::{self, Process};
use agterm_backup_installer::{command, gate, status, trust, TargetKind, ALL_AGENTS};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// `println!` that does not panic when stdout is a closed pipe (`installer status | head`), for text a
/// person reads: paths, names and diffs of the user's files are shown with their control characters
/// escaped (`printable_lines`), never raw.
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let text = format!($($arg)*);
        let text = agterm_backup_core::printable::printable_lines(&text);
        let _ = writeln!(std::io::stdout(), "{text}");
    }};
}

/// `eprintln!` for a warning a person reads, escaped like [`say!`].
macro_rules! warn {
    ($($arg:tt)*) => {{
        let text = format!($($arg)*);
        eprintln!("{}", agterm_backup_core::printable::printable_lines(&text));
    }};
}

mod shell;

/// What the hooks will run: this binary through a stable `$PATH` entry when there is one (a Homebrew
/// symlink survives upgrades), else its absolute, canonical path.
fn this_binary() -> Result<PathBuf, CliError> {
    let exe = std::env::current_exe()
        .and_then(|p| p.canonicalize())
        .map_err(|e| CliError::failure(format!("cannot find this program's own path: {e}")))?;
    Ok(command::stable_binary_path(
        &exe,
        std::env::var_os("PATH").as_deref(),
    ))
}

fn describe(change: &Change) -> &'static str {
    match (&change.before, &change.after) {
        (b, a) if b == a => "unchanged",
        (None, Some(_)) => "created",
        (Some(_), None) => "deleted (it only held our entries)",
        _ => "updated",
    }
}

/// The problems met so far; reported together at the end.
#[derive(Default)]
struct Problems(Vec<Problem>);

impl Problems {
    fn keep<T>(&mut self, result: Result<T, Problem>) -> Option<T> {
        result.map_err(|p| self.0.push(p)).ok()
    }

    /// Every problem but the last on stderr, the last as the command's error.
    fn finish(mut self) -> CliResult {
        let Some(last) = self.0.pop() else {
            return Ok(());
        };
        let failed = self
            .0
            .iter()
            .chain([&last])
            .any(|p| matches!(p, Problem::Failed(_)));
        for p in &self.0 {
            warn!("agterm-backup: {p}");
        }
        let message = last.to_string();
        Err(if failed {
            CliError::failure(message)
        } else {
            CliError::refused(message)
        })
    }
}

/// Shows or writes each change; returns how many files were written.
fn report_or_write(changes: &[Change], dry_run: bool, problems: &mut Problems) -> usize {
    let mut written = 0;
    for change in changes {
        let name = change.target.kind.target_name();
        let path = change.target.path.display();
        for note in change
            .before
            .as_deref()
            .map(|b| change.target.notes(b))
            .unwrap_or_default()
        {
            say!("{name:<9} {path}: note: {note}");
        }
        if dry_run {
            if change.is_noop() {
                say!("{name:<9} {path}: unchanged");
            } else {
                say!("{}", change.diff().trim_end_matches('\n'));
            }
            continue;
        }
        if problems.keep(change.commit()).is_some() {
            written += usize::from(!change.is_noop());
            say!("{name:<9} {path}: {}", describe(change));
        }
    }
    written
}

pub fn apply(args: ApplyArgs) -> CliResult {
    let binary = this_binary()?;
    let mut targets = paths::targets(&Process, &binary, &args.agents, &|f| {
        !args.left_alone.contains(f)
    })
    .map_err(CliError::refused)?;
    for (agent, why) in paths::absent_agents(&Process, &args.agents) {
        say!("{agent:<9} skipped: {why}");
    }
    // The plugin route already runs the hook: adding it to settings.json too would run it twice.
    targets.retain(|t| {
        let plugin = (t.kind == TargetKind::ClaudeSettings)
            .then(|| status::claude_plugin_at(&Process, &t.path))
            .flatten();
        if let Some(plugin) = &plugin {
            say!(
                "claude    {}: left alone, the Claude Code plugin {plugin} runs the hook",
                t.path.display()
            );
        }
        plugin.is_none()
    });
    // A terminal's config file is an extra: a setting of the user's that keeps ours out (their own
    // restore hook) is a warning, and the agents are wired all the same.
    targets.retain(|t| {
        let TargetKind::ConfigFile(file) = t.kind else {
            return true;
        };
        match engine::plan_apply(t) {
            Err(engine::Problem::Refused(r)) => {
                eprintln!(
                    "agterm-backup: warning: {r}; the {} is left alone",
                    file.what
                );
                false
            }
            _ => true,
        }
    });
    let shell_plan = shell::apply_plan(&args, &binary);
    let init_files = shell_plan.apply.clone();
    targets.extend(shell_plan.apply);
    let mut problems = Problems::default();
    problems.0.extend(shell_plan.problem);
    let mut changes: Vec<Change> = targets
        .iter()
        .filter_map(|t| problems.keep(engine::plan_apply(t)))
        .collect();
    for stale in &shell_plan.remove {
        changes.extend(problems.keep(engine::plan_remove(stale)));
    }
    // Our hook in the Codex file we do not write to would run a second time.
    if let Some(stray) = stray_codex(&binary, &targets) {
        changes.extend(problems.keep(engine::plan_remove(&stray)));
    }
    if !args.dry_run {
        let state = agterm_backup_core::state::StateDir::from_env()
            .ok_or_else(|| CliError::failure("HOME is not set; set HOME or AGTERM_BACKUP_HOME"))?;
        state.ensure().map_err(|e| {
            CliError::failure(format!(
                "{}: cannot create the state folder: {e}",
                state.root().display()
            ))
        })?;
    }
    let written = report_or_write(&changes, args.dry_run, &mut problems);
    problems
        .0
        .extend(shell::write_init_files(&init_files, &binary, args.dry_run));
    if written > 0 {
        warn_about_build_folder(&binary);
        remind_about_path(&binary);
    }
    warn_about_switches(&args.agents);
    let codex = changes
        .iter()
        .find(|c| c.target.kind.target_name() == "codex");
    if let (Some(codex), false) = (codex, args.dry_run) {
        if args.trust {
            problems.keep(trust_codex().map_err(Problem::Failed));
        } else {
            hint_codex_trust(&codex.target);
        }
    } else if args.trust && !args.dry_run {
        let why = if targets.iter().any(|t| t.kind.target_name() == "codex") {
            "Codex's hooks file could not be changed (see above)"
        } else {
            "--agents leaves Codex out"
        };
        problems.0.push(Problem::Failed(format!(
            "--trust: {why}, so nothing was trusted"
        )));
    }
    problems.finish()
}

/// Hooks naming a binary in a cargo build folder break on the next `cargo clean`.
fn warn_about_build_folder(binary: &Path) {
    if let Some(folder) = command::build_folder_of(binary) {
        warn!(
            "agterm-backup: warning: the hooks run {}, inside the build folder {}: `cargo clean` deletes it and \
             every hook then fails; install it (`cargo install --locked --path .`) and run `installer apply` \
             with the installed binary",
            binary.display(),
            folder.display()
        );
    }
}

/// The hooks name the full path, but the user runs `status` and `restore` by name.
fn remind_about_path(binary: &Path) {
    if command::build_folder_of(binary).is_some()
        || command::on_path(binary, std::env::var_os("PATH").as_deref())
    {
        return;
    }
    if let Some(dir) = binary.parent() {
        say!(
            "note: {} is not on PATH (the hooks use the full path and work anyway); to run `agterm-backup` by \
             name, add this to your shell profile: export PATH=\"{}:$PATH\"",
            dir.display(),
            dir.display()
        );
    }
}

/// The settings that keep an agent from running our hook at all, from every layer it reads (the user's
/// files, the machine's managed policy): the file and key, and the way out.
fn warn_about_switches(agents: &[String]) {
    let skipped: Vec<&str> = paths::absent_agents(&Process, agents)
        .into_iter()
        .map(|(agent, _)| agent)
        .collect();
    for agent in agents.iter().filter(|a| !skipped.contains(&a.as_str())) {
        let plugin = (agent == "claude")
            .then(|| paths::claude_settings(&Process).ok())
            .flatten()
            .and_then(|settings| status::claude_plugin_at(&Process, &settings));
        let facts = gate::Facts {
            claude_plugin: plugin.is_some(),
        };
        if let Some(off) = gate::check(agent, &gate::Place::machine(&Process, None), &facts) {
            warn!("agterm-backup: warning: {}", off.says);
        }
    }
}

fn hint_codex_trust(codex: &engine::Target) {
    let config = paths::codex_home(&Process)
        .ok()
        .and_then(|h| std::fs::read_to_string(h.join("config.toml")).ok());
    let report = status::target_report(
        codex,
        std::fs::read_to_string(&codex.path).ok().as_deref(),
        config.as_deref(),
    );
    if report.state != "unreadable" && report.hooks.iter().any(|h| h.trusted != Some(true)) {
        say!(
            "Codex runs new hooks only once trusted: start `codex` once and, at \"Hooks need review\", choose \
             \"Trust all and continue\" (or run `agterm-backup installer apply --trust`)."
        );
    }
}

fn trust_codex() -> Result<(), String> {
    let Some(codex) = trust::find_codex(std::env::var("PATH").ok().as_deref()) else {
        return Err(
            "--trust: `codex` is not on PATH, so nothing was trusted; put it on PATH and run again, or start \
             `codex` once and choose \"Trust all and continue\""
                .into(),
        );
    };
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"));
    let outcome = trust::trust_our_hooks(&codex, &cwd, Duration::from_secs(60))?;
    for key in &outcome.trusted_now {
        say!("codex     trusted {key}");
    }
    if !outcome.trusted_now.is_empty() {
        say!(
            "codex     Codex wrote the trust records into its config.toml itself, with its own formatting and \
             file mode; `installer remove` takes them out again"
        );
    }
    match (outcome.trusted_now.len(), outcome.already.len()) {
        (0, 0) if !outcome.codex_errors.is_empty() => {
            return Err(format!(
                "--trust: Codex cannot load its configuration, so nothing was trusted: {}",
                outcome.codex_errors.join("; ")
            ))
        }
        (0, 0) => {
            return Err(
                "--trust: `codex app-server` listed none of our hooks, so nothing was trusted (are Codex hooks \
                 turned off by `[features] hooks = false`?)"
                    .into(),
            )
        }
        (0, n) => say!("codex     our {n} hooks were already trusted"),
        _ => {}
    }
    Ok(())
}

/// The targets of `remove` and `status`: those of `agents`, and the rc files `shell_files` gives.
fn targets_for(
    agents: &[String],
    shell_files: fn(&Path) -> Vec<engine::Target>,
) -> Result<(PathBuf, Vec<engine::Target>), CliError> {
    let binary = this_binary()?;
    let mut targets =
        paths::targets(&Process, &binary, agents, &|_| true).map_err(CliError::refused)?;
    targets.extend(shell_files(&binary));
    Ok((binary, targets))
}

/// The Codex file that does not take our hooks but holds ours anyway, when Codex is among `targets`.
fn stray_codex(binary: &Path, targets: &[engine::Target]) -> Option<engine::Target> {
    targets.iter().find(|t| t.kind.target_name() == "codex")?;
    paths::stray_codex_target(&Process, binary).ok().flatten()
}

pub fn remove(args: RemoveArgs) -> CliResult {
    let (binary, targets) = targets_for(&args.agents, shell::remove_targets)?;
    // Ours in the other Codex file goes too (its trust records, if Codex filed any, stay: Codex ignores
    // a record whose hook is gone).
    let stray = stray_codex(&binary, &targets);
    let mut problems = Problems::default();
    let mut changes = Vec::new();
    for t in &targets {
        if let Some(trust) = engine::plan_remove_hooks_json_trust(t) {
            changes.extend(problems.keep(trust));
        }
        changes.extend(problems.keep(engine::plan_remove(t)));
    }
    if let Some(stray) = stray {
        changes.extend(problems.keep(engine::plan_remove(&stray)));
    }
    report_or_write(&changes, args.dry_run, &mut problems);
    if !args.dry_run {
        shell::remove_init_files(&binary);
        report_leftovers(&changes);
    }
    problems.finish()
}

/// What `remove` leaves behind: the backups of the files it changed, and folders it left empty.
fn report_leftovers(changes: &[Change]) {
    for change in changes.iter().filter(|c| !c.is_noop()) {
        let bak = change.file.backup_path();
        if change.after.is_none() {
            // We created the file and it held only our entries: so does its backup.
            let _ = std::fs::remove_file(&bak);
        } else if bak.exists() {
            say!(
                "kept      {}: the file as it was before our last change; delete it once you no longer need it",
                bak.display()
            );
        }
        if change.after.is_none() && change.before.is_some() {
            if let Some(dir) = change.target.path.parent() {
                let empty = std::fs::read_dir(dir).is_ok_and(|mut d| d.next().is_none());
                if empty {
                    say!(
                        "kept      {}: now empty (it may have been created for {}); remove it if nothing else uses it",
                        dir.display(),
                        change.target.path.display()
                    );
                }
            }
        }
    }
}

pub fn status(args: JsonArgs) -> CliResult {
    let (binary, targets) = targets_for(&ALL_AGENTS.map(String::from), shell::status_targets)?;
    let mut report = status::report(&Process, &binary, &targets);
    shell::annotate(&mut report, &targets);
    if args.json {
        // JSON is escaped already, and must stay exactly JSON.
        use std::io::Write as _;
        let json = serde_json::to_string_pretty(&report).expect("a report serializes");
        let _ = writeln!(std::io::stdout(), "{json}");
    } else {
        say!("{}", status::render(&report).trim_end_matches('\n'));
    }
    Ok(())
}
