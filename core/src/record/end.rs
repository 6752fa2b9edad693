//! How a conversation ended: the `SessionEnd` keys of a record, the agent's terminal at its end, and the
//! table of reasons per agent (issue 22, "ended stays ended").

/// Record key (optional, kept in [`extra`](super::LiveRecord::extra) so that every reader of older
/// records keeps working): the `reason` of the `SessionEnd` event that wrote the record; absent on every other event.
pub const END_REASON_KEY: &str = "end_reason";

/// Record key (optional, in [`extra`](super::LiveRecord::extra)): whether the agent's controlling
/// terminal was still there when its `SessionEnd` hook ran — `"present"` or `"gone"` ([`EndTerminal`]); absent on every
/// other event, and on records written before the check.
pub const END_TERMINAL_KEY: &str = "end_terminal";

/// The agent's terminal at its `SessionEnd`: the first signal of who ended the conversation. An agent
/// that exits because its pty hung up (the pane closed, the terminal quit, a reboot took the daemon) has
/// lost its controlling terminal by the time its hook runs; one the user quit still has the pane and its
/// shell around it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EndTerminal {
    Present,
    Gone,
}

impl EndTerminal {
    pub fn as_str(self) -> &'static str {
        match self {
            EndTerminal::Present => "present",
            EndTerminal::Gone => "gone",
        }
    }

    pub fn parse(s: &str) -> Option<EndTerminal> {
        match s {
            "present" => Some(EndTerminal::Present),
            "gone" => Some(EndTerminal::Gone),
            _ => None,
        }
    }
}

/// Who ended the conversation, from the terminal first and the reason second: a terminal gone means
/// the terminal died under the agent (never ended, whatever the reason says); with it present, the
/// agent's reason table decides where it can tell ([`reason_tells`]: Claude, Codex, Gemini's and Qwen's
/// `clear`), and elsewhere — Gemini, Qwen, Copilot and opencode send one reason for a quit and a dying
/// terminal — the present terminal says the user quit. With the terminal unknown (older records) only
/// the table counts.
pub fn ended_by_user_at(agent: &str, reason: &str, terminal: Option<EndTerminal>) -> bool {
    match (terminal, reason_tells(agent, reason)) {
        (Some(EndTerminal::Gone), _) => false,
        (_, Some(told)) => told,
        (Some(EndTerminal::Present), None) => true,
        (None, None) => false,
    }
}

/// `(agent, reason, user ended?)`: the reasons that tell on their own (the table of [`ended_by_user`]).
const REASONS: &[(&str, &str, bool)] = &[
    ("claude", "prompt_input_exit", true),
    ("claude", "logout", true),
    ("claude", "clear", false),
    ("claude", "resume", false),
    ("claude", "other", false),
    ("codex", "other", true),
    // `/clear` ends one conversation to start the next in the same TUI (a new id follows).
    ("gemini", "clear", false),
    ("qwen", "clear", false),
];

/// Agents whose every reason is a row of [`REASONS`]: a reason of theirs not listed is not ended.
const ALL_REASONS_LISTED: &[&str] = &["claude", "codex"];

/// What `reason` says about who ended `agent`'s conversation, where the reason tells a quit from a
/// dying terminal (the rows of [`REASONS`]); `None` where it does not.
pub fn reason_tells(agent: &str, reason: &str) -> Option<bool> {
    REASONS
        .iter()
        .find(|(a, r, _)| *a == agent && *r == reason)
        .map(|(_, _, ended)| *ended)
        .or_else(|| ALL_REASONS_LISTED.contains(&agent).then_some(false))
}

/// Whether a `SessionEnd` with `reason` from `agent` means the user ended the conversation (it must not
/// come back after a restart) rather than the terminal dying under it (it must). What the pinned CLIs
/// really send, observed with a capture hook (Claude Code 2.1.328, Codex 0.169.0) or a probe plugin
/// (opencode 1.18.33), or read in their bundles (Gemini CLI 0.61.0, Qwen Code 0.24.4):
///
/// | agent  | how it ended                                      | `reason`            | user ended? |
/// |--------|---------------------------------------------------|---------------------|-------------|
/// | claude | `/exit`, Ctrl-D twice, Ctrl-C twice               | `prompt_input_exit` | yes         |
/// | claude | `/logout`                                         | `logout`            | yes         |
/// | claude | `/clear` (a `SessionStart` `clear`, new id, follows) | `clear`          | no: replaced |
/// | claude | `/resume` another conversation (the binary's enum; a `SessionStart` follows) | `resume` | no: replaced |
/// | claude | pty closed (pane or terminal gone), SIGHUP, SIGTERM (reboot), SIGINT | `other` | no |
/// | codex  | `/quit`, Ctrl-C twice (`--no-daemon`, and the default daemon mode) | `other` (the only value its schema has) | yes |
/// | codex  | pty closed, SIGHUP, SIGTERM (either mode; none 50 s after the pane died under the daemon) | no `SessionEnd` at all | — |
/// | codex  | `/new` (a `SessionStart` with the new id follows at its first prompt) | none | —        |
/// | gemini | `/quit`, and SIGHUP, SIGTERM, SIGINT (its `gracefulShutdown`) alike | `exit` | the terminal says |
/// | gemini, qwen | `/clear` (a new id and its `SessionStart` follow) | `clear`     | no: replaced |
/// | opencode | `/exit`, and a hangup alike: opencode calls the plugin's `dispose`, ours sends this | `dispose` | the terminal says |
///
/// So Claude's reason decides, and Codex's only `SessionEnd` is a user's quit. A reason this table does
/// not know counts as not ended: a conversation brought back by mistake costs a `/exit`, one lost by
/// mistake costs the user finding its id.
pub fn ended_by_user(agent: &str, reason: &str) -> bool {
    reason_tells(agent, reason).unwrap_or(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reason_rows_tell_where_they_can_and_the_terminal_elsewhere() {
        use EndTerminal::Present;
        // Gemini's and Qwen's `/clear` starts the next conversation in the same TUI: never an end.
        for agent in ["gemini", "qwen"] {
            assert_eq!(reason_tells(agent, "clear"), Some(false), "{agent}");
            assert!(!ended_by_user_at(agent, "clear", Some(Present)), "{agent}");
        }
        // One reason for a quit and a hangup: the terminal decides.
        assert_eq!(reason_tells("gemini", "exit"), None);
        assert!(ended_by_user_at("gemini", "exit", Some(Present)));
        assert_eq!(reason_tells("opencode", "dispose"), None);
        assert!(ended_by_user_at("opencode", "dispose", Some(Present)));
        // Claude's and Codex's reasons are all listed: one not listed is not ended.
        assert_eq!(reason_tells("claude", "something-new"), Some(false));
        assert_eq!(reason_tells("codex", "other"), Some(true));
        assert!(!ended_by_user("gemini", "exit"), "without its terminal");
    }
}
