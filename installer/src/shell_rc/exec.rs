//! An rc file that `exec`s: the shell reading it stops at the `exec` (another shell, a multiplexer, `"$SHELL"`)
//! and never reaches what follows. Our block goes before the statement holding the first such `exec`
//! (a conditional one, `[ -x /bin/zsh ] && exec zsh`, too: where it is not run the shell goes on), and
//! the shell it starts gets its own block in the file that shell reads ([`super::files`]).

use super::scan::{scan, Assign};
use super::{RcFile, Shell};
use crate::refusal::Refusal;

/// The first `exec` in an rc file that replaces the shell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Exec {
    /// Where our block goes: the start of the line that begins the top-level statement holding it.
    pub before: usize,
    /// The byte where `exec` stands.
    pub at: usize,
    /// The command as the file has it, unquoted (`exec -l zsh`), for messages.
    pub command: String,
    /// The program it starts, unquoted (`zsh`, `/usr/bin/fish`, `$SHELL`), options and `env` skipped.
    pub program: String,
    /// Run only on a condition (`[ -x … ] && exec …`, in an `if`): where it is not run, the shell reads on.
    pub conditional: bool,
    /// The assignments before the `exec` in this file (`export ZDOTDIR=…`, `SHELL=/bin/zsh`).
    pub assigns: Vec<Assign>,
}

impl Exec {
    /// The shell it starts, when one we wire: by the program's name, `$SHELL` as the file set it before
    /// the `exec`, else as `login_shell` (the environment's) says.
    pub fn shell(&self, login_shell: Option<&str>) -> Option<(Shell, String)> {
        let program = self.program_path(login_shell)?;
        Shell::of_login(&program).ok().map(|s| (s, program))
    }

    /// The program as a path or name, `$SHELL` resolved.
    pub fn program_path(&self, login_shell: Option<&str>) -> Option<String> {
        let program = self.program.as_str();
        if matches!(program, "$SHELL" | "${SHELL}") {
            return self
                .assigns
                .iter()
                .rev()
                .find(|a| a.name == "SHELL")
                .map(|a| a.value.clone())
                .or_else(|| login_shell.map(String::from));
        }
        // `exec "$(command -v zsh)"`: the name inside.
        if let Some(inner) = program.strip_prefix("$(").and_then(|p| p.strip_suffix(')')) {
            return inner.split_whitespace().last().map(String::from);
        }
        Some(program.to_string())
    }

    /// The value the file gave `name` before the `exec`, if any.
    pub fn assigned(&self, name: &str) -> Option<&str> {
        self.assigns
            .iter()
            .rev()
            .find(|a| a.name == name)
            .map(|a| a.value.as_str())
    }
}

/// The first `exec` in `text` that starts a program; `None` when there is none. A file that holds the
/// word `exec` but cannot be read far enough to place our block before it is refused.
pub fn first(rc: RcFile, text: &str) -> Result<Option<Exec>, Refusal> {
    if !text.contains("exec") {
        return Ok(None);
    }
    let scanned = scan(text, rc.shell == Shell::Fish).map_err(|(at, why)| {
        Refusal::at_offset(
            text,
            at.min(text.len()),
            format!(
                "this file has an `exec`, and our block must go before it, but {why}; fix that line (or \
                 add our block by hand before the `exec`), then run again"
            ),
        )
    })?;
    let Some(found) = scanned
        .execs
        .into_iter()
        .find_map(|e| Some((program_of(&e.words)?, e)))
    else {
        return Ok(None);
    };
    let (program, exec) = found;
    let before = scanned
        .safe
        .iter()
        .copied()
        .filter(|&s| s <= exec.at)
        .max()
        .unwrap_or(0);
    Ok(Some(Exec {
        before,
        at: exec.at,
        command: format!("exec {}", exec.words.join(" ")),
        program,
        conditional: exec.conditional,
        assigns: scanned
            .assigns
            .into_iter()
            .filter(|a| a.at < exec.at)
            .collect(),
    }))
}

/// The program `exec`'s words start: options (`-l`, `-c`, `-a NAME`, `--`) and `env` with its options
/// and assignments skipped. `None` for an `exec` of redirections only (`exec 2>/dev/null`).
fn program_of(words: &[String]) -> Option<String> {
    let mut rest = words.iter();
    let mut in_env = false;
    while let Some(word) = rest.next() {
        match word.as_str() {
            "--" => {}
            "-a" if !in_env => {
                rest.next();
            }
            "env" | "/usr/bin/env" if !in_env => in_env = true,
            w if w.starts_with('-') => {}
            // A named descriptor, `exec {fd}<&-`: a redirection, no program.
            w if w.len() > 2
                && w.starts_with('{')
                && w.ends_with('}')
                && w[1..w.len() - 1]
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_') => {}
            w if in_env && w.contains('=') => {}
            w => return Some(w.to_string()),
        }
    }
    None
}
