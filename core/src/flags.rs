//! The launch-flag filter: from an agent's launch argv, the flags to re-apply on resume.
//!
//! Rules (`design.md`, "The resume line"): positional words are dropped (a prompt is never replayed),
//! session-entering flags and subcommands are dropped (the resume grammar supplies the session), flags
//! meaningful only at the first launch are dropped, and a flag's value stays attached to it
//! (`--model sonnet`, `--add-dir a b`, `--flag=value`, `-msonnet`). What each flag takes and what a resume
//! does with it is data in the agent table ([`AgentSpec::flags`]).
//!
//! A flag the table does not know is never kept: kept without its value it would swallow the next flag
//! (`--max-turns --model sonnet`), kept with a guessed value it might eat a flag of its own. So it is
//! dropped together with the word after it when that word is not a flag (its value, or a positional
//! word, which is dropped anyway), and named in [`LaunchArgs::dropped`] so `status` can say so.
//! The same pass tells whether the run is headless (`claude -p`, `codex exec`), which the hook never
//! records.

use crate::agent::{AgentSpec, FlagRole, Takes};

/// What an agent's launch arguments say.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct LaunchArgs {
    /// Flags to re-apply, values attached, in launch order.
    pub flags: Vec<String>,
    /// Flags the table does not know, by name (`--foo`, `-x`), in launch order: dropped with their
    /// values. Values are not listed (they may be secrets).
    pub dropped: Vec<String>,
    /// A headless flag or subcommand was given: the run is not a conversation in the pane.
    pub headless: bool,
    /// The subcommand (the first positional word) when it is one the table knows.
    pub subcommand: Option<String>,
}

/// A word that is a flag rather than a value (`-` alone is a value: stdin).
fn is_flag(word: &str) -> bool {
    word.starts_with('-') && word.len() > 1
}

/// What an option takes, for code that walks an agent's argv itself (the Codex daemon probe). `None`
/// for an option the table does not know.
pub fn takes(spec: &AgentSpec, flag: &str) -> Option<Takes> {
    spec.flag(flag).map(|f| f.takes)
}

/// Takes the values of a flag that `takes` from `args[*next..]`, advancing `next`.
fn take_values(takes: Takes, args: &[String], next: &mut usize, into: &mut Vec<String>) {
    let mut take = |into: &mut Vec<String>, ok: &dyn Fn(&str) -> bool| match args.get(*next) {
        Some(v) if ok(v) => {
            into.push(v.clone());
            *next += 1;
            true
        }
        _ => false,
    };
    match takes {
        Takes::Nothing => {}
        Takes::One => {
            take(into, &|_| true);
        }
        Takes::Optional => {
            take(into, &|w| !is_flag(w));
        }
        Takes::Many => {
            if take(into, &|_| true) {
                while take(into, &|w| !is_flag(w) && w != "--") {}
            }
        }
    }
}

impl LaunchArgs {
    fn apply(&mut self, role: FlagRole, words: Vec<String>) {
        match role {
            FlagRole::Keep => self.flags.extend(words),
            FlagRole::Session | FlagRole::Drop => {}
            FlagRole::Headless => self.headless = true,
        }
    }

    /// An unknown flag: dropped, with the next word when that is not a flag (it may be its value) — but
    /// not when it is a subcommand the table knows: `codex --new-flag exec …` must still read as headless.
    fn drop_unknown(
        &mut self,
        spec: &AgentSpec,
        name: String,
        args: &[String],
        next: &mut usize,
        glued: bool,
    ) {
        let subcommand = |w: &str| {
            spec.headless_subcommands.contains(&w) || spec.session_subcommands.contains(&w)
        };
        if !glued
            && args
                .get(*next)
                .is_some_and(|w| !is_flag(w) && w != "--" && !subcommand(w))
        {
            *next += 1;
        }
        self.dropped.push(name);
    }
}

/// Filters a short-flag word that is not itself a table entry: a cluster of switches (`-cv`) or a short
/// flag with its value glued on (`-msonnet`, `-m=sonnet`).
fn short_cluster(
    spec: &AgentSpec,
    word: &str,
    args: &[String],
    next: &mut usize,
    out: &mut LaunchArgs,
) {
    let chars: Vec<char> = word.chars().skip(1).collect();
    for (k, c) in chars.iter().enumerate() {
        let flag = format!("-{c}");
        let rest: String = chars[k + 1..].iter().collect();
        let Some(row) = spec.flag(&flag) else {
            // Whatever follows may be its glued value: the rest of the word goes with it.
            out.drop_unknown(spec, flag, args, next, !rest.is_empty());
            return;
        };
        if row.takes == Takes::Nothing {
            out.apply(row.role, vec![flag]);
            continue;
        }
        let mut words = vec![flag];
        if rest.is_empty() {
            take_values(row.takes, args, next, &mut words);
        } else {
            words[0].push_str(&rest);
        }
        out.apply(row.role, words);
        return;
    }
}

/// Filters `args` (the launch argv without argv\[0]) of the agent `spec`.
pub fn filter_launch_args(spec: &AgentSpec, args: &[String]) -> LaunchArgs {
    let mut out = LaunchArgs::default();
    let mut seen_positional = false;
    let mut next = 0;
    while next < args.len() {
        let word = &args[next];
        next += 1;
        if word == "--" {
            // Everything after `--` is positional: dropped (a one-shot prompt for some agents).
            out.headless |= spec.positional_prompt_headless && next < args.len();
            break;
        }
        if word.starts_with("--") {
            let (name, inline) = match word.split_once('=') {
                Some((name, _)) => (name, true),
                None => (word.as_str(), false),
            };
            let Some(row) = spec.flag(name) else {
                out.drop_unknown(spec, name.to_string(), args, &mut next, inline);
                continue;
            };
            let mut words = vec![word.clone()];
            if !inline {
                take_values(row.takes, args, &mut next, &mut words);
            }
            out.apply(row.role, words);
        } else if is_flag(word) {
            match spec.flag(word) {
                Some(row) => {
                    let mut words = vec![word.clone()];
                    take_values(row.takes, args, &mut next, &mut words);
                    out.apply(row.role, words);
                }
                None => short_cluster(spec, word, args, &mut next, &mut out),
            }
        } else if !seen_positional {
            // The first positional word is a subcommand when the table knows it, else a prompt.
            seen_positional = true;
            if spec.session_subcommands.contains(&word.as_str()) {
                out.subcommand = Some(word.clone());
            } else if spec.headless_subcommands.contains(&word.as_str()) {
                out.subcommand = Some(word.clone());
                out.headless = true;
            } else if spec.positional_prompt_headless {
                out.headless = true;
            }
        }
    }
    out
}

/// The flags of a record, as they may be replayed today. Records written by an older filter hold what it
/// kept: a first-launch-only flag (`-C sub`, `-i x.png`), an unknown flag, or a flag whose value that
/// filter dropped (`--max-turns --model sonnet`: the `5` is gone). So the recorded words go through
/// today's filter again (a no-op on what it wrote itself), after dropping any flag that takes a value
/// but is directly followed by another known flag: its value was lost, and replayed it would swallow
/// that flag.
pub fn replayable(spec: &AgentSpec, recorded: &[String]) -> Vec<String> {
    let known_flag = |w: &String| {
        let name = w.split_once('=').map_or(w.as_str(), |(n, _)| n);
        is_flag(w) && spec.flag(name).is_some()
    };
    let repaired: Vec<String> = recorded
        .iter()
        .enumerate()
        .filter(|(i, w)| {
            let takes_value = spec
                .flag(w)
                .is_some_and(|f| matches!(f.takes, Takes::One | Takes::Many));
            !(takes_value && recorded.get(i + 1).is_some_and(known_flag))
        })
        .map(|(_, w)| w.clone())
        .collect();
    filter_launch_args(spec, &repaired).flags
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod more_tests;
