//! Helpers of the shell rc tests: a binary folder on `PATH` the line names, a stub standing in for it,
//! and the real shells started in the sandbox's HOME.

use super::*;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub const NOTE: &str = "# agterm-backup: a pane rebuilt after a restart resumes its conversation when its shell starts (AGTERM_BACKUP_AUTO=0 turns it off); `agterm-backup installer remove` takes this block out.";

/// A folder whose `agterm-backup` is this build (a symlink), first on `PATH`: apply names that path in
/// the line, and [`stub_in`] can then stand in for the binary there.
pub fn bin_dir(s: &Sandbox, name: &str) -> PathBuf {
    let dir = s.dir.path().join(name);
    std::fs::create_dir_all(&dir).unwrap();
    std::os::unix::fs::symlink(binary(), dir.join("agterm-backup")).unwrap();
    dir
}

/// `agterm-backup <args>` with `shell` as the login shell and `bin`'s binary on `PATH` (the only agent
/// asked for, Gemini, is not installed: the rc files are all apply writes).
pub fn run_as(s: &Sandbox, shell: &str, bin: &Path, args: &[&str]) -> Output {
    s.command(&format!("{}:/usr/bin:/bin", bin.display()))
        .env("SHELL", shell)
        .args(args)
        .output()
        .unwrap()
}

pub fn ok(out: &Output) -> String {
    assert!(
        out.status.success(),
        "exit {:?}: {}{}",
        out.status.code(),
        text(&out.stdout),
        text(&out.stderr)
    );
    text(&out.stdout)
}

/// Replaces the binary in `bin` by a script whose `init <shell>` prints one command that says it ran.
pub fn stub_in(bin: &Path) {
    let path = bin.join("agterm-backup");
    std::fs::remove_file(&path).unwrap();
    std::fs::write(
        &path,
        "#!/bin/sh\n[ \"$1\" = init ] || exit 64\necho \"echo 'snippet ran: init $2'\"\n",
    )
    .unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// How many times a shell started as `argv` in the sandbox's HOME evaluates our line for `shell`.
pub fn evaluations(s: &Sandbox, argv: &[&str], shell: &str) -> usize {
    let out = Command::new(argv[0])
        .args(&argv[1..])
        .env_clear()
        .envs(agterm_backup_testkit::hermetic::places())
        .env("HOME", s.home())
        .env("PATH", "/usr/bin:/bin")
        .env("TERM", "dumb")
        // In a pane: outside one the line runs nothing.
        .env("TMUX_PANE", "%1")
        .current_dir(s.home())
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    let all = format!("{}{}", text(&out.stdout), text(&out.stderr));
    all.matches(&format!("snippet ran: init {shell}")).count()
}

pub fn block(line: &str) -> String {
    format!("# >>> agterm-backup >>>\n{NOTE}\n{line}\n# <<< agterm-backup <<<\n")
}

/// The line `installer apply` writes for `shell` (`profile`: in bash's `~/.profile`, which sh reads).
pub fn rc_line(bin: &Path, shell: &str, profile: bool) -> String {
    let b = format!("'{}/agterm-backup'", bin.display());
    match shell {
        "fish" => format!(
            "if test -n \"$TMUX_PANE$ZMX_SESSION$AGTERM_PANE\" -a -x {b}; set -l {v} \"$AGTERM_BACKUP_HOME\"; \
             test -n \"${v}\"; or set {v} \"$HOME/.agterm-backup\"; if test -r \"${v}/init.fish\"; \
             source \"${v}/init.fish\"; else; {b} init fish | source; end; end",
            v = "__agterm_backup_state"
        ),
        sh => format!(
            "if {}[ -n \"${{TMUX_PANE-}}${{ZMX_SESSION-}}${{AGTERM_PANE-}}\" ] && [ -x {b} ]; then \
             if [ -r {f} ]; then . {f}; else eval \"$({b} init {sh})\"; fi; fi",
            if profile { "[ -n \"${BASH_VERSION-}\" ] && " } else { "" },
            f = format!("\"${{AGTERM_BACKUP_HOME:-${{HOME-}}/.agterm-backup}}/init.{sh}\"")
        ),
    }
}

pub fn zsh_line(bin: &Path) -> String {
    rc_line(bin, "zsh", false)
}

pub fn bash_line(bin: &Path) -> String {
    rc_line(bin, "bash", false)
}

pub fn corpus(name: &str) -> Vec<u8> {
    std::fs::read(corpus_dir().join(name)).unwrap()
}

/// How many times each shell's line ran in `login` started interactively on a terminal (util-linux
/// `script`) in the sandbox's HOME, in a pane, until it read `exit` (typed ahead: no shell reads its
/// terminal before its rc files are done).
pub fn runs_on_a_terminal(s: &Sandbox, login: &str) -> [usize; 3] {
    use std::io::Write as _;
    let mut child = Command::new("timeout")
        .args(["60", "script", "-qec", login, "/dev/null"])
        .env_clear()
        .envs(agterm_backup_testkit::hermetic::places())
        .env("HOME", s.home())
        .env("PATH", "/usr/bin:/bin")
        .env("TERM", "dumb")
        .env("TMUX_PANE", "%1")
        .current_dir(s.home())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("script (util-linux) runs");
    child.stdin.take().unwrap().write_all(b"exit\n").unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{login}: {}", text(&out.stderr));
    let all = text(&out.stdout);
    ["zsh", "bash", "fish"].map(|sh| all.matches(&format!("snippet ran: init {sh}")).count())
}

pub fn shell_rows(s: &Sandbox, login: &str, bin: &Path) -> Vec<serde_json::Value> {
    let out = run_as(s, login, bin, &["installer", "status", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    v["targets"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["target"] == "shell")
        .cloned()
        .collect()
}
