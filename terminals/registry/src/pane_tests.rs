use super::*;
use agterm_backup_agterm::pane_env::{NotAPane, PaneEnv};
use agterm_backup_core::process::FakeProcesses;
use agterm_backup_tmux::env::TmuxEnv;
use agterm_backup_zmx::env::ZmxEnv;

/// The tmux pane `found` names, if it is one.
fn tmux(found: &Result<FoundPane, NoPane>) -> Option<&TmuxEnv> {
    found.as_ref().ok()?.own::<TmuxEnv>()
}

fn zmx(found: &Result<FoundPane, NoPane>) -> Option<&ZmxEnv> {
    found.as_ref().ok()?.own::<ZmxEnv>()
}

fn agterm(found: &Result<FoundPane, NoPane>) -> Option<&PaneEnv> {
    found.as_ref().ok()?.own::<PaneEnv>()
}

/// Inside tmux but in none of its panes.
fn no_tmux_pane(found: &Result<FoundPane, NoPane>) -> bool {
    found.as_ref().is_err_and(|e| {
        e.terminal == agterm_backup_tmux::pane::NAME
            && e.why.contains("not in a pane")
            && !e.worth_logging
    })
}

fn none() -> FakeProcesses {
    FakeProcesses::default()
}

fn env(pairs: &[(&str, &str)]) -> Env {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

const AGTERM: [(&str, &str); 2] = [
    ("AGTERM_SESSION_ID", "6b1e0c2a-aaaa-bbbb-cccc-0123456789ab"),
    ("AGTERM_PANE", "left"),
];

#[test]
fn tmux_inside_agterm_is_tmux() {
    let mut both = env(&AGTERM);
    both.insert("TMUX".into(), "/tmp/tmux-1/default,42,0".into());
    both.insert("TMUX_PANE".into(), "%3".into());
    assert_eq!(tmux(&find(&both, &none(), 0)).unwrap().pane_id, "%3");
    assert!(agterm(&find(&env(&AGTERM), &none(), 0)).is_some());
}

#[test]
fn tmux_without_a_pane_is_nothing_even_with_agterm_beside_it() {
    let mut job = env(&AGTERM);
    job.insert("TMUX".into(), "/tmp/tmux-1/default,42,0".into());
    assert!(no_tmux_pane(&find(&job, &none(), 0)));
    job.insert("TMUX_PANE".into(), "3".into());
    assert!(no_tmux_pane(&find(&job, &none(), 0)));
    assert_eq!(
        find(&env(&[]), &none(), 0),
        Err(NotAPane::NotInAgterm.into())
    );
}

const LIVE: &str = "agterm-0123456789abcdef0123456789abcdef";

#[test]
fn a_standalone_zmx_session_wins_over_agterm_and_a_live_pane_stays_agterm() {
    let mut inside = env(&AGTERM);
    inside.insert("ZMX_SESSION".into(), "api".into());
    inside.insert("ZMX_DIR".into(), "/z".into());
    let z = zmx(&find(&inside, &none(), 0)).cloned().unwrap();
    assert!(z.name == "api" && z.socket_dir == "/z");
    for live in ["", LIVE] {
        let mut pane = env(&AGTERM);
        pane.insert("ZMX_SESSION".into(), live.into());
        pane.insert("ZMX_DIR".into(), "/tmp/agterm-zmx-00000000000000ab".into());
        assert!(agterm(&find(&pane, &none(), 0)).is_some(), "{live:?}");
    }
    let alone = env(&[("ZMX_SESSION", "api")]);
    assert!(zmx(&find(&alone, &none(), 0)).is_some());
}

/// Both sets in the environment: the process tree says which multiplexer is innermost.
#[test]
fn tmux_in_zmx_and_zmx_in_tmux_go_to_the_innermost() {
    let mut both = env(&[("ZMX_SESSION", "outer"), ("TMUX_PANE", "%3")]);
    both.insert("TMUX".into(), "/tmp/tmux-1/default,42,0".into());
    // zmx session → tmux → pane shell → agent → hook: tmux is innermost.
    let tmux_in_zmx = FakeProcesses::default()
        .with(10, 1, "zmx attach outer", "/")
        .with(20, 10, "-zsh", "/")
        .with(42, 1, "tmux: server (/tmp/tmux-1/default)", "/")
        .with(50, 42, "-zsh", "/w")
        .with(60, 50, "claude", "/w");
    assert!(tmux(&find(&both, &tmux_in_zmx, 60)).is_some());
    // tmux pane → zmx attach (the daemon forked from it) → shell → agent: zmx is innermost.
    let zmx_in_tmux = FakeProcesses::default()
        .with(42, 1, "tmux new -s work", "/")
        .with(50, 42, "-zsh", "/")
        .with(70, 1, "/usr/local/bin/zmx attach outer", "/")
        .with(80, 70, "-zsh", "/w")
        .with(90, 80, "claude", "/w");
    assert_eq!(zmx(&find(&both, &zmx_in_tmux, 90)).unwrap().name, "outer");
    // Nothing readable: tmux, as before zmx support.
    assert!(tmux(&find(&both, &none(), 90)).is_some());
}

/// `shell-start`'s fast path: agterm and zmx keys come from the environment alone; a tmux pane with
/// no tmux record anywhere is decided without asking its server (here: one that does not exist).
#[test]
fn a_panes_record_key_comes_from_files_alone_except_a_recorded_tmux_name() {
    let tmp = tempfile::tempdir().unwrap();
    let state = StateDir::at(tmp.path().join("state"));
    let agterm = find(&env(&AGTERM), &none(), 0).unwrap();
    let (key, scope) = agterm.recorded_key(&state).unwrap();
    assert_eq!(
        (key.to_string(), scope),
        (
            "6B1E0C2A-AAAA-BBBB-CCCC-0123456789AB-left".to_string(),
            agterm_backup_agterm::scope::the_instance()
        )
    );
    let zmx = find(
        &env(&[("ZMX_SESSION", "api"), ("ZMX_DIR", "/z")]),
        &none(),
        0,
    )
    .unwrap();
    let (key, scope) = zmx.recorded_key(&state).unwrap();
    assert_eq!(key.terminal(), agterm_backup_zmx::session::NAME);
    assert_eq!(
        scope,
        agterm_backup_zmx::scope::socket_dir_scope("/z".into())
    );
    let mut tmux = env(&[("TMUX_PANE", "%3")]);
    let gone = tmp.path().join("no-such-server");
    tmux.insert("TMUX".into(), format!("{},42,0", gone.display()));
    let tmux = find(&tmux, &none(), 0).unwrap();
    assert_eq!(tmux.recorded_key(&state), None);
}

/// pts/3 and pts/7 as `st_rdev` numbers.
const PANE_PTY: Option<u64> = Some(34819);
const SCRIPT_PTY: Option<u64> = Some(34823);

#[test]
fn a_pane_shell_reaches_a_process_with_no_terminal_first() {
    // shell-start's parent chain in an agterm pane: the `$(…)` subshell, zsh, login, then agterm.
    let pane = [PANE_PTY, PANE_PTY, PANE_PTY, None];
    assert!(!nested_in_another_terminal(PANE_PTY, &pane));
    // A shell started by `setsid` in the pane: no controlling terminal of its own, stdin on the pane.
    assert!(!nested_in_another_terminal(PANE_PTY, &[None, PANE_PTY]));
    assert!(!nested_in_another_terminal(PANE_PTY, &[]));
}

#[test]
fn a_shell_in_a_terminal_started_in_the_pane_meets_the_panes_terminal_on_the_way_up() {
    // `script` (or a second terminal app) run from the pane's shell: the inner shell sits on script's pty,
    // script on the pane's.
    let nested = [SCRIPT_PTY, SCRIPT_PTY, PANE_PTY, PANE_PTY, None];
    assert!(nested_in_another_terminal(SCRIPT_PTY, &nested));
    // Unknown terminal of its own: any ancestor on a terminal is another one.
    assert!(nested_in_another_terminal(None, &[PANE_PTY, None]));
}

#[test]
fn an_agterm_pane_is_its_own_unless_another_terminal_shows() {
    let pane = find(&env(&AGTERM), &none(), 0).unwrap();
    assert!(pane.own::<PaneEnv>().is_some());
    let ancestry = || vec![PANE_PTY, None];
    assert!(pane.is_own(&env(&AGTERM), PANE_PTY, ancestry));
    let mut vscode = env(&AGTERM);
    vscode.insert("TERM_PROGRAM".into(), "vscode".into());
    assert!(!pane.is_own(&vscode, PANE_PTY, ancestry));
    let mut screen = env(&AGTERM);
    screen.insert("STY".into(), "1234.pts-3.host".into());
    assert!(!pane.is_own(&screen, PANE_PTY, ancestry));
    let in_script = || vec![SCRIPT_PTY, PANE_PTY, None];
    assert!(!pane.is_own(&env(&AGTERM), SCRIPT_PTY, in_script));
}

#[test]
fn a_terminal_that_answers_always_does_not_hide_another_terminals_pane() {
    let never = |_: &[&'static str]| -> &'static str { unreachable!("no two multiplexers") };
    // The first row answers "not in it" wherever it runs; a later terminal's pane wins over that.
    assert_eq!(
        super::choose(&[(None, false), (None, true)], never),
        Some(1)
    );
    assert_eq!(super::choose(&[(None, true), (None, true)], never), Some(0));
    // No terminal found one: the first one's reason stands.
    assert_eq!(
        super::choose(&[(None, false), (None, false)], never),
        Some(0)
    );
    assert_eq!(super::choose(&[], never), None);
    // A multiplexer's answer beats every terminal's, found or not; between two, the innermost.
    assert_eq!(
        super::choose(&[(None, true), (Some("mux"), false)], never),
        Some(1)
    );
    assert_eq!(
        super::choose(
            &[(None, true), (Some("a"), true), (Some("b"), true)],
            |_| "b"
        ),
        Some(2)
    );
}
