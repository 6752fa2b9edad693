//! The hook command we write, and how we recognise ours among everyone else's.
//!
//! We write `'<absolute path of agterm-backup>' hook <agent>`: the path POSIX single-quoted (it may hold
//! spaces), so the agent's shell runs exactly that file. Ours is any command of the form
//! `<path> hook <agent>` whose path (quoted or bare) has the basename `agterm-backup`: the binary may have
//! moved between installs, and then we refresh the path in place instead of adding a second entry.

use agterm_backup_core::quote::quote;
use std::path::Path;

/// The basename of our binary.
pub const BINARY_NAME: &str = "agterm-backup";

/// The command line an agent runs for our hook.
pub fn hook_command(binary: &Path, agent: &str) -> String {
    format!("{} hook {agent}", quote(&binary.to_string_lossy()))
}

/// The binary path of `command` when it is our hook for `agent`, else `None`.
pub fn our_binary_in(command: &str, agent: &str) -> Option<String> {
    let suffix = format!(" hook {agent}");
    let head = command.trim().strip_suffix(&suffix)?.trim_end();
    let path = unquote_one_word(head)?;
    let basename = path.rsplit('/').next().unwrap_or(&path);
    (basename == BINARY_NAME && path.starts_with('/')).then_some(path)
}

/// Whether `command` is our hook for `agent`, whatever binary path it names.
pub fn is_ours(command: &str, agent: &str) -> bool {
    our_binary_in(command, agent).is_some()
}

/// Undoes POSIX quoting of exactly one shell word made of single-quoted runs, `\'` escapes and plain
/// characters without whitespace. Anything fancier (double quotes, `$`, spaces) is not ours.
fn unquote_one_word(word: &str) -> Option<String> {
    let mut out = String::new();
    let mut chars = word.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' => loop {
                match chars.next()? {
                    '\'' => break,
                    other => out.push(other),
                }
            },
            '\\' => out.push(chars.next()?),
            c if c.is_whitespace() || matches!(c, '"' | '$' | '`' | ';' | '&' | '|') => {
                return None
            }
            c => out.push(c),
        }
    }
    (!out.is_empty()).then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn builds_a_quoted_command() {
        let cmd = hook_command(Path::new("/Users/me/My Tools/agterm-backup"), "claude");
        assert_eq!(cmd, "'/Users/me/My Tools/agterm-backup' hook claude");
    }

    #[test]
    fn recognises_ours_with_any_path() {
        assert!(is_ours("'/old/bin/agterm-backup' hook claude", "claude"));
        assert!(is_ours("/usr/local/bin/agterm-backup hook codex", "codex"));
        assert!(is_ours("'/it'\\''s/agterm-backup' hook codex", "codex"));
        assert_eq!(
            our_binary_in("'/it'\\''s/agterm-backup' hook codex", "codex").as_deref(),
            Some("/it's/agterm-backup")
        );
    }

    #[test]
    fn refuses_everyone_elses() {
        assert!(!is_ours("'/x/agterm-backup' hook codex", "claude"));
        assert!(!is_ours(
            "'/x/agterm-agent-status.sh' active --blink",
            "claude"
        ));
        assert!(!is_ours("'/x/not-agterm-backup' hook claude", "claude"));
        assert!(!is_ours("agterm-backup hook claude", "claude"));
        assert!(!is_ours("echo; /x/agterm-backup hook claude", "claude"));
        assert!(!is_ours("'/x/agterm-backup' hook claude --extra", "claude"));
        assert!(!is_ours("\"$HOME/agterm-backup\" hook claude", "claude"));
    }

    proptest! {
        #[test]
        fn every_built_command_is_recognised_with_its_path(
            dir in "/[a-zA-Z0-9 '._$\"-]{0,30}",
            agent in "claude|codex",
        ) {
            let binary = format!("{dir}/agterm-backup");
            let cmd = hook_command(Path::new(&binary), &agent);
            prop_assert_eq!(our_binary_in(&cmd, &agent), Some(binary));
        }
    }
}
