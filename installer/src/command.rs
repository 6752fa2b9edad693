//! The hook command we write, and how we recognise ours among everyone else's.
//!
//! We write `'<absolute path of agterm-backup>' hook <agent>`: the path POSIX single-quoted (it may hold
//! spaces), so the agent's shell runs exactly that file. Ours is any command of the form
//! `<program> hook <agent>` whose program (one shell word: single- or double-quoted, bare, a bare name found
//! on `PATH`, `~/…` or `$HOME/…`) has the basename `agterm-backup`: the binary may have moved between
//! installs, or the user wrote the hook by hand, and the agent runs each such entry, so every one of them
//! counts as ours (refreshed once, the rest removed).

use agterm_backup_core::quote::quote;
use std::path::Path;

/// The basename of our binary.
pub const BINARY_NAME: &str = "agterm-backup";

/// The command line an agent runs for our hook.
pub fn hook_command(binary: &Path, agent: &str) -> String {
    format!("{} hook {agent}", quote(&binary.to_string_lossy()))
}

/// The path the hooks should run: the first `$PATH` entry that resolves to this very binary, else the
/// binary's canonical path. Package managers install through a stable symlink (`/opt/homebrew/bin/…` →
/// `…/Cellar/agterm-backup/<version>/bin/…`); writing the versioned target would break every hook on the
/// next upgrade, while the symlink keeps pointing at the current version.
pub fn stable_binary_path(
    canonical_exe: &Path,
    path_var: Option<&std::ffi::OsStr>,
) -> std::path::PathBuf {
    let dirs = path_var
        .map(|p| std::env::split_paths(p).collect::<Vec<_>>())
        .unwrap_or_default();
    dirs.iter()
        .filter(|d| d.is_absolute())
        .map(|d| d.join(BINARY_NAME))
        .find(|candidate| {
            std::fs::canonicalize(candidate)
                .map(|c| c == canonical_exe)
                .unwrap_or(false)
        })
        .unwrap_or_else(|| canonical_exe.to_path_buf())
}

/// Whether some `$PATH` entry runs `binary` when `agterm-backup` is typed by name.
pub fn on_path(binary: &Path, path_var: Option<&std::ffi::OsStr>) -> bool {
    let wanted = std::fs::canonicalize(binary).unwrap_or_else(|_| binary.to_path_buf());
    path_var
        .map(|p| std::env::split_paths(p).collect::<Vec<_>>())
        .unwrap_or_default()
        .iter()
        .map(|d| d.join(BINARY_NAME))
        .find(|c| c.is_file())
        .and_then(|c| std::fs::canonicalize(c).ok())
        .is_some_and(|c| c == wanted)
}

/// The cargo build folder (`…/target`) that holds `binary`, when it is one of cargo's own outputs
/// (`target/debug/…`, `target/release/…`, `target/<triple>/<profile>/…`): `cargo clean` deletes it, and
/// every hook naming it would then fail.
pub fn build_folder_of(binary: &Path) -> Option<std::path::PathBuf> {
    let parts: Vec<&std::ffi::OsStr> = binary.iter().collect();
    let n = parts.len();
    let profile = |p: &std::ffi::OsStr| p == "debug" || p == "release";
    let at = if n >= 3 && parts[n - 3] == "target" && profile(parts[n - 2]) {
        n - 3
    } else if n >= 4 && parts[n - 4] == "target" && profile(parts[n - 2]) {
        n - 4
    } else {
        return None;
    };
    Some(parts[..=at].iter().collect())
}

/// The binary path of `command` when it is our hook for `agent`, else `None`.
pub fn our_binary_in(command: &str, agent: &str) -> Option<String> {
    our_binary_running(command, "hook", agent)
}

/// The binary path of `command` when it is exactly `<our binary> <verb> <word>` (`… hook claude`,
/// `… init zsh`), else `None`.
pub fn our_binary_running(command: &str, verb: &str, word: &str) -> Option<String> {
    let (rest, last) = command.trim().rsplit_once(char::is_whitespace)?;
    let (head, found_verb) = rest.trim_end().rsplit_once(char::is_whitespace)?;
    if last != word || found_verb != verb {
        return None;
    }
    let path = unquote_one_word(head.trim_end())?;
    let basename = path.rsplit('/').next().unwrap_or(&path);
    (basename == BINARY_NAME).then_some(path)
}

/// Whether `command` is our hook for `agent`, whatever binary path it names.
pub fn is_ours(command: &str, agent: &str) -> bool {
    our_binary_in(command, agent).is_some()
}

/// Undoes POSIX quoting of exactly one shell word made of single-quoted runs, double-quoted runs, `\\`
/// escapes and plain characters. Anything that makes it more than one simple word (unquoted whitespace or
/// operators, command substitution) is not ours.
fn unquote_one_word(word: &str) -> Option<String> {
    if word.contains('`') || word.contains("$(") {
        return None;
    }
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
            '"' => loop {
                match chars.next()? {
                    '"' => break,
                    '\\' => out.push(chars.next()?),
                    other => out.push(other),
                }
            },
            '\\' => out.push(chars.next()?),
            c if c.is_whitespace() || matches!(c, ';' | '&' | '|' | '<' | '>' | '(' | ')') => {
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
    fn prefers_a_stable_path_symlink_over_the_versioned_target() {
        let tmp = tempfile::tempdir().unwrap();
        let cellar = tmp.path().join("Cellar/agterm-backup/0.1.0/bin");
        let bin = tmp.path().join("bin");
        let other = tmp.path().join("other");
        for d in [&cellar, &bin, &other] {
            std::fs::create_dir_all(d).unwrap();
        }
        let real = cellar.join(BINARY_NAME);
        std::fs::write(&real, b"").unwrap();
        std::fs::write(other.join(BINARY_NAME), b"").unwrap();
        std::os::unix::fs::symlink(&real, bin.join(BINARY_NAME)).unwrap();
        let real = real.canonicalize().unwrap();
        let path = std::env::join_paths([&other, &bin]).unwrap();
        assert_eq!(
            stable_binary_path(&real, Some(&path)),
            bin.join(BINARY_NAME)
        );
        // Nothing on PATH is this binary: the canonical path it is.
        let path = std::env::join_paths([&other]).unwrap();
        assert_eq!(stable_binary_path(&real, Some(&path)), real);
        assert_eq!(stable_binary_path(&real, None), real);
    }

    #[test]
    fn cargo_build_folders_are_told_apart_from_installed_binaries() {
        assert_eq!(
            build_folder_of(Path::new("/src/agterm-backup/target/debug/agterm-backup")),
            Some("/src/agterm-backup/target".into())
        );
        assert_eq!(
            build_folder_of(Path::new(
                "/w/target/aarch64-apple-darwin/release/agterm-backup"
            )),
            Some("/w/target".into())
        );
        assert_eq!(
            build_folder_of(Path::new("/home/me/.cargo/bin/agterm-backup")),
            None
        );
        assert_eq!(
            build_folder_of(Path::new("/opt/target/bin/agterm-backup")),
            None
        );
    }

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
        // Written by hand: a bare name found on PATH, double quotes, the home folder spelled out.
        assert!(is_ours("agterm-backup hook claude", "claude"));
        assert!(is_ours(
            "\"$HOME/.cargo/bin/agterm-backup\" hook claude",
            "claude"
        ));
        assert!(is_ours("~/.cargo/bin/agterm-backup  hook codex", "codex"));
        assert_eq!(
            our_binary_in("\"/a b/agterm-backup\" hook codex", "codex").as_deref(),
            Some("/a b/agterm-backup")
        );
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
        assert!(!is_ours("echo; /x/agterm-backup hook claude", "claude"));
        assert!(!is_ours("'/x/agterm-backup' hook claude --extra", "claude"));
        assert!(!is_ours("$(which agterm-backup) hook claude", "claude"));
        assert!(!is_ours("a b/agterm-backup hook claude", "claude"));
        assert!(!is_ours("agterm-backup hook claude > /dev/null", "claude"));
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
