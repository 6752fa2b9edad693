//! The `init` snippet in real interactive zsh, bash and fish (each in a tmux pane, its rc file in a
//! throwaway HOME), with a stub in place of the binary that records each call and answers as a case
//! needs: outside a captured pane, or with `AGTERM_BACKUP_AUTO=0`, nothing is spawned; inside, the binary
//! is asked exactly once, its first line printed, its second run in the shell as a foreground job; a
//! missing binary, a failing one, a short answer, and the users' `set -u` / `set -e`: nothing printed,
//! the shell alive.

use agterm_backup::shell_init::{snippet, Shell};
use agterm_backup_core::quote::quote;
use agterm_backup_testkit::settle::{wait_runs_gone, Runs};
use agterm_backup_testkit::tmux::{unset_ci_args, Tmux};
use std::os::unix::fs::PermissionsExt;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

const SHELLS: [(Shell, &str); 3] = [
    (Shell::Zsh, "zsh"),
    (Shell::Bash, "bash"),
    (Shell::Fish, "fish"),
];
const AGTERM: [(&str, &str); 2] = [
    ("AGTERM_SESSION_ID", "6B1E0C2A-AAAA-BBBB-CCCC-0123456789AB"),
    ("AGTERM_PANE", "left"),
];

/// How the stub answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Answer {
    Nothing,
    /// The message and a line that reports its process group and the terminal's foreground group.
    Resume,
    /// Exit 3 with words on stderr.
    Fail,
    /// The message only, no line.
    OneLine,
    /// No binary at the path at all.
    Missing,
}

struct Case {
    _dir: agterm_backup_testkit::scratch::ScratchDir,
    root: PathBuf,
    pane: String,
}

impl Case {
    /// How many times the shell asked `shell-start` (its `--give-back` after a resume ran not counted).
    fn calls(&self) -> usize {
        std::fs::read_to_string(self.root.join("calls"))
            .map(|t| t.lines().filter(|l| !l.contains("--give-back")).count())
            .unwrap_or(0)
    }
}

/// A HOME whose rc file sets a `$ ` prompt, the user's strict options, and the snippet (calling a stub
/// that answers `answer`); the shell runs interactively in a tmux pane with `env` (and without `TMUX`).
fn start(tmux: &Tmux, shell: (Shell, &str), answer: Answer, env: &[(&str, &str)]) -> Case {
    start_as(tmux, shell, answer, env, &[shell.1, "-i"])
}

/// [`start`], the pane running `command` (under the same environment) instead of an interactive shell.
fn start_as(
    tmux: &Tmux,
    shell: (Shell, &str),
    answer: Answer,
    env: &[(&str, &str)],
    command: &[&str],
) -> Case {
    let dir = agterm_backup_testkit::scratch::tempdir();
    let root = dir.path().to_path_buf();
    let stub = root.join("bin/agterm-backup");
    std::fs::create_dir_all(stub.parent().unwrap()).unwrap();
    let calls = quote(&root.join("calls").display().to_string());
    let fg = quote(&root.join("fg").display().to_string());
    let body = match answer {
        Answer::Nothing => String::new(),
        Answer::Resume => format!(
            "printf '%s\\n' 'agterm-backup: resuming stub' \"'sh' '-c' 'ps -o pgid=,tpgid= -p \\$\\$ > {fg}; echo RAN-IN-SHELL'\"\n"
        ),
        Answer::Fail => "echo 'stub: broken' >&2\nexit 3\n".into(),
        Answer::OneLine => "echo 'agterm-backup: resuming stub'\n".into(),
        Answer::Missing => String::new(),
    };
    if answer != Answer::Missing {
        std::fs::write(&stub, format!("#!/bin/sh\necho \"$@\" >> {calls}\n{body}")).unwrap();
        std::fs::set_permissions(&stub, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let code = snippet(shell.0, &stub.display().to_string());
    let home = root.join("home");
    let rc = match shell.0 {
        Shell::Zsh => (
            ".zshrc",
            format!("PROMPT='$ '\nsetopt nounset err_exit\n{code}"),
        ),
        Shell::Bash => (".bashrc", format!("PS1='$ '\nset -euo pipefail\n{code}")),
        // As installed: `… init fish | source` (the sourced code's stdin is the pipe).
        Shell::Fish => {
            let file = root.join("init.fish");
            std::fs::write(&file, &code).unwrap();
            let file = quote(&file.display().to_string());
            (
                ".config/fish/config.fish",
                format!(
                    "set -g fish_greeting ''\nfunction fish_prompt; printf '$ '; end\ncat {file} | source\n"
                ),
            )
        }
    };
    let path = home.join(rc.0);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, rc.1).unwrap();
    let mut argv: Vec<String> = [
        "env",
        "-u",
        "TMUX",
        "-u",
        "TMUX_PANE",
        "-u",
        "XDG_CONFIG_HOME",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    argv.extend(unset_ci_args());
    argv.push(format!("HOME={}", home.display()));
    argv.extend(env.iter().map(|(k, v)| format!("{k}={v}")));
    argv.extend(command.iter().map(|w| w.to_string()));
    let refs: Vec<&str> = argv.iter().map(String::as_str).collect();
    static CASES: AtomicUsize = AtomicUsize::new(0);
    let name = format!("{}-{}", shell.1, CASES.fetch_add(1, Ordering::Relaxed));
    let pane = tmux.spawn(&name, &root, &[], &refs);
    Case {
        _dir: dir,
        root,
        pane,
    }
}

/// Waits until the screen's last line is the `$ ` prompt; returns the screen.
fn wait_prompt(tmux: &Tmux, pane: &str) -> String {
    let until = Instant::now() + Duration::from_secs(15);
    loop {
        let screen = tmux.capture(pane, true);
        let last = screen.lines().rev().find(|l| !l.trim().is_empty());
        if last.is_some_and(|l| l.trim_end() == "$") {
            return screen;
        }
        assert!(Instant::now() < until, "no prompt in {pane}:\n{screen}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Three more prompts and a command: the shell is alive, the hook does not fire again. Returns the screen.
fn keep_using(tmux: &Tmux, case: &Case, shell: &str) -> String {
    wait_prompt(tmux, &case.pane);
    for _ in 0..3 {
        tmux.send_text(&case.pane, "", true);
    }
    let check = match shell {
        "fish" => "echo alive-(math 40 + 2)",
        _ => "echo alive-$((40 + 2))",
    };
    tmux.send_text(&case.pane, check, true);
    let until = Instant::now() + Duration::from_secs(15);
    loop {
        let screen = tmux.capture(&case.pane, true);
        if screen.contains("alive-42") {
            return screen;
        }
        assert!(
            Instant::now() < until,
            "{shell}: the shell died or hangs:\n{screen}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn server() -> (agterm_backup_testkit::scratch::ScratchDir, Tmux) {
    let dir = agterm_backup_testkit::scratch::tempdir_named("si-");
    let tmux = Tmux::new(dir.path().join("t.sock"));
    (dir, tmux)
}

fn require(shell: &str) -> bool {
    // Found on PATH, not started: fish makes its folders in the HOME it starts with (the user's, here).
    let found = std::process::Command::new("sh")
        .args(["-c", "command -v \"$0\" >/dev/null", shell])
        .status()
        .is_ok_and(|s| s.success());
    assert!(
        found || std::env::var_os("CI").is_none(),
        "{shell} is not installed"
    );
    found
}

#[test]
fn outside_a_captured_pane_or_turned_off_nothing_is_spawned() {
    let (_d, tmux) = server();
    let overlay = [("AGTERM_SESSION_ID", AGTERM[0].1)];
    let off = [AGTERM[0], AGTERM[1], ("AGTERM_BACKUP_AUTO", "0")];
    for shell in SHELLS.into_iter().filter(|s| require(s.1)) {
        for env in [&[][..], &overlay[..], &off[..]] {
            let case = start(&tmux, shell, Answer::Resume, env);
            let screen = keep_using(&tmux, &case, shell.1);
            assert_eq!(case.calls(), 0, "{} {env:?}:\n{screen}", shell.1);
            assert!(!screen.contains("resuming"), "{}: {screen}", shell.1);
        }
    }
}

#[test]
fn in_a_captured_pane_it_asks_once_and_runs_the_line_as_a_foreground_job() {
    let (_d, tmux) = server();
    let tmux_pane = [("TMUX_PANE", "%7"), ("ZMX_SESSION", "")];
    let zmx = [("ZMX_SESSION", "work")];
    for shell in SHELLS.into_iter().filter(|s| require(s.1)) {
        for env in [&AGTERM[..], &tmux_pane[..], &zmx[..]] {
            let case = start(&tmux, shell, Answer::Resume, env);
            let screen = keep_using(&tmux, &case, shell.1);
            assert_eq!(case.calls(), 1, "{} {env:?}:\n{screen}", shell.1);
            let said = screen.matches("agterm-backup: resuming stub").count();
            assert_eq!(
                said, 1,
                "{}: one line says what resumes:\n{screen}",
                shell.1
            );
            assert_eq!(
                screen.matches("RAN-IN-SHELL").count(),
                1,
                "{}:\n{screen}",
                shell.1
            );
            let fg = std::fs::read_to_string(case.root.join("fg")).unwrap();
            let groups: Vec<&str> = fg.split_whitespace().collect();
            assert_eq!(
                groups.first(),
                groups.get(1),
                "{}: the line runs as the terminal's foreground job: {fg}",
                shell.1
            );
            // Asked once for this shell, then told the line returned (to give the claim back if the
            // agent did not stay up).
            let args = std::fs::read_to_string(case.root.join("calls")).unwrap();
            let asked = format!("shell-start --shell {} --shell-pid ", shell.1);
            let lines: Vec<&str> = args.lines().collect();
            assert_eq!(lines.len(), 2, "{args}");
            let pid = lines[0].strip_prefix(&asked).expect(&args);
            assert_eq!(lines[1], format!("{asked}{pid} --give-back"), "{args}");
            assert_ne!(
                groups.first(),
                Some(&pid),
                "{}: the line's job has a process group of its own, not the shell's: {fg}",
                shell.1
            );
        }
    }
}

#[test]
fn a_missing_or_failing_binary_prints_nothing_and_strict_shells_survive() {
    let (_d, tmux) = server();
    for shell in SHELLS.into_iter().filter(|s| require(s.1)) {
        for answer in [
            Answer::Missing,
            Answer::Fail,
            Answer::OneLine,
            Answer::Nothing,
        ] {
            let case = start(&tmux, shell, answer, &AGTERM);
            let screen = keep_using(&tmux, &case, shell.1);
            let expected = usize::from(answer != Answer::Missing);
            assert_eq!(case.calls(), expected, "{} {answer:?}:\n{screen}", shell.1);
            for noise in [
                "resuming",
                "broken",
                "not found",
                "No such file",
                "Unknown command",
            ] {
                assert!(
                    !screen.contains(noise),
                    "{} {answer:?}: {noise}:\n{screen}",
                    shell.1
                );
            }
        }
    }
}

#[test]
fn a_tool_running_an_interactive_shell_command_spawns_nothing() {
    let (_d, tmux) = server();
    for shell in SHELLS.into_iter().filter(|s| require(s.1)) {
        // An agent's tool or a script: `<shell> -i -c …` with its output in a pipe, in a captured pane.
        let line = format!("{} -i -c 'echo tool-ran' | cat; exec sleep 600", shell.1);
        let case = start_as(&tmux, shell, Answer::Resume, &AGTERM, &["sh", "-c", &line]);
        let until = Instant::now() + Duration::from_secs(15);
        while !tmux.capture(&case.pane, true).contains("tool-ran") {
            assert!(
                Instant::now() < until,
                "{}: {}",
                shell.1,
                tmux.capture(&case.pane, true)
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        // Once the pane's `sh` has exec'd `sleep`, the pipeline is over: any call the tool's shell made
        // (waited for, in a `$(...)`) is in the calls file.
        let pane_pid = tmux.pane_pid(&case.pane);
        Tmux::wait_for(
            Duration::from_secs(15),
            "the pane's sh to exec sleep",
            || {
                std::fs::read_to_string(format!("/proc/{pane_pid}/comm"))
                    .is_ok_and(|c| c.trim_end() == "sleep")
                    .then_some(())
            },
        );
        // And nothing it left in the background is still asking the stub.
        let asking = Runs {
            subcommands: &["shell-start"],
            scripts: &[],
        };
        wait_runs_gone(&case.root, asking, Duration::from_secs(15));
        assert_eq!(
            case.calls(),
            0,
            "{}: {}",
            shell.1,
            tmux.capture(&case.pane, true)
        );
    }
}
