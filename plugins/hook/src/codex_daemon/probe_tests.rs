//! The probe over a process table shaped like the one observed with codex 0.169.0, and the parsers and
//! the unattributed log.

use super::probe::{codex_home, parse_environ, parse_rollout_head};
use super::tests::{loaded, pane_of, words, MINTED_S, T_A, T_B};
use super::*;
use agterm_backup_core::process::ProcessSource;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// A process table for the probe: pid → (parent, argv, cwd, env), open files, rollout heads.
#[derive(Default)]
struct Table {
    procs: HashMap<u32, (u32, Vec<String>, String, Env)>,
    open: HashMap<u32, Vec<PathBuf>>,
    heads: HashMap<PathBuf, (String, String)>,
}

impl Table {
    fn add(&mut self, pid: u32, parent: u32, cmd: &str, cwd: &str, env: &[(&str, &str)]) {
        let env = env
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        self.procs
            .insert(pid, (parent, words(cmd), cwd.into(), env));
    }
}

impl ProcessSource for Table {
    fn parent(&self, pid: u32) -> Option<u32> {
        self.procs.get(&pid).map(|p| p.0)
    }
    fn argv(&self, pid: u32) -> Option<Vec<String>> {
        self.procs.get(&pid).map(|p| p.1.clone())
    }
    fn cwd(&self, pid: u32) -> Option<PathBuf> {
        self.procs.get(&pid).map(|p| PathBuf::from(&p.2))
    }
    fn start_time(&self, _pid: u32) -> Option<i64> {
        Some(MINTED_S)
    }
}

impl ProcessLookup for Table {
    fn pids(&self) -> Vec<u32> {
        let mut pids: Vec<u32> = self.procs.keys().copied().collect();
        pids.sort();
        pids
    }
    fn environ(&self, pid: u32) -> Option<Env> {
        self.procs.get(&pid).map(|p| p.3.clone())
    }
    fn open_files(&self, pid: u32) -> Vec<PathBuf> {
        self.open.get(&pid).cloned().unwrap_or_default()
    }
    fn rollout_head(&self, path: &Path) -> Option<(String, String)> {
        self.heads.get(path).cloned()
    }
    fn canonical(&self, path: &str) -> String {
        path.trim_end_matches('/').to_string()
    }
}

/// The tree observed with codex 0.169.0: the daemon is a child of the first TUI (pane left), in its own
/// session; a hook of pane right's thread is the daemon's child.
fn observed_tree() -> Table {
    let mut t = Table::default();
    let home = [("CODEX_HOME", "/h")];
    let left = [
        ("CODEX_HOME", "/h"),
        ("AGTERM_SESSION_ID", "S1"),
        ("AGTERM_PANE", "left"),
    ];
    let right = [
        ("CODEX_HOME", "/h"),
        ("AGTERM_SESSION_ID", "S1"),
        ("AGTERM_PANE", "right"),
    ];
    let native = "/n/node_modules/@openai/codex-linux-x64/vendor/x/bin/codex";
    t.add(100, 1, "bash", "/p1", &left);
    t.add(101, 100, "node /n/node_modules/.bin/codex", "/p1", &left);
    t.add(102, 101, native, "/p1", &left);
    t.add(
        103,
        102,
        "/h/packages/bin/codex app-server --listen unix:// --managed-daemon",
        "/p1",
        &left,
    );
    t.add(
        104,
        102,
        "/h/packages/bin/codex app-server daemon pid-update-loop",
        "/p1",
        &left,
    );
    t.add(200, 1, "bash", "/p2", &right);
    t.add(201, 200, "node /n/node_modules/.bin/codex", "/p2", &right);
    t.add(202, 201, native, "/p2", &right);
    // Another Codex home's TUI in /p2, and a --no-daemon TUI in /p2: neither is a client.
    t.add(
        300,
        1,
        &format!("{native} -C /p2"),
        "/",
        &[("CODEX_HOME", "/other")],
    );
    t.add(301, 1, &format!("{native} --no-daemon"), "/p2", &home);
    t.add(500, 103, "/bin/sh /hook", "/p2", &left);
    for (id, cwd) in [(T_A, "/p1"), (T_B, "/p2")] {
        let path = PathBuf::from(format!("/h/sessions/rollout-x-{id}.jsonl"));
        t.open.entry(103).or_default().push(path.clone());
        t.heads.insert(path, (id.into(), cwd.into()));
    }
    t.open
        .entry(103)
        .or_default()
        .push("/h/state_5.sqlite".into());
    t
}

#[test]
fn probe_finds_the_daemon_its_clients_and_threads() {
    let t = observed_tree();
    assert_eq!(probe::daemon_above(&t, 500), Some(103));
    // A hook of a --no-daemon TUI has the TUI itself as nearest Codex process.
    let mut direct = observed_tree();
    direct.add(600, 301, "/bin/sh /hook", "/p2", &[]);
    assert_eq!(probe::daemon_above(&direct, 600), None);
    let v = probe::view(&t, 103, &t.environ(500).unwrap());
    let pids: Vec<u32> = v.clients.iter().map(|c| c.pid).collect();
    assert_eq!(pids, vec![102, 202]);
    assert_eq!(v.loaded, vec![loaded(T_A, "/p1"), loaded(T_B, "/p2")]);
}

#[test]
fn attribute_end_to_end_over_the_observed_tree() {
    let t = observed_tree();
    let env = t.environ(500).unwrap();
    assert_eq!(
        pane_of(&attribute(&env, T_B, "/p2/", 500, &t)),
        Some("right")
    );
    assert_eq!(pane_of(&attribute(&env, T_A, "/p1", 500, &t)), Some("left"));
    let mut direct = observed_tree();
    direct.add(600, 301, "/bin/sh /hook", "/p2", &[]);
    assert_eq!(attribute(&env, T_B, "/p2", 600, &direct), Attribution::Own);
}

#[test]
fn environ_and_rollout_head_parse() {
    let env = parse_environ(b"A=1\0B=x=y\0=bad\0\0");
    assert_eq!(env.get("B").map(String::as_str), Some("x=y"));
    assert_eq!(env.len(), 2);
    let line = format!(
        r#"{{"timestamp":"t","type":"session_meta","payload":{{"id":"{T_A}","cwd":"/p"}}}}"#
    );
    assert_eq!(parse_rollout_head(&line), Some((T_A.into(), "/p".into())));
    assert_eq!(
        parse_rollout_head(r#"{"type":"turn_context","payload":{}}"#),
        None
    );
    let home = |pairs: &[(&str, &str)]| {
        codex_home(
            &pairs
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
        )
    };
    assert_eq!(home(&[("HOME", "/u/")]), Some("/u/.codex".into()));
    assert_eq!(
        home(&[("HOME", "/u"), ("CODEX_HOME", "/c")]),
        Some("/c".into())
    );
}

#[test]
fn unattributed_log_keeps_the_latest_per_unrecorded_thread() {
    let dir = tempfile::tempdir().unwrap();
    let state = agterm_backup_core::state::StateDir::at(dir.path());
    std::fs::create_dir_all(state.live_dir()).unwrap();
    let entry = |sid: &str, event: &str| unattributed::Unattributed {
        ts: "2026-12-01T00:00:00Z".into(),
        session_id: sid.into(),
        cwd: "/p".into(),
        event: event.into(),
        reason: "r".into(),
    };
    for e in [
        entry(T_A, "SessionStart"),
        entry(T_B, "Stop"),
        entry(T_A, "Stop"),
    ] {
        unattributed::append(&state, &e).unwrap();
    }
    let all = unattributed::read(&state);
    assert_eq!(all.len(), 3);
    let open = unattributed::outstanding(&all, |sid| sid == T_B);
    assert_eq!(open, vec![entry(T_A, "Stop")]);
    // The cap holds.
    for _ in 0..2000 {
        unattributed::append(&state, &entry(T_A, "Stop")).unwrap();
    }
    let len = std::fs::metadata(unattributed::path(&state)).unwrap().len();
    assert!(len <= unattributed::CAP_BYTES + 200, "{len}");
}
