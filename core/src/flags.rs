//! The launch-flag filter: from an agent's launch argv, the flags to re-apply on resume.
//!
//! Rules (`design.md`, "The resume line"): positional words are dropped (a prompt is never replayed),
//! session-entering flags and subcommands are dropped (the resume grammar supplies the session), and a
//! flag's value stays attached to it (`--model sonnet`, `--add-dir a b`, `--flag=value`). Which flags take
//! values is data in the agent table ([`AgentSpec`]); a flag the table does not know is kept as a switch.
//! The same pass tells whether the run is headless (`claude -p`, `codex exec`), which the hook never
//! records.

use crate::agent::AgentSpec;

/// What an agent's launch arguments say.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct LaunchArgs {
    /// Flags to re-apply, values attached, in launch order.
    pub flags: Vec<String>,
    /// A headless flag or subcommand was given: the run is not a conversation in the pane.
    pub headless: bool,
    /// The subcommand (the first positional word) when it is one the table knows.
    pub subcommand: Option<String>,
}

/// How many words a flag takes after it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Arity {
    /// A switch.
    None,
    /// Exactly one word, whatever it looks like.
    One,
    /// The next word when it does not start with `-`.
    Optional,
    /// One word, then every following word up to the next one starting with `-`.
    Variadic,
}

/// What the filter does with a flag.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    Keep,
    Session,
    Headless,
}

fn lookup(spec: &AgentSpec, flag: &str) -> Option<(Arity, Role)> {
    let tables: [(&[&str], Arity, Role); 7] = [
        (spec.value_flags, Arity::One, Role::Keep),
        (spec.variadic_flags, Arity::Variadic, Role::Keep),
        (spec.optional_value_flags, Arity::Optional, Role::Keep),
        (spec.session_flags, Arity::None, Role::Session),
        (spec.session_value_flags, Arity::One, Role::Session),
        (
            spec.session_optional_value_flags,
            Arity::Optional,
            Role::Session,
        ),
        (spec.headless_flags, Arity::None, Role::Headless),
    ];
    tables
        .iter()
        .find(|(list, _, _)| list.contains(&flag))
        .map(|&(_, arity, role)| (arity, role))
}

/// Takes the values of a flag of `arity` from `args[*next..]`, advancing `next`.
fn take_values(arity: Arity, args: &[String], next: &mut usize, into: &mut Vec<String>) {
    let is_flag = |w: &String| w.starts_with('-') && w.len() > 1;
    match arity {
        Arity::None => {}
        Arity::One => {
            if let Some(v) = args.get(*next) {
                into.push(v.clone());
                *next += 1;
            }
        }
        Arity::Optional => {
            if let Some(v) = args.get(*next).filter(|w| !is_flag(w)) {
                into.push(v.clone());
                *next += 1;
            }
        }
        Arity::Variadic => {
            if let Some(v) = args.get(*next) {
                into.push(v.clone());
                *next += 1;
            }
            while let Some(v) = args.get(*next).filter(|w| !is_flag(w) && *w != "--") {
                into.push(v.clone());
                *next += 1;
            }
        }
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
        let apply = |role: Role, words: Vec<String>, out: &mut LaunchArgs| match role {
            Role::Keep => out.flags.extend(words),
            Role::Session => {}
            Role::Headless => out.headless = true,
        };
        if word.starts_with("--") {
            let (name, inline_value) = match word.split_once('=') {
                Some((name, _)) => (name, true),
                None => (word.as_str(), false),
            };
            let (arity, role) = lookup(spec, name).unwrap_or((Arity::None, Role::Keep));
            let mut words = vec![word.clone()];
            if !inline_value {
                take_values(arity, args, &mut next, &mut words);
            }
            apply(role, words, &mut out);
        } else if word.starts_with('-') && word.len() > 1 {
            if let Some((arity, role)) = lookup(spec, word) {
                let mut words = vec![word.clone()];
                take_values(arity, args, &mut next, &mut words);
                apply(role, words, &mut out);
                continue;
            }
            // A cluster of short flags (`-cv`) or a short flag with its value glued on (`-msonnet`).
            let chars: Vec<char> = word.chars().skip(1).collect();
            for (k, c) in chars.iter().enumerate() {
                let flag = format!("-{c}");
                let (arity, role) = lookup(spec, &flag).unwrap_or((Arity::None, Role::Keep));
                if arity == Arity::None {
                    apply(role, vec![flag], &mut out);
                    continue;
                }
                let rest: String = chars[k + 1..].iter().collect();
                let mut words = vec![flag];
                if rest.is_empty() {
                    take_values(arity, args, &mut next, &mut words);
                } else {
                    words[0].push_str(&rest);
                }
                apply(role, words, &mut out);
                break;
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

#[cfg(test)]
mod tests;

#[cfg(test)]
mod more_tests;
