//! Benchmark of the shell integration (`cargo bench --bench shell_start`): what the line `installer
//! apply` writes in ~/.zshrc (`if <in a pane> && [ -x … ]; then . <state>/init.zsh (else eval "$(…
//! init zsh)"); fi`, with the init file `apply` writes) adds to a zsh start, against the same zsh without
//! it, in the same run; and, for comparison, the line before the init file (which ran `init`).
//!
//! - `zsh -i -c exit` (the issue's measure: the rc file is read, no prompt is drawn), outside any
//!   terminal and in an agterm pane: the cost of `init` and of the snippet's environment checks;
//! - `zsh -i` with stdin at its end (`/dev/null`): the first prompt is reached, so its `precmd` runs, and
//!   the end of input exits (nothing waits on stdin, as on a fresh pane's tty) — outside
//!   any terminal (the hook is never installed) and in an agterm pane with nothing to resume (the hook
//!   runs `shell-start`, which finds no record and asks no terminal).
//!
//! - the same in an agterm pane whose terminal is gone (agterm quit, `AGTERM_*` left in the environment,
//!   no socket) and whose record says there is something to resume: `shell-start` asks, and must give up
//!   at once.
//!
//! Kinds are interleaved so drift hits them alike. Prints wall-time medians and means and CPU-time
//! medians (user + system of the whole start, which a loaded machine does not inflate), and each snippet case's
//! difference and ratio against its baseline. Targets (issue 20): outside any terminal within 1 ms of
//! the baseline (no process started), a pane with nothing to resume within 10 ms, a gone terminal
//! within 50 ms.

use agterm_backup_core::quote::quote;
use agterm_backup_installer::shell_rc::files::ZSHRC;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const ROUNDS: usize = 60;
const PANE: [(&str, &str); 3] = [
    ("AGTERM_SESSION_ID", "6B1E0C2A-AAAA-BBBB-CCCC-0123456789AB"),
    ("AGTERM_PANE", "left"),
    ("AGTERM_SOCKET", "/nonexistent/agterm.sock"),
];

/// One way of starting zsh.
struct Kind {
    name: &'static str,
    zdotdir: PathBuf,
    in_pane: bool,
    /// Reach the first prompt (stdin at its end) instead of `-c exit`.
    prompt: bool,
    /// The state directory holds a record for the pane (a terminal that is gone: its socket is not there).
    captured: Option<PathBuf>,
    times: Vec<Duration>,
    /// CPU time (user + system) of the start and every process it waited for: what the machine's load
    /// does not inflate, unlike the wall time.
    cpu: Vec<Duration>,
}

impl Kind {
    fn run(&mut self, state: &Path) {
        let mut cmd = zsh(self.prompt);
        cmd.env_clear()
            .env("PATH", std::env::var("PATH").unwrap_or_default())
            .env("HOME", &self.zdotdir)
            .env("ZDOTDIR", &self.zdotdir)
            .env(
                "AGTERM_BACKUP_HOME",
                self.captured.as_deref().unwrap_or(state),
            )
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        if self.in_pane {
            cmd.envs(PANE);
        }
        cmd.stdin(Stdio::null());
        let (t, cpu) = (Instant::now(), children_cpu());
        let status = cmd.status().expect("zsh runs");
        self.times.push(t.elapsed());
        self.cpu.push(children_cpu() - cpu);
        assert!(status.success(), "{}: {status}", self.name);
    }

    fn median(&self) -> Duration {
        median(&self.times)
    }

    fn mean(&self) -> Duration {
        self.times.iter().sum::<Duration>() / self.times.len() as u32
    }
}

/// `zsh -i -c exit`, or (`prompt`) `zsh -i` on a terminal of its own (util-linux `script`), which the
/// rc file's last precmd function ends at the first prompt — after the integration's.
fn zsh(prompt: bool) -> Command {
    if prompt {
        let mut cmd = Command::new("script");
        cmd.args(["-qec", "zsh -i", "/dev/null"]);
        cmd
    } else {
        let mut cmd = Command::new("zsh");
        cmd.args(["-i", "-c", "exit"]);
        cmd
    }
}

fn zdotdir(root: &Path, name: &str, rc: &str) -> PathBuf {
    let dir = root.join(name);
    std::fs::create_dir_all(&dir).unwrap();
    let exit_at_the_first_prompt = "__bench_exit() { exit 0 }\nprecmd_functions+=(__bench_exit)\n";
    std::fs::write(
        dir.join(".zshrc"),
        format!("{rc}{exit_at_the_first_prompt}"),
    )
    .unwrap();
    dir
}

fn main() {
    let bin = env!("CARGO_BIN_EXE_agterm-backup");
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("state");
    let plain = zdotdir(dir.path(), "plain", "PROMPT='$ '\n");
    // Today's line, which sources the init file `installer apply --shell` writes in the state folder,
    // and the one before it, which ran `init` at every start (measured alike, for the difference).
    let with = zdotdir(
        dir.path(),
        "with",
        &format!("PROMPT='$ '\n{}\n", ZSHRC.line(bin)),
    );
    let with_init_process = zdotdir(
        dir.path(),
        "with-init-process",
        &format!(
            "PROMPT='$ '\nif [ -n \"${{TMUX_PANE-}}${{ZMX_SESSION-}}${{AGTERM_PANE-}}\" ] && [ -x {0} ]; then eval \"$({0} init zsh)\"; fi\n",
            quote(bin)
        ),
    );
    write_init_file(bin, &state);
    let gone = dir.path().join("gone");
    write_record(&gone);
    write_init_file(bin, &gone);
    let kind = |name, zdotdir: &PathBuf, in_pane, prompt| Kind {
        name,
        zdotdir: zdotdir.clone(),
        in_pane,
        prompt,
        captured: None,
        times: Vec::new(),
        cpu: Vec::new(),
    };
    let mut kinds = [
        kind("zsh -i -c exit", &plain, false, false),
        kind("  + snippet, outside any terminal", &with, false, false),
        kind("  + snippet, in an agterm pane", &with, true, false),
        kind("zsh -i to its first prompt", &plain, false, true),
        kind("  + snippet, outside any terminal", &with, false, true),
        kind(
            "  + snippet, pane with nothing to resume",
            &with,
            true,
            true,
        ),
        Kind {
            captured: Some(gone.clone()),
            ..kind("  + snippet, terminal gone (no socket)", &with, true, true)
        },
        kind(
            "  + old line (runs init), nothing to resume",
            &with_init_process,
            true,
            true,
        ),
    ];
    assert_reaches_shell_start(dir.path(), &with);
    for _ in 0..3 {
        kinds.iter_mut().for_each(|k| k.run(&state));
    }
    kinds.iter_mut().for_each(|k| {
        k.times.clear();
        k.cpu.clear();
    });
    for _ in 0..ROUNDS {
        kinds.iter_mut().for_each(|k| k.run(&state));
    }
    let left: Vec<_> = std::fs::read_dir(&state)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(
        left,
        ["init.zsh"],
        "a pane with nothing to resume writes nothing in the state directory"
    );
    println!("shell start, {ROUNDS} rounds each (wall median / mean, CPU median):");
    for (i, k) in kinds.iter().enumerate() {
        let base = &kinds[if i < 3 { 0 } else { 3 }];
        let line = format!(
            "{:<44} {:>8.2} ms / {:>8.2} ms  cpu {:>6.2} ms",
            k.name,
            ms(k.median()),
            ms(k.mean()),
            ms(median(&k.cpu))
        );
        if std::ptr::eq(base, k) {
            println!("{line}");
        } else {
            let delta = ms(k.median()) - ms(base.median());
            let ratio = ms(k.median()) / ms(base.median());
            let cpu = ms(median(&k.cpu)) - ms(median(&base.cpu));
            println!("{line}   {delta:+.2} ms, x{ratio:.2}, cpu {cpu:+.2} ms");
        }
    }
    let delta = |i: usize, base: usize| ms(kinds[i].median()) - ms(kinds[base].median());
    let outside = delta(1, 0).max(delta(4, 3));
    let pane = delta(5, 3).max(delta(2, 0));
    let gone = delta(6, 3);
    println!(
        "targets: outside any terminal {outside:+.2} ms (<= 1), pane with nothing to resume {pane:+.2} ms \
         (<= 10), terminal gone {gone:+.2} ms (<= 50); the line that ran `init`: {:+.2} ms",
        delta(7, 3)
    );
}

/// The measured thing is real: in a pane whose record says there is something to resume, the same zsh
/// start reaches `shell-start` from its first prompt, which asks the terminal (a socket held here).
fn assert_reaches_shell_start(root: &Path, zdotdir: &Path) {
    let state = root.join("captured");
    write_record(&state);
    write_init_file(env!("CARGO_BIN_EXE_agterm-backup"), &state);
    let socket = root.join("agterm.sock");
    let listener = std::os::unix::net::UnixListener::bind(&socket).unwrap();
    listener.set_nonblocking(true).unwrap();
    let status = zsh(true)
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("HOME", zdotdir)
        .env("ZDOTDIR", zdotdir)
        .env("AGTERM_BACKUP_HOME", &state)
        .envs(PANE[..2].iter().copied())
        .env("AGTERM_SOCKET", &socket)
        .env("AGTERM_BACKUP_SHELL_START_BUDGET_MS", "300")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    assert!(
        listener.accept().is_ok(),
        "the first prompt never ran shell-start"
    );
}

/// A state directory whose record says the agterm pane [`PANE`] held a Claude conversation.
fn write_record(state: &Path) {
    std::fs::create_dir_all(state.join("live")).unwrap();
    let record = format!(
        r#"{{"v":1,"agent":"claude","session_id":"77e8ca85-2b1c-4a8e-9d0b-0c1d2e3f4a5b","agterm_session":"{}","role":"left","pane_id":null,"transcript_path":null,"agent_cwd":"/w","hook_cwd":"/w","flags":[],"agent_pid":null,"event":"Stop","ts":"2026-11-30T10:00:00Z","terminal":"agterm"}}"#,
        PANE[0].1
    );
    std::fs::write(state.join(format!("live/{}-left.json", PANE[0].1)), record).unwrap();
}

/// The init file `installer apply --shell` writes in the state folder `state`: `init zsh`'s output.
fn write_init_file(bin: &str, state: &Path) {
    let out = Command::new(bin).args(["init", "zsh"]).output().unwrap();
    assert!(out.status.success());
    std::fs::create_dir_all(state).unwrap();
    std::fs::write(state.join("init.zsh"), out.stdout).unwrap();
}

fn median(times: &[Duration]) -> Duration {
    let mut t = times.to_vec();
    t.sort();
    t[t.len() / 2]
}

/// The CPU time the waited-for children of this process used so far.
fn children_cpu() -> Duration {
    // SAFETY: getrusage fills the zeroed struct it is given a pointer to.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage);
        usage
    };
    let time = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    time(usage.ru_utime) + time(usage.ru_stime)
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}
