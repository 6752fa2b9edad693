//! agterm's restore decisions as pure functions: the denylist parser, `shouldRestore`, the idle-shell test
//! used by capture and `tree.foreground`, and what a launch does to each pane in each mode.

use agterm_backup_core::quote::quote_words;
use agterm_backup_core::terminal::RestoreMode;

/// The text agterm writes when `restore-denylist.conf` is absent at launch.
pub const STARTER_DENYLIST: &str =
    "# restore-denylist.conf — programs NOT to re-run when \"Restore running commands on restart\"
# is on. One command name per line, matched on the command's basename. Blank lines and lines
# starting with # are ignored. Read at launch; edits take effect on the next launch.
#
# Terminal multiplexers just start a fresh, empty session when re-run (your old session is gone),
# so they are listed by default — delete a line to let it restore:
tmux
screen
zellij
#
# Add anything else you would rather start fresh, e.g. an editor or pager:
# vim
# less

";

/// `parseDenylist`: split on `\n`, trim spaces and tabs (not `\r`), skip blanks and `#` lines, keep the
/// rest verbatim (no inline comments).
pub fn parse_denylist(text: &str) -> Vec<String> {
    text.split('\n')
        .map(|line| line.trim_matches(|c| c == ' ' || c == '\t'))
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .map(str::to_string)
        .collect()
}

fn has_control(text: &str) -> bool {
    text.chars()
        .any(|c| (c as u32) < 0x20 || c == '\u{7f}' || c == '\u{fffd}')
}

fn basename(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

/// `CommandRestore.shouldRestore(argv:denylist:)`.
pub fn should_restore(argv: &[String], denylist: &[String]) -> bool {
    let Some(first) = argv.first() else {
        return false;
    };
    if first.is_empty() || argv.iter().any(|a| has_control(a)) {
        return false;
    }
    !denylist.iter().any(|d| d == basename(first))
}

/// An idle shell (`zsh bash sh fish dash ksh tcsh csh`, or `$SHELL`'s basename) followed only by flags.
pub fn is_idle_shell(argv: &[String], login_shell: Option<&str>) -> bool {
    let Some(first) = argv.first() else {
        return true;
    };
    let name = basename(first.trim_start_matches('-'));
    let shells = ["zsh", "bash", "sh", "fish", "dash", "ksh", "tcsh", "csh"];
    let is_shell = shells.contains(&name) || login_shell.map(basename) == Some(name);
    is_shell && argv[1..].iter().all(|a| a.starts_with('-'))
}

/// A foreground argv as agterm reports it: login dash stripped; `None` for an idle shell.
pub fn foreground_argv(mut argv: Vec<String>, login_shell: Option<&str>) -> Option<Vec<String>> {
    if let Some(first) = argv.first_mut() {
        if let Some(stripped) = first.strip_prefix('-') {
            *first = stripped.to_string();
        }
    }
    (!argv.is_empty() && !is_idle_shell(&argv, login_shell)).then_some(argv)
}

/// What the launch does to one pane.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LaunchAction {
    /// Keep the running process (Live after a clean quit: the daemon survived).
    Reattach,
    /// A fresh login shell; type `line` + `\n` into it (a pin, or a replayed capture).
    Type { line: String, why: &'static str },
    /// A fresh, plain login shell. `why` = `shell` or `denied`.
    Shell { why: &'static str },
}

/// The inputs of one pane's launch decision.
#[derive(Debug, Clone)]
pub struct PaneLaunch<'a> {
    pub mode: RestoreMode,
    pub pin: Option<&'a str>,
    pub capture: Option<&'a [String]>,
    /// The pane's previous process is still running (its tmux pane survived).
    pub survived: bool,
    /// The pane was spawned under Live (a zmx daemon).
    pub was_live: bool,
}

/// agterm's launch decision for one pane (`restorePlan` for none/rerun, `surfaceSeed` for live).
/// A surviving non-Live process never survives in real agterm (quitting closes its pty), so the caller
/// kills it; under rerun/none the mode reaps surviving Live daemons too.
pub fn launch_action(p: &PaneLaunch<'_>, denylist: &[String]) -> LaunchAction {
    match p.mode {
        RestoreMode::None => LaunchAction::Shell { why: "shell" },
        RestoreMode::Live => {
            if p.survived && p.was_live {
                return LaunchAction::Reattach;
            }
            replay(p.capture, denylist)
        }
        RestoreMode::Rerun => match p.pin {
            Some("") => LaunchAction::Shell { why: "shell" },
            Some(pin) if !has_control(pin) => LaunchAction::Type {
                line: pin.to_string(),
                why: "pin",
            },
            Some(_) => LaunchAction::Shell { why: "shell" },
            None => replay(p.capture, denylist),
        },
    }
}

fn replay(capture: Option<&[String]>, denylist: &[String]) -> LaunchAction {
    match capture {
        None => LaunchAction::Shell { why: "shell" },
        Some(argv) if should_restore(argv, denylist) => LaunchAction::Type {
            line: quote_words(argv),
            why: "replay",
        },
        Some(_) => LaunchAction::Shell { why: "denied" },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Every entry is a trimmed, non-comment line, in file order; nothing else gets in.
        #[test]
        fn denylist_entries_are_exactly_the_kept_lines(lines in proptest::collection::vec("[ \t#a-z.\r-]{0,12}", 0..8)) {
            let text = lines.join("\n");
            let expected: Vec<String> = lines
                .iter()
                .map(|l| l.trim_matches([' ', '\t']).to_string())
                .filter(|l| !l.is_empty() && !l.starts_with('#'))
                .collect();
            prop_assert_eq!(parse_denylist(&text), expected);
        }

        /// The replayed line is the captured argv, POSIX-quoted: `sh` parses it back word for word.
        #[test]
        fn replayed_argv_parses_back(argv in proptest::collection::vec("[a-zA-Z0-9 '$`\\\"*é-]{1,12}", 1..5)) {
            let action = launch_action(
                &PaneLaunch { mode: RestoreMode::Rerun, pin: None, capture: Some(&argv), survived: false, was_live: false },
                &[],
            );
            let LaunchAction::Type { line, .. } = action else { panic!("expected a replay, got {action:?}") };
            let out = std::process::Command::new("sh")
                .arg("-c")
                .arg(format!("printf '%s\\0' {line}"))
                .output()
                .unwrap();
            // Every word ends in a NUL; the empty piece after the last one is not a word.
            let mut words: Vec<String> =
                out.stdout.split(|b| *b == 0).map(|w| String::from_utf8(w.to_vec()).unwrap()).collect();
            prop_assert_eq!(words.pop(), Some(String::new()));
            prop_assert_eq!(words, argv);
        }
    }

    fn v(words: &[&str]) -> Vec<String> {
        words.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn denylist_parses_like_agterm() {
        assert_eq!(
            parse_denylist(STARTER_DENYLIST),
            v(&["tmux", "screen", "zellij"])
        );
        assert_eq!(
            parse_denylist(" \tclaude \n\n# x\ntmux # y\r\n"),
            v(&["claude", "tmux # y\r"])
        );
    }

    #[test]
    fn should_restore_checks_basename_and_controls() {
        let deny = v(&["claude"]);
        assert!(!should_restore(&v(&["/usr/bin/claude", "-c"]), &deny));
        assert!(should_restore(&v(&["sleep", "100"]), &deny));
        assert!(!should_restore(&v(&["sleep", "a\tb"]), &deny));
        assert!(!should_restore(&v(&[""]), &deny));
        assert!(!should_restore(&[], &deny));
    }

    #[test]
    fn idle_shells_are_not_foreground() {
        assert_eq!(foreground_argv(v(&["-bash"]), None), None);
        assert_eq!(foreground_argv(v(&["bash", "-l"]), None), None);
        assert_eq!(
            foreground_argv(v(&["bash", "x.sh"]), None),
            Some(v(&["bash", "x.sh"]))
        );
        assert_eq!(
            foreground_argv(v(&["-myshell"]), Some("/opt/myshell")),
            None
        );
        assert_eq!(
            foreground_argv(v(&["sleep", "100"]), None),
            Some(v(&["sleep", "100"]))
        );
    }

    #[test]
    fn launch_decisions_per_mode() {
        let argv = v(&["sleep", "100"]);
        let deny = v(&["tmux"]);
        let base = PaneLaunch {
            mode: RestoreMode::Rerun,
            pin: Some("echo pinned"),
            capture: Some(&argv),
            survived: false,
            was_live: false,
        };
        assert_eq!(
            launch_action(&base, &deny),
            LaunchAction::Type {
                line: "echo pinned".into(),
                why: "pin"
            }
        );
        let none_pin = PaneLaunch {
            pin: Some(""),
            ..base.clone()
        };
        assert_eq!(
            launch_action(&none_pin, &deny),
            LaunchAction::Shell { why: "shell" }
        );
        let unpinned = PaneLaunch {
            pin: None,
            ..base.clone()
        };
        assert_eq!(
            launch_action(&unpinned, &deny),
            LaunchAction::Type {
                line: "'sleep' '100'".into(),
                why: "replay"
            }
        );
        let tmux = v(&["tmux", "a"]);
        let denied = PaneLaunch {
            pin: None,
            capture: Some(&tmux),
            ..base.clone()
        };
        assert_eq!(
            launch_action(&denied, &deny),
            LaunchAction::Shell { why: "denied" }
        );
        let live = PaneLaunch {
            mode: RestoreMode::Live,
            survived: true,
            was_live: true,
            ..base.clone()
        };
        assert_eq!(launch_action(&live, &deny), LaunchAction::Reattach);
        let rebooted = PaneLaunch {
            survived: false,
            ..live.clone()
        };
        assert_eq!(
            launch_action(&rebooted, &deny),
            LaunchAction::Type {
                line: "'sleep' '100'".into(),
                why: "replay"
            }
        );
        let fresh = PaneLaunch {
            mode: RestoreMode::None,
            ..base
        };
        assert_eq!(
            launch_action(&fresh, &deny),
            LaunchAction::Shell { why: "shell" }
        );
    }
}
