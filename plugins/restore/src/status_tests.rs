use super::*;
use crate::fixtures::{captured, pane, record, ID_A};
use crate::plan::{plan, PlanInput};
use crate::transcripts::Transcripts;
use agterm_backup_core::pane::PaneRole;

fn hooks(trusted: bool) -> Vec<HookState> {
    vec![
        HookState {
            agent: "claude".into(),
            state: "present".into(),
            path: "/h/.claude/settings.json".into(),
            trusted: None,
            switched_off: None,
        },
        HookState {
            agent: "codex".into(),
            state: "present".into(),
            path: "/h/.codex/config.toml".into(),
            trusted: Some(trusted),
            switched_off: None,
        },
    ]
}

#[test]
fn rows_for_captured_and_agent_panes_with_warnings() {
    let r = record(ID_A, PaneRole::Left, "2026-11-30T10:00:00Z");
    let mut left = pane(PaneRole::Left);
    left.cwd = Some("/home/u".into());
    let mut right = pane(PaneRole::Right);
    right.foreground = Some(vec!["codex".into()]);
    let mut plain = pane(PaneRole::Right);
    plain.session_id = "11111111-0000-0000-0000-000000000000".into();
    let panes = vec![left, right, plain];
    let mut t = Transcripts::default();
    t.paths.insert(r.transcript_path.clone().unwrap());
    let rows = plan(&PlanInput {
        captured: &[captured(Some(r), vec![])],
        panes: &panes,
        mode: Some(RestoreMode::Live),
        launched_at: None,
        as_of: None,
        now: None,
        transcripts: &t,
        launch: None,
        restart: false,
    });
    let info = TerminalInfo {
        version: Some("0.34.0".into()),
        restore_mode: Some(RestoreMode::Live),
        ..Default::default()
    };
    let report = build(StatusInput {
        hooks: hooks(false),
        denylist_ok: Some(false),
        terminal: Ok(&info),
        panes: &panes,
        rows: &rows,
        pin_outcomes: &[Some(PinOutcome::SettingOff)],
        current: &[],
    });
    assert_eq!(report.panes.len(), 2, "the plain shell pane is not listed");
    assert!(report.panes[0].captured);
    assert_eq!(
        report.panes[0].agent_cwd.as_deref(),
        Some("/w/p"),
        "differs from the pane's cwd"
    );
    assert_eq!(report.panes[1].agent.as_deref(), Some("codex"));
    assert!(!report.panes[1].captured);
    let all = report.warnings.join("\n");
    for needle in [
        "trusted",
        "denylist",
        "Restore running commands",
        "Live mode",
    ] {
        assert!(all.contains(needle), "{needle} missing in {all}");
    }
    assert_eq!(report.warnings.len(), 4);
    let text = render(&report, None);
    assert!(text.contains("agterm 0.34.0 · restore mode live"), "{text}");
    assert!(text.contains("NOT captured"));
    // The panes are one aligned table: every row's AGENT column starts where the header's does.
    let table: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.starts_with("PANE"))
        .take(3)
        .collect();
    assert_eq!(table.len(), 3, "{text}");
    let from = |line: &str, col: usize| line.chars().skip(col).collect::<String>();
    let col = table[0].find("AGENT").unwrap(); // the header is ASCII
    assert!(from(table[1], col).starts_with("claude"), "{text}");
    assert!(
        from(table[2], col).starts_with("codex (NOT captured)"),
        "{text}"
    );
    assert!(table[1].contains("/w/p"), "{text}");
    assert!(
        render(&report, Some("/w")).contains("~/p"),
        "home is shown as ~"
    );
}

#[test]
fn agterm_not_running_is_one_clear_line() {
    let report = build(StatusInput {
        hooks: hooks(true),
        denylist_ok: Some(true),
        terminal: Err("connect(/x/agterm.sock) failed: No such file — is agterm running?".into()),
        panes: &[],
        rows: &[],
        pin_outcomes: &[],
        current: &[],
    });
    assert!(report.warnings.is_empty());
    let text = render(&report, None);
    assert!(text.contains("agterm is not running"), "{text}");
    assert!(text.contains("hook codex    present, trusted"), "{text}");
}

/// Before any restart the running agents' records were written in this launch, after the cutoff the
/// plan applies; status still calls them captured (it reads the current record).
#[test]
fn agents_captured_in_this_launch_are_captured() {
    let r = record(ID_A, PaneRole::Left, "2026-12-01T10:00:00Z");
    let mut left = pane(PaneRole::Left);
    left.foreground = Some(vec!["claude".into(), "--model".into(), "sonnet".into()]);
    let panes = vec![left];
    let c = [captured(Some(r.clone()), vec![r.clone()])];
    let rows = plan(&PlanInput {
        captured: &c,
        panes: &panes,
        mode: Some(RestoreMode::Rerun),
        launched_at: Some(crate::fixtures::ts("2026-12-01T09:00:00Z")),
        as_of: None,
        now: None,
        transcripts: &Transcripts::default(),
        launch: None,
        restart: false,
    });
    assert!(
        rows[0].session_id.is_none(),
        "the journal rule sets it aside"
    );
    let info = TerminalInfo::default();
    let report = build(StatusInput {
        hooks: hooks(true),
        denylist_ok: Some(true),
        terminal: Ok(&info),
        panes: &panes,
        rows: &rows,
        pin_outcomes: &[None],
        current: &[Some(r)],
    });
    let p = &report.panes[0];
    assert!(p.captured, "{p:?}");
    assert_eq!(p.session_id.as_deref(), Some(ID_A));
    assert_eq!(p.agent_cwd.as_deref(), Some("/w/p"));
    let text = render(&report, None);
    assert!(!text.contains("NOT captured"), "{text}");
    assert!(text.contains("captured in this launch"), "{text}");
}
