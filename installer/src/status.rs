//! `installer status`: where each target stands.
//!
//! JSON shape of `agterm-backup installer status --json` (one object):
//!
//! ```json
//! {
//!   "v": 1,
//!   "binary": "/usr/local/bin/agterm-backup",
//!   "targets": [
//!     {
//!       "target": "claude",                // "claude" | "codex" | … | a terminal's file's (its row's) | "shell"
//!       "file": "settings.json",           // "settings.json" | "config.toml" | "hooks.json" | "restore-denylist.conf" | ".zshrc" | ".bashrc" | ".bash_profile" | "config.fish" | …
//!       "path": "/Users/me/.claude/settings.json",
//!       "state": "present",                // "present" | "outdated" | "partial" | "duplicate" | "absent" | "unreadable"
//!       "error": null,                     // the reason when "unreadable" (path:line:col: …)
//!       "hooks": [                         // one per event, empty for a terminal's file
//!         {
//!           "event": "SessionStart",
//!           "state": "present",            // "present" | "outdated" (names another binary) | "duplicate" | "absent"
//!           "binary": "/usr/local/bin/agterm-backup",   // the path our entry names, null when absent
//!           "trust_key": null,             // Codex only: "<file>:session_start:<group>:<handler>"
//!           "trusted": null                // Codex only: a hooks.state entry with a trusted_hash exists
//!         }
//!       ],
//!       "denies": null,                    // a terminal's denylist only: {"claude": true, "codex": true} as the terminal reads it
//!       "route": "settings",               // claude only: "settings" | "plugin" | "both" | "none"
//!       "plugin": null,                    // claude only: the enabled plugin's key, e.g. "agterm-backup@agterm-backup"
//!       "read_by": null,                   // shell only: the shell that reads the file and how we know, e.g. "zsh: ZDOTDIR=/Users/me/.config/zsh, as /bin/zsh's start-up files set it"; null when none does
//!       "warnings": [],                    // e.g. our hook also in Codex's other file
//!       "switched_off": null               // agents only: our hook will not run (crate::gate::Off):
//!                                          // {"agent","file","key","value","layer","way_out","project_only","says"}
//!     }
//!   ]
//! }
//! ```
//!
//! `present` means every hook names this binary; `outdated` that every hook is there but at least one
//! names another binary (run `installer apply` to refresh); `partial` that some events lack ours;
//! `duplicate` that the agent would run our hook more than once on some event, in one file or, for Codex,
//! in `config.toml` and `hooks.json` both (`installer apply` keeps one). `unreadable` files are to be fixed by hand first (`error` says where).
//! A `shell` row (an rc file of the login shell, or any other holding our block) is `present`, `outdated`,
//! `duplicate` (our line twice in the block), `partial` (our block without our line), `absent` or
//! `unreadable` (markers that do not pair up). Its warnings say where our block is never run: after an
//! `exec` that takes the shell away, or in a file the shell does not read (a `~/.zshrc` ZDOTDIR bypasses).
//! `trusted` says that a trust record exists for the hook's position; Codex also checks its hash, which
//! `installer apply --trust` keeps right.

use crate::paths::{self, Lookup};
use crate::refusal::Refusal;
use crate::target::{Target, TargetKind};
pub use crate::target_report::{HookReport, TargetReport};
use crate::{claude_plugin, codex_event_label, codex_toml, gate, json_hooks, EventState};
use agterm_backup_terminals::config_file::{self, TerminalConfigFile};
use serde::Serialize;
use std::path::Path;

#[derive(Debug, Clone, Serialize)]
pub struct Report {
    /// The version of this JSON shape.
    pub v: u32,
    pub binary: String,
    pub targets: Vec<TargetReport>,
}

fn file_name(kind: TargetKind) -> &'static str {
    match kind {
        TargetKind::ClaudeSettings => "settings.json",
        TargetKind::CodexConfig => "config.toml",
        TargetKind::CodexHooksJson => "hooks.json",
        TargetKind::ConfigFile(file) => file.file,
        TargetKind::AgentHooks(row) => row.file_name,
        TargetKind::OpencodePlugin => "plugins/agterm-backup.js",
        TargetKind::KimiConfig => "config.toml",
        TargetKind::ShellRc(rc) => rc.name,
    }
}

/// Summarises per-event states into one word.
pub fn overall(states: &[&'static str]) -> &'static str {
    if states.contains(&"duplicate") {
        "duplicate"
    } else if states.iter().all(|s| *s == "present") {
        "present"
    } else if states.iter().all(|s| *s == "absent") {
        "absent"
    } else if states.iter().all(|s| *s != "absent") {
        "outdated"
    } else {
        "partial"
    }
}

fn event_states(target: &Target, text: Option<&str>) -> Result<Vec<EventState>, Refusal> {
    match target.kind {
        TargetKind::ClaudeSettings => json_hooks::inspect(text, "claude", &target.command),
        TargetKind::CodexHooksJson => json_hooks::inspect(text, "codex", &target.command),
        TargetKind::CodexConfig => codex_toml::inspect(text, &target.command),
        TargetKind::ConfigFile(_) | TargetKind::ShellRc(_) => Ok(Vec::new()),
        TargetKind::AgentHooks(row) => crate::agent_hooks::inspect(row, text, &target.command),
        TargetKind::KimiConfig => crate::kimi_toml::inspect(text, &target.command),
        // One plugin serves every moment: each of the four is where the plugin is.
        TargetKind::OpencodePlugin => {
            let found = crate::opencode_plugin::inspect(text, &target.command);
            Ok(crate::OUR_EVENTS
                .iter()
                .map(|&event| EventState {
                    event,
                    runs: usize::from(found.is_some()),
                    place: found.as_ref().map(|(binary, current)| crate::HookPlace {
                        group: 0,
                        handler: 0,
                        binary: binary.clone(),
                        current: *current,
                    }),
                })
                .collect())
        }
    }
}

/// The report for one target; `codex_config` is Codex's config.toml text (where trust records live).
pub fn target_report(
    target: &Target,
    text: Option<&str>,
    codex_config: Option<&str>,
) -> TargetReport {
    let mut report = TargetReport {
        target: target.kind.target_name(),
        file: file_name(target.kind),
        path: target.path.display().to_string(),
        state: "absent",
        error: None,
        hooks: Vec::new(),
        denies: None,
        route: None,
        plugin: None,
        read_by: None,
        warnings: Vec::new(),
        switched_off: None,
    };
    if let TargetKind::ConfigFile(file) = target.kind {
        return config_file_report(report, file, text.unwrap_or(""), &target.command);
    }
    if let TargetKind::ShellRc(rc) = target.kind {
        crate::shell_rc::report(&mut report, rc, text, &target.command);
        return report;
    }
    let states = match event_states(target, text) {
        Ok(states) => states,
        Err(refusal) => {
            report.state = "unreadable";
            report.error = Some(refusal.in_file(&target.path).to_string());
            return report;
        }
    };
    let codex = target.kind.target_name() == "codex";
    let trusted = codex_config
        .map(codex_toml::trusted_keys)
        .unwrap_or_default();
    let prefixes = codex_toml::trust_sources(&target.path);
    for state in states {
        let (word, binary, key) = match &state.place {
            None => ("absent", None, None),
            Some(place) => {
                let key = format!(
                    "{}:{}:{}:{}",
                    target.path.display(),
                    codex_event_label(state.event),
                    place.group,
                    place.handler
                );
                let word = match (state.runs > 1, place.current) {
                    (true, _) => "duplicate",
                    (false, true) => "present",
                    (false, false) => "outdated",
                };
                (word, Some(place.binary.clone()), Some(key))
            }
        };
        let is_trusted = key.as_ref().map(|k| {
            let suffix = &k[target.path.display().to_string().len()..];
            prefixes
                .iter()
                .any(|p| trusted.iter().any(|t| t == &format!("{p}{suffix}")))
        });
        report.hooks.push(HookReport {
            event: state.event,
            state: word,
            binary,
            trust_key: if codex { key } else { None },
            trusted: if codex {
                is_trusted.or(Some(false))
            } else {
                None
            },
        });
    }
    report.state = overall(&report.hooks.iter().map(|h| h.state).collect::<Vec<_>>());
    report
}

/// A terminal's file's row: our block for `binary`, what the terminal denies as it reads the file (a
/// denylist), and why our block may not do its work.
fn config_file_report(
    mut report: TargetReport,
    file: &TerminalConfigFile,
    text: &str,
    binary: &str,
) -> TargetReport {
    report.state = (file.state)(text, binary);
    report.denies = file.denies.map(|denies| denies(text).into_iter().collect());
    report.warnings = (file.warnings)(text, binary);
    report
}

/// Our hook also in `stray`, the Codex file we do not write to (`paths::stray_codex_target`): Codex runs the
/// hooks of both files, so an event ours is on in both runs it twice.
pub fn add_codex_stray(report: &mut TargetReport, stray: &Target, text: &str) {
    let Ok(states) = event_states(stray, Some(text)) else {
        return;
    };
    for (hook, state) in report.hooks.iter_mut().zip(&states) {
        if state.runs + usize::from(hook.state != "absent") > 1 {
            hook.state = "duplicate";
        }
    }
    report.state = overall(&report.hooks.iter().map(|h| h.state).collect::<Vec<_>>());
    report.warnings.push(format!(
        "our hook is also in {}, and Codex runs the hooks of both files: run `agterm-backup installer apply` \
         to keep it only in {}",
        stray.path.display(),
        report.path
    ));
}

/// Adds the Claude route (settings.json, the plugin, both or none) to a Claude target's report.
pub fn add_claude_route(report: &mut TargetReport, plugin: Option<String>) {
    let settings_has_ours = report.hooks.iter().any(|h| h.state != "absent");
    let route = claude_plugin::route(settings_has_ours, plugin.is_some());
    if route == "both" {
        report.warnings.push(
            "the hook runs twice: the agterm-backup Claude Code plugin is enabled and settings.json has our \
             hooks too; disable the plugin or run `agterm-backup installer remove`"
                .to_string(),
        );
    }
    report.route = Some(route);
    report.plugin = plugin;
}

/// The enabled agterm-backup Claude Code plugin, if any, next to `settings` (Claude's config folder).
pub fn claude_plugin_at(lookup: &dyn Lookup, settings: &Path) -> Option<String> {
    let dir = settings.parent()?;
    claude_plugin::enabled_plugin(
        lookup.read(settings).as_deref(),
        lookup
            .read(&dir.join("plugins/installed_plugins.json"))
            .as_deref(),
    )
}

/// The full report over `targets`.
pub fn report(lookup: &dyn Lookup, binary: &Path, targets: &[Target]) -> Report {
    let codex_config = paths::codex_home(lookup)
        .ok()
        .and_then(|h| lookup.read(&h.join("config.toml")));
    Report {
        v: 1,
        binary: binary.display().to_string(),
        targets: targets
            .iter()
            .map(|t| {
                let mut r =
                    target_report(t, lookup.read(&t.path).as_deref(), codex_config.as_deref());
                if t.kind == TargetKind::ClaudeSettings && r.state != "unreadable" {
                    add_claude_route(&mut r, claude_plugin_at(lookup, &t.path));
                }
                r.switched_off = switched_off(lookup, &r);
                if t.kind.target_name() == "codex" && r.state != "unreadable" {
                    let stray = paths::stray_codex_target(lookup, binary).ok().flatten();
                    if let Some((stray, text)) =
                        stray.and_then(|s| lookup.read(&s.path).map(|text| (s, text)))
                    {
                        add_codex_stray(&mut r, &stray, &text);
                    }
                }
                r
            })
            .collect(),
    }
}

/// Whether the agent of an agent's row will run our hook at all (user-wide: every layer but a
/// project's), by [`gate::check`] on this machine.
pub fn switched_off(lookup: &dyn Lookup, report: &TargetReport) -> Option<gate::Off> {
    if !crate::ALL_AGENTS.contains(&report.target) {
        return None; // a terminal's file, a shell
    }
    let facts = gate::Facts {
        claude_plugin: report.plugin.is_some(),
    };
    gate::check(report.target, &gate::Place::machine(lookup, None), &facts)
}

/// Human-readable lines, one per target and one per hook that is not current.
pub fn render(report: &Report) -> String {
    let mut out = format!("binary: {}\n", report.binary);
    for t in &report.targets {
        out.push_str(&format!("{:<9} {:<9} {}\n", t.target, t.state, t.path));
        if let Some(e) = &t.error {
            out.push_str(&format!("          error: {e}\n"));
        }
        for h in &t.hooks {
            let trust = match h.trusted {
                Some(true) => ", trusted",
                Some(false) if h.state != "absent" => ", not trusted yet",
                _ => "",
            };
            let binary = match (&h.binary, h.state) {
                (Some(b), "outdated") => format!(" (names {b})"),
                _ => String::new(),
            };
            out.push_str(&format!(
                "          {:<17} {}{binary}{trust}\n",
                h.event, h.state
            ));
        }
        match (t.route, &t.plugin) {
            (Some(route), Some(plugin)) => {
                out.push_str(&format!("          route: {route} (plugin {plugin})\n"))
            }
            (Some(route), None) => out.push_str(&format!("          route: {route}\n")),
            _ => {}
        }
        if let Some(denies) = &t.denies {
            let listed: Vec<String> = denies.iter().map(|(k, v)| format!("{k}={v}")).collect();
            let terminal = config_file::named(t.target).map_or("", config_file::terminal_of);
            out.push_str(&format!(
                "          denied by {terminal}: {}\n",
                listed.join(" ")
            ));
        }
        if let Some(read_by) = &t.read_by {
            out.push_str(&format!("          read by {read_by}\n"));
        }
        for w in &t.warnings {
            out.push_str(&format!("          warning: {w}\n"));
        }
        if let Some(off) = &t.switched_off {
            out.push_str(&format!("          NOT RUN: {}\n", off.says));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overall_words() {
        assert_eq!(overall(&["present", "present"]), "present");
        assert_eq!(overall(&["absent", "absent"]), "absent");
        assert_eq!(overall(&["present", "outdated"]), "outdated");
        assert_eq!(overall(&["present", "absent"]), "partial");
        assert_eq!(overall(&["present", "duplicate", "absent"]), "duplicate");
    }

    #[test]
    fn codex_trust_is_found_by_position() {
        let target = Target {
            kind: TargetKind::CodexConfig,
            path: std::path::PathBuf::from("/nonexistent-dir/config.toml"),
            command: "'/b/agterm-backup' hook codex".into(),
        };
        let applied = codex_toml::apply(
            Some("[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = \"command\"\ncommand = \"x\"\n"),
            &target.command,
        )
        .unwrap();
        let trusted = format!("{applied}\n[hooks.state.\"/nonexistent-dir/config.toml:stop:1:0\"]\ntrusted_hash = \"sha256:1\"\n");
        let r = target_report(&target, Some(&trusted), Some(&trusted));
        assert_eq!(r.state, "present");
        let stop = r.hooks.iter().find(|h| h.event == "Stop").unwrap();
        assert_eq!(
            stop.trust_key.as_deref(),
            Some("/nonexistent-dir/config.toml:stop:1:0")
        );
        assert_eq!(stop.trusted, Some(true));
        let start = r.hooks.iter().find(|h| h.event == "SessionStart").unwrap();
        assert_eq!(start.trusted, Some(false));
    }
}
