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

fn scope_of(name: &str, place: Option<&str>) -> Scope {
    let row = agterm_backup_terminals::row_named(name).unwrap();
    agterm_backup_terminals::scope_at(row.name, place.map(String::from))
}

/// The whole of `status --json` and of the text, byte for byte: the first row's own section sits
/// between `hooks` and `terminals` with its keys in their order, each terminal's line and warnings
/// in theirs (a terminal's own part comes from its row; the report only places it).
#[test]
fn the_json_and_the_text_keep_every_key_and_line_in_order() {
    let agterm = TerminalInfo {
        version: Some("0.35.1".into()),
        restore_mode: Some(RestoreMode::Live),
        supports_restart: true,
        launched_at: Some(crate::fixtures::ts("2026-12-01T09:00:00Z")),
        ..Default::default()
    };
    let tmux = TerminalInfo {
        version: Some("tmux 3.4".into()),
        launched_at: Some(crate::fixtures::ts("2026-12-01T08:00:00Z")),
        ..Default::default()
    };
    let zmx = TerminalInfo::default();
    // A pin's outcome is a pinning terminal's: only the first row's instances have one here.
    let section = |scope: Scope, terminal: Result<&'static TerminalInfo, String>| Section {
        pin_outcomes: match scope == agterm_backup_terminals::first() {
            true => &[Some(PinOutcome::SettingOff)],
            false => &[],
        },
        scope,
        terminal,
        panes: &[],
        rows: &[],
        current: &[],
    };
    let (agterm, tmux, zmx): (&'static _, &'static _, &'static _) = (
        Box::leak(Box::new(agterm)),
        Box::leak(Box::new(tmux)),
        Box::leak(Box::new(zmx)),
    );
    let report = build_all(
        hooks(true),
        Some(false),
        &[
            section(scope_of("agterm", None), Ok(agterm)),
            section(scope_of("tmux", Some("/t/default")), Ok(tmux)),
            section(
                scope_of("tmux", Some("/t/gone")),
                Err("no tmux server".into()),
            ),
            section(scope_of("zmx", Some("/z")), Ok(zmx)),
        ],
    );
    let json = serde_json::to_string(&report).unwrap();
    assert_eq!(
        json,
        concat!(
            r#"{"v":1,"hooks":[{"agent":"claude","state":"present","path":"/h/.claude/settings.json","trusted":null,"switched_off":null},"#,
            r#"{"agent":"codex","state":"present","path":"/h/.codex/config.toml","trusted":true,"switched_off":null}],"#,
            r#""agterm":{"running":true,"version":"0.35.1","mode":"live","restart":true,"error":null},"#,
            r#""terminals":[{"terminal":"agterm","place":null,"running":true,"version":"0.35.1","mode":"live","restart":true,"launched_at":"2026-12-01T09:00:00Z","error":null},"#,
            r#"{"terminal":"tmux","place":"/t/default","running":true,"version":"tmux 3.4","mode":null,"restart":false,"launched_at":"2026-12-01T08:00:00Z","error":null},"#,
            r#"{"terminal":"tmux","place":"/t/gone","running":false,"version":null,"mode":null,"restart":false,"launched_at":null,"error":"no tmux server"},"#,
            r#"{"terminal":"zmx","place":"/z","running":true,"version":null,"mode":null,"restart":false,"launched_at":null,"error":null}],"#,
            r#""panes":[],"warnings":["#,
            r#""agterm's restore-denylist.conf does not list claude and codex: after a reboot a bare agent may be replayed and start a new conversation (run `agterm-backup installer apply`)","#,
            r#""\"Restore running commands on restart\" is off in agterm, so pins will not run: turn it on (Settings ▸ General ▸ Sessions), or run `agterm-backup restore` after each restart","#,
            r#""agterm runs in Live mode: pins never fire; agents survive a quit, but after a reboot run `agterm-backup restore`"],"#,
            r#""broken_files":[]}"#
        )
    );
    assert_eq!(
        render(&report, None),
        concat!(
            "hook claude   present  (/h/.claude/settings.json)\n",
            "hook codex    present, trusted  (/h/.codex/config.toml)\n",
            "agterm 0.35.1 · restore mode live: pins are only stored; Live daemons keep agents across agterm's quit; after a reboot the shell line or `restore` types into denylisted panes, and `restore` restarts a replayed bare agent (session restart) into its pane's conversation · launched 2026-12-01T09:00:00Z\n",
            "tmux 3.4 (/t/default) · launched 2026-12-01T08:00:00Z\n",
            "tmux (/t/gone) is not running: no tmux server\n",
            "(version unknown) (/z)\n",
            "no pane runs an agent or has a record\n",
            "warning: agterm's restore-denylist.conf does not list claude and codex: after a reboot a bare agent may be replayed and start a new conversation (run `agterm-backup installer apply`)\n",
            "warning: \"Restore running commands on restart\" is off in agterm, so pins will not run: turn it on (Settings ▸ General ▸ Sessions), or run `agterm-backup restore` after each restart\n",
            "warning: agterm runs in Live mode: pins never fire; agents survive a quit, but after a reboot run `agterm-backup restore`\n",
        )
    );
    // Its first instance not asked at all: the section says so, its text lines and warnings are not there.
    let alone = build_all(
        hooks(true),
        None,
        &[section(
            scope_of("tmux", Some("/t/gone")),
            Err("gone".into()),
        )],
    );
    let json = serde_json::to_string(&alone).unwrap();
    assert!(
        json.contains(r#""trusted":true,"switched_off":null}],"agterm":{"running":false,"version":null,"mode":null,"restart":false,"error":"not asked"},"terminals":["#),
        "{json}"
    );
    assert_eq!(alone.warnings, Vec::<String>::new());
    // Not running, the first row's line says where else to look; its version unknown says since when.
    let off = build_all(
        Vec::new(),
        None,
        &[
            section(scope_of("agterm", None), Err("connect failed".into())),
            section(scope_of("agterm", None), Ok(zmx)),
        ],
    );
    assert_eq!(
        render(&off, None),
        concat!(
            "agterm is not running (or its socket is elsewhere): connect failed\n",
            "agterm (version unknown: before 0.25) · restore mode unknown (before 0.26): the pin fires only if agterm's \"restore running commands\" is on; otherwise the shell line or `restore`\n",
            "no pane runs an agent or has a record\n",
            "warning: \"Restore running commands on restart\" is off in agterm, so pins will not run: turn it on (Settings ▸ General ▸ Sessions), or run `agterm-backup restore` after each restart\n",
        )
    );
}

/// A pane restore would restart says how and why in its terminal's words (its row's restart words).
#[test]
fn a_restart_is_described_in_its_terminals_words() {
    let r = record(ID_A, PaneRole::Left, "2026-11-30T10:00:00Z");
    let mut t = Transcripts::default();
    t.paths.insert(r.transcript_path.clone().unwrap());
    let mut rows = plan(&PlanInput {
        captured: &[captured(Some(r), vec![])],
        panes: &[pane(PaneRole::Left)],
        mode: None,
        launched_at: None,
        as_of: None,
        now: None,
        transcripts: &t,
        launch: None,
        restart: false,
    });
    let Action::Type { line, resume } = rows[0].action.clone() else {
        panic!("{:?}", rows[0].action);
    };
    rows[0].action = Action::Restart { line, resume };
    rows[0].from_journal = true;
    assert_eq!(
        describe(&rows[0]),
        "restore would restart the pane (agterm's session restart) running the resume line [journal]: agterm replayed a bare agent, a new conversation"
    );
}
