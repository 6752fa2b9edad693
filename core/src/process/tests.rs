use super::ps::{parse_lsof_name, parse_lstart, parse_table};
use super::*;
use crate::agent::{CLAUDE, CODEX, GEMINI};
use std::path::Path;
use std::process::{Child, Command};

fn argv(s: &str) -> Vec<String> {
    s.split_whitespace().map(String::from).collect()
}

#[test]
fn agents_are_recognised_by_binary_or_npm_script() {
    let native = argv("/home/u/.local/bin/claude --model sonnet hi");
    assert_eq!(agent_args(&CLAUDE, &native), Some(&native[1..]));
    let node = argv("node --no-warnings /usr/lib/node_modules/@openai/codex/bin/codex.js -m o3");
    assert_eq!(
        agent_args(&CODEX, &node).map(|a| a.to_vec()),
        Some(argv("-m o3"))
    );
    let bun = argv("bun /x/node_modules/@anthropic-ai/claude-code/cli.js -c");
    assert_eq!(
        agent_args(&CLAUDE, &bun).map(|a| a.to_vec()),
        Some(argv("-c"))
    );
    assert_eq!(
        agent_args(&CLAUDE, &argv("node /x/node_modules/other/cli.js")),
        None
    );
    assert_eq!(agent_args(&CLAUDE, &argv("/usr/bin/claudette")), None);
    assert_eq!(agent_args(&CLAUDE, &[]), None);
    assert_eq!(
        which_agent(&argv("codex exec hi")).map(|a| a.name),
        Some("codex")
    );
    assert_eq!(which_agent(&argv("bash -c codex")), None);
}

#[test]
fn node_agents_are_recognised_by_the_launcher_they_ran_through() {
    // What /proc showed for Gemini CLI 0.61.0 and Qwen Code 0.24.4 started from npm's `.bin`.
    let gemini =
        argv("/usr/bin/node --max-old-space-size=12052 /p/node_modules/.bin/gemini -m flash q");
    assert_eq!(
        agent_args(&GEMINI, &gemini).map(|a| a.to_vec()),
        Some(argv("-m flash q"))
    );
    let global = argv("node /usr/local/bin/gemini --resume abc");
    assert_eq!(which_agent(&global).map(|a| a.name), Some("gemini"));
    let qwen = argv("/usr/bin/node --expose-gc /p/node_modules/@qwen-code/qwen-code/cli.js -y");
    assert_eq!(which_agent(&qwen).map(|a| a.name), Some("qwen"));
    assert_eq!(
        which_agent(&argv("node /p/.bin/qwen")).map(|a| a.name),
        Some("qwen")
    );
    let copilot = argv("/p/node_modules/@github/copilot-linux-x64/copilot --model gpt-4.1");
    assert_eq!(which_agent(&copilot).map(|a| a.name), Some("copilot"));
    // Only the script counts, not a later argument that happens to be an agent's name.
    assert_eq!(which_agent(&argv("node /srv/tool.js gemini")), None);
    assert_eq!(which_agent(&argv("node -e gemini")), None);
}

/// pane shell 10 → claude 20 → sh 30 → hook 40
fn claude_tree() -> FakeProcesses {
    FakeProcesses::default()
        .with(1, 0, "/sbin/init", "/")
        .with(10, 1, "-zsh", "/home/u")
        .with(20, 10, "claude --model sonnet fix it", "/w/p")
        .with(30, 20, "/bin/sh -c agterm-backup hook claude", "/w/p/sub")
        .with(40, 30, "agterm-backup hook claude", "/w/p/sub")
}

#[test]
fn walk_finds_the_nearest_agent_through_a_shell() {
    let t = claude_tree();
    let found = locate_agent(&t, &CLAUDE, 30, None);
    assert_eq!(found.agent.as_ref().map(|a| a.pid), Some(20));
    assert_eq!(found.enclosing, None);
    // The hook's parent may be the agent itself.
    assert_eq!(
        locate_agent(&t, &CLAUDE, 20, None).agent.map(|a| a.pid),
        Some(20)
    );
    // Asking for the other agent finds nothing.
    assert_eq!(locate_agent(&t, &CODEX, 30, None), Located::default());
}

#[test]
fn a_pinned_pid_wins_when_readable() {
    let t = claude_tree().with(50, 10, "/opt/x/2.1.328 --verbose", "/w/q");
    assert_eq!(
        locate_agent(&t, &CLAUDE, 30, Some(50)).agent.map(|a| a.pid),
        Some(50)
    );
    // A pinned pid that is gone falls back to the walk.
    assert_eq!(
        locate_agent(&t, &CLAUDE, 30, Some(999))
            .agent
            .map(|a| a.pid),
        Some(20)
    );
}

#[test]
fn nested_agents_are_reported_but_wrappers_are_not() {
    // claude 20 → bash 60 (Bash tool) → claude -p 70 → sh 80 → hook
    let t = claude_tree()
        .with(60, 20, "/bin/bash -c claude -p hi", "/w/p")
        .with(70, 60, "claude -p hi", "/w/p")
        .with(80, 70, "/bin/sh -c hook", "/w/p");
    let found = locate_agent(&t, &CLAUDE, 80, None);
    assert_eq!(found.agent.map(|a| a.pid), Some(70));
    assert_eq!(found.enclosing, Some((20, "claude")));
    // A codex inside claude is nested too.
    let t = claude_tree()
        .with(60, 20, "/bin/bash -c codex", "/w/p")
        .with(70, 60, "codex", "/w/p")
        .with(80, 70, "/bin/bash -lc hook", "/w/p");
    assert_eq!(
        locate_agent(&t, &CODEX, 80, None).enclosing,
        Some((20, "claude"))
    );
    // The node launcher directly above the native codex is its wrapper, not an enclosing agent.
    let t = FakeProcesses::default()
        .with(10, 1, "bash", "/h")
        .with(
            20,
            10,
            "node /n/node_modules/@openai/codex/bin/codex.js -m o3",
            "/w",
        )
        .with(
            30,
            20,
            "/n/node_modules/@openai/codex-linux-x64/vendor/codex/codex -m o3",
            "/w",
        )
        .with(40, 30, "/bin/bash -lc hook", "/w");
    let found = locate_agent(&t, &CODEX, 40, None);
    assert_eq!(found.agent.map(|a| a.pid), Some(30));
    assert_eq!(found.enclosing, None);
}

#[test]
fn walk_survives_cycles_and_gaps() {
    let looped = FakeProcesses::default()
        .with(5, 6, "sh", "/")
        .with(6, 5, "sh", "/");
    assert_eq!(locate_agent(&looped, &CLAUDE, 5, None), Located::default());
    let gap = FakeProcesses::default().with(5, 77, "sh", "/");
    assert_eq!(locate_agent(&gap, &CLAUDE, 5, None), Located::default());
}

#[test]
fn ps_output_parsers() {
    let t = parse_table("  1     0 /sbin/init splash\n 42     1 claude --model  sonnet\n junk\n");
    assert_eq!(t.get(&42), Some(&(1, argv("claude --model sonnet"))));
    assert_eq!(t.len(), 2);
    assert_eq!(
        parse_lsof_name("p42\nfcwd\nn/w/my dir\n"),
        Some("/w/my dir".into())
    );
    assert!(parse_lstart("Tue Dec  1 00:45:17 2026").is_some());
    assert!(parse_lstart("garbage").is_none());
}

/// The argv of `pid` once it has exec'd `program` (right after spawn it may still be the forked test).
fn argv_after_exec(src: &dyn ProcessSource, pid: u32, program: &str) -> Option<Vec<String>> {
    let until = std::time::Instant::now() + std::time::Duration::from_secs(5);
    loop {
        let argv = src.argv(pid);
        let done = argv.as_ref().is_some_and(|a| a[0].ends_with(program));
        if done || std::time::Instant::now() > until {
            return argv;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
}

struct Sleeper(Child);
impl Drop for Sleeper {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A real child with a known argv and cwd: both sources must report the same facts about it.
fn check_source_on_real_child(src: &dyn ProcessSource) {
    let dir = tempfile::tempdir().unwrap();
    let real = std::fs::canonicalize(dir.path()).unwrap();
    let child = Sleeper(
        Command::new("sleep")
            .args(["30", "1"])
            .current_dir(dir.path())
            .spawn()
            .unwrap(),
    );
    let pid = child.0.id();
    assert_eq!(argv_after_exec(src, pid, "sleep"), Some(argv("sleep 30 1")));
    assert_eq!(src.parent(pid), Some(std::process::id()));
    assert_eq!(src.cwd(pid).as_deref(), Some(real.as_path()));
    let now = chrono::Utc::now().timestamp();
    let started = src.start_time(pid).expect("start time");
    assert!((now - started).abs() <= 5, "start {started} vs now {now}");
    assert_eq!(src.argv(u32::MAX - 1), None);
    assert!(Path::new("/").exists());
}

#[cfg(target_os = "linux")]
#[test]
fn procfs_reads_a_real_process() {
    check_source_on_real_child(&ProcFs);
}

#[test]
fn ps_reads_a_real_process() {
    if !PS_AVAILABLE() {
        eprintln!("SKIPPED: no ps/lsof on this machine");
        return;
    }
    // A fresh snapshot per call: the child must exist before the table is taken.
    struct Fresh;
    impl ProcessSource for Fresh {
        fn parent(&self, pid: u32) -> Option<u32> {
            Ps::new().parent(pid)
        }
        fn argv(&self, pid: u32) -> Option<Vec<String>> {
            Ps::new().argv(pid)
        }
        fn cwd(&self, pid: u32) -> Option<PathBuf> {
            Ps::new().cwd(pid)
        }
        fn start_time(&self, pid: u32) -> Option<i64> {
            Ps::new().start_time(pid)
        }
    }
    check_source_on_real_child(&Fresh);
}

#[allow(non_snake_case)]
fn PS_AVAILABLE() -> bool {
    ["/bin/ps", "/usr/bin/ps"]
        .iter()
        .any(|p| Path::new(p).exists())
        && ["/usr/sbin/lsof", "/usr/bin/lsof"]
            .iter()
            .any(|p| Path::new(p).exists())
}

#[cfg(target_os = "linux")]
#[test]
fn the_walk_finds_a_real_agent_named_process() {
    // A copy of `sleep` named `claude`, whose child is a `sh`: walking from the sh finds it.
    let dir = tempfile::tempdir().unwrap();
    let fake = dir.path().join("claude");
    std::fs::copy("/bin/sleep", &fake).unwrap();
    let agent = Sleeper(Command::new(&fake).args(["30", "1"]).spawn().unwrap());
    argv_after_exec(&ProcFs, agent.0.id(), "claude");
    let found = locate_agent(&ProcFs, &CLAUDE, agent.0.id(), None);
    assert_eq!(
        found.agent.map(|a| a.argv),
        Some(vec![fake.display().to_string(), "30".into(), "1".into()])
    );
}

#[test]
fn a_child_that_overruns_its_budget_is_killed_and_unknown() {
    use super::ps::run_bounded;
    use std::time::{Duration, Instant};
    let t = Instant::now();
    assert_eq!(
        run_bounded(Path::new("/bin/sleep"), &["5"], Duration::from_millis(100)),
        None
    );
    assert!(
        t.elapsed() < Duration::from_secs(2),
        "took {:?}",
        t.elapsed()
    );
    // A child that finishes in time answers, however much it prints.
    let big = run_bounded(
        Path::new("/bin/sh"),
        &["-c", "head -c 300000 /dev/zero | tr '\\0' x; echo"],
        Duration::from_secs(5),
    )
    .unwrap();
    assert_eq!(big.trim_end().len(), 300_000);
    assert_eq!(
        run_bounded(Path::new("/bin/false"), &[], Duration::from_secs(5)),
        None
    );
    assert!(CHILD_BUDGET <= Duration::from_millis(500));
}

#[cfg(target_os = "macos")]
#[test]
fn darwin_reads_a_real_process() {
    check_source_on_real_child(&Darwin::new());
}

/// On macOS, a real child's argument holding spaces comes back as one word.
#[cfg(target_os = "macos")]
#[test]
fn darwin_keeps_words_with_spaces_whole() {
    let child = Sleeper(
        Command::new("/bin/sh")
            .args(["-c", "sleep 30", "be terse", "/Users/me/My Projects"])
            .spawn()
            .unwrap(),
    );
    let argv = argv_after_exec(&Darwin::new(), child.0.id(), "sh").unwrap();
    assert_eq!(
        argv[1..],
        ["-c", "sleep 30", "be terse", "/Users/me/My Projects"]
    );
}

/// Kimi's headless rule reads the agent's stdin: `/dev/null` and a pipe are no raw terminal (the raw pty
/// of a real TUI is `tests/e2e_kimi.rs`).
#[cfg(target_os = "linux")]
#[test]
fn procfs_sees_no_raw_terminal_on_a_pipe_or_dev_null() {
    for stdin in [std::process::Stdio::null(), std::process::Stdio::piped()] {
        let child = Sleeper(
            Command::new("sleep")
                .arg("30")
                .stdin(stdin)
                .spawn()
                .unwrap(),
        );
        assert_eq!(ProcFs.stdin_raw_terminal(child.0.id()), Some(false));
    }
    assert_eq!(ProcFs.stdin_raw_terminal(u32::MAX - 1), None);
}
