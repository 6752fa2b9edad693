//! One test per row of `restart`'s precedence table, and the rows' order where two apply.

use super::*;
use crate::fixtures::{record, ID_A};
use agterm_backup_core::pane::PaneRole;
use agterm_backup_core::record::EndTerminal;

const RULE: &str = "────────────────────────────────────────";

fn idle_screen() -> String {
    format!("● stub reply to: hi\n{RULE}\n❯ \n{RULE}\n  ? for shortcuts\n")
}

fn typed_screen(text: &str) -> String {
    format!("● stub reply to: hi\n{RULE}\n❯ {text}\n{RULE}\n")
}

const PERMISSION: &str =
    "Bash command\n  rm -rf build\nDo you want to proceed?\n❯ 1. Yes\n  2. No\n";

fn claude_argv() -> Vec<String> {
    vec!["claude".into(), "--model".into(), "sonnet".into()]
}

fn at_stop() -> LiveRecord {
    let mut r = record(ID_A, PaneRole::Left, "2026-12-05T10:00:00Z");
    r.event = "Stop".into();
    r
}

/// Runs `decide` on an idle Claude pane changed by `change`.
fn verdict(change: impl FnOnce(&mut LiveRecord, &mut Vec<String>, &mut String)) -> Verdict {
    verdict_with(change, |_| {})
}

fn verdict_with(
    change: impl FnOnce(&mut LiveRecord, &mut Vec<String>, &mut String),
    facts: impl FnOnce(&mut PaneFacts<'_>),
) -> Verdict {
    let (mut rec, mut argv, mut screen) = (at_stop(), claude_argv(), idle_screen());
    change(&mut rec, &mut argv, &mut screen);
    let mut f = PaneFacts {
        remote: false,
        record: Some(&rec),
        foreground: Some(&argv),
        shell_in_front: Some(false),
        screen: Some(&screen),
        marker: None,
    };
    facts(&mut f);
    decide(&f)
}

#[test]
fn row_11_idle_claude_is_restarted_with_its_quit() {
    assert_eq!(verdict(|_, _, _| {}), Verdict::Restart { quit: "/exit" });
    // A conversation started or resumed and not prompted yet is idle too.
    let started = verdict(|r, _, _| r.event = "SessionStart".into());
    assert_eq!(started, Verdict::Restart { quit: "/exit" });
}

#[test]
fn row_1_remote_pane_is_never_touched() {
    let v = verdict_with(|_, _, _| {}, |f| f.remote = true);
    assert_eq!(v, Verdict::Skip(SkipWhy::Remote));
}

#[test]
fn row_2_no_record() {
    let v = verdict_with(|_, _, _| {}, |f| f.record = None);
    assert_eq!(v, Verdict::Skip(SkipWhy::NoRecord));
}

#[test]
fn row_3_unknown_agent() {
    let v = verdict(|r, _, _| r.agent = "someagent".into());
    assert_eq!(v, Verdict::Skip(SkipWhy::UnknownAgent("someagent".into())));
}

#[test]
fn row_4_a_restart_that_died_after_its_quit_is_finished() {
    let rec = at_stop();
    let marker = RestartMarker::new("claude", ID_A, chrono::Utc::now());
    let shell = |fg: Option<&[String]>, marker: Option<&RestartMarker>, rec: &LiveRecord| {
        decide(&PaneFacts {
            remote: false,
            record: Some(rec),
            foreground: fg,
            shell_in_front: None,
            screen: Some("pane$ "),
            marker,
        })
    };
    assert_eq!(shell(None, Some(&marker), &rec), Verdict::Finish);
    // Without the marker the shell is just a shell: the agent does not run here.
    assert_eq!(
        shell(None, None, &rec),
        Verdict::Skip(SkipWhy::NotRunning("a shell".into()))
    );
    // A marker of another conversation is not this pane's restart.
    let other = RestartMarker::new("claude", "another-id", chrono::Utc::now());
    assert!(matches!(shell(None, Some(&other), &rec), Verdict::Skip(_)));
    // The agent still up (the quit never landed): restarted again, not finished.
    let argv = claude_argv();
    assert!(matches!(
        shell(Some(&argv), Some(&marker), &rec),
        Verdict::Restart { .. }
    ));
}

#[test]
fn row_5_a_conversation_the_user_ended_stays_ended() {
    let v = verdict(|r, _, _| {
        r.event = "SessionEnd".into();
        r.set_end_reason(Some("prompt_input_exit"));
        r.set_end_terminal(Some(EndTerminal::Present));
    });
    assert_eq!(v, Verdict::Skip(SkipWhy::Ended));
    // An end that is no user's (the terminal died under it) is not `ended`.
    let died = verdict(|r, _, _| {
        r.set_end_reason(Some("other"));
    });
    assert_ne!(died, Verdict::Skip(SkipWhy::Ended));
}

#[test]
fn row_6_the_agent_not_in_front() {
    let vim = verdict(|_, argv, _| *argv = vec!["/usr/bin/vim".into(), "x".into()]);
    assert_eq!(vim, Verdict::Skip(SkipWhy::NotRunning("`vim`".into())));
    let codex_instead = verdict(|_, argv, _| *argv = vec!["codex".into()]);
    assert_eq!(
        codex_instead,
        Verdict::Skip(SkipWhy::NotRunning("`codex`".into()))
    );
    let shell = verdict_with(|_, _, _| {}, |f| f.foreground = None);
    assert_eq!(shell, Verdict::Skip(SkipWhy::NotRunning("a shell".into())));
}

#[test]
fn row_7_an_agent_we_cannot_quit() {
    let v = verdict(|r, argv, _| {
        r.agent = "grok".into();
        *argv = vec!["grok".into()];
    });
    assert_eq!(v, Verdict::Skip(SkipWhy::NoQuit("grok".into())));
}

#[test]
fn row_8_a_permission_question_waits_before_mid_turn() {
    let v = verdict(|r, _, s| {
        r.event = "PreToolUse".into();
        *s = PERMISSION.into();
    });
    assert_eq!(v, Verdict::Wait(WaitReason::Permission));
}

#[test]
fn row_9_mid_turn_prompt_or_tool_call_since_the_stop() {
    for event in ["UserPromptSubmit", "PreToolUse"] {
        let v = verdict(|r, _, _| r.event = event.into());
        assert_eq!(
            v,
            Verdict::Wait(WaitReason::MidTurn(event.into())),
            "{event}"
        );
    }
    // Another agent's own event names count by their moment (Gemini's AfterAgent is a Stop).
    let gemini = |event: &str| {
        verdict(|r, argv, _| {
            r.agent = "gemini".into();
            r.event = event.into();
            *argv = vec!["gemini".into()];
        })
    };
    assert_eq!(gemini("AfterAgent"), Verdict::Restart { quit: "/quit" });
    assert_eq!(
        gemini("BeforeTool"),
        Verdict::Wait(WaitReason::MidTurn("PreToolUse".into()))
    );
}

#[test]
fn row_10_text_in_the_input_box_waits() {
    let v = verdict(|_, _, s| *s = typed_screen("please also"));
    assert_eq!(v, Verdict::Wait(WaitReason::Typing("please also".into())));
    // Mid-turn wins over typing: the reason names the turn.
    let both = verdict(|r, _, s| {
        r.event = "UserPromptSubmit".into();
        *s = typed_screen("next");
    });
    assert!(matches!(both, Verdict::Wait(WaitReason::MidTurn(_))));
}

#[test]
fn every_reason_reads_as_a_sentence() {
    for w in [
        WaitReason::Permission,
        WaitReason::MidTurn("PreToolUse".into()),
        WaitReason::Typing("x".into()),
    ] {
        assert!(!w.describe().is_empty());
    }
    assert!(SkipWhy::NoQuit("grok".into())
        .describe()
        .contains("by hand"));
}
