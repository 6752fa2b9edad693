//! Where the targets live, from the environment (an injected lookup, so tests need no real HOME).
//!
//! - Claude Code: `$CLAUDE_CONFIG_DIR/settings.json`, else `~/.claude/settings.json`.
//! - Codex: `$CODEX_HOME` else `~/.codex`; `config.toml`, or `hooks.json` when the user already keeps hooks
//!   there (and our block is not already in `config.toml`): Codex warns when one layer uses both, and
//!   runs the hooks of both, so ours found in the other file is taken out (`stray_codex_target`).
//! - A terminal's own config file: its registry row's `config_file` says where ([`config_file_path`]).
//! - Gemini CLI, Copilot CLI, Qwen Code: their [`HookFile`] rows; each only where the agent is installed
//!   (on `PATH`) or its config folder exists ([`absence`] says why one is left out).
//! - Kimi Code: `$KIMI_CODE_HOME/config.toml`, else `~/.kimi-code/config.toml`, on the same condition.

use crate::agent_hooks::{hook_file, HookFile};
use crate::command::hook_command;
pub use crate::lookup::{system_root, Lookup};
use crate::opencode_plugin;
use crate::target::{Target, TargetKind};
use agterm_backup_terminals::config_file::{self, TerminalConfigFile};
use std::path::{Path, PathBuf};

/// The real process environment and file system.
pub struct Process;

impl Lookup for Process {
    fn env(&self, key: &str) -> Option<String> {
        std::env::var(key).ok()
    }
    fn read(&self, path: &Path) -> Option<String> {
        std::fs::read_to_string(path).ok()
    }
    fn exists(&self, path: &Path) -> bool {
        path.exists()
    }
    fn only_root_writes(&self, path: &Path) -> bool {
        use std::os::unix::fs::MetadataExt;
        let safe = |p: &Path| match std::fs::metadata(p) {
            Ok(m) => m.uid() == 0 && m.mode() & 0o022 == 0,
            Err(e) => e.kind() == std::io::ErrorKind::NotFound,
        };
        let real = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
        path.ancestors().chain(real.ancestors()).all(safe)
    }
    fn list(&self, dir: &Path) -> Vec<String> {
        std::fs::read_dir(dir)
            .map(|entries| {
                entries
                    .flatten()
                    .filter(|e| e.file_type().is_ok_and(|t| t.is_file() || t.is_symlink()))
                    .filter_map(|e| e.file_name().into_string().ok())
                    .collect()
            })
            .unwrap_or_default()
    }
    fn zsh_zdotdir(&self, zsh: &str, start: Option<&str>) -> Result<Option<String>, String> {
        crate::shell_rc::zdotdir::ask_zsh_once(zsh, start)
    }
    fn login_shell(&self) -> Option<String> {
        let user = nix::unistd::User::from_uid(nix::unistd::getuid()).ok()??;
        Some(user.shell.to_string_lossy().into_owned()).filter(|s| !s.is_empty())
    }
}

fn non_empty(lookup: &dyn Lookup, key: &str) -> Option<PathBuf> {
    lookup.env(key).filter(|v| !v.is_empty()).map(PathBuf::from)
}

fn home(lookup: &dyn Lookup) -> Result<PathBuf, String> {
    non_empty(lookup, "HOME")
        .ok_or_else(|| "HOME is not set; set HOME (or CLAUDE_CONFIG_DIR / CODEX_HOME)".into())
}

/// Claude Code's user settings file.
pub fn claude_settings(lookup: &dyn Lookup) -> Result<PathBuf, String> {
    match non_empty(lookup, "CLAUDE_CONFIG_DIR") {
        Some(dir) => Ok(dir.join("settings.json")),
        None => Ok(home(lookup)?.join(".claude/settings.json")),
    }
}

/// Codex's home folder.
pub fn codex_home(lookup: &dyn Lookup) -> Result<PathBuf, String> {
    match non_empty(lookup, "CODEX_HOME") {
        Some(dir) => Ok(dir),
        None => Ok(home(lookup)?.join(".codex")),
    }
}

/// Kimi Code's folder: `$KIMI_CODE_HOME`, else `~/.kimi-code`.
pub fn kimi_home(lookup: &dyn Lookup) -> Result<PathBuf, String> {
    match non_empty(lookup, "KIMI_CODE_HOME") {
        Some(dir) => Ok(dir),
        None => Ok(home(lookup)?.join(".kimi-code")),
    }
}

/// Which Codex file takes our hooks.
pub fn codex_target(lookup: &dyn Lookup) -> Result<(TargetKind, PathBuf), String> {
    let home = codex_home(lookup)?;
    let config = home.join("config.toml");
    let hooks_json = home.join("hooks.json");
    let block_in_config = lookup
        .read(&config)
        .is_some_and(|t| crate::codex_toml::has_ours(&t));
    if !block_in_config && lookup.exists(&hooks_json) {
        Ok((TargetKind::CodexHooksJson, hooks_json))
    } else {
        Ok((TargetKind::CodexConfig, config))
    }
}

/// The Codex file that does not take our hooks, when it holds ours anyway (copied there by hand, left by
/// an older install): Codex loads both files of a layer and runs the hooks of both, so `apply` and
/// `remove` take ours out of it and `status` calls it a duplicate.
pub fn stray_codex_target(lookup: &dyn Lookup, binary: &Path) -> Result<Option<Target>, String> {
    let home = codex_home(lookup)?;
    let (kind, path) = match codex_target(lookup)?.0 {
        TargetKind::CodexConfig => (TargetKind::CodexHooksJson, home.join("hooks.json")),
        _ => (TargetKind::CodexConfig, home.join("config.toml")),
    };
    let stray = Target {
        kind,
        path,
        command: hook_command(binary, "codex"),
    };
    Ok(lookup
        .read(&stray.path)
        .is_some_and(|t| stray.has_ours(&t))
        .then_some(stray))
}

/// A terminal's config `file` here: `Ok(None)` when the terminal is not set up here (its row's rule).
pub fn config_file_path(
    lookup: &dyn Lookup,
    file: &TerminalConfigFile,
) -> Result<Option<PathBuf>, String> {
    (file.path)(&|k| lookup.env(k), &|p| lookup.read(p), &|p| {
        lookup.exists(p)
    })
}

/// The target of a terminal's config `file` at `path`, for `binary`.
pub fn config_file_target(
    file: &'static TerminalConfigFile,
    path: PathBuf,
    binary: &Path,
) -> Target {
    Target {
        kind: TargetKind::ConfigFile(file),
        path,
        command: match file.names_binary {
            true => binary.display().to_string(),
            false => String::new(),
        },
    }
}

/// The targets for `agents` (`claude`, `codex`), plus each terminal's config file that is set up here
/// and `with_file` keeps. Unknown agents are an error naming the agent.
pub fn targets(
    lookup: &dyn Lookup,
    binary: &Path,
    agents: &[String],
    with_file: &dyn Fn(&TerminalConfigFile) -> bool,
) -> Result<Vec<Target>, String> {
    let mut out = Vec::new();
    for agent in agents {
        match agent.trim() {
            "claude" => out.push(Target {
                kind: TargetKind::ClaudeSettings,
                path: claude_settings(lookup)?,
                command: hook_command(binary, "claude"),
            }),
            "codex" => {
                let (kind, path) = codex_target(lookup)?;
                out.push(Target {
                    kind,
                    path,
                    command: hook_command(binary, "codex"),
                });
            }
            "opencode" => {
                let home = home(lookup)?;
                let dir = opencode_plugin::config_dir(|k| lookup.env(k), &home);
                if lookup.exists(&dir) || on_path(lookup, "opencode") {
                    out.push(Target {
                        kind: TargetKind::OpencodePlugin,
                        path: opencode_plugin::path(|k| lookup.env(k), &home),
                        command: hook_command(binary, "opencode"),
                    });
                }
            }
            "kimi" => {
                let dir = kimi_home(lookup)?;
                if lookup.exists(&dir) || on_path(lookup, "kimi") {
                    out.push(Target {
                        kind: TargetKind::KimiConfig,
                        path: dir.join("config.toml"),
                        command: hook_command(binary, "kimi"),
                    });
                }
            }
            other => match hook_file(other) {
                Some(row) if absence(lookup, row)?.is_none() => out.push(Target {
                    kind: TargetKind::AgentHooks(row),
                    path: row.path(|k| lookup.env(k), &home(lookup)?),
                    command: hook_command(binary, row.agent),
                }),
                Some(_) => {}
                None => {
                    return Err(format!(
                        "unknown agent `{other}` in --agents; the installer knows {}",
                        crate::ALL_AGENTS.join(", ")
                    ))
                }
            },
        }
    }
    out.dedup();
    for file in config_file::shown().filter(|f| with_file(f)) {
        if let Some(path) = config_file_path(lookup, file)? {
            out.push(config_file_target(file, path, binary));
        }
    }
    Ok(out)
}

/// Why `row`'s agent is left out (`None` when it is installed or set up here): neither its command on
/// `PATH` nor its config folder exists.
pub fn absence(lookup: &dyn Lookup, row: &HookFile) -> Result<Option<String>, String> {
    let home = home(lookup)?;
    let folder = row.folder(|k| lookup.env(k), &home);
    let config_dirs = [folder, home.join(row.config_dir)];
    if config_dirs.iter().any(|d| lookup.exists(d)) {
        return Ok(None);
    }
    if on_path(lookup, row.agent) {
        return Ok(None);
    }
    Ok(Some(format!(
        "not installed here (no `{}` on PATH, no {})",
        row.agent,
        home.join(row.config_dir).display()
    )))
}

/// Whether `command` is in an absolute `$PATH` folder.
fn on_path(lookup: &dyn Lookup, command: &str) -> bool {
    let path = lookup.env("PATH").unwrap_or_default();
    std::env::split_paths(&path).any(|d| d.is_absolute() && lookup.exists(&d.join(command)))
}

/// The agents of `agents` left out because they are not installed, with why.
pub fn absent_agents(lookup: &dyn Lookup, agents: &[String]) -> Vec<(&'static str, String)> {
    let mut out: Vec<(&'static str, String)> = agents
        .iter()
        .filter_map(|a| hook_file(a.trim()))
        .filter_map(|row| Some((row.agent, absence(lookup, row).ok()??)))
        .collect();
    if agents.iter().any(|a| a.trim() == "kimi") {
        if let Ok(dir) = kimi_home(lookup) {
            if !lookup.exists(&dir) && !on_path(lookup, "kimi") {
                let why = format!(
                    "not installed here (no `kimi` on PATH, no {})",
                    dir.display()
                );
                out.push(("kimi", why));
            }
        }
    }
    if agents.iter().any(|a| a.trim() == "opencode") {
        if let Ok(home) = home(lookup) {
            let dir = opencode_plugin::config_dir(|k| lookup.env(k), &home);
            if !lookup.exists(&dir) && !on_path(lookup, "opencode") {
                let why = format!(
                    "not installed here (no `opencode` on PATH, no {})",
                    dir.display()
                );
                out.push(("opencode", why));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fake_lookup::fake;

    #[test]
    fn kimi_is_wired_only_where_installed_or_set_up() {
        let bin = Path::new("/b/agterm-backup");
        let agents = vec!["kimi".to_string()];
        let kinds = |f: &dyn Lookup| -> Vec<PathBuf> {
            targets(f, bin, &agents, &|_| false)
                .unwrap()
                .into_iter()
                .filter(|t| t.kind == TargetKind::KimiConfig)
                .map(|t| t.path)
                .collect()
        };
        let bare = fake(&[("HOME", "/h"), ("PATH", "/usr/bin")], &[]);
        assert!(kinds(&bare).is_empty());
        assert_eq!(absent_agents(&bare, &agents).len(), 1);
        let set_up = fake(&[("HOME", "/h")], &[("/h/.kimi-code", "")]);
        assert_eq!(kinds(&set_up), [PathBuf::from("/h/.kimi-code/config.toml")]);
        let moved = fake(
            &[("HOME", "/h"), ("KIMI_CODE_HOME", "/k"), ("PATH", "/n/bin")],
            &[("/n/bin/kimi", "")],
        );
        assert_eq!(kinds(&moved), [PathBuf::from("/k/config.toml")]);
        assert!(absent_agents(&moved, &agents).is_empty());
    }

    #[test]
    fn each_terminals_config_file_is_a_target_where_its_row_finds_it_unless_left_alone() {
        let bin = Path::new("/b/agterm-backup");
        let names = |f: &dyn Lookup, with: &dyn Fn(&TerminalConfigFile) -> bool| -> Vec<String> {
            targets(f, bin, &[], with)
                .unwrap()
                .iter()
                .map(|t| {
                    format!(
                        "{} {} {}",
                        t.kind.target_name(),
                        t.path.display(),
                        t.command
                    )
                })
                .collect()
        };
        let installed = fake(&[("HOME", "/h"), ("PATH", "/bin")], &[("/bin/tmux", "")]);
        // The order `installer status` has always listed them in; the block names the binary where
        // the file's entries do.
        assert_eq!(
            names(&installed, &|_| true),
            [
                "tmux /h/.tmux.conf /b/agterm-backup",
                "denylist /h/.config/agterm/restore-denylist.conf "
            ]
        );
        for file in config_file::all() {
            let kept = names(&installed, &|f| f != file);
            assert_eq!(kept.len(), 1, "{kept:?}");
            assert!(!kept[0].starts_with(file.target), "{kept:?}");
        }
        // A terminal not set up here (no tmux, no block of ours) has no target; the denylist always.
        let bare = fake(&[("HOME", "/h"), ("PATH", "/bin")], &[]);
        assert_eq!(
            names(&bare, &|_| true),
            ["denylist /h/.config/agterm/restore-denylist.conf "]
        );
    }

    #[test]
    fn env_overrides_home() {
        let f = fake(
            &[
                ("HOME", "/h"),
                ("CLAUDE_CONFIG_DIR", "/c"),
                ("CODEX_HOME", "/x"),
            ],
            &[],
        );
        assert_eq!(
            claude_settings(&f).unwrap(),
            PathBuf::from("/c/settings.json")
        );
        assert_eq!(codex_target(&f).unwrap().1, PathBuf::from("/x/config.toml"));
        let f = fake(&[("HOME", "/h"), ("CLAUDE_CONFIG_DIR", "")], &[]);
        assert_eq!(
            claude_settings(&f).unwrap(),
            PathBuf::from("/h/.claude/settings.json")
        );
        assert_eq!(
            config_file_path(&f, config_file::named("denylist").unwrap()).unwrap(),
            Some(PathBuf::from("/h/.config/agterm/restore-denylist.conf"))
        );
    }

    #[test]
    fn hooks_json_users_keep_hooks_json_unless_our_block_is_in_config() {
        let f = fake(&[("HOME", "/h")], &[("/h/.codex/hooks.json", "{}")]);
        assert_eq!(
            codex_target(&f).unwrap(),
            (
                TargetKind::CodexHooksJson,
                PathBuf::from("/h/.codex/hooks.json")
            )
        );
        let f = fake(
            &[("HOME", "/h")],
            &[
                ("/h/.codex/hooks.json", "{}"),
                (
                    "/h/.codex/config.toml",
                    "# >>> agterm-backup hooks >>>\n# <<< agterm-backup hooks <<<\n",
                ),
            ],
        );
        assert_eq!(codex_target(&f).unwrap().0, TargetKind::CodexConfig);
    }

    #[test]
    fn unknown_agent_is_named() {
        let f = fake(&[("HOME", "/h")], &[]);
        let err = targets(&f, Path::new("/b/agterm-backup"), &["vim".into()], &|_| {
            true
        })
        .unwrap_err();
        assert!(err.contains("vim") && err.contains("gemini"), "{err}");
        let t = targets(
            &f,
            Path::new("/b/agterm-backup"),
            &["claude".into(), "codex".into()],
            &|_| false,
        )
        .unwrap();
        assert_eq!(t.len(), 2);
        assert_eq!(t[1].command, "'/b/agterm-backup' hook codex");
    }

    #[test]
    fn other_agents_only_where_installed_or_set_up() {
        let all: Vec<String> = ["claude", "gemini", "copilot", "qwen"]
            .map(String::from)
            .to_vec();
        let bin = Path::new("/b/agterm-backup");
        // Nothing of theirs here: only Claude, and each of the others named with why.
        let f = fake(&[("HOME", "/h"), ("PATH", "/usr/bin")], &[]);
        let t = targets(&f, bin, &all, &|_| false).unwrap();
        assert_eq!(t.len(), 1);
        let skipped = absent_agents(&f, &all);
        assert_eq!(
            skipped.iter().map(|s| s.0).collect::<Vec<_>>(),
            ["gemini", "copilot", "qwen"]
        );
        assert!(
            skipped[0].1.contains("no `gemini` on PATH") && skipped[0].1.contains("/h/.gemini")
        );
        // Gemini on PATH, Qwen's folder present, Copilot moved by COPILOT_HOME.
        let f = fake(
            &[
                ("HOME", "/h"),
                ("PATH", "/usr/bin:relative:/opt/g/bin"),
                ("COPILOT_HOME", "/c"),
            ],
            &[("/opt/g/bin/gemini", ""), ("/h/.qwen", ""), ("/c", "")],
        );
        let t = targets(&f, bin, &all, &|_| false).unwrap();
        let paths: Vec<String> = t.iter().map(|t| t.path.display().to_string()).collect();
        assert_eq!(
            paths,
            [
                "/h/.claude/settings.json",
                "/h/.gemini/settings.json",
                "/c/hooks/agterm-backup.json",
                "/h/.qwen/settings.json"
            ]
        );
        assert_eq!(t[2].command, "'/b/agterm-backup' hook copilot");
        assert!(absent_agents(&f, &all).is_empty());
        // agy: a Gemini CLI user's ~/.gemini is not agy set up; its ~/.gemini/config or `agy` on PATH is.
        let agy = ["agy".to_string()];
        let f = fake(
            &[("HOME", "/h"), ("PATH", "/usr/bin")],
            &[("/h/.gemini", "")],
        );
        assert_eq!(absent_agents(&f, &agy).len(), 1);
        for present in ["/h/.gemini/config", "/usr/bin/agy"] {
            let f = fake(&[("HOME", "/h"), ("PATH", "/usr/bin")], &[(present, "")]);
            let t = targets(&f, bin, &agy, &|_| false).unwrap();
            assert_eq!(
                t[0].path,
                Path::new("/h/.gemini/config/hooks.json"),
                "{present}"
            );
            assert_eq!(t[0].command, "'/b/agterm-backup' hook agy");
        }
        // A command found only through a relative PATH entry does not count.
        let f = fake(&[("HOME", "/h"), ("PATH", "bin")], &[("bin/qwen", "")]);
        assert_eq!(absent_agents(&f, &["qwen".into()]).len(), 1);
    }
}
