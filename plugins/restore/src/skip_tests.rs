//! The skip texts that speak of a pane's terminal take its words from the plan's data (the pane's
//! terminal name) and the registry's rows, never a terminal written into restore: today's terminals
//! read exactly as before, and a made-up terminal gets its own words.

use super::*;
use agterm_backup_core::pane::{PaneRole, TerminalName};

const AGTERM: TerminalName = TerminalName::new("agterm");
const ZMX: TerminalName = TerminalName::new("zmx");
const MADE_UP: TerminalName = TerminalName::new("kitty");

fn texts(terminal: TerminalName) -> Vec<String> {
    [
        SkipReason::Pinned {
            line: "claude --resume x".into(),
            terminal,
        },
        SkipReason::HiddenForeground { terminal },
        SkipReason::NewConversation {
            agent: "claude".into(),
            hint: NewHint::NoRestart { terminal },
        },
        SkipReason::HooksUnproven {
            agent: "gemini".into(),
            line: "gemini --resume y".into(),
            terminal,
        },
        SkipReason::NotJoined {
            why: NotJoined::SessionClosed {
                last_seen: "2026-12-01T08:00:00Z".into(),
            },
            terminal,
        },
    ]
    .iter()
    .map(SkipReason::describe)
    .collect()
}

#[test]
fn todays_terminals_read_as_before() {
    let agterm = texts(AGTERM);
    assert_eq!(agterm[0], "pinned: agterm types this pane's pin itself (`claude --resume x`); if it does not bring the agent back, run restore again in a minute");
    assert_eq!(agterm[1], "busy: agterm sees no shell at the prompt (a program it cannot read, such as sudo, holds the pane)");
    assert_eq!(agterm[2], "busy: agterm replayed a bare claude (a new conversation) here, and this agterm has no `session restart` to replace it; update agterm, or quit claude, then run restore again");
    assert_eq!(agterm[3], "busy: agterm replayed a bare gemini here, but it left no record since the launch, so its hooks are not proven to run and a prompt typed into it would not show; left alone. To get the pane's own conversation back, quit gemini and run: gemini --resume y");
    assert_eq!(texts(ZMX)[4], "session closed: this zmx session was still in use after the boot (2026-12-01T08:00:00Z) and is gone now (closed, or its shell exited); not recreating it");
    assert_eq!(SkipReason::NotRealized.describe(), "not realized: its terminal has not brought this pane up yet (agterm has not realized it, or a new tmux pane has not started its command); run restore again once it shows");
}

#[test]
fn a_made_up_terminal_gets_its_own_words() {
    for (text, agterms) in texts(MADE_UP).iter().zip(texts(AGTERM)) {
        assert!(text.contains("kitty"), "{text}");
        assert!(!text.contains("agterm") && !text.contains("zmx"), "{text}");
        assert_eq!(
            text.replace("kitty", "agterm"),
            agterms.replace("zmx", "agterm")
        );
    }
}

#[test]
fn a_duplicates_winner_shows_its_role_only_where_its_terminals_keys_name_one() {
    let by = |key: PaneKey| SkipReason::Duplicate {
        winner: key,
        winner_name: Some("api".into()),
    };
    let agterm = agterm_backup_terminals::ROWS[0].name;
    let role = PaneKey::new(agterm, format!("ABCD-{}", PaneRole::Left));
    assert!(by(role).describe().contains("pane api · left held"));
    let made_up = PaneKey::new(MADE_UP, "ABCD-left".into());
    assert!(by(made_up).describe().contains("pane api held"));
}
