//! opencode has no command hooks, only JS plugins loaded from `~/.config/opencode/plugins/`: our target is
//! a whole file of our own there, `agterm-backup.js` (`plugins/opencode/agterm-backup.js` with this
//! binary's path written in), which runs `agterm-backup hook opencode`. A file of that name that is not
//! ours is refused, untouched.

use crate::refusal::Refusal;
use agterm_backup_terminals::shell_pane_test;
use std::path::{Path, PathBuf};

/// The plugin, with `__AGTERM_BACKUP_BINARY__` where the binary's path goes and `__IN_A_PANE__` where
/// the terminals' pane test goes (the registry's `shell_pane_test`, as the shell snippets have it).
const TEMPLATE: &str = include_str!("../../plugins/opencode/agterm-backup.js");
/// The first line of every plugin we write (how we know the file is ours).
pub const MARKER: &str = "// agterm-backup: records this pane's opencode session";

/// The plugin's path: `$XDG_CONFIG_HOME/opencode/plugins/agterm-backup.js`, else below `~/.config`.
pub fn path(env: impl Fn(&str) -> Option<String>, home: &Path) -> PathBuf {
    config_dir(env, home).join("plugins/agterm-backup.js")
}

/// opencode's config folder (its existence means opencode is set up here).
pub fn config_dir(env: impl Fn(&str) -> Option<String>, home: &Path) -> PathBuf {
    env("XDG_CONFIG_HOME")
        .filter(|v| v.starts_with('/'))
        .map(PathBuf::from)
        .unwrap_or_else(|| home.join(".config"))
        .join("opencode")
}

/// The binary path in a hook command we write (`'<path>' hook opencode`).
fn binary_of(command: &str) -> String {
    let quoted = command.strip_suffix(" hook opencode").unwrap_or(command);
    quoted
        .strip_prefix('\'')
        .and_then(|q| q.strip_suffix('\''))
        .map(|q| q.replace("'\\''", "'"))
        .unwrap_or_else(|| quoted.to_string())
}

/// The plugin for `command` (the hook command [`crate::command::hook_command`] makes), refusing a file that is not ours.
pub fn apply(original: Option<&str>, command: &str) -> Result<String, Refusal> {
    if original.is_some_and(|t| !t.trim().is_empty() && !is_ours(t)) {
        return Err(Refusal::at(
            1,
            1,
            "this file is not agterm-backup's opencode plugin; move it away to let the installer write it",
        ));
    }
    let binary = serde_json::to_string(&binary_of(command)).expect("a string encodes");
    let in_a_pane = shell_pane_test::javascript(&shell_pane_test::of_rows());
    Ok(TEMPLATE
        .replace("\"__AGTERM_BACKUP_BINARY__\"", &binary)
        .replace("__IN_A_PANE__", &in_a_pane))
}

/// Nothing of ours left: the whole file is ours, so it goes (an empty text means "delete").
pub fn remove(current: &str) -> Result<String, Refusal> {
    if is_ours(current) {
        Ok(String::new())
    } else {
        Ok(current.to_string())
    }
}

/// Whether `text` is a plugin we wrote (whatever binary it names).
pub fn is_ours(text: &str) -> bool {
    text.starts_with(MARKER)
}

/// The binary our plugin in `text` runs, and whether it is `command`'s.
pub fn inspect(text: Option<&str>, command: &str) -> Option<(String, bool)> {
    let text = text.filter(|t| is_ours(t))?;
    let line = text.lines().find(|l| l.starts_with("const BINARY = "))?;
    let literal = line.strip_prefix("const BINARY = ")?.strip_suffix(';')?;
    let binary: String = serde_json::from_str(literal).ok()?;
    let current = apply(None, command).ok().as_deref() == Some(text);
    Some((binary, current))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::command::hook_command;

    #[test]
    fn writes_the_binary_path_as_a_js_string_and_knows_its_own() {
        let bin = Path::new("/opt/it's here/agterm-backup");
        let command = hook_command(bin, "opencode");
        let text = apply(None, &command).unwrap();
        assert!(text.starts_with(MARKER));
        assert!(
            text.contains(r#"const BINARY = "/opt/it's here/agterm-backup";"#),
            "{text}"
        );
        assert!(!text.contains("__AGTERM_BACKUP_BINARY__"));
        assert_eq!(apply(Some(&text), &command).unwrap(), text);
        assert_eq!(
            inspect(Some(&text), &command),
            Some((bin.display().to_string(), true))
        );
        let moved = hook_command(Path::new("/new/agterm-backup"), "opencode");
        assert_eq!(inspect(Some(&text), &moved).map(|i| i.1), Some(false));
        assert_eq!(remove(&text).unwrap(), "");
    }

    #[test]
    fn the_pane_test_is_the_terminals_rows_and_an_old_plugin_is_refreshed() {
        let command = hook_command(Path::new("/b/agterm-backup"), "opencode");
        let text = apply(None, &command).unwrap();
        let test = shell_pane_test::javascript(&shell_pane_test::of_rows());
        assert!(
            text.contains(&format!("if (!({test})) return {{}};")),
            "{text}"
        );
        assert!(!text.contains("__IN_A_PANE__"));
        for row in &agterm_backup_terminals::ROWS {
            for var in row.shell_pane_vars {
                assert!(text.contains(&format!("process.env.{var}")), "{var}");
            }
        }
        // The previous release's plugin started only in the first terminal's panes: ours, not current,
        // so `installer apply` writes it anew.
        let old = text.replace(
            &format!("if (!({test})) return {{}};"),
            "if (!process.env.AGTERM_SESSION_ID) return {};",
        );
        assert_ne!(old, text);
        assert_eq!(inspect(Some(&old), &command).map(|i| i.1), Some(false));
        assert_eq!(apply(Some(&old), &command).unwrap(), text);
    }

    #[test]
    fn a_plugin_that_is_not_ours_is_left_alone() {
        let theirs = "export const Mine = async () => ({});\n";
        assert!(apply(Some(theirs), "'/b/agterm-backup' hook opencode").is_err());
        assert_eq!(remove(theirs).unwrap(), theirs);
        assert_eq!(inspect(Some(theirs), ""), None);
    }

    #[test]
    fn the_config_folder_follows_xdg() {
        let home = Path::new("/h");
        assert_eq!(
            path(|_| None, home),
            PathBuf::from("/h/.config/opencode/plugins/agterm-backup.js")
        );
        let xdg = |k: &str| (k == "XDG_CONFIG_HOME").then(|| "/x".to_string());
        assert_eq!(
            path(xdg, home),
            PathBuf::from("/x/opencode/plugins/agterm-backup.js")
        );
        let relative = |k: &str| (k == "XDG_CONFIG_HOME").then(|| "x".to_string());
        assert_eq!(
            config_dir(relative, home),
            PathBuf::from("/h/.config/opencode")
        );
    }
}
