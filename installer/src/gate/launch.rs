//! The launch flags that run an agent without our hook, whatever its settings say: a pane's reason, read
//! from the agent's argv. Rows of data: Claude Code's `--bare` and `--safe-mode` (user hooks are skipped,
//! managed ones survive), Qwen Code's `--bare` and `--safe-mode` (they set `disableAllHooks`), opencode's
//! `--pure` ("run without external plugins", ours included).

/// One flag that switches our hook off for the agent it is given to.
pub struct LaunchSwitch {
    pub agent: &'static str,
    pub flag: &'static str,
}

pub const LAUNCH: &[LaunchSwitch] = &[
    LaunchSwitch {
        agent: "claude",
        flag: "--bare",
    },
    LaunchSwitch {
        agent: "claude",
        flag: "--safe-mode",
    },
    LaunchSwitch {
        agent: "qwen",
        flag: "--bare",
    },
    LaunchSwitch {
        agent: "qwen",
        flag: "--safe-mode",
    },
    LaunchSwitch {
        agent: "opencode",
        flag: "--pure",
    },
];

/// Why `agent`, launched with `args`, runs without our hook, when one of its flags says so.
pub fn launched_without_hooks(agent: &str, args: &[String]) -> Option<String> {
    let options = args.iter().take_while(|a| *a != "--");
    let found = options
        .filter_map(|a| {
            LAUNCH.iter().find(|s| {
                s.agent == agent && (a == s.flag || a.starts_with(&format!("{}=", s.flag)))
            })
        })
        .next()?;
    Some(format!(
        "launched with `{}`, which runs no hook or plugin of the user's, ours included: start it without `{}`",
        found.flag, found.flag
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(line: &str) -> Vec<String> {
        line.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn each_row_is_found_for_its_agent_only() {
        for row in LAUNCH {
            let why =
                launched_without_hooks(row.agent, &args(&format!("{} -c {}", row.agent, row.flag)));
            assert!(why.is_some_and(|w| w.contains(row.flag)), "{}", row.flag);
        }
        assert_eq!(launched_without_hooks("codex", &args("codex --pure")), None);
        assert_eq!(
            launched_without_hooks("claude", &args("claude --resume x")),
            None
        );
        // After `--`, a word is the prompt's, not a flag.
        assert_eq!(
            launched_without_hooks("claude", &args("claude -- --bare")),
            None
        );
    }
}
