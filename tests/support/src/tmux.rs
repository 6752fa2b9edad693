//! A private tmux server (its own socket, its own config) whose panes are real login shells.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

/// One private tmux server. Killed on drop.
pub struct Tmux {
    socket: PathBuf,
    kill_on_drop: bool,
    /// `Some`: every tmux command runs with exactly this environment (so the server, and every pane a
    /// layout restorer creates, inherits it) and the server reads the config files of its `HOME`, as a
    /// user's tmux does. `None`: the test's environment and no config (`-f /dev/null`).
    env: Option<Vec<(String, String)>>,
}

impl Tmux {
    /// A server whose socket lives at `socket` (keep the path short: sun_path is ~104 bytes).
    pub fn new(socket: impl Into<PathBuf>) -> Tmux {
        Tmux {
            socket: socket.into(),
            kill_on_drop: true,
            env: None,
        }
    }

    /// A server run as a user runs theirs: with exactly `env` and the config files of its `HOME`.
    pub fn as_user(socket: impl Into<PathBuf>, env: &[(String, String)]) -> Tmux {
        Tmux {
            socket: socket.into(),
            kill_on_drop: true,
            env: Some(env.to_vec()),
        }
    }

    /// The environment of [`Tmux::as_user`], if this is such a server.
    pub fn user_env(&self) -> Option<&[(String, String)]> {
        self.env.as_deref()
    }

    /// Keeps the server running when this handle is dropped (the fake agterm's Live panes outlive it).
    pub fn keep_on_drop(mut self) -> Tmux {
        self.kill_on_drop = false;
        self
    }

    pub fn socket(&self) -> &Path {
        &self.socket
    }

    /// Runs `tmux -S <socket> -f /dev/null <args>` (or, for [`Tmux::as_user`], with its environment and
    /// config).
    pub fn cmd(&self, args: &[&str]) -> Output {
        self.command(args)
            .output()
            .expect("tmux runs (install it: apt-get install tmux)")
    }

    /// The [`Command`] [`Tmux::cmd`] runs (for callers that need to change it, e.g. `tmuxp`).
    pub fn command(&self, args: &[&str]) -> Command {
        let mut cmd = Command::new("tmux");
        cmd.arg("-S").arg(&self.socket);
        match &self.env {
            None => {
                cmd.arg("-f").arg("/dev/null").env_remove("TMUX");
                for (k, _) in std::env::vars_os() {
                    if k.to_str().is_some_and(is_ci_variable) {
                        cmd.env_remove(k);
                    }
                }
            }
            Some(env) => {
                cmd.env_clear().envs(crate::hermetic::places()).envs(
                    env.iter()
                        .filter(|(k, _)| !is_ci_variable(k))
                        .map(|(k, v)| (k, v)),
                );
            }
        }
        cmd.args(args);
        cmd
    }

    /// Like [`Tmux::cmd`] but panics with tmux's stderr on failure; returns trimmed stdout.
    pub fn ok(&self, args: &[&str]) -> String {
        let out = self.cmd(args);
        assert!(
            out.status.success(),
            "tmux {args:?} failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).trim_end().to_string()
    }

    /// Starts a detached window running `shell_argv` in `cwd` with `env` set; returns its pane id (`%N`).
    pub fn spawn(
        &self,
        name: &str,
        cwd: &Path,
        env: &[(String, String)],
        shell_argv: &[&str],
    ) -> String {
        let mut args: Vec<String> = vec![
            "new-session".into(),
            "-d".into(),
            "-P".into(),
            "-F".into(),
            "#{pane_id}".into(),
            "-x".into(),
            "200".into(),
            "-y".into(),
            "50".into(),
            "-s".into(),
            name.into(),
            "-c".into(),
            cwd.display().to_string(),
        ];
        for (k, v) in env {
            args.push("-e".into());
            args.push(format!("{k}={v}"));
        }
        args.extend(shell_argv.iter().map(|s| s.to_string()));
        let refs: Vec<&str> = args.iter().map(String::as_str).collect();
        // tmux exits once its last session ends (or on kill-server); a new session asked for while it
        // is still exiting fails with "server exited unexpectedly". A fresh server takes a retry once
        // the old one is gone, which on a loaded machine can take longer than a few tries' worth.
        let until = Instant::now() + Duration::from_secs(10);
        loop {
            let out = self.cmd(&refs);
            if out.status.success() {
                return String::from_utf8_lossy(&out.stdout).trim_end().to_string();
            }
            let exiting =
                String::from_utf8_lossy(&out.stderr).contains("server exited unexpectedly");
            if !exiting || Instant::now() > until {
                break;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        self.ok(&refs)
    }

    /// Types literal text (no key names), then presses Enter when `enter`.
    pub fn send_text(&self, pane: &str, text: &str, enter: bool) {
        self.ok(&["send-keys", "-t", pane, "-l", text]);
        if enter {
            self.ok(&["send-keys", "-t", pane, "Enter"]);
        }
    }

    /// The pane's visible screen (`all` = with scrollback).
    pub fn capture(&self, pane: &str, all: bool) -> String {
        if all {
            self.ok(&["capture-pane", "-p", "-J", "-S", "-", "-t", pane])
        } else {
            self.ok(&["capture-pane", "-p", "-J", "-t", pane])
        }
    }

    /// The screen line the pane's cursor is on (not joined: the cursor counts wrapped rows).
    pub fn cursor_line(&self, pane: &str) -> String {
        let y: usize = self
            .ok(&["display-message", "-p", "-t", pane, "#{cursor_y}"])
            .parse()
            .unwrap_or(0);
        let screen = self.ok(&["capture-pane", "-p", "-t", pane]);
        screen.lines().nth(y).unwrap_or_default().to_string()
    }

    /// The pid of the process tmux started in the pane.
    pub fn pane_pid(&self, pane: &str) -> u32 {
        self.ok(&["display-message", "-p", "-t", pane, "#{pane_pid}"])
            .parse()
            .expect("pane pid")
    }

    /// Polls `f` until it returns `Some`, or panics after `timeout` with `what`.
    pub fn wait_for<T>(timeout: Duration, what: &str, mut f: impl FnMut() -> Option<T>) -> T {
        let start = Instant::now();
        loop {
            if let Some(v) = f() {
                return v;
            }
            assert!(
                start.elapsed() < timeout,
                "timed out after {timeout:?} waiting for {what}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    pub fn kill_server(&self) {
        let _ = self.cmd(&["kill-server"]);
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        if self.kill_on_drop {
            self.kill_server();
        }
    }
}

/// The variables that mark a CI run (`CI`, `CONTINUOUS_INTEGRATION`, `CI_*`): the panes stand for a user's
/// terminal, and agents read them as "not interactive" (Gemini CLI's `is-in-ci` starts no input box), so
/// the test process's CI marks never reach a pane's shell.
pub fn is_ci_variable(name: &str) -> bool {
    name == "CI" || name == "CONTINUOUS_INTEGRATION" || name.starts_with("CI_")
}

/// `env(1)` arguments that unset every [`is_ci_variable`] this process has, for a pane's shell.
pub fn unset_ci_args() -> Vec<String> {
    std::env::vars_os()
        .filter_map(|(k, _)| k.into_string().ok())
        .filter(|k| is_ci_variable(k))
        .flat_map(|k| ["-u".to_string(), k])
        .collect()
}
