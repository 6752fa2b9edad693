//! What an agent's screen says, for `restart`: how its user quits it, whether it asks a permission
//! question, whether its input box holds text. Pure functions over the visible screen's text.

/// `(agent, what its user types to quit it)`: the slash command each TUI offers (research notes,
/// `/work/shared/research/agents*.md`; Claude's and Codex's proven in the e2e of `SessionEnd`). An
/// agent without a row is never quit by `restart`.
const QUIT: &[(&str, &str)] = &[
    ("claude", "/exit"),
    ("codex", "/quit"),
    ("gemini", "/quit"),
    ("qwen", "/quit"),
    ("copilot", "/exit"),
    ("opencode", "/exit"),
];

/// What to type (then Return) to quit `agent` the way its user would.
pub fn quit_keys(agent: &str) -> Option<&'static str> {
    QUIT.iter().find(|(a, _)| *a == agent).map(|(_, q)| *q)
}

/// The first option of a yes/no tool question, as the TUIs draw it: Claude `❯ 1. Yes`, Codex
/// `› 1. Yes, proceed`, Gemini `● 1. Allow once`.
const FIRST_ANSWERS: &[&str] = &["1. Yes", "1. Allow"];

/// The question's own words, one of which must be on the screen with the answers.
const QUESTIONS: &[&str] = &[
    "Do you want to",
    "Would you like to",
    "Allow execution",
    "Allow command",
    "Apply this change",
];

/// Whether the screen shows the agent asking whether it may run a tool (any agent: the words differ
/// little, and a false "asking" only makes restart wait).
pub fn asks_permission(_agent: &str, screen: &str) -> bool {
    let answers = screen.lines().any(|l| {
        let l = l.trim_start_matches(|c: char| c.is_whitespace() || "❯›>●│".contains(c));
        FIRST_ANSWERS.iter().any(|a| l.starts_with(a))
    });
    answers && QUESTIONS.iter().any(|q| screen.contains(q))
}

/// The text in the agent's input box, when it holds any: the user is typing. `None` also where the
/// box cannot be read (only Claude's is known; restart then relies on the record's last event).
pub fn typed_in_input(agent: &str, screen: &str) -> Option<String> {
    match agent {
        "claude" => claude_input(screen),
        _ => None,
    }
}

/// Claude's input box: a `❯` line between two `─` rules (2.1.x), or `│ > … │` inside a box (older
/// builds); the first-launch hint (`Try "…"`) is no text of the user's.
fn claude_input(screen: &str) -> Option<String> {
    let lines: Vec<&str> = screen.lines().map(str::trim).collect();
    let text = lines.windows(3).rev().find_map(|w| {
        let rules = is_rule(w[0]) && is_rule(w[2]);
        let boxed = w[0].starts_with('╭') && w[2].starts_with('╰');
        if rules {
            w[1].strip_prefix('❯')
        } else if boxed {
            w[1].strip_prefix("│ >").map(|t| t.trim_end_matches('│'))
        } else {
            None
        }
    })?;
    let text = text.trim();
    (!text.is_empty() && !text.starts_with("Try \"")).then(|| text.to_string())
}

/// A line of `─` (at least 8).
fn is_rule(line: &str) -> bool {
    line.chars().count() >= 8 && line.chars().all(|c| c == '─')
}

#[cfg(test)]
mod tests {
    use super::*;

    const RULE: &str = "────────────────────────────────────────";

    fn claude_box(input: &str) -> String {
        format!("● stub reply to: hi\n\n{RULE}\n❯ {input}\n{RULE}\n  ? for shortcuts\n")
    }

    #[test]
    fn claude_input_box_empty_hint_or_typed() {
        assert_eq!(claude_input(&claude_box("")), None);
        assert_eq!(claude_input(&claude_box("Try \"fix lint errors\"")), None);
        assert_eq!(
            claude_input(&claude_box("refactor the")),
            Some("refactor the".into())
        );
        let old = "╭──────────╮\n│ > half a thought │\n╰──────────╯\n";
        assert_eq!(claude_input(old), Some("half a thought".into()));
        assert_eq!(claude_input("╭──────────╮\n│ >  │\n╰──────────╯\n"), None);
        // No box on the screen: nothing known to be typed.
        assert_eq!(typed_in_input("claude", "loading…"), None);
        assert_eq!(typed_in_input("codex", &claude_box("x")), None);
    }

    #[test]
    fn permission_questions_of_each_shape() {
        let claude = "Bash command\n  rm -rf build\nDo you want to proceed?\n❯ 1. Yes\n  2. No\n";
        let codex =
            "Would you like to run the following command?\n$ ls\n› 1. Yes, proceed (y)\n  2. No\n";
        let gemini = "Allow execution of: 'ls'?\n● 1. Allow once\n  2. No\n";
        for s in [claude, codex, gemini] {
            assert!(asks_permission("any", s), "{s}");
        }
        // Claude's resume question and a reply that merely lists things are no permission question.
        let resume =
            "This session is 2h old\n❯ 1. Resume from summary\n  2. Resume full session as-is\n";
        let listing = "● Do you want to know more? Options:\n  - a\n  - b\n";
        assert!(!asks_permission("claude", resume));
        assert!(!asks_permission("claude", listing));
        assert!(!asks_permission("claude", &claude_box("")));
    }

    #[test]
    fn quit_keys_per_agent() {
        assert_eq!(quit_keys("claude"), Some("/exit"));
        assert_eq!(quit_keys("codex"), Some("/quit"));
        assert_eq!(quit_keys("grok"), None);
    }
}
