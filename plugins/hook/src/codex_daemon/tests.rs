use super::*;

// Thread ids minted at Unix ms 0x01a22f1321c0 = 1_796_086_112_704 and 0x01a22f132101 (-191 ms).
pub(super) const T_A: &str = "01a22f13-21c0-7190-8344-01baee8f0251";
pub(super) const T_B: &str = "01a22f13-2101-76b1-8748-ecaffac7be69";
pub(super) const MINTED_S: i64 = 1_796_086_112;

pub(super) fn words(s: &str) -> Vec<String> {
    s.split_whitespace().map(String::from).collect()
}

fn agterm(session: &str, pane: &str) -> BTreeMap<String, String> {
    [("AGTERM_SESSION_ID", session), ("AGTERM_PANE", pane)]
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

fn client(pid: u32, args: &str, cwd: &str, start_s: i64, pane: &str) -> Client {
    let argv: Vec<String> = std::iter::once("codex".to_string())
        .chain(words(args))
        .collect();
    let (kind, dir) = client_kind(&argv[1..]).expect("a TUI argv");
    Client {
        pid,
        start_s: Some(start_s),
        kind,
        thread_cwd: match dir {
            LaunchDir::Own => Some(cwd.into()),
            LaunchDir::Cd(d) => Some(d),
            LaunchDir::Unknown => None,
        },
        pane_env: agterm("S1", pane),
        argv,
    }
}

pub(super) fn loaded(id: &str, cwd: &str) -> LoadedThread {
    LoadedThread {
        id: id.into(),
        cwd: cwd.into(),
    }
}

/// The daemon's (and so the hook's) environment: pane `left`'s.
fn hook_env() -> Env {
    agterm("S1", "left")
        .into_iter()
        .chain([("CODEX_HOME".into(), "/h".into())])
        .collect()
}

fn view(clients: Vec<Client>, threads: Vec<LoadedThread>) -> DaemonView {
    DaemonView {
        daemon_pid: 99,
        clients,
        loaded: threads,
    }
}

pub(super) fn pane_of(a: &Attribution) -> Option<&str> {
    match a {
        Attribution::Pane(p) => p.pane_env.get("AGTERM_PANE").map(String::as_str),
        Attribution::Own => Some("own"),
        Attribution::Uncertain(_) => None,
    }
}

#[test]
fn argv_kinds() {
    let kind = |s: &str| client_kind(&words(s)).map(|(k, _)| k);
    assert_eq!(kind(""), Some(ClientKind::New));
    assert_eq!(kind("-m gpt-5 'fix it'"), Some(ClientKind::New));
    assert_eq!(kind("fork --last"), Some(ClientKind::New));
    assert_eq!(
        kind(&format!("-c x=1 resume {T_A} -m o3")),
        Some(ClientKind::ResumeId(T_A.into()))
    );
    assert_eq!(kind("resume --last"), Some(ClientKind::ResumePick));
    assert_eq!(kind("resume"), Some(ClientKind::ResumePick));
    assert_eq!(kind("exec hi"), None);
    assert_eq!(kind("app-server --listen unix:// --managed-daemon"), None);
    assert_eq!(kind("--no-daemon"), None);
    // A flag's value is not a positional: `-m resume` names a model.
    assert_eq!(kind("-m resume"), Some(ClientKind::New));
    assert_eq!(kind("-C /x"), Some(ClientKind::New));
}

#[test]
fn argv_dirs() {
    let dir = |s: &str| client_kind(&words(s)).map(|(_, d)| d);
    assert_eq!(dir(""), Some(LaunchDir::Own));
    assert_eq!(dir("-C /x"), Some(LaunchDir::Cd("/x".into())));
    assert_eq!(dir("--cd=sub"), Some(LaunchDir::Cd("sub".into())));
    assert_eq!(dir("--worktree"), Some(LaunchDir::Unknown));
    assert_eq!(dir("resume --all"), Some(LaunchDir::Unknown));
    assert_eq!(dir("resume --last"), Some(LaunchDir::Own));
}

#[test]
fn uuid_v7_time() {
    assert_eq!(uuid_v7_millis(T_A), Some(1_796_086_112_704));
    assert_eq!(uuid_v7_millis(T_B), Some(1_796_086_112_513));
    assert_eq!(uuid_v7_millis("6b1e0c2a-aaaa-4bbb-cccc-0123456789ab"), None);
    assert_eq!(uuid_v7_millis("nope"), None);
}

#[test]
fn two_panes_in_two_dirs_each_get_their_own_thread() {
    let v = view(
        vec![
            client(10, "", "/p1", MINTED_S, "left"),
            client(20, "", "/p2", MINTED_S, "right"),
        ],
        vec![loaded(T_A, "/p1"), loaded(T_B, "/p2")],
    );
    // The daemon's environment is `left`'s: its own thread keeps it, verified.
    let a = decide(&hook_env(), T_A, "/p1", &v);
    let Attribution::Pane(p) = a else {
        panic!("{a:?}")
    };
    assert_eq!((p.tui_pid, p.same_as_hook_env), (10, true));
    assert_eq!(p.env_for_hook(&hook_env()), hook_env());
    let b = decide(&hook_env(), T_B, "/p2", &v);
    assert_eq!(pane_of(&b), Some("right"));
    let Attribution::Pane(p) = b else {
        unreachable!()
    };
    assert_eq!((p.tui_pid, p.same_as_hook_env), (20, false));
    let env = p.env_for_hook(&hook_env());
    assert_eq!(env.get("AGTERM_PANE").map(String::as_str), Some("right"));
    assert_eq!(env.get("CODEX_HOME").map(String::as_str), Some("/h"));
}

#[test]
fn a_pane_outside_agterm_drops_the_daemons_agterm_vars() {
    let mut outside = client(20, "", "/p2", MINTED_S, "right");
    outside.pane_env.clear();
    let v = view(
        vec![client(10, "", "/p1", MINTED_S, "left"), outside],
        vec![],
    );
    let Attribution::Pane(p) = decide(&hook_env(), T_B, "/p2", &v) else {
        panic!()
    };
    assert!(!p
        .env_for_hook(&hook_env())
        .keys()
        .any(|k| k.starts_with("AGTERM_")));
}

#[test]
fn two_panes_in_one_dir_are_uncertain_never_wrong() {
    let v = view(
        vec![
            client(10, "", "/p", MINTED_S, "left"),
            client(20, "", "/p", MINTED_S, "right"),
        ],
        vec![loaded(T_A, "/p"), loaded(T_B, "/p")],
    );
    assert_eq!(pane_of(&decide(&hook_env(), T_A, "/p", &v)), None);
    assert_eq!(pane_of(&decide(&hook_env(), T_B, "/p", &v)), None);
}

#[test]
fn a_pane_started_after_the_thread_was_minted_does_not_own_it() {
    // T_B runs on without a TUI (quit mid-turn); a new TUI started later in the same dir.
    let v = view(
        vec![client(30, "", "/p", MINTED_S + 60, "right")],
        vec![loaded(T_B, "/p")],
    );
    let a = decide(&hook_env(), T_B, "/p", &v);
    assert!(
        matches!(a, Attribution::Uncertain(ref r) if r.contains("without a TUI")),
        "{a:?}"
    );
}

#[test]
fn an_older_pane_that_could_run_two_loaded_threads_is_uncertain() {
    // Pane `right` started before both threads: it may have made either with /new.
    let v = view(
        vec![client(20, "", "/p", MINTED_S - 60, "right")],
        vec![loaded(T_A, "/p"), loaded(T_B, "/p")],
    );
    let a = decide(&hook_env(), T_B, "/p", &v);
    assert!(
        matches!(a, Attribution::Uncertain(ref r) if r.contains("as well")),
        "{a:?}"
    );
}

#[test]
fn resume_by_id_wins_over_cwd_and_age() {
    let v = view(
        vec![
            client(10, "", "/p", MINTED_S - 60, "left"),
            client(
                20,
                &format!("resume {T_B}"),
                "/elsewhere",
                MINTED_S + 3600,
                "right",
            ),
        ],
        vec![loaded(T_A, "/p"), loaded(T_B, "/p")],
    );
    assert_eq!(pane_of(&decide(&hook_env(), T_B, "/p", &v)), Some("right"));
    // And the thread resumed by id elsewhere is no rival of `left`'s own.
    assert_eq!(pane_of(&decide(&hook_env(), T_A, "/p", &v)), Some("left"));
}

#[test]
fn one_thread_resumed_twice_is_uncertain() {
    let r = format!("resume {T_B}");
    let v = view(
        vec![
            client(10, &r, "/p", MINTED_S, "left"),
            client(20, &r, "/q", MINTED_S, "right"),
        ],
        vec![loaded(T_B, "/p")],
    );
    assert_eq!(pane_of(&decide(&hook_env(), T_B, "/p", &v)), None);
}

#[test]
fn resume_picker_and_worktree_could_run_anything() {
    let picker = view(
        vec![client(20, "resume --last", "/p", MINTED_S + 3600, "right")],
        vec![loaded(T_B, "/p")],
    );
    assert_eq!(
        pane_of(&decide(&hook_env(), T_B, "/p", &picker)),
        Some("right")
    );
    let v = view(
        vec![
            client(10, "--worktree", "/x", MINTED_S, "left"),
            client(20, "", "/p", MINTED_S, "right"),
        ],
        vec![loaded(T_B, "/p")],
    );
    assert_eq!(pane_of(&decide(&hook_env(), T_B, "/p", &v)), None);
}

#[test]
fn no_tui_at_all_is_uncertain() {
    assert_eq!(
        pane_of(&decide(&hook_env(), T_A, "/p", &view(vec![], vec![]))),
        None
    );
}

/// A Codex daemon started from one zmx session runs the hooks of a TUI in another: the TUI's session
/// (and socket dir) replace the daemon's, and a TUI outside zmx leaves none behind.
#[test]
fn zmx_session_variables_are_pane_variables() {
    for var in ["ZMX_SESSION", "ZMX_DIR", "TMUX", "TMUX_PANE", "AGTERM_PANE"] {
        assert!(is_pane_var(var), "{var}");
    }
    assert!(!is_pane_var("ZMX_SESSION_PREFIX") && !is_pane_var("XDG_RUNTIME_DIR"));
    let mut daemon_env = hook_env();
    daemon_env.insert("ZMX_SESSION".into(), "first".into());
    let mut tui = client(20, "", "/p2", MINTED_S, "right");
    tui.pane_env.insert("ZMX_SESSION".into(), "second".into());
    let v = view(vec![client(10, "", "/p1", MINTED_S, "left"), tui], vec![]);
    let Attribution::Pane(p) = decide(&daemon_env, T_B, "/p2", &v) else {
        panic!()
    };
    let env = p.env_for_hook(&daemon_env);
    assert_eq!(env.get("ZMX_SESSION").map(String::as_str), Some("second"));
}
