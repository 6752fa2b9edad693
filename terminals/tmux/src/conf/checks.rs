//! Whether tmux-resurrect's post-restore hook can fire, read from the config and the disk: our block
//! below the line that loads the plugins, tmux-resurrect missing, tmux-continuum's auto-restore off, or
//! its halt file present. Each is a warning of `installer status` (and `status`), through [`super::warnings`].
//!
//! From the plugins' sources (tmux-continuum 0698e8f `scripts/continuum_restore.sh` and `variables.sh`,
//! tmux-resurrect cff343c): continuum restores at tmux start only when `@continuum-restore` is `on` and
//! `~/tmux_no_auto_restore` does not exist, by running the script resurrect published in
//! `@resurrect-restore-script-path`, one second after its own plugin line ran.

use super::lines::{option_value, plugin_line};
use agterm_backup_core::marked_block::find_block;
use std::path::{Path, PathBuf};

/// What the warnings need from outside the config.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PluginFacts {
    /// A `resurrect.tmux` that the config loads exists (TPM's plugin folder or a `run-shell` path).
    pub resurrect_installed: bool,
    /// `~/tmux_no_auto_restore` exists.
    pub halt_file: bool,
}

/// The facts for the config `text` in the home `home`; `exists` asks the disk.
pub fn facts(
    text: &str,
    home: &Path,
    env: impl Fn(&str) -> Option<String>,
    exists: impl Fn(&Path) -> bool,
) -> PluginFacts {
    let expand = |p: &str| match p.strip_prefix("~/") {
        Some(rest) => home.join(rest),
        None => PathBuf::from(p.replace("$HOME", &home.display().to_string())),
    };
    let mut candidates: Vec<PathBuf> = text
        .lines()
        .filter(|l| !l.trim_start().starts_with('#'))
        .flat_map(|l| l.split(['\'', '"', ' ']))
        .filter(|w| w.ends_with("resurrect.tmux"))
        .map(expand)
        .collect();
    if text.contains("tmux-plugins/tmux-resurrect") {
        // TPM's folder: `$TMUX_PLUGIN_MANAGER_PATH`, else next to the config tmux reads.
        if let Some(dir) = env("TMUX_PLUGIN_MANAGER_PATH").filter(|d| !d.is_empty()) {
            candidates.push(Path::new(&dir).join("tmux-resurrect/resurrect.tmux"));
        }
        let xdg = env("XDG_CONFIG_HOME")
            .filter(|d| !d.is_empty())
            .map(PathBuf::from)
            .unwrap_or_else(|| home.join(".config"));
        for dir in [home.join(".tmux/plugins"), xdg.join("tmux/plugins")] {
            candidates.push(dir.join("tmux-resurrect/resurrect.tmux"));
        }
    }
    PluginFacts {
        resurrect_installed: candidates.iter().any(|p| exists(p)),
        halt_file: exists(&home.join("tmux_no_auto_restore")),
    }
}

/// Why the hook in `text` (which holds our block) may not fire.
pub fn hook_warnings(text: &str, facts: &PluginFacts) -> Vec<String> {
    let mut out = Vec::new();
    if let (Some(block), Some((at, line))) = (find_block(text), plugin_line(text)) {
        if block.start > at {
            out.push(format!(
                "the agterm-backup block comes after `{line}`: tmux-continuum restores as that line \
                 loads the plugins, before the rest of the file sets the post-restore hook; run \
                 `agterm-backup installer apply` to move the block above it"
            ));
        }
    }
    if !facts.resurrect_installed {
        out.push(
            "tmux-resurrect is not installed (no resurrect.tmux that this config loads): nothing \
             restores the panes, so nothing runs the post-restore hook"
                .to_string(),
        );
    }
    if option_value(text, "@continuum-restore").as_deref() != Some("on") {
        out.push(
            "@continuum-restore is not 'on': tmux-continuum does not restore at tmux start, so the \
             conversations come back only after a manual restore (prefix + Ctrl-r)"
                .to_string(),
        );
    }
    if facts.halt_file {
        out.push(
            "~/tmux_no_auto_restore exists: tmux-continuum skips its restore at tmux start while it \
             does"
                .to_string(),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conf::apply;

    const BIN: &str = "/usr/local/bin/agterm-backup";
    const TPM: &str = "set -g @plugin 'tmux-plugins/tmux-resurrect'\n\
                       set -g @plugin 'tmux-plugins/tmux-continuum'\n\
                       set -g @continuum-restore 'on'\n\
                       run '~/.tmux/plugins/tpm/tpm'\n";

    #[test]
    fn a_block_above_the_plugins_with_everything_installed_warns_nothing() {
        let text = apply(Some(TPM), BIN).unwrap();
        let home = Path::new("/h");
        let f = facts(
            &text,
            home,
            |_| None,
            |p| p == Path::new("/h/.tmux/plugins/tmux-resurrect/resurrect.tmux"),
        );
        assert_eq!(
            f,
            PluginFacts {
                resurrect_installed: true,
                halt_file: false
            }
        );
        assert_eq!(hook_warnings(&text, &f), Vec::<String>::new());
    }

    #[test]
    fn each_reason_the_hook_cannot_fire_is_a_warning() {
        let below = format!("{TPM}\n{}", crate::conf::our_block(BIN));
        let none = PluginFacts::default();
        let w = hook_warnings(&below, &none).join("\n");
        assert!(
            w.contains("comes after `run '~/.tmux/plugins/tpm/tpm'`"),
            "{w}"
        );
        assert!(w.contains("tmux-resurrect is not installed"), "{w}");
        assert!(!w.contains("@continuum-restore"), "{w}");
        let off = below.replace("'on'", "'off'");
        let halted = PluginFacts {
            resurrect_installed: true,
            halt_file: true,
        };
        let w = hook_warnings(&off, &halted).join("\n");
        assert!(w.contains("@continuum-restore is not 'on'"), "{w}");
        assert!(w.contains("tmux_no_auto_restore"), "{w}");
        assert!(!w.contains("not installed"), "{w}");
    }

    #[test]
    fn a_manual_run_shell_path_counts_as_installed() {
        let text = "run-shell ~/src/tmux-resurrect/resurrect.tmux\n";
        let f = facts(
            text,
            Path::new("/h"),
            |_| None,
            |p| p == Path::new("/h/src/tmux-resurrect/resurrect.tmux"),
        );
        assert!(f.resurrect_installed);
    }
}
