//! Benchmark of the capture hook (`cargo bench --bench hook`): the cost of one agent hook event against a
//! bare process start measured in the same run.
//!
//! - baseline: `/bin/true` (same stdin, same environment): a process start and nothing else;
//! - `sh -c 'exec true <payload'`: a shell start, a redirect, an exec (how some agents run hooks);
//! - `agterm-backup --version`: the binary's own start (answered before the parser is built): dynamic
//!   loader, runtime, one write, exit;
//! - steady, agterm answering: `agterm-backup hook claude`, same session, record already there and its
//!   line pinned through a socket that answers as agterm does (the PreToolUse storm case), from a
//!   stand-in `claude` process named in `$CLAUDE_PID` as Claude Code does;
//! - steady, agterm gone: the same with `$AGTERM_SOCKET` naming a socket nobody listens on any more
//!   (agterm quit, Live daemons keep the agents running): the first event's pin failed, the events after
//!   it must wait out the backoff step (no connect, no rewrite, no log line);
//! - steady in tmux: the same from a pane of a real tmux server (`$TMUX`, `$TMUX_PANE`, inside the
//!   agterm pane of the env: the inner terminal wins): the pane's name comes from the hook's cache, so
//!   tmux is not asked;
//! - steady in zmx: the same from a zmx session (`$ZMX_SESSION`, `$ZMX_DIR` naming a bound socket, inside
//!   the agterm pane of the env): the session is read from the env, its start from one `stat`;
//! - steady, tmux and zmx nested: both sets in the env (a zmx session started from the tmux pane), so the
//!   hook walks the process tree to the innermost (`/proc` reads only; the stand-in agent's parents);
//! - first: the first event of a pane: no state directory yet (creates it, writes record and journal),
//!   on the temp folder's disk and on tmpfs (`/dev/shm`), to separate the hook's work from fsync.
//!
//! Kinds are interleaved so drift hits them alike. Prints, per kind, the median wall time (spawn to
//! reaped) and the median CPU time of the child (user + system, from `wait4`: on a loaded machine the
//! wall time also counts waiting for a core, the CPU time does not), each as the difference and ratio to
//! `/bin/true`, and the hook's peak RSS (`ru_maxrss`). Targets: the binary's start
//! within 0.3 ms of `/bin/true`, every steady case within 1 ms, first under 5 ms, peak RSS under 4 MiB.

use agterm_backup_core::pane::PaneRole;
use agterm_backup_core::record::PinOutcome;
use agterm_backup_core::state::StateDir;
use std::fs::File;
use std::io::{BufRead, BufReader, Write};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Instant;

mod measure;
use measure::{timed, Samples};

const ROUNDS: usize = 200;
const PANE: &str = "6B1E0C2A-AAAA-BBBB-CCCC-0123456789AB";

/// A stand-in Claude Code process (a copy of `/bin/sh` named `claude`, running a script that sleeps, so
/// its argv is `[claude, <script>, --model, sonnet]`), whose pid the hook gets in `$CLAUDE_PID` as from
/// a real Claude Code (2.1.214+). Killed on drop.
struct StandInAgent(std::process::Child);

impl StandInAgent {
    fn start(dir: &Path) -> StandInAgent {
        let bin = dir.join("claude");
        std::fs::copy("/bin/sh", &bin).expect("copy /bin/sh");
        let script = dir.join("agent.sh");
        std::fs::write(&script, "sleep 600\n").unwrap();
        let child = Command::new(&bin)
            .arg(&script)
            .args(["--model", "sonnet"])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .process_group(0)
            .spawn()
            .expect("start the stand-in agent");
        StandInAgent(child)
    }
}

impl Drop for StandInAgent {
    fn drop(&mut self) {
        // SAFETY: signalling the process group this bench started (the shell and its `sleep`).
        unsafe { libc::kill(-(self.0.id() as libc::pid_t), libc::SIGKILL) };
        let _ = self.0.wait();
    }
}

static AGENT_PID: std::sync::OnceLock<u32> = std::sync::OnceLock::new();

/// A socket that answers every request as agterm answers a stored pin; counts the requests.
fn answering_agterm(path: &Path) -> std::sync::Arc<std::sync::atomic::AtomicUsize> {
    let listener = std::os::unix::net::UnixListener::bind(path).expect("bind the stand-in agterm");
    let count = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let seen = count.clone();
    std::thread::spawn(move || {
        for conn in listener.incoming().flatten() {
            let mut line = String::new();
            let _ = BufReader::new(&conn).read_line(&mut line);
            seen.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            let _ = (&conn).write_all(
                format!("{{\"ok\":true,\"result\":{{\"id\":\"{PANE}\"}}}}\n").as_bytes(),
            );
        }
    });
    count
}

fn hook_cmd(bin: &Path, state: &Path, payload: &Path, socket: Option<&Path>) -> Command {
    let mut c = Command::new(bin);
    c.args(["hook", "claude"])
        .env_clear()
        .env("PATH", "/usr/bin:/bin")
        .env("AGTERM_BACKUP_HOME", state)
        .env("AGTERM_SESSION_ID", PANE)
        .env("AGTERM_PANE", "left")
        .env("AGTERM_PANE_ID", "9A2F0000-0000-0000-0000-000000000001")
        .env("CLAUDE_CODE_ENTRYPOINT", "cli")
        .env(
            "CLAUDE_PID",
            AGENT_PID.get().expect("stand-in agent").to_string(),
        )
        .stdin(File::open(payload).unwrap());
    if let Some(socket) = socket {
        c.env("AGTERM_SOCKET", socket);
    }
    c
}

fn pin_failures_logged(state: &StateDir) -> usize {
    std::fs::read_to_string(state.log_path())
        .unwrap_or_default()
        .matches("pin failed")
        .count()
}

/// A private tmux server with one pane; killed on drop. `env` is what the pane's processes see.
struct TmuxServer {
    socket: std::path::PathBuf,
    env: [(&'static str, String); 2],
}

impl TmuxServer {
    fn start(dir: &Path) -> TmuxServer {
        let socket = dir.join("bench-tmux.sock");
        let tmux = |args: &[&str]| {
            let out = Command::new("tmux")
                .arg("-S")
                .arg(&socket)
                .arg("-f")
                .arg("/dev/null")
                .args(args)
                .env_remove("TMUX")
                .output()
                .expect("tmux runs");
            assert!(out.status.success(), "tmux {args:?}");
            String::from_utf8_lossy(&out.stdout).trim().to_string()
        };
        let pane = tmux(&["new-session", "-d", "-P", "-F", "#{pane_id}", "sleep 600"]);
        let pid = tmux(&["display-message", "-p", "#{pid}"]);
        TmuxServer {
            env: [
                ("TMUX", format!("{},{pid},0", socket.display())),
                ("TMUX_PANE", pane),
            ],
            socket,
        }
    }

    /// `hook_cmd` as run from this server's pane.
    fn hook_cmd(&self, bin: &Path, state: &Path, payload: &Path) -> Command {
        let mut c = hook_cmd(bin, state, payload, None);
        c.envs(self.env.iter().map(|(k, v)| (k, v)));
        c
    }
}

impl Drop for TmuxServer {
    fn drop(&mut self) {
        let _ = Command::new("tmux")
            .arg("-S")
            .arg(&self.socket)
            .arg("kill-server")
            .output();
    }
}

fn main() {
    let bin = Path::new(agterm_backup_testkit::agterm_backup_bin!());
    let dir = tempfile::tempdir().unwrap();
    let payload = dir.path().join("payload.json");
    let id = "77e8ca85-2b1c-4a8e-9d0b-0c1d2e3f4a5b";
    std::fs::write(
        &payload,
        format!(
            r#"{{"session_id":"{id}","transcript_path":"/h/.claude/projects/-w-p/{id}.jsonl","cwd":"/w/p","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{{"command":"npm test"}},"tool_use_id":"toolu_01"}}"#
        ),
    )
    .unwrap();
    let agent = StandInAgent::start(dir.path());
    AGENT_PID.set(agent.0.id()).unwrap();
    let steady_state = dir.path().join("steady");
    let socket = dir.path().join("agterm.sock");
    let pins = answering_agterm(&socket);
    let gone_state = dir.path().join("gone");
    let gone_socket = dir.path().join("gone.sock");
    drop(std::os::unix::net::UnixListener::bind(&gone_socket).unwrap());
    // Warm up, and create each steady state's record: the first event pins (or fails to).
    for _ in 0..5 {
        timed(hook_cmd(bin, &steady_state, &payload, Some(&socket)));
        timed(hook_cmd(bin, &gone_state, &payload, Some(&gone_socket)));
    }
    let key = agterm_backup_agterm::key::key(PANE, PaneRole::Left).unwrap();
    let state = StateDir::at(&steady_state);
    let record = state.read_record(&key).unwrap_or_else(|| {
        panic!(
            "the hook did not write its record: see {}/hook.log",
            steady_state.display()
        )
    });
    assert_eq!(
        record.pin,
        Some(PinOutcome::Ok),
        "pinned through the socket"
    );
    assert_eq!(
        pins.load(std::sync::atomic::Ordering::SeqCst),
        1,
        "pinned once"
    );
    let gone = StateDir::at(&gone_state);
    assert_eq!(gone.read_record(&key).unwrap().pin, Some(PinOutcome::Error));
    assert_eq!(
        pin_failures_logged(&gone),
        1,
        "one log line for the first step"
    );
    let gone_since = Instant::now();
    let _ = std::fs::remove_file(state.log_path());

    let tmux = TmuxServer::start(dir.path());
    let tmux_state = dir.path().join("steady-tmux");
    for _ in 0..5 {
        timed(tmux.hook_cmd(bin, &tmux_state, &payload));
    }
    let tmux_records = std::fs::read_dir(tmux_state.join("live"))
        .map(|d| {
            d.flatten()
                .filter(|e| e.file_name().to_string_lossy().starts_with("tmux."))
                .count()
        })
        .unwrap_or(0);
    assert!(
        tmux_records > 0,
        "no tmux record: see {}",
        tmux_state.join("hook.log").display()
    );

    let zmx_dir = dir.path().join("zmx");
    std::fs::create_dir_all(&zmx_dir).unwrap();
    let _zmx_socket = std::os::unix::net::UnixListener::bind(zmx_dir.join("bench")).unwrap();
    let zmx_cmd = |state: &Path, nested: bool| {
        let mut c = match nested {
            true => tmux.hook_cmd(bin, state, &payload),
            false => hook_cmd(bin, state, &payload, None),
        };
        c.env("ZMX_SESSION", "bench").env("ZMX_DIR", &zmx_dir);
        c
    };
    let (zmx_state, nested_state) = (dir.path().join("steady-zmx"), dir.path().join("nested"));
    for _ in 0..5 {
        timed(zmx_cmd(&zmx_state, false));
        timed(zmx_cmd(&nested_state, true));
    }
    let zmx_records = |state: &Path| {
        std::fs::read_dir(state.join("live")).map_or(0, |d| {
            d.flatten()
                .filter(|e| e.file_name().to_string_lossy().starts_with("zmx."))
                .count()
        })
    };
    assert!(zmx_records(&zmx_state) > 0, "no zmx record");
    // No multiplexer among the stand-in agent's parents: tmux, as before zmx support.
    assert!(
        zmx_records(&nested_state) == 0,
        "nested: the walk found no zmx"
    );

    // The first event's cost is mostly fsync (record, folder, journal): measured on the temp folder's
    // disk and, when there is one, on tmpfs (what the hook itself costs).
    let shm = tempfile::tempdir_in("/dev/shm").ok();
    let plain = |program: &str| {
        let mut c = Command::new(program);
        c.env_clear()
            .env("PATH", "/usr/bin:/bin")
            .stdin(File::open(&payload).unwrap());
        c
    };
    let mut kinds: Vec<(&str, Samples)> = [
        "baseline /bin/true",
        "sh -c 'exec true <payload'",
        "agterm-backup --version (<= +0.3 ms)",
        "steady, agterm answering (<= +1 ms)",
        "steady, agterm gone (<= +1 ms)",
        "steady, tmux pane (<= +1 ms)",
        "steady, zmx session (<= +1 ms)",
        "steady, tmux and zmx nested (<= +1 ms)",
        "first event, disk (target: < 5 ms)",
        "first event, tmpfs",
    ]
    .map(|name| (name, Samples::default()))
    .into();
    let started = Instant::now();
    for round in 0..ROUNDS {
        let mut sh = plain("/bin/sh");
        sh.arg("-c")
            .arg(format!("exec true <'{}'", payload.display()));
        let mut version = plain(bin.to_str().unwrap());
        version.arg("--version");
        let fresh = dir.path().join(format!("first-{round}"));
        let mut runs = vec![
            plain("/bin/true"),
            sh,
            version,
            hook_cmd(bin, &steady_state, &payload, Some(&socket)),
            hook_cmd(bin, &gone_state, &payload, Some(&gone_socket)),
            tmux.hook_cmd(bin, &tmux_state, &payload),
            zmx_cmd(&zmx_state, false),
            zmx_cmd(&nested_state, true),
            hook_cmd(bin, &fresh, &payload, Some(&socket)),
        ];
        if let Some(shm) = &shm {
            let fresh = shm.path().join(format!("first-{round}"));
            runs.push(hook_cmd(bin, &fresh, &payload, Some(&socket)));
        }
        for (kind, cmd) in runs.into_iter().enumerate() {
            kinds[kind].1.add(timed(cmd));
        }
        let journal = fresh
            .join("live")
            .join(format!("{PANE}-left.history.jsonl"));
        assert!(journal.exists());
    }
    let log = std::fs::read_to_string(state.log_path()).unwrap_or_default();
    assert!(log.is_empty(), "the steady state logged: {log}");
    let record = state.read_record(&key).expect("steady record");
    assert_eq!(
        record.agent_pid,
        Some(agent.0.id()),
        "the hook found the stand-in agent"
    );
    assert_eq!(record.flags, ["--model", "sonnet"]);
    // Every first event pinned once (2 per round, 1 without tmpfs); the steady state never again.
    let per_round = if shm.is_some() { 2 } else { 1 };
    assert_eq!(
        pins.load(std::sync::atomic::Ordering::SeqCst),
        1 + ROUNDS * per_round,
        "the steady state called agterm"
    );
    // agterm gone: at most one retry (and one log line) per backoff step that has passed.
    let steps = 1 + (gone_since.elapsed().as_secs() / 10) as usize;
    let failures = pin_failures_logged(&gone);
    assert!(
        failures <= steps,
        "{failures} pin failures logged in {steps} backoff steps"
    );
    println!(
        "hook benchmark: {ROUNDS} rounds in {:.1} s ({})",
        started.elapsed().as_secs_f64(),
        bin.display()
    );
    println!(
        "  (wall: spawn to reaped, median and mean; cpu: the child's user + system time, median)"
    );
    let base = (
        kinds[0].1.median(|r| r.wall_ms),
        kinds[0].1.median(|r| r.cpu_ms),
    );
    for (name, runs) in kinds.iter().filter(|(_, runs)| !runs.0.is_empty()) {
        let (wall, cpu) = (runs.median(|r| r.wall_ms), runs.median(|r| r.cpu_ms));
        println!(
            "  {name:<40} wall {wall:7.3} ms (mean {:7.3}) = /bin/true {:+.3} ms x{:.2} | cpu {cpu:6.3} ms = {:+.3} ms x{:.2}",
            runs.mean_wall(),
            wall - base.0,
            wall / base.0,
            cpu - base.1,
            cpu / base.1
        );
    }
    let peak_rss = kinds[3..].iter().map(|(_, runs)| runs.peak_rss_kib()).max();
    println!(
        "  {:<40} {:.2} MiB (target: < 4 MiB)",
        "peak RSS of the hook",
        peak_rss.unwrap_or(0) as f64 / 1024.0
    );
}
