//! Codex's default (daemon) mode with the real CLI: two TUIs in two panes share one
//! `codex app-server --managed-daemon`, which runs every hook with the environment of the TUI that
//! started it. Each hook is held while it runs (the hook handler waits for a release file), and this
//! test attributes it, from outside, exactly as the hook would from inside: with the hook's pid, the
//! hook's own environment (read from `/proc`) and its payload, through
//! `agterm_backup_hook::codex_daemon::attribute` over the real `/proc`.
//!
//! Asserted: the second pane's hooks carry the first pane's `AGTERM_*` (the problem is real); with two
//! panes in two directories every hook is attributed to the pane whose prompt started the thread; once a
//! third pane runs Codex in the first pane's directory, no hook of that directory is given to a wrong
//! pane (they are `Uncertain`, or right). Skipped with a SKIPPED line when the CLI is absent.

use agterm_backup_core::quote::quote_words;
use agterm_backup_hook::codex_daemon::probe::parse_environ;
use agterm_backup_hook::codex_daemon::{attribute, Attribution, Env, ProcFsLookup};
use agterm_backup_testkit::agents::rig::Rig;
use agterm_backup_testkit::agents::{
    start_in_pane, submit_until, wait_ready, wait_screen, Agent, AgtermPane,
};
use agterm_backup_testkit::paths::agent_cli;
use agterm_backup_testkit::settle::{wait_runs_gone, Runs, HOOKS};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

const AGENT_START: Duration = agterm_backup_testkit::agents::AGENT_START;
const TURN: Duration = agterm_backup_testkit::agents::TURN;

/// One held hook run and its verdict.
#[derive(Debug, Clone)]
struct Seen {
    event: String,
    session_id: String,
    prompt: Option<String>,
    /// `AGTERM_PANE_ID` of the hook's own environment (the daemon's).
    own_pane_id: Option<String>,
    /// `AGTERM_PANE_ID` the attribution gives (`None` = uncertain).
    attributed: Option<String>,
    verdict: String,
    /// How long the attribution took.
    took: Duration,
}

/// The hook handler: saves its payload in `<holds>/<pid>/`, waits (at most 5 s) for `release`, then
/// becomes the real hook (`exec`: same pid, same parent, the daemon) on that payload, so the records it
/// leaves are the product's own verdict.
fn hold_script(holds: &Path) -> String {
    format!(
        "#!/bin/sh\nd={}/$$\nmkdir -p \"$d.part\" && cat > \"$d.part/payload.json\" && mv \"$d.part\" \"$d\"\n\
         i=0\nwhile [ ! -e \"$d/release\" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i+1)); done\n\
         exec {} hook codex < \"$d/payload.json\"\n",
        agterm_backup_core::quote::quote(&holds.display().to_string()),
        agterm_backup_core::quote::quote(agterm_backup_testkit::agterm_backup_bin!()),
    )
}

/// The session id in the record the real hook left for `pane`, if any.
fn recorded_id(pane: &AgtermPane) -> Option<String> {
    let path = pane.state_dir.join("live").join(format!(
        "{}-{}.json",
        pane.session_id.to_ascii_uppercase(),
        pane.role
    ));
    let v: Value = serde_json::from_slice(&std::fs::read(path).ok()?).ok()?;
    v["session_id"].as_str().map(str::to_string)
}

/// Attributes every held hook as it appears, then releases it; runs until `stop`.
fn attribute_held_hooks(holds: PathBuf, seen: Arc<Mutex<Vec<Seen>>>, stop: Arc<AtomicBool>) {
    let mut done = std::collections::HashSet::new();
    while !stop.load(Ordering::SeqCst) {
        for entry in std::fs::read_dir(&holds).into_iter().flatten().flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let Ok(pid) = name.parse::<u32>() else {
                continue;
            };
            if !done.insert(pid) {
                continue;
            }
            let payload: Value = serde_json::from_slice(
                &std::fs::read(entry.path().join("payload.json")).unwrap_or_default(),
            )
            .unwrap_or(Value::Null);
            let env: Env =
                parse_environ(&std::fs::read(format!("/proc/{pid}/environ")).unwrap_or_default());
            let text = |k: &str| payload[k].as_str().unwrap_or_default().to_string();
            let started = std::time::Instant::now();
            let verdict = attribute(&env, &text("session_id"), &text("cwd"), pid, &ProcFsLookup);
            let attributed = match &verdict {
                Attribution::Own => env.get("AGTERM_PANE_ID").cloned(),
                Attribution::Pane(p) => p.pane_env.get("AGTERM_PANE_ID").cloned(),
                Attribution::Uncertain(_) => None,
            };
            seen.lock().unwrap().push(Seen {
                event: text("hook_event_name"),
                session_id: text("session_id"),
                prompt: payload["prompt"].as_str().map(String::from),
                own_pane_id: env.get("AGTERM_PANE_ID").cloned(),
                attributed,
                verdict: format!("{verdict:?}"),
                took: started.elapsed(),
            });
            let _ = std::fs::write(entry.path().join("release"), b"");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Stops the Codex daemons of `codex_home` (processes this test started, found by their environment).
struct DaemonReaper(PathBuf);

impl Drop for DaemonReaper {
    fn drop(&mut self) {
        let home = self.0.display().to_string();
        for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
            let Ok(pid) = entry.file_name().to_string_lossy().parse::<i32>() else {
                continue;
            };
            let argv = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
            let env =
                parse_environ(&std::fs::read(format!("/proc/{pid}/environ")).unwrap_or_default());
            if String::from_utf8_lossy(&argv).contains("app-server")
                && env.get("CODEX_HOME") == Some(&home)
            {
                // SAFETY: kill has no memory preconditions; the pid is a daemon of this test's home.
                unsafe { libc::kill(pid, libc::SIGTERM) };
            }
        }
    }
}

struct CodexPane {
    agterm: AgtermPane,
    tmux: String,
}

fn start_codex(rig: &Rig, codex: &Path, name: &str, dir: &str, role: &str) -> CodexPane {
    let agterm = rig.pane(role);
    let env = rig.pane_env(&agterm);
    let line = quote_words(&[
        codex.display().to_string(),
        "-m".into(),
        "mock-model".into(),
    ]);
    let tmux = start_in_pane(&rig.tmux, name, &rig.root.join(dir), &env, &line);
    wait_ready(&rig.tmux, &tmux, Agent::Codex, AGENT_START);
    CodexPane { agterm, tmux }
}

fn run_turn(rig: &Rig, pane: &CodexPane, prompt: &str, seen: &Mutex<Vec<Seen>>) {
    let before = count_stops(seen);
    let hooks_before = seen.lock().unwrap().len();
    // A TUI that has just attached to the daemon may drop the first Enter: `submit_until` presses it
    // again until the prompt's first hook shows up.
    submit_until(&rig.tmux, &pane.tmux, prompt, TURN, || {
        seen.lock().unwrap().len() > hooks_before
    });
    let screen = |_: &str| count_stops(seen) > before;
    wait_screen(&rig.tmux, &pane.tmux, TURN, "the turn's Stop hook", screen);
}

fn count_stops(seen: &Mutex<Vec<Seen>>) -> usize {
    seen.lock()
        .unwrap()
        .iter()
        .filter(|s| s.event == "Stop")
        .count()
}

/// Trusts every hook in the config the way the TUI does: `hooks/list` gives each key's current hash.
fn trust_all_hooks(rig: &Rig, codex: &Path) {
    let env = [
        (
            "CODEX_HOME".to_string(),
            rig.home.codex_home.display().to_string(),
        ),
        ("HOME".to_string(), rig.home.home.display().to_string()),
    ];
    let listed =
        agterm_backup_installer::trust::list_hooks(codex, &rig.root, &env, Duration::from_secs(30))
            .expect("codex app-server hooks/list");
    let mut toml = String::new();
    for hook in listed["data"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|e| e["hooks"].as_array().into_iter().flatten())
    {
        let (Some(key), Some(hash)) = (hook["key"].as_str(), hook["currentHash"].as_str()) else {
            continue;
        };
        toml.push_str(&format!(
            "\n[hooks.state.{}]\ntrusted_hash = {}\n",
            serde_json::to_string(key).unwrap(),
            serde_json::to_string(hash).unwrap()
        ));
    }
    assert!(!toml.is_empty(), "hooks/list named no hook: {listed}");
    let config = rig.home.codex_home.join("config.toml");
    let mut text = std::fs::read_to_string(&config).unwrap();
    text.push_str(&toml);
    std::fs::write(&config, text).unwrap();
}

/// The pane whose prompt (`pane:<id>`) a thread received: the ground truth for its hooks.
fn thread_owners(seen: &[Seen]) -> BTreeMap<String, String> {
    seen.iter()
        .filter_map(|s| {
            let prompt = s.prompt.as_deref()?;
            let pane = prompt
                .split_whitespace()
                .find_map(|w| w.strip_prefix("pane:"))?;
            Some((s.session_id.clone(), pane.to_string()))
        })
        .collect()
}

#[test]
fn daemon_run_hooks_go_to_their_own_pane_or_nowhere() {
    let Some(codex) = agent_cli("codex") else {
        return;
    };
    let rig = Rig::new(&["p1", "p2"]);
    let _reaper = DaemonReaper(rig.home.codex_home.clone());
    let holds = rig.root.join("holds");
    std::fs::create_dir_all(&holds).unwrap();
    let script = rig.root.join("hold.sh");
    std::fs::write(&script, hold_script(&holds)).unwrap();
    let exec = <std::fs::Permissions as std::os::unix::fs::PermissionsExt>::from_mode(0o755);
    std::fs::set_permissions(&script, exec).unwrap();
    rig.home
        .write_codex_config(&rig.stub, &[quote_words(&[script.display().to_string()])]);
    trust_all_hooks(&rig, &codex);

    let seen = Arc::new(Mutex::new(Vec::new()));
    let stop = Arc::new(AtomicBool::new(false));
    let worker = {
        let (holds, seen, stop) = (holds.clone(), Arc::clone(&seen), Arc::clone(&stop));
        std::thread::spawn(move || attribute_held_hooks(holds, seen, stop))
    };

    // Phase 1: two panes, two directories, one daemon (started by pane A's TUI).
    let a = start_codex(&rig, &codex, "a", "p1", "left");
    let b = start_codex(&rig, &codex, "b", "p2", "right");
    run_turn(
        &rig,
        &a,
        &format!("pane:{} USE_TOOL", a.agterm.pane_id),
        &seen,
    );
    run_turn(
        &rig,
        &b,
        &format!("pane:{} USE_TOOL", b.agterm.pane_id),
        &seen,
    );
    let phase1 = seen.lock().unwrap().clone();
    // The real hook, run by the daemon with pane A's environment, recorded each thread in its own pane.
    let owners1 = thread_owners(&phase1);
    let thread_of = |pane: &CodexPane, owners: &BTreeMap<String, String>| {
        owners
            .iter()
            .find(|(_, p)| **p == pane.agterm.pane_id)
            .map(|(t, _)| t.clone())
    };
    let (a_thread, b_thread) = (thread_of(&a, &owners1), thread_of(&b, &owners1));
    assert!(a_thread.is_some() && b_thread.is_some(), "{phase1:?}");
    let settle = |want: &Option<String>, pane: &CodexPane| {
        let until = std::time::Instant::now() + Duration::from_secs(10);
        while recorded_id(&pane.agterm) != *want && std::time::Instant::now() < until {
            std::thread::sleep(Duration::from_millis(100));
        }
        recorded_id(&pane.agterm)
    };
    assert_eq!(settle(&a_thread, &a), a_thread, "pane A's record");
    assert_eq!(
        settle(&b_thread, &b),
        b_thread,
        "pane B's record (its hooks ran with A's env)"
    );

    // Phase 2: a third pane in pane A's directory; then both of p1's panes take a turn.
    let c = start_codex(&rig, &codex, "c", "p1", "left");
    run_turn(
        &rig,
        &c,
        &format!("pane:{} USE_TOOL", c.agterm.pane_id),
        &seen,
    );
    run_turn(&rig, &a, "again USE_TOOL", &seen);
    stop.store(true, Ordering::SeqCst);
    worker.join().unwrap();
    let all = seen.lock().unwrap().clone();
    let report = all
        .iter()
        .map(|s| format!("{s:?}"))
        .collect::<Vec<_>>()
        .join("\n");
    let slowest = all.iter().map(|s| s.took).max().unwrap_or_default();
    eprintln!(
        "{} hooks attributed; slowest attribution {slowest:?}",
        all.len()
    );

    let owners = thread_owners(&all);
    assert_eq!(owners.len(), 3, "three threads, one per pane:\n{report}");
    // Every hook of every thread: the right pane, or nothing.
    for s in &all {
        let owner = owners
            .get(&s.session_id)
            .unwrap_or_else(|| panic!("unknown thread in {s:?}"));
        if let Some(given) = &s.attributed {
            assert_eq!(given, owner, "a hook given to the wrong pane:\n{report}");
        }
    }
    // The problem is real: pane B's hooks run with pane A's environment ...
    let b_hooks: Vec<&Seen> = phase1
        .iter()
        .filter(|s| owners[&s.session_id] == b.agterm.pane_id)
        .collect();
    assert_eq!(
        b_hooks.len(),
        4,
        "SessionStart, UserPromptSubmit, PreToolUse, Stop:\n{report}"
    );
    assert!(
        b_hooks
            .iter()
            .all(|s| s.own_pane_id.as_deref() == Some(a.agterm.pane_id.as_str())),
        "{report}"
    );
    // ... and with two panes in two directories every hook is attributed, to its own pane.
    assert_eq!(phase1.len(), 8, "{report}");
    assert!(
        phase1
            .iter()
            .all(|s| s.attributed.is_some() && s.verdict.starts_with("Pane(")),
        "every phase-1 hook attributed:\n{report}"
    );
    assert!(
        b_hooks.iter().all(|s| s.verdict.starts_with("Pane(")),
        "{report}"
    );
    // Phase 2: p1 has two TUIs whose threads both postdate pane A's start: neither can be told apart.
    let p1_later: Vec<&Seen> = all[phase1.len()..]
        .iter()
        .filter(|s| owners[&s.session_id] != b.agterm.pane_id)
        .collect();
    // Pane C's four hooks, and pane A's second turn (no second SessionStart).
    assert_eq!(p1_later.len(), 7, "{report}");
    assert!(
        p1_later.iter().all(|s| s.attributed.is_none()),
        "same directory → uncertain:\n{report}"
    );
    // And the product agrees: nothing for pane C, pane A keeps its own thread, and the uncertainty is
    // written down for `status`.
    // Every hook seen was released: the product's verdicts are on disk once no held script (still
    // waiting for its release) and no `hook codex` it became is left.
    let held_hooks = Runs {
        subcommands: HOOKS.subcommands,
        scripts: &[&script.display().to_string()],
    };
    wait_runs_gone(&rig.root, held_hooks, TURN);
    assert_eq!(recorded_id(&c.agterm), None, "pane C must get no record");
    assert_eq!(
        recorded_id(&a.agterm),
        a_thread,
        "pane A's record must not move"
    );
    let unattributed =
        std::fs::read_to_string(a.agterm.state_dir.join("live/unattributed-codex.jsonl"))
            .unwrap_or_default();
    assert!(
        unattributed.lines().count() >= p1_later.len(),
        "{unattributed}"
    );
}
