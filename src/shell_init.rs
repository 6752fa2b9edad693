//! The shell integration `agterm-backup init <shell>` prints: one template per shell (`shell_init/`), the
//! binary's own absolute path put in, quoted for the shell (one POSIX quoting serves zsh, bash and fish).
//!
//! What every template does, and why so: it decides from environment variables alone whether the shell
//! runs in a pane a terminal captures (`AGTERM_SESSION_ID` + `AGTERM_PANE`, `TMUX_PANE`, `ZMX_SESSION`)
//! and whether `AGTERM_BACKUP_AUTO=0` turned it off — outside, it only defines nothing and spawns
//! nothing (the installer's rc line checks the same before it even reads the snippet). Inside, it asks
//! `shell-start` once, prints its first line and runs its second in this shell, as a job that owns the
//! terminal's foreground: zsh and bash from a prompt (`precmd`, `PROMPT_COMMAND`), since a program they
//! start while the rc file is still being read gets no job control; fish from its first `fish_prompt`
//! event, after every config file (what the agent needs may be set after the line) and after fish 4 read
//! its terminal's answers to its start-up queries; fish gives the terminal to no job an event handler
//! starts, so a fish of its own in fish's process group (the foreground one) runs the line with full
//! job control, the terminal in the modes fish gives the commands it runs.
//!
//! It lives beside prompt frameworks: it runs at the first prompt only, with the terminal on stdin and
//! stdout (zsh tries again from a `sched +0` behind powerlevel10k's instant prompt, which parks them
//! until its own, then at `zle-line-init`, since p10k's theme gives them back only as it expands the
//! prompt; bash gives the line stdout's terminal as stderr and a command's tty modes, for ble.sh),
//! its hook is never taken back out of `precmd_functions` / `PROMPT_COMMAND` (others copy or append to
//! them) but turns into a no-op, the block read twice runs once, and `fish -c`/`-ic` commands run
//! without a resume. After the line ran, `shell-start --give-back` returns the claim of an agent that
//! did not stay up. A missing binary, an error, `set -u` or `set -e` in the user's shell: nothing
//! printed, the shell unharmed.

use agterm_backup_core::quote::quote;
use agterm_backup_core::state::{write_atomic, StateDir};
use std::path::PathBuf;

/// A shell with a template.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shell {
    Zsh,
    Bash,
    Fish,
}

const ZSH: &str = include_str!("shell_init/init.zsh");
const BASH: &str = include_str!("shell_init/init.bash");
const FISH: &str = include_str!("shell_init/init.fish");

/// Where the binary's path goes in a template.
const BIN: &str = "@BIN@";

/// The snippet for `shell`, calling the binary at `bin`.
pub fn snippet(shell: Shell, bin: &str) -> String {
    let template = match shell {
        Shell::Zsh => ZSH,
        Shell::Bash => BASH,
        Shell::Fish => FISH,
    };
    template.replace(BIN, &quote(bin))
}

/// The init file of `shell` in the state folder: `init`'s snippet, which the installer's rc line sources
/// instead of running `init` at every shell start — one process less in every pane. Kept in the state
/// folder, not a config folder, since the binary writes and rewrites it (nobody edits it), and the rc
/// line finds it as the binary does (`$AGTERM_BACKUP_HOME`, else `~/.agterm-backup`).
pub fn init_file(state: &StateDir, shell: Shell) -> PathBuf {
    let name = match shell {
        Shell::Zsh => "zsh",
        Shell::Bash => "bash",
        Shell::Fish => "fish",
    };
    state.root().join(format!("init.{name}"))
}

/// Writes `shell`'s init file for the binary at `bin` (mode 0644, atomically) unless it already holds
/// exactly that; whether it wrote.
pub fn write_init_file(state: &StateDir, shell: Shell, bin: &str) -> std::io::Result<bool> {
    let path = init_file(state, shell);
    let text = snippet(shell, bin);
    if std::fs::read(&path).is_ok_and(|old| old == text.as_bytes()) {
        return Ok(false);
    }
    state.ensure()?;
    write_atomic(&path, text.as_bytes(), 0o644)?;
    Ok(true)
}

/// After an upgrade (or a moved binary), `shell-start` brings an init file the installer wrote up to
/// this binary's snippet; one nobody wrote stays absent (a hand-written `eval "$(agterm-backup init
/// zsh)"` needs none).
pub fn refresh_init_file(state: &StateDir, shell: Shell, bin: &str) -> std::io::Result<bool> {
    if init_file(state, shell).exists() {
        write_init_file(state, shell, bin)
    } else {
        Ok(false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_template_calls_the_quoted_binary_and_nothing_is_left_to_fill() {
        for shell in [Shell::Zsh, Shell::Bash, Shell::Fish] {
            let s = snippet(shell, "/opt/it's here/agterm-backup");
            assert!(!s.contains(BIN), "{shell:?}");
            assert!(
                s.contains("'/opt/it'\\''s here/agterm-backup' shell-start"),
                "{s}"
            );
            assert!(s.contains("AGTERM_BACKUP_AUTO"), "{shell:?}");
        }
    }
}
