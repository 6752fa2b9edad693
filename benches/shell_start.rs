//! Benchmark of the shell integration (`cargo bench --bench shell_start`): what the line `installer
//! apply` writes in the rc file (it sources `<state>/init.<shell>`, the init file `apply` writes, else runs
//! `init`) adds to the start of zsh, bash and fish, against the same shell without it, in the same run —
//! the three costs of issue 20's item 5:
//!
//! - outside any terminal: the line's test of three variables, no process;
//! - in an agterm pane with nothing to resume: the snippet runs `shell-start` once (zsh and bash from the
//!   first prompt, fish from its first `fish_prompt` event), which finds no record and asks no terminal;
//! - in an agterm pane whose terminal is gone (agterm quit, `AGTERM_*` left in the environment, no
//!   socket) and whose record says there is something to resume: `shell-start` asks, and must give up at
//!   once;
//!
//! and, for comparison, the line before the init file (it ran `init` at every start in a pane).
//!
//! Each start is `<shell> -i` on a terminal of its own (util-linux `script`), ended by the rc file at its
//! first prompt (after the integration's hook). Kinds are interleaved so drift hits them alike; the run
//! stops after [`ROUNDS`] rounds or [`MEASURE`], whichever comes first. Prints wall-time medians and
//! means and CPU-time medians (user + system of the whole start, which a loaded machine inflates far
//! less), each case's difference and ratio against its shell's baseline, and the load average. Targets
//! (issue 20): outside any terminal within 1 ms of the baseline, a pane with nothing to resume within
//! 10 ms, a gone terminal within 50 ms.

use agterm_backup_core::quote::quote;
use agterm_backup_installer::shell_rc::files::{BASHRC, FISH_CONFIG, ZSHRC};
use agterm_backup_installer::shell_rc::RcFile;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const ROUNDS: usize = 60;
const MEASURE: Duration = Duration::from_secs(80);
const PANE: [(&str, &str); 3] = [
    ("AGTERM_SESSION_ID", "6B1E0C2A-AAAA-BBBB-CCCC-0123456789AB"),
    ("AGTERM_PANE", "left"),
    ("AGTERM_SOCKET", "/nonexistent/agterm.sock"),
];
const SHELLS: [&str; 3] = ["zsh", "bash", "fish"];
/// The cases of each shell, in order; the first is the baseline.
const CASES: [&str; 5] = [
    "to its first prompt (baseline)",
    "  + line, outside any terminal",
    "  + line, pane with nothing to resume",
    "  + line, terminal gone (no socket)",
    "  + line before the init file (ran init)",
];

/// One way of starting a shell.
struct Kind {
    shell: &'static str,
    case: usize,
    home: PathBuf,
    in_pane: bool,
    state: PathBuf,
    times: Vec<Duration>,
    /// CPU time (user + system) of the start and every process it waited for.
    cpu: Vec<Duration>,
}

impl Kind {
    fn run(&mut self) {
        let mut cmd = start(self.shell, &self.home, &self.state);
        if self.in_pane {
            cmd.envs(PANE);
        }
        let (t, cpu) = (Instant::now(), children_cpu());
        let status = cmd.status().expect("the shell runs");
        self.times.push(t.elapsed());
        self.cpu.push(children_cpu() - cpu);
        assert!(status.success(), "{} {}: {status}", self.shell, self.case);
    }
}

/// `<shell> -i` on a terminal of its own (util-linux `script`), HOME `home`, state folder `state`, stdin
/// at its end (nothing waits on it, as on a fresh pane's tty); its rc file exits at the first prompt.
fn start(shell: &str, home: &Path, state: &Path) -> Command {
    let mut cmd = Command::new("script");
    cmd.args(["-qec", &format!("{shell} -i"), "/dev/null"])
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("TERM", "xterm")
        .env("HOME", home)
        .env("ZDOTDIR", home)
        .env("AGTERM_BACKUP_HOME", state)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    cmd
}

/// The rc file of `shell`, its path under HOME and its text: a plain prompt, `line`, and an exit at the
/// first prompt, after the integration's hook.
fn rc_file(shell: &str, line: &str) -> (&'static str, String) {
    match shell {
        "zsh" => (
            ".zshrc",
            format!("PROMPT='$ '\n{line}\n__bench_exit() {{ exit 0 }}\nprecmd_functions+=(__bench_exit)\n"),
        ),
        "bash" => (
            ".bashrc",
            format!(
                "PS1='$ '\n{line}\n__bench_exit() {{ exit 0; }}\n[[ -z ${{PROMPT_COMMAND-}} ]] || \
                 PROMPT_COMMAND+=$'\\n'\nPROMPT_COMMAND+=__bench_exit\n"
            ),
        ),
        _ => (
            ".config/fish/config.fish",
            format!(
                "set -g fish_greeting ''\nfunction fish_prompt; printf '$ '; end\n{line}\n\
                 function __bench_exit --on-event fish_prompt; exit 0; end\n"
            ),
        ),
    }
}

/// A HOME whose rc file for `shell` holds `line`.
fn home(root: &Path, name: &str, shell: &str, line: &str) -> PathBuf {
    let dir = root.join(format!("{shell}-{name}"));
    let (file, text) = rc_file(shell, line);
    let path = dir.join(file);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
    dir
}

fn rc(shell: &str) -> RcFile {
    match shell {
        "zsh" => ZSHRC,
        "bash" => BASHRC,
        _ => FISH_CONFIG,
    }
}

/// The line of the release before the init file, which ran `init` at every start in a pane.
fn line_before(shell: &str, bin: &str) -> String {
    let b = quote(bin);
    match shell {
        "fish" => format!(
            "if test -n \"$TMUX_PANE$ZMX_SESSION$AGTERM_PANE\" -a -x {b}; {b} init fish | source; end"
        ),
        sh => format!(
            "if [ -n \"${{TMUX_PANE-}}${{ZMX_SESSION-}}${{AGTERM_PANE-}}\" ] && [ -x {b} ]; then eval \"$({b} init {sh})\"; fi"
        ),
    }
}

fn main() {
    let bin = agterm_backup_testkit::agterm_backup_bin!();
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let state = root.join("state");
    let gone = root.join("gone");
    write_record(&gone);
    for shell in SHELLS {
        write_init_file(bin, shell, &state);
        write_init_file(bin, shell, &gone);
    }
    let mut kinds = Vec::new();
    for shell in SHELLS {
        let plain = home(root, "plain", shell, "");
        let with = home(root, "with", shell, &rc(shell).line(bin));
        let before = home(root, "before", shell, &line_before(shell, bin));
        assert_reaches_shell_start(root, shell, &with);
        let cases = [
            (&plain, true, &state),
            (&with, false, &state),
            (&with, true, &state),
            (&with, true, &gone),
            (&before, true, &state),
        ];
        for (case, (home, in_pane, state)) in cases.into_iter().enumerate() {
            kinds.push(Kind {
                shell,
                case,
                home: home.clone(),
                in_pane,
                state: state.clone(),
                times: Vec::new(),
                cpu: Vec::new(),
            });
        }
    }
    for _ in 0..3 {
        kinds.iter_mut().for_each(Kind::run);
    }
    kinds.iter_mut().for_each(|k| {
        k.times.clear();
        k.cpu.clear();
    });
    let load_before = load();
    let began = Instant::now();
    let mut rounds = 0;
    while rounds < ROUNDS && (rounds < 15 || began.elapsed() < MEASURE) {
        kinds.iter_mut().for_each(Kind::run);
        rounds += 1;
    }
    let mut left: Vec<_> = std::fs::read_dir(&state)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    left.sort();
    assert_eq!(
        left,
        ["init.bash", "init.fish", "init.zsh"],
        "a pane with nothing to resume writes nothing in the state directory"
    );
    println!(
        "shell start, {rounds} rounds in {:.0} s, load average {load_before} -> {} \
         (wall median / mean, CPU median; difference and ratio against the shell's baseline):",
        began.elapsed().as_secs_f64(),
        load()
    );
    for shell in SHELLS {
        report(shell, &kinds);
    }
}

/// The table of `shell` and its targets line.
fn report(shell: &str, kinds: &[Kind]) {
    let mine: Vec<&Kind> = kinds.iter().filter(|k| k.shell == shell).collect();
    let base = mine[0];
    for k in &mine {
        let line = format!(
            "{shell:<5} {:<42} {:>7.2} ms / {:>7.2} ms  cpu {:>6.2} ms",
            CASES[k.case],
            ms(median(&k.times)),
            ms(mean(&k.times)),
            ms(median(&k.cpu))
        );
        if k.case == 0 {
            println!("{line}");
        } else {
            let (wall, cpu) = delta(k, base);
            let ratio = ms(median(&k.times)) / ms(median(&base.times));
            println!("{line}   {wall:+6.2} ms x{ratio:.2}, cpu {cpu:+6.2} ms");
        }
    }
    let [outside, pane, gone, before] = [1, 2, 3, 4].map(|i| delta(mine[i], base));
    println!(
        "{shell:<5} targets (wall / cpu over the baseline): outside {:+.2} / {:+.2} ms (<= 1), nothing to \
         resume {:+.2} / {:+.2} ms (<= 10), terminal gone {:+.2} / {:+.2} ms (<= 50); the line that ran \
         init: {:+.2} / {:+.2} ms",
        outside.0, outside.1, pane.0, pane.1, gone.0, gone.1, before.0, before.1
    );
}

/// Wall and CPU medians of `k` over `base`'s, in milliseconds.
fn delta(k: &Kind, base: &Kind) -> (f64, f64) {
    (
        ms(median(&k.times)) - ms(median(&base.times)),
        ms(median(&k.cpu)) - ms(median(&base.cpu)),
    )
}

/// The measured thing is real: in a pane whose record says there is something to resume, the same
/// start of `shell` reaches `shell-start`, which asks the terminal (a socket held here).
fn assert_reaches_shell_start(root: &Path, shell: &str, home: &Path) {
    let state = root.join(format!("captured-{shell}"));
    write_record(&state);
    write_init_file(agterm_backup_testkit::agterm_backup_bin!(), shell, &state);
    let socket = root.join(format!("agterm-{shell}.sock"));
    let listener = std::os::unix::net::UnixListener::bind(&socket).unwrap();
    listener.set_nonblocking(true).unwrap();
    let status = start(shell, home, &state)
        .envs(PANE[..2].iter().copied())
        .env("AGTERM_SOCKET", &socket)
        .env("AGTERM_BACKUP_SHELL_START_BUDGET_MS", "300")
        .status()
        .unwrap();
    assert!(status.success(), "{shell}");
    assert!(
        listener.accept().is_ok(),
        "{shell}: the start never ran shell-start"
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

/// The init file `installer apply --shell` writes in the state folder `state`: `init <shell>`'s output.
fn write_init_file(bin: &str, shell: &str, state: &Path) {
    let out = Command::new(bin).args(["init", shell]).output().unwrap();
    assert!(out.status.success());
    std::fs::create_dir_all(state).unwrap();
    std::fs::write(state.join(format!("init.{shell}")), out.stdout).unwrap();
}

/// The 1-, 5- and 15-minute load averages.
fn load() -> String {
    let text = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    text.split_whitespace()
        .take(3)
        .collect::<Vec<_>>()
        .join(" ")
}

fn median(times: &[Duration]) -> Duration {
    let mut t = times.to_vec();
    t.sort();
    t[t.len() / 2]
}

fn mean(times: &[Duration]) -> Duration {
    times.iter().sum::<Duration>() / times.len() as u32
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
