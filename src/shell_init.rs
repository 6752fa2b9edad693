//! The shell integration `agterm-backup init <shell>` prints: one template per shell (`shell_init/`), the
//! binary's own absolute path put in, quoted for the shell (one POSIX quoting serves zsh, bash and fish).
//!
//! What every template does, and why so: it decides from environment variables alone whether the shell
//! runs in a pane a terminal captures (the condition generated from the terminals' rows,
//! `agterm_backup_terminals::shell_pane_test`, put in for `@IN_A_PANE@`) and whether
//! `AGTERM_BACKUP_AUTO=0` turned it off — outside, it only defines nothing and spawns nothing (the
//! installer's rc line checks a quicker form of the same before it even reads the snippet). Inside, it asks
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
use agterm_backup_terminals::shell_pane_test::{self, PaneVars};
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
/// Where the "in a captured pane" condition goes in a template.
const IN_A_PANE: &str = "@IN_A_PANE@";

/// The snippet for `shell`, calling the binary at `bin`.
pub fn snippet(shell: Shell, bin: &str) -> String {
    snippet_for(shell, bin, &shell_pane_test::of_rows())
}

/// [`snippet`] for the terminals whose pane tests are `tests` (the registry's rows in [`snippet`]).
pub fn snippet_for(shell: Shell, bin: &str, tests: &[PaneVars]) -> String {
    let (template, in_a_pane) = match shell {
        Shell::Zsh => (ZSH, shell_pane_test::zsh_bash(tests)),
        Shell::Bash => (BASH, shell_pane_test::zsh_bash(tests)),
        Shell::Fish => (FISH, shell_pane_test::fish(tests)),
    };
    indented_in(template, IN_A_PANE, &in_a_pane).replace(BIN, &quote(bin))
}

/// `template` with `value` for `placeholder`, each line of `value` after the first indented as the
/// placeholder's line is.
fn indented_in(template: &str, placeholder: &str, value: &str) -> String {
    let Some(at) = template.find(placeholder) else {
        return template.to_string();
    };
    let line_start = template[..at].rfind('\n').map_or(0, |n| n + 1);
    let indent: String = template[line_start..at]
        .chars()
        .take_while(|c| c.is_whitespace())
        .collect();
    let value = value.replace('\n', &format!("\n{indent}"));
    template.replacen(placeholder, &value, 1)
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
            assert!(!s.contains(IN_A_PANE), "{shell:?}");
        }
    }

    /// A fourth terminal is a row: its pane test reaches the three snippets and the rc line of every
    /// rc file, with no shell text edited.
    #[test]
    fn a_made_up_rows_pane_test_reaches_every_snippet_and_rc_line() {
        use agterm_backup_installer::shell_rc::files::{BASHRC, BASH_LOGIN, FISH_CONFIG, ZSHRC};
        let mut tests = shell_pane_test::of_rows();
        tests.push(&["MADE_UP_PANE"]);
        tests.push(&["MADE_UP_SESSION", "MADE_UP_WINDOW"]);
        let bin = "/opt/agterm-backup";
        for shell in [Shell::Zsh, Shell::Bash] {
            let s = snippet_for(shell, bin, &tests);
            assert!(s.contains(&shell_pane_test::zsh_bash(&tests)), "{s}");
            assert!(s.contains("|| -n ${MADE_UP_PANE-} ||"), "{s}");
            assert!(
                s.contains("( -n ${MADE_UP_SESSION-} && -n ${MADE_UP_WINDOW-} )"),
                "{s}"
            );
            assert_ne!(s, snippet(shell, bin));
        }
        let fish = snippet_for(Shell::Fish, bin, &tests);
        assert!(fish.contains("; or test -n \"$MADE_UP_PANE\"\n"), "{fish}");
        assert!(
            fish.contains(
                "\n        or begin\n            test -n \"$MADE_UP_SESSION\"; and test -n \"$MADE_UP_WINDOW\"\n        end\n"
            ),
            "{fish}"
        );
        for rc in [ZSHRC, BASHRC, BASH_LOGIN[2]] {
            let line = rc.line_for(bin, &tests);
            assert!(line.contains("${MADE_UP_PANE-}${"), "{line}");
            assert!(line.contains("${MADE_UP_WINDOW-}\" ]"), "{line}");
            assert_eq!(rc.binary_in(&line).as_deref(), Some(bin), "{line}");
        }
        let line = FISH_CONFIG.line_for(bin, &tests);
        assert!(line.contains("$MADE_UP_PANE$"), "{line}");
        assert!(line.contains("$MADE_UP_WINDOW\" -a -x"), "{line}");
        assert_eq!(FISH_CONFIG.binary_in(&line).as_deref(), Some(bin), "{line}");
    }

    #[test]
    fn a_multi_line_value_keeps_its_placeholders_indentation() {
        let t = "if x\n    and begin\n        @IN_A_PANE@\n    end\n";
        assert_eq!(
            indented_in(t, IN_A_PANE, "a\nor begin\n    b\nend"),
            "if x\n    and begin\n        a\n        or begin\n            b\n        end\n    end\n"
        );
        assert_eq!(indented_in("x", IN_A_PANE, "y"), "x");
    }
}
