//! Issue 20: the `init` snippet at the edges, in real interactive zsh and bash in tmux panes with a stub
//! in place of the binary (it records each call):
//! - Ctrl-C while `shell-start` is deciding (it ignores the signal and answers): the answer is not run,
//!   the claim is given back (`--give-back`), the shell lives;
//! - the rc file read twice (a `.bash_profile` sourcing `.bashrc` that the login shell also reads, a
//!   `.zshrc` sourced again): one question, one resume.

use agterm_backup::shell_init::{snippet, Shell};
use agterm_backup_core::quote::quote;
use agterm_backup_testkit::tmux::{unset_ci_args, Tmux};
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::time::{Duration, Instant};

const PANE_ENV: [&str; 2] = [
    "AGTERM_SESSION_ID=6B1E0C2A-AAAA-BBBB-CCCC-0123456789AB",
    "AGTERM_PANE=left",
];

/// A stub binary under `root`: `shell-start` records its arguments, outlives SIGINT as the real one does
/// (its trap notes each one in `root/interrupted`, the state a test waits on after pressing Ctrl-C),
/// waits for `root/go` when `wait` (so the test can press Ctrl-C meanwhile), and answers with a resume.
fn stub(root: &Path, wait: bool) -> String {
    let calls = quote(&root.join("calls").display().to_string());
    let asking = quote(&root.join("asking").display().to_string());
    let go = quote(&root.join("go").display().to_string());
    let interrupted = quote(&root.join("interrupted").display().to_string());
    let waiting = if wait {
        format!(": > {asking}\nwhile [ ! -e {go} ]; do sleep 0.05; done\n")
    } else {
        String::new()
    };
    let path = root.join("bin/agterm-backup");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(
        &path,
        format!(
            "#!/bin/sh\ntrap ': > {interrupted}' INT\necho \"$@\" >> {calls}\ncase \"$*\" in *--give-back*) exit 0;; esac\n\
             {waiting}printf '%s\\n' 'agterm-backup: resuming stub' 'echo RAN-IN-SHELL'\n"
        ),
    )
    .unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path.display().to_string()
}

fn wait_for(what: &str, mut f: impl FnMut() -> bool) {
    let until = Instant::now() + Duration::from_secs(15);
    while !f() {
        assert!(Instant::now() < until, "timed out: {what}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Starts `shell` interactively in a pane of `tmux`, HOME = `root/home` with the rc files given.
fn start(tmux: &Tmux, root: &Path, name: &str, shell: &str, rc: &[(&str, String)]) -> String {
    let home = root.join("home");
    for (rel, text) in rc {
        let path = home.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    let mut argv: Vec<String> = ["env", "-u", "TMUX", "-u", "TMUX_PANE"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    argv.extend(unset_ci_args());
    argv.push(format!("HOME={}", home.display()));
    argv.extend(PANE_ENV.iter().map(|s| s.to_string()));
    argv.push(shell.into());
    argv.push("-il".into());
    let refs: Vec<&str> = argv.iter().map(String::as_str).collect();
    tmux.spawn(name, root, &[], &refs)
}

fn calls(root: &Path) -> Vec<String> {
    std::fs::read_to_string(root.join("calls"))
        .unwrap_or_default()
        .lines()
        .map(str::to_string)
        .collect()
}

fn alive(tmux: &Tmux, pane: &str) -> String {
    tmux.send_text(pane, "echo alive-$((40 + 2))", true);
    let mut screen = String::new();
    wait_for("the shell answers", || {
        screen = tmux.capture(pane, true);
        screen.contains("alive-42")
    });
    screen
}

fn server() -> (agterm_backup_testkit::scratch::ScratchDir, Tmux) {
    let dir = agterm_backup_testkit::scratch::tempdir_named("agb-se-");
    let tmux = Tmux::new(dir.path().join("t.sock"));
    (dir, tmux)
}

fn rc(shell: Shell, bin: &str) -> Vec<(&'static str, String)> {
    let code = snippet(shell, bin);
    match shell {
        Shell::Zsh => vec![(".zshrc", format!("PROMPT='$ '\n{code}"))],
        _ => vec![
            (".bash_profile", ". ~/.bashrc\n".into()),
            (".bashrc", format!("PS1='$ '\n{code}")),
        ],
    }
}

#[test]
fn ctrl_c_while_asking_runs_nothing_and_gives_the_claim_back() {
    let (_d, tmux) = server();
    for (shell, name) in [(Shell::Zsh, "zsh"), (Shell::Bash, "bash")] {
        let dir = agterm_backup_testkit::scratch::tempdir();
        let root = dir.path();
        let bin = stub(root, true);
        let pane = start(&tmux, root, name, name, &rc(shell, &bin));
        wait_for("shell-start is asked", || root.join("asking").exists());
        tmux.ok(&["send-keys", "-t", &pane, "C-c"]);
        // send-keys returns before the pty has the byte: the answer may go only once ^C arrived.
        wait_for("the ^C reached shell-start", || {
            root.join("interrupted").exists()
        });
        std::fs::write(root.join("go"), "").unwrap();
        wait_for("the claim is given back", || {
            calls(root).iter().any(|c| c.contains("--give-back"))
        });
        let screen = alive(&tmux, &pane);
        assert!(!screen.contains("RAN-IN-SHELL"), "{name}:\n{screen}");
        assert_eq!(
            calls(root).len(),
            2,
            "{name}: asked once, gave back once: {:?}",
            calls(root)
        );
    }
}

#[test]
fn an_rc_file_read_twice_asks_once() {
    let (_d, tmux) = server();
    for (shell, name) in [(Shell::Zsh, "zsh"), (Shell::Bash, "bash")] {
        let dir = agterm_backup_testkit::scratch::tempdir();
        let root = dir.path();
        let bin = stub(root, false);
        let code = snippet(shell, &bin);
        let twice = match shell {
            Shell::Zsh => vec![(".zshrc", format!("PROMPT='$ '\n{code}{code}"))],
            _ => vec![
                // A login bash reads .bash_profile, which sources .bashrc, which holds the block; the
                // profile holds the block too.
                (".bash_profile", format!(". ~/.bashrc\n{code}")),
                (".bashrc", format!("PS1='$ '\n{code}")),
            ],
        };
        let pane = start(&tmux, root, name, name, &twice);
        let screen = alive(&tmux, &pane);
        wait_for("the resume ran", || {
            tmux.capture(&pane, true).contains("RAN-IN-SHELL")
        });
        let screen = format!("{screen}{}", alive(&tmux, &pane));
        let asked = calls(root)
            .iter()
            .filter(|c| !c.contains("--give-back"))
            .count();
        assert_eq!(asked, 1, "{name}: {:?}\n{screen}", calls(root));
        assert_eq!(
            tmux.capture(&pane, true).matches("RAN-IN-SHELL").count(),
            1,
            "{name}: one resume"
        );
    }
}
