//! `agterm-backup installer apply|remove|status`: finds the targets, plans every change first (a refused
//! file stops everything before anything is written), then shows diffs (`--dry-run`) or commits them.

use crate::cli::{ApplyArgs, JsonArgs, RemoveArgs};
use crate::{CliError, CliResult};
use agterm_backup_installer::engine::{self, Change, Problem};
use agterm_backup_installer::paths::{self, Process};
use agterm_backup_installer::{codex_toml, json_hooks, status, trust, TargetKind, ALL_AGENTS};
use std::path::PathBuf;
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

/// What the hooks will run: this binary through a stable `$PATH` entry when there is one (a Homebrew
/// symlink survives upgrades), else its absolute, canonical path.
fn this_binary() -> Result<PathBuf, CliError> {
    let exe = std::env::current_exe()
        .and_then(|p| p.canonicalize())
        .map_err(|e| CliError::failure(format!("cannot find this program's own path: {e}")))?;
    Ok(agterm_backup_installer::command::stable_binary_path(
        &exe,
        std::env::var_os("PATH").as_deref(),
    ))
}

fn problem(p: Problem) -> CliError {
    match p {
        Problem::Refused(r) => CliError::refused(r.to_string()),
        Problem::Failed(m) => CliError::failure(m),
    }
}

fn describe(change: &Change) -> &'static str {
    match (&change.before, &change.after) {
        (b, a) if b == a => "unchanged",
        (None, Some(_)) => "created",
        (Some(_), None) => "deleted (it only held our entries)",
        _ => "updated",
    }
}

fn report_or_write(changes: &[Change], dry_run: bool) -> CliResult {
    for change in changes {
        let name = change.target.kind.target_name();
        let path = change.target.path.display();
        if dry_run {
            if change.is_noop() {
                say!("{name:<9} {path}: unchanged");
            } else {
                say!("{}", change.diff().trim_end_matches('\n'));
            }
            continue;
        }
        change.commit().map_err(problem)?;
        say!("{name:<9} {path}: {}", describe(change));
    }
    Ok(())
}

pub fn apply(args: ApplyArgs) -> CliResult {
    let binary = this_binary()?;
    let mut targets = paths::targets(&Process, &binary, &args.agents, !args.no_denylist)
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
    let changes = targets
        .iter()
        .map(engine::plan_apply)
        .collect::<Result<Vec<_>, _>>()
        .map_err(problem)?;
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
    report_or_write(&changes, args.dry_run)?;
    for change in changes
        .iter()
        .filter(|c| c.target.kind == TargetKind::ClaudeSettings)
    {
        if change
            .after
            .as_deref()
            .is_some_and(json_hooks::all_hooks_disabled)
        {
            warn!(
                "agterm-backup: warning: {}: `\"disableAllHooks\": true` keeps Claude Code from running any hook, \
                 ours included; remove it to let agterm-backup capture Claude sessions",
                change.target.path.display()
            );
        }
    }
    for change in &changes {
        if let (TargetKind::AgentHooks(row), Some(after)) = (change.target.kind, &change.after) {
            if let Some(setting) =
                agterm_backup_installer::agent_hooks::hooks_switched_off(row, after)
            {
                eprintln!(
                    "agterm-backup: warning: {}: `{setting}` keeps {} from running any hook, ours included; \
                     change it to let agterm-backup capture {} sessions",
                    change.target.path.display(),
                    row.agent,
                    row.agent
                );
            }
        }
    }
    let Some(codex) = targets.iter().find(|t| t.kind.target_name() == "codex") else {
        return Ok(());
    };
    let config_path = paths::codex_home(&Process)
        .map_err(CliError::failure)?
        .join("config.toml");
    let config = std::fs::read_to_string(&config_path).ok();
    if let Some(key) = config.as_deref().and_then(codex_toml::hooks_disabled_by) {
        warn!(
            "agterm-backup: warning: {}: `{key} = false` keeps Codex from running any hook, ours included; \
             remove that line to let agterm-backup capture Codex sessions",
            config_path.display()
        );
    }
    if args.dry_run {
        return Ok(());
    }
    if args.trust {
        return trust_codex();
    }
    let report = status::target_report(
        codex,
        std::fs::read_to_string(&codex.path).ok().as_deref(),
        config.as_deref(),
    );
    if report.hooks.iter().any(|h| h.trusted != Some(true)) {
        say!(
            "Codex runs new hooks only once trusted: start `codex` once and, at \"Hooks need review\", choose \
             \"Trust all and continue\" (or run `agterm-backup installer apply --trust`)."
        );
    }
    Ok(())
}

fn trust_codex() -> CliResult {
    let Some(codex) = trust::find_codex(std::env::var("PATH").ok().as_deref()) else {
        say!(
            "codex is not on PATH, so --trust was skipped: start `codex` once and choose \"Trust all and continue\""
        );
        return Ok(());
    };
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"));
    let outcome =
        trust::trust_our_hooks(&codex, &cwd, Duration::from_secs(60)).map_err(CliError::failure)?;
    for key in &outcome.trusted_now {
        say!("codex     trusted {key}");
    }
    match (outcome.trusted_now.len(), outcome.already.len()) {
        (0, 0) => say!(
            "codex     `codex app-server` listed none of our hooks, so nothing was trusted (are hooks turned off?)"
        ),
        (0, n) => say!("codex     our {n} hooks were already trusted"),
        _ => {}
    }
    Ok(())
}

fn all_targets() -> Result<(PathBuf, Vec<engine::Target>), CliError> {
    let binary = this_binary()?;
    let agents: Vec<String> = ALL_AGENTS.iter().map(|a| a.to_string()).collect();
    let targets = paths::targets(&Process, &binary, &agents, true).map_err(CliError::refused)?;
    Ok((binary, targets))
}

pub fn remove(args: RemoveArgs) -> CliResult {
    let (_, targets) = all_targets()?;
    let changes = targets
        .iter()
        .map(engine::plan_remove)
        .collect::<Result<Vec<_>, _>>()
        .map_err(problem)?;
    report_or_write(&changes, args.dry_run)
}

pub fn status(args: JsonArgs) -> CliResult {
    let (binary, targets) = all_targets()?;
    let report = status::report(&Process, &binary, &targets);
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
