//! Rebuilding a tmux layout after a "reboot" the ways users do: tmux-resurrect's save and restore (its
//! exact tmux commands, read from `scripts/save.sh` and `scripts/restore.sh`), tmuxp, and resurrect's
//! `execute_hook` running a `@resurrect-hook-…` option from `run-shell`.
//!
//! tmux-resurrect itself is not packaged for Debian, so this module does what its scripts do, command
//! for command: a pane line per pane (`session_name`, `window_index`, `pane_index`, `pane_current_path`,
//! and the full command of the pane's foreground), then per line `new-session -d -s` / `new-window -d -t`
//! / `split-window -t` with `-c <saved dir>`, then `send-keys '<command>' C-m` for the programs on its
//! restore list, then `eval "$hook"` of `@resurrect-hook-post-restore-all`.

use crate::tmux::Tmux;
use std::path::Path;

/// One `pane` line of a resurrect save file (the fields restore uses).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SavedPane {
    pub session: String,
    pub window: u32,
    pub pane: u32,
    pub dir: String,
}

/// What `save.sh` records of every pane, in its order (sessions, windows, panes by index).
pub fn save(tmux: &Tmux) -> Vec<SavedPane> {
    let out = tmux.ok(&[
        "list-panes",
        "-a",
        "-F",
        "#{session_name}\t#{window_index}\t#{pane_index}\t#{pane_current_path}",
    ]);
    out.lines()
        .map(|l| {
            let f: Vec<&str> = l.splitn(4, '\t').collect();
            SavedPane {
                session: f[0].to_string(),
                window: f[1].parse().expect("window index"),
                pane: f[2].parse().expect("pane index"),
                dir: f[3].to_string(),
            }
        })
        .collect()
}

/// `restore.sh`'s `restore_all_panes` on an empty server: the same names and indexes, shells in the
/// saved dirs. (Its first `new-session` goes through `TMUX="" tmux -S <socket>`; here every command
/// names the socket.)
pub fn rebuild(tmux: &Tmux, saved: &[SavedPane]) {
    for p in saved {
        let window = format!("{}:{}", p.session, p.window);
        let has_session = tmux
            .cmd(&["has-session", "-t", &p.session])
            .status
            .success();
        let has_window = has_session
            && tmux
                .ok(&["list-windows", "-t", &p.session, "-F", "#{window_index}"])
                .lines()
                .any(|w| w == p.window.to_string());
        if has_window {
            tmux.ok(&["split-window", "-t", &window, "-c", &p.dir]);
            tmux.ok(&["resize-pane", "-t", &window, "-U", "999"]);
        } else if has_session {
            tmux.ok(&["new-window", "-d", "-t", &window, "-c", &p.dir]);
        } else {
            tmux.ok(&["new-session", "-d", "-s", &p.session, "-c", &p.dir]);
            let first = tmux.ok(&["show", "-gv", "base-index"]);
            if first != p.window.to_string() {
                let from = format!("{}:{first}", p.session);
                tmux.ok(&["move-window", "-s", &from, "-t", &window]);
            }
        }
    }
}

/// `restore_pane_process`: resurrect types a program on its restore list into its pane.
pub fn restore_process(tmux: &Tmux, target: &str, command: &str) {
    tmux.ok(&["send-keys", "-t", target, command, "C-m"]);
}

/// `execute_hook "post-restore-all"` as restore.sh runs it: from `run-shell` (so `$TMUX` names the
/// server), the option's value `eval`ed by bash. Returns once the hook line returned.
pub fn run_post_restore_hook(tmux: &Tmux, scratch: &Path) {
    run_hook(tmux, scratch, "post-restore-all");
}

/// `execute_hook "post-save-all"`: the last step of `save.sh`'s `save_all`, the same way.
pub fn run_post_save_hook(tmux: &Tmux, scratch: &Path) {
    run_hook(tmux, scratch, "post-save-all");
}

fn run_hook(tmux: &Tmux, scratch: &Path, kind: &str) {
    let script = scratch.join(format!("resurrect-execute-hook-{kind}.sh"));
    std::fs::write(
        &script,
        format!(
            "#!/usr/bin/env bash\n\
             hook=$(tmux show-option -gqv \"@resurrect-hook-{kind}\")\n\
             if [ -n \"$hook\" ]; then\n\teval \"$hook \"\nfi\n"
        ),
    )
    .expect("write the hook runner");
    tmux.ok(&["run-shell", &format!("bash '{}'", script.display())]);
}

/// A tmuxp workspace file for `saved` (one session each; windows and panes in index order).
pub fn tmuxp_workspace(session: &str, saved: &[SavedPane]) -> String {
    let mut yaml = format!("session_name: {session}\nwindows:\n");
    let mut windows: Vec<u32> = saved
        .iter()
        .filter(|p| p.session == session)
        .map(|p| p.window)
        .collect();
    windows.dedup();
    for w in windows {
        yaml.push_str(&format!("  - window_name: w{w}\n    panes:\n"));
        for p in saved
            .iter()
            .filter(|p| p.session == session && p.window == w)
        {
            yaml.push_str(&format!(
                "      - shell_command: []\n        start_directory: '{}'\n",
                p.dir.replace('\'', "''")
            ));
        }
    }
    yaml
}

/// `tmuxp load -d -y -S <socket> <file>` with the server's user environment.
pub fn tmuxp_load(tmux: &Tmux, file: &Path) {
    let mut cmd = std::process::Command::new("tmuxp");
    cmd.args(["load", "-d", "-y", "-S"])
        .arg(tmux.socket())
        .arg(file);
    if let Some(env) = tmux.user_env() {
        cmd.env_clear()
            .envs(crate::hermetic::places())
            .envs(env.iter().map(|(k, v)| (k, v)));
    }
    let out = cmd
        .output()
        .expect("tmuxp runs (install it: apt-get install tmuxp)");
    assert!(
        out.status.success(),
        "tmuxp load failed: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}
