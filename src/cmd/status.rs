//! `agterm-backup status [--json]`: hooks, each terminal (every instance of each registry row with
//! records, named by the environment, or always looked at), and what is captured per pane.

use crate::cli::StatusArgs;
use crate::cmd::restore::state_dir;
use crate::{CliError, CliResult};
use agterm_backup_core::record::{LiveRecord, PinOutcome};
use agterm_backup_core::terminal::{PaneView, TerminalInfo};
use agterm_backup_installer::paths::{self, Process};
use agterm_backup_installer::status as installer_status;
use agterm_backup_restore::gather::{
    current_records, gather_for, pin_outcomes, plan_offline, scopes_with_records, Scope,
};
use agterm_backup_restore::once::Trigger;
use agterm_backup_restore::plan::PlanRow;
use agterm_backup_restore::status::{
    build_all, explain, render, HookOff, HookState, PaneStatus, Section,
};
use std::path::PathBuf;
use std::time::Duration;

/// What one terminal instance answered (or why not), its panes and its plan.
struct Looked {
    scope: Scope,
    info: Result<TerminalInfo, String>,
    panes: Vec<PaneView>,
    rows: Vec<PlanRow>,
    current: Vec<Option<LiveRecord>>,
    outcomes: Vec<Option<PinOutcome>>,
}

pub fn run(args: StatusArgs, socket: Option<PathBuf>) -> CliResult {
    let state = state_dir()?;
    // Temp files of writers killed mid-write are litter: status sweeps them (never a live writer's).
    state.sweep_litter();
    let env = |k: &str| std::env::var(k).ok();
    let (hooks, denylist_ok, claude_plugin) = hook_states();
    let scopes =
        agterm_backup_terminals::everywhere(socket.as_deref(), &env, &scopes_with_records(&state));
    let looked: Vec<Looked> = scopes
        .into_iter()
        .map(|scope| {
            let explicit = agterm_backup_terminals::socket_for(&scope, socket.as_deref(), false);
            let planned =
                agterm_backup_terminals::open(&scope, explicit, &env).and_then(|mut t| {
                    gather_for(
                        &mut *t,
                        &state,
                        None,
                        Duration::ZERO,
                        &env,
                        &scope,
                        Trigger::Restore,
                    )
                    .map_err(|e| e.to_string())
                });
            let (info, panes, rows) = match planned {
                Ok(p) => (Ok(p.info), p.panes, p.rows),
                // Not running: one line, and its records planned with no pane.
                Err(e) => (Err(e), Vec::new(), plan_offline(&state, &scope, &env)),
            };
            let current = current_records(&state, &rows);
            let outcomes = pin_outcomes(&current);
            Looked {
                scope,
                info,
                panes,
                rows,
                current,
                outcomes,
            }
        })
        .collect();
    let sections: Vec<Section<'_>> = looked
        .iter()
        .map(|l| Section {
            scope: l.scope.clone(),
            terminal: l.info.as_ref().map_err(Clone::clone),
            panes: &l.panes,
            rows: &l.rows,
            pin_outcomes: &l.outcomes,
            current: &l.current,
        })
        .collect();
    let mut report = build_all(hooks, denylist_ok, &sections);
    explain(&mut report, |agent, pane| {
        pane_gate(agent, pane, claude_plugin)
    });

    report.warnings.extend(unattributed_codex(&state));
    report.warnings.extend(dropped_flags(&state));
    report.warnings.extend(config_file_warnings());
    report.broken_files = state.broken_files(&agterm_backup_terminals::parse_key);
    report.warnings.extend(
        report
            .broken_files
            .iter()
            .map(agterm_backup_restore::broken::describe),
    );
    if args.json {
        let text = serde_json::to_string_pretty(&report)
            .map_err(|e| CliError::failure(format!("could not encode the status: {e}")))?;
        println!("{text}");
    } else {
        print!("{}", render(&report, std::env::var("HOME").ok().as_deref()));
    }
    Ok(())
}

/// Whether `agent` runs our hook in `pane`: its launch flags, then every layer it reads in the pane's
/// directory, the project's files included (`installer::gate`).
fn pane_gate(agent: &str, pane: &PaneStatus, claude_plugin: bool) -> Option<String> {
    use agterm_backup_installer::gate;
    if let Some(why) = pane
        .agent_args
        .as_deref()
        .and_then(|args| gate::launched_without_hooks(agent, args))
    {
        return Some(why);
    }
    let place = gate::Place::machine(&Process, pane.pane_cwd.as_deref().map(PathBuf::from));
    gate::check(agent, &place, &gate::Facts { claude_plugin }).map(|off| off.says)
}

/// The gate's answer as `status` carries it.
fn hook_off(off: agterm_backup_installer::gate::Off) -> HookOff {
    let way_out = serde_json::to_value(off.way_out)
        .ok()
        .and_then(|v| v.as_str().map(String::from))
        .unwrap_or_default();
    HookOff {
        file: off.file,
        key: off.key,
        way_out,
        project_only: off.project_only,
        says: off.says,
    }
}

/// The installer's view of our hooks (per agent) and of a terminal's restore denylist (its `denies`);
/// whether our Claude Code plugin is enabled.
fn hook_states() -> (Vec<HookState>, Option<bool>, bool) {
    // The same path `installer apply` writes, so a hook it wrote never reads as "outdated".
    let binary = std::env::current_exe()
        .and_then(|p| p.canonicalize())
        .map(|exe| {
            agterm_backup_installer::command::stable_binary_path(
                &exe,
                std::env::var_os("PATH").as_deref(),
            )
        })
        .unwrap_or_else(|_| PathBuf::from("agterm-backup"));
    let agents: Vec<String> = agterm_backup_installer::ALL_AGENTS
        .map(String::from)
        .to_vec();
    let Ok(targets) = paths::targets(&Process, &binary, &agents, &|_| true) else {
        return (Vec::new(), None, false);
    };
    let report = installer_status::report(&Process, &binary, &targets);
    let mut hooks = Vec::new();
    let mut denylist_ok = None;
    let mut claude_plugin = false;
    for t in report.targets {
        claude_plugin |= t.plugin.is_some();
        if let Some(denies) = &t.denies {
            denylist_ok = Some(denies.values().all(|v| *v));
            continue;
        }
        // Trust matters only for Codex hooks that are there.
        let present: Vec<_> = t.hooks.iter().filter(|h| h.state != "absent").collect();
        let trusted = (t.target == "codex" && !present.is_empty())
            .then(|| present.iter().all(|h| h.trusted == Some(true)));
        // The Claude Code plugin runs the hook when settings.json does not; both run it twice.
        let state = match t.route {
            Some("plugin") => "present",
            Some("both") => "duplicate",
            _ => t.state,
        };
        hooks.push(HookState {
            agent: t.target.to_string(),
            state: state.to_string(),
            path: t.path,
            trusted,
            switched_off: t.switched_off.map(hook_off),
        });
    }
    (hooks, denylist_ok, claude_plugin)
}

/// `installer status`'s warnings about each terminal's config file that holds our block, each with the
/// file's path: why our block there may not do its work (each row's `warnings`: a restore hook that
/// cannot fire, an agent the terminal would start anew).
fn config_file_warnings() -> Vec<String> {
    use agterm_backup_installer::paths::Lookup;
    let mut out = Vec::new();
    for file in agterm_backup_installer::config_file::shown() {
        let Ok(Some(path)) = paths::config_file_path(&Process, file) else {
            continue;
        };
        let Some(text) = Process.read(&path).filter(|t| (file.has_ours)(t)) else {
            continue;
        };
        let target =
            paths::config_file_target(file, path.clone(), std::path::Path::new("agterm-backup"));
        out.extend(
            installer_status::target_report(&target, Some(&text), None)
                .warnings
                .into_iter()
                .map(|w| format!("{}: {w}", path.display())),
        );
    }
    out
}

/// Codex conversations that ran under Codex's shared daemon where the hook could not tell which pane
/// they belong to (so nothing was recorded for them), and that no pane has captured since.
fn unattributed_codex(state: &agterm_backup_core::state::StateDir) -> Vec<String> {
    use agterm_backup_hook::codex_daemon::unattributed;
    let recorded: Vec<String> = state
        .pane_keys(&agterm_backup_terminals::parse_key)
        .iter()
        .filter_map(|k| state.read_record(k))
        .map(|r| r.session_id)
        .collect();
    let mut seen = std::collections::BTreeSet::new();
    unattributed::outstanding(&unattributed::read(state), |sid| {
        recorded.iter().any(|r| r == sid)
    })
    .into_iter()
    .filter(|u| seen.insert(u.session_id.clone()))
    .map(|u| {
        format!(
            "Codex conversation {} in {} is not captured: {} (run Codex with --no-daemon, or one \
                 Codex per directory, to capture it)",
            u.session_id, u.cwd, u.reason
        )
    })
    .collect()
}

/// Panes whose agent was launched with flags the flag table does not know: they were dropped with their
/// values (replaying them blind could split a flag from its value), and the user should know.
fn dropped_flags(state: &agterm_backup_core::state::StateDir) -> Vec<String> {
    state
        .pane_keys(&agterm_backup_terminals::parse_key)
        .iter()
        .filter_map(|k| state.read_record(k).map(|r| (k, r)))
        .filter_map(|(k, r)| {
            let dropped = r.dropped_flags();
            (!dropped.is_empty()).then(|| {
                format!(
                    "{k} ({}): dropped {} from the resume line: this version does not know {}, so \
                     they and their values are not replayed",
                    r.agent,
                    dropped.join(", "),
                    if dropped.len() == 1 { "it" } else { "them" }
                )
            })
        })
        .collect()
}
