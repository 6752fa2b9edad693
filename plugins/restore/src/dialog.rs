//! Claude's "resume from summary?" question (`research/agents.md` §2.4).
//!
//! It appears on `--resume` of an old, large session and waits:
//!
//! ```text
//! This session is 2h 5m old and 143.2k tokens.
//! Resuming the full session uses a lot of your usage limits. …
//! ❯ 1. Resume from summary (instant, recommended)      (2.1.328; older: "Resume from summary (recommended)")
//!   2. Resume full session as-is
//!   3. Don't ask again                                   (older: "Don't ask me again")
//! ```
//!
//! **How it is answered: by typing the option's digit, nothing else.** Claude Code's `Select` (2.1.328
//! binary) handles a key matching `/^[0-9]$/` by taking option `digit-1` and calling its `onChange` at once
//! — one keystroke, no Return. Arrow keys would need escape sequences, which a terminal's typing may send
//! as key text rather than as arrow presses (see each terminal's `type_text`); and a Return after the
//! digit would land in the prompt of the resumed session. Option 1 is preselected (a blind Return compacts), so we never send Return.

/// The options, in screen order; `None` when the text shows no dialog.
pub fn find_dialog(screen: &str) -> Option<Dialog> {
    let has_title = screen.contains("This session is") && screen.contains("old and");
    let summary = screen.contains("Resume from summary");
    let full = screen.contains("Resume full session as-is");
    (has_title && summary && full).then(|| Dialog {
        title: screen
            .lines()
            .find(|l| l.contains("This session is"))
            .map(|l| l.trim().to_string())
            .unwrap_or_default(),
    })
}

/// A dialog on screen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dialog {
    /// `This session is … old and … tokens.`
    pub title: String,
}

/// The number of options the dialog offers.
pub const OPTIONS: u8 = 3;

/// The keys that pick option `choice` (1-based): its digit. Refuses a choice the dialog does not have.
pub fn answer_keys(choice: u8) -> Result<String, String> {
    if (1..=OPTIONS).contains(&choice) {
        Ok(choice.to_string())
    } else {
        Err(format!(
            "choice {choice} does not exist: the dialog has options 1 (summary), 2 (full session), 3 (don't ask again)"
        ))
    }
}

/// What option `choice` does, for progress lines.
pub fn choice_label(choice: u8) -> &'static str {
    match choice {
        1 => "resume from summary",
        2 => "resume full session as-is",
        3 => "don't ask again",
        _ => "?",
    }
}

/// Signs that Claude's TUI is up and *not* asking: its empty input box, or a prompt footer. Watching
/// stops there.
///
/// The input box is what every permission mode shows (2.1.328: a `❯` line between two `─` rules; older
/// builds: `│ > ` inside a `╭─╮ … ╰─╯` box). The footers differ per mode and some modes show none that
/// older builds did (`⏵⏵ don't ask on`), so they are only a second sign.
pub fn claude_ready(screen: &str) -> bool {
    find_dialog(screen).is_none()
        && (input_box(screen)
            || [
                "? for shortcuts",
                "bypass permissions",
                "accept edits on",
                "plan mode on",
                "don't ask on",
                "auto mode on",
            ]
            .iter()
            .any(|m| screen.contains(m)))
}

/// Claude's input box: a prompt line directly between its two borders.
fn input_box(screen: &str) -> bool {
    let lines: Vec<&str> = screen.lines().map(str::trim).collect();
    lines.windows(3).any(|w| {
        let rules = is_rule(w[0], None) && is_rule(w[2], None);
        let boxed = is_rule(w[0], Some(('╭', '╮'))) && is_rule(w[2], Some(('╰', '╯')));
        (rules && w[1].starts_with('❯')) || (boxed && w[1].starts_with("│ >"))
    })
}

/// A line of `─` (at least 8), optionally between the corner characters `ends`.
fn is_rule(line: &str, ends: Option<(char, char)>) -> bool {
    let inner = match ends {
        Some((a, b)) => match line.strip_prefix(a).and_then(|l| l.strip_suffix(b)) {
            Some(inner) => inner,
            None => return false,
        },
        None => line,
    };
    inner.chars().count() >= 8 && inner.chars().all(|c| c == '─')
}

#[cfg(test)]
mod tests {
    use super::*;

    const NEW: &str = "This session is 2h 5m old and 143.2k tokens.\n\nResuming the full session uses a lot of your usage limits. Resuming from a summary uses less.\n\n❯ 1. Resume from summary (instant, recommended)\n  2. Resume full session as-is\n  3. Don't ask again\n";
    const OLD: &str = "This session is 3d old and 120k tokens.\nResuming the full session will consume a substantial portion of your usage limits. We recommend resuming from a summary.\n> 1. Resume from summary (recommended)\n  2. Resume full session as-is\n  3. Don't ask me again\n";

    #[test]
    fn finds_both_wordings() {
        assert_eq!(
            find_dialog(NEW).unwrap().title,
            "This session is 2h 5m old and 143.2k tokens."
        );
        assert!(find_dialog(OLD).is_some());
        assert!(find_dialog("$ claude --resume x\n? for shortcuts").is_none());
        assert!(
            find_dialog("Resume full session as-is").is_none(),
            "options alone are not the dialog"
        );
    }

    #[test]
    fn digits_answer_and_out_of_range_is_refused() {
        assert_eq!(answer_keys(2).unwrap(), "2");
        assert_eq!(answer_keys(1).unwrap(), "1");
        assert!(answer_keys(0).is_err());
        assert!(answer_keys(4).unwrap_err().contains("choice 4"));
    }

    /// Claude 2.1.328 in `dontAsk` mode, as `session text` reads it: no footer restore knew before.
    const READY_2_1_328: &str = " ▐▛███▛█   Claude Code v2.1.328\n\n❯ first words\n\n● stub reply to: first words\n\n                       ◐ medium · /effort\n──────────────────────────────────────────\n❯ \n──────────────────────────────────────────\n  ⏵⏵ don't ask on (shift+tab to cycle)\n";

    #[test]
    fn the_ready_input_box_is_recognised_in_every_form() {
        assert!(claude_ready(READY_2_1_328));
        let no_footer = READY_2_1_328.replace("  ⏵⏵ don't ask on (shift+tab to cycle)\n", "");
        assert!(claude_ready(&no_footer), "the box alone");
        assert!(claude_ready(
            "╭──────────────────────────╮\n│ > Try \"fix lint errors\" │\n╰──────────────────────────╯\n"
        ));
        assert!(!claude_ready(
            "──────────\n$ claude --resume x\n──────────\n"
        ));
        assert!(
            !claude_ready("❯ first words\n● reply"),
            "no borders: a past prompt"
        );
        assert!(!claude_ready(&format!(
            "{NEW}\n──────────\n❯ \n──────────\n"
        )));
    }

    #[test]
    fn ready_only_without_the_dialog() {
        assert!(claude_ready("> \n? for shortcuts"));
        assert!(!claude_ready(&format!("{NEW}\n? for shortcuts")));
        assert!(!claude_ready("booting"));
    }
}
