//! Driving an agent in a tmux pane: start it from the pane's shell as a user would, wait for its input
//! box, type a prompt, wait for the screen; find its process; run it headless.

use crate::tmux::Tmux;
use std::path::Path;
use std::time::{Duration, Instant};

/// Which agent a pane runs, for knowing when its screen is ready.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Agent {
    Claude,
    Codex,
    Gemini,
    Copilot,
    Qwen,
    Opencode,
    Kimi,
}

impl Agent {
    /// Text on the screen once the agent's input box takes keys.
    fn ready_markers(self) -> &'static [&'static str] {
        match self {
            Agent::Claude => &["Claude Code v", "\n❯"],
            Agent::Codex => &["OpenAI Codex", "\n›"],
            Agent::Gemini => &["Gemini CLI v", "Type your message"],
            Agent::Copilot => &["Copilot v", "\n❯"],
            Agent::Qwen => &["Qwen Code (v", "Type your message"],
            // "Ask anything" shows only in a new session; a resumed one shows its history instead.
            Agent::Opencode => &["ctrl+p commands"],
            // The footer's context meter shows once the editor is mounted, new session or resumed.
            Agent::Kimi => &["Kimi Code", "context: "],
        }
    }

    /// The agent's name in the agent table (and on `PATH`).
    pub fn name(self) -> &'static str {
        match self {
            Agent::Claude => "claude",
            Agent::Codex => "codex",
            Agent::Gemini => "gemini",
            Agent::Copilot => "copilot",
            Agent::Qwen => "qwen",
            Agent::Opencode => "opencode",
            Agent::Kimi => "kimi",
        }
    }

    /// The hook event that carries a submitted prompt (`prompt` in the payload).
    pub fn prompt_event(self) -> &'static str {
        match self {
            Agent::Gemini => "BeforeAgent",
            _ => "UserPromptSubmit",
        }
    }

    /// The hook event that ends a turn.
    pub fn stop_event(self) -> &'static str {
        match self {
            Agent::Gemini => "AfterAgent",
            _ => "Stop",
        }
    }

    /// SessionStart fires only with the first prompt (also after a resume), not when the TUI starts.
    pub fn lazy_session_start(self) -> bool {
        // (Kimi creates a new session at its first message, but a resumed one at start.)
        matches!(self, Agent::Codex | Agent::Copilot | Agent::Opencode)
    }

    /// Text the slash-command menu shows beside the quit command once the TUI has loaded its commands
    /// (lower-cased). Gemini CLI and Qwen Code load them after the input box shows, and send a `/quit`
    /// entered before then to the model as a prompt.
    fn quit_menu_marker(self) -> Option<&'static str> {
        match self {
            Agent::Gemini | Agent::Qwen => Some("exit the cli"),
            _ => None,
        }
    }

    /// What quits the TUI when typed into its input box.
    pub fn quit_command(self) -> &'static str {
        match self {
            Agent::Claude | Agent::Copilot | Agent::Opencode => "/exit",
            Agent::Codex | Agent::Gemini | Agent::Qwen | Agent::Kimi => "/quit",
        }
    }
}

/// Starts a bash in a new tmux session in `cwd` with `env` set on the pane (as agterm exports its
/// `AGTERM_*` into the pane's shell), then types `command_line` into it as a user would, so the agent's
/// parent is the pane's shell. Returns the pane id.
pub fn start_in_pane(
    tmux: &Tmux,
    name: &str,
    cwd: &Path,
    env: &[(String, String)],
    command_line: &str,
) -> String {
    let mut env = env.to_vec();
    env.push(("PS1".into(), format!("{PANE_PROMPT} ")));
    let shell = pane_shell(&env);
    let shell_refs: Vec<&str> = shell.iter().map(String::as_str).collect();
    let pane = tmux.spawn(name, cwd, &env, &shell_refs);
    type_at_prompt(tmux, &pane, command_line);
    pane
}

/// The pane's shell: a bash without profile or rc files. tmux 3.3 ignores `-e PATH=…` (a new pane takes
/// the client's PATH), so a PATH in `env` is set through `env(1)` instead. These panes stand for agterm's:
/// nothing in them looks like tmux (an agent under `$TMUX` belongs to the tmux pane, not the agterm one).
fn pane_shell(env: &[(String, String)]) -> Vec<String> {
    let mut argv: Vec<String> = ["/usr/bin/env", "-u", "TMUX", "-u", "TMUX_PANE"]
        .map(String::from)
        .to_vec();
    argv.extend(crate::tmux::unset_ci_args());
    if let Some((_, path)) = env.iter().rev().find(|(k, _)| k == "PATH") {
        argv.push(format!("PATH={path}"));
    }
    argv.extend(["/bin/bash", "--noprofile", "--norc", "-i"].map(String::from));
    argv
}

/// Splits `beside` (left/right) and starts a bash in the new pane like [`start_in_pane`] does, then types
/// `command_line` into it. Returns the new pane's id.
pub fn start_in_split(
    tmux: &Tmux,
    beside: &str,
    cwd: &Path,
    env: &[(String, String)],
    command_line: &str,
) -> String {
    let cwd = cwd.display().to_string();
    let mut args: Vec<String> = [
        "split-window",
        "-h",
        "-d",
        "-P",
        "-F",
        "#{pane_id}",
        "-t",
        beside,
        "-c",
        &cwd,
    ]
    .map(String::from)
    .to_vec();
    for (k, v) in env
        .iter()
        .chain([("PS1".to_string(), format!("{PANE_PROMPT} "))].iter())
    {
        args.push("-e".into());
        args.push(format!("{k}={v}"));
    }
    args.extend(pane_shell(env));
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    let pane = tmux.ok(&refs);
    type_at_prompt(tmux, &pane, command_line);
    pane
}

/// Waits until the agent in `pane` shows its input box, or panics with the screen.
pub fn wait_ready(tmux: &Tmux, pane: &str, agent: Agent, timeout: Duration) {
    wait_screen(
        tmux,
        pane,
        timeout,
        &format!("{agent:?}'s input box"),
        |screen| agent.ready_markers().iter().all(|m| screen.contains(m)),
    );
}

/// Types `prompt` into the agent's input box and presses Enter once the box shows it. A TUI still
/// starting may drop keys: when the screen does not show one more `prompt` than before, the keys are
/// typed again (twice at most) — after 60 s the first time, since a TUI slowed by a loaded machine
/// draws keys it took late, and typing them again then submits the prompt twice; after 20 s later on.
/// Enter goes at least [`ENTER_AFTER_KEYS`] after the last key.
/// Whether the prompt was *submitted* is the caller's state to wait on (a hook call, a reply);
/// [`submit_until`] waits on it and presses Enter again while it does not come.
pub fn type_prompt(tmux: &Tmux, pane: &str, prompt: &str) {
    let shown = || tmux.capture(pane, false).matches(prompt).count();
    let before = shown();
    for patience in [60, 20, 20] {
        tmux.send_text(pane, prompt, false);
        let typed = Instant::now();
        if poll_until(Duration::from_secs(patience), || shown() > before) {
            if let Some(rest) = ENTER_AFTER_KEYS.checked_sub(typed.elapsed()) {
                std::thread::sleep(rest);
            }
            tmux.ok(&["send-keys", "-t", pane, "Enter"]);
            return;
        }
    }
    panic!(
        "the input box never showed {prompt:?}; the pane shows:\n{}",
        tmux.capture(pane, true)
    );
}

/// The least time between the last typed key and Enter: Codex takes keys that arrive close together for
/// a paste and turns an Enter within 120 ms of one into a newline (its `PASTE_ENTER_SUPPRESS_WINDOW`).
pub const ENTER_AFTER_KEYS: Duration = Duration::from_millis(300);

/// Types `prompt` ([`type_prompt`]) and waits until `submitted` holds (the agent's prompt hook logged, say),
/// pressing Enter again every `retry_after` while it does not: a TUI that has just attached to a daemon
/// may drop an Enter, and an Enter on an empty input box does nothing. The prompt is never typed twice.
pub fn submit_until(
    tmux: &Tmux,
    pane: &str,
    prompt: &str,
    timeout: Duration,
    submitted: impl Fn() -> bool,
) {
    type_prompt(tmux, pane, prompt);
    let start = Instant::now();
    let retry_after = Duration::from_secs(8);
    while !poll_until(retry_after, &submitted) {
        assert!(
            start.elapsed() < timeout,
            "{prompt:?} was not submitted within {timeout:?}; the pane shows:\n{}",
            tmux.capture(pane, true)
        );
        tmux.ok(&["send-keys", "-t", pane, "Enter"]);
    }
}

/// The bash prompt (`PS1`) of every pane the rigs start.
pub const PANE_PROMPT: &str = "pane$";

/// Waits until the shell in `pane` is back at its prompt: the line the cursor is on is the bare
/// [`PANE_PROMPT`], so whatever ran there (an agent quitting, a `cd`) is done and the next keys go to the
/// shell. A prompt further up the screen does not count.
pub fn wait_shell_prompt(tmux: &Tmux, pane: &str, timeout: Duration) {
    let at_prompt = || tmux.cursor_line(pane).trim_end() == PANE_PROMPT;
    assert!(
        poll_until(timeout, at_prompt),
        "timed out after {timeout:?} waiting for the shell prompt; the pane shows:\n{}",
        tmux.capture(pane, true)
    );
}

/// Types the command `line` the way a user does: once the shell's prompt is back
/// ([`wait_shell_prompt`]), then Enter once the shell echoed it, then waits until the shell took the line
/// (the cursor left it).
pub fn type_at_prompt(tmux: &Tmux, pane: &str, line: &str) {
    wait_shell_prompt(tmux, pane, Duration::from_secs(60));
    tmux.send_text(pane, line, false);
    // A line longer than the pane wraps, and readline may break it itself (tmux then does not join the
    // rows): compare without any whitespace.
    let squeeze = |s: &str| s.split_whitespace().collect::<String>();
    let echoed = squeeze(&format!("{PANE_PROMPT} {line}"));
    assert!(
        poll_until(Duration::from_secs(20), || squeeze(
            &tmux.capture(pane, false)
        )
        .contains(&echoed)),
        "the shell never echoed {line:?}; the pane shows:\n{}",
        tmux.capture(pane, true)
    );
    let typed_row = tmux.cursor_line(pane);
    tmux.ok(&["send-keys", "-t", pane, "Enter"]);
    assert!(
        poll_until(Duration::from_secs(20), || tmux.cursor_line(pane)
            != typed_row),
        "the shell did not take {line:?}; the pane shows:\n{}",
        tmux.capture(pane, true)
    );
}

/// Polls `done` every 50 ms until it holds (true) or `timeout` passes (false).
pub fn poll_until(timeout: Duration, done: impl Fn() -> bool) -> bool {
    let start = Instant::now();
    loop {
        if done() {
            return true;
        }
        if start.elapsed() >= timeout {
            return false;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Types the agent's quit command into its input box and presses Enter once the TUI knows the command:
/// the box shows it and, where the agent loads its commands late ([`Agent::quit_menu_marker`]), the menu
/// offers it. Whether the agent quit is the caller's state to wait on.
pub fn type_quit(tmux: &Tmux, pane: &str, agent: Agent, timeout: Duration) {
    let quit = agent.quit_command();
    let Some(marker) = agent.quit_menu_marker() else {
        return type_prompt(tmux, pane, quit);
    };
    tmux.send_text(pane, quit, false);
    let typed = Instant::now();
    wait_screen(
        tmux,
        pane,
        timeout,
        &format!("{agent:?}'s command menu offering {quit}"),
        |screen| screen.to_lowercase().contains(marker),
    );
    if let Some(rest) = ENTER_AFTER_KEYS.checked_sub(typed.elapsed()) {
        std::thread::sleep(rest);
    }
    tmux.ok(&["send-keys", "-t", pane, "Enter"]);
}

/// Waits until `pred` holds for the pane's screen (with scrollback); panics with the screen on timeout.
pub fn wait_screen(
    tmux: &Tmux,
    pane: &str,
    timeout: Duration,
    what: &str,
    pred: impl Fn(&str) -> bool,
) -> String {
    let start = std::time::Instant::now();
    loop {
        let screen = tmux.capture(pane, true);
        if pred(&screen) {
            return screen;
        }
        assert!(
            start.elapsed() < timeout,
            "timed out after {timeout:?} waiting for {what}; the pane shows:\n{screen}"
        );
        std::thread::sleep(Duration::from_millis(150));
    }
}

/// The pid of the first process below `root` (depth first) whose executable or argv[0] is named `name`
/// (the native `claude` binary; for Codex the native binary the node wrapper spawns).
pub fn find_descendant(root: u32, name: &str, skip_node: bool) -> Option<u32> {
    let mut stack = vec![root];
    while let Some(pid) = stack.pop() {
        if pid != root {
            let argv0 = std::fs::read(format!("/proc/{pid}/cmdline"))
                .ok()
                .and_then(|c| {
                    c.split(|b| *b == 0)
                        .next()
                        .map(|a| String::from_utf8_lossy(a).into_owned())
                })
                .unwrap_or_default();
            let exe = std::fs::read_link(format!("/proc/{pid}/exe")).ok();
            let is_node = exe
                .as_ref()
                .is_some_and(|e| e.file_name().is_some_and(|n| n == "node"));
            let named = |p: &Path| p.file_name().is_some_and(|n| n == name);
            if !(skip_node && is_node)
                && (named(Path::new(&argv0)) || exe.as_deref().is_some_and(named))
            {
                return Some(pid);
            }
        }
        stack.extend(children(pid));
    }
    None
}

/// Runs `cli <args>` (a headless agent run, say) with exactly `env` in `cwd`; panics with its output
/// unless it succeeds. Returns its stdout. A run that has not ended after [`HEADLESS_RUN`] is killed
/// (with what it started: it is its own process group) and fails the test.
pub fn run_cli(cli: &Path, args: &[&str], cwd: &Path, env: &[(String, String)]) -> String {
    use std::os::unix::process::CommandExt;
    use std::process::{Command, Stdio};
    let child = Command::new(cli)
        .args(args)
        .current_dir(cwd)
        .env_clear()
        .envs(crate::hermetic::places())
        .envs(env.iter().map(|(k, v)| (k, v)))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()
        .unwrap_or_else(|e| panic!("{} does not start: {e}", cli.display()));
    let pid = child.id();
    // The output is read while the run goes on (a full pipe would stall it), on a thread of its own.
    let (done, finished) = std::sync::mpsc::channel();
    std::thread::spawn(move || done.send(child.wait_with_output()));
    let Ok(output) = finished.recv_timeout(HEADLESS_RUN) else {
        // SAFETY: kill(2) on the process group the child leads; ESRCH if it ended meanwhile.
        unsafe { libc::kill(-(pid as libc::pid_t), libc::SIGKILL) };
        panic!(
            "{} {args:?} in {} did not finish within {HEADLESS_RUN:?}",
            cli.display(),
            cwd.display()
        );
    };
    let output = output.expect("child output");
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "{} {args:?} failed ({}): {stdout}{}",
        cli.display(),
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    stdout
}

/// How long a headless agent run may take: a turn against the stub model takes seconds, but a node CLI
/// starting on a machine busy compiling can take a minute.
pub const HEADLESS_RUN: Duration = Duration::from_secs(240);

/// The children of `pid`, from every thread (a child belongs to the thread that forked it).
fn children(pid: u32) -> Vec<u32> {
    let tasks = std::fs::read_dir(format!("/proc/{pid}/task"))
        .map(|it| it.flatten().map(|e| e.path()).collect::<Vec<_>>())
        .unwrap_or_default();
    tasks
        .iter()
        .flat_map(|task| {
            std::fs::read_to_string(task.join("children"))
                .unwrap_or_default()
                .split_whitespace()
                .filter_map(|c| c.parse::<u32>().ok())
                .collect::<Vec<_>>()
        })
        .collect()
}

/// `root` and every process below it.
pub fn process_tree(root: u32) -> Vec<u32> {
    let mut found = Vec::new();
    let mut stack = vec![root];
    while let Some(pid) = stack.pop() {
        if !found.contains(&pid) {
            found.push(pid);
            stack.extend(children(pid));
        }
    }
    found
}

pub use crate::pids::is_running;
