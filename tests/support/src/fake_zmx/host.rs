//! The ptys behind the fake's sessions: one hidden tmux server per socket dir (its own socket and config
//! in [`super::cfg::private_dir`]), one tmux session per zmx session. Each pane runs `fake-zmx __exec
//! <spec>`, which takes exactly the environment zmx's pty child would have and execs the command, so the
//! pane's pid is the command's pid (what `zmx list` reports) and nothing in it sees tmux.

use super::daemon::DaemonSpec;
use serde::{Deserialize, Serialize};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// What the `__exec` shim execs: `file` found on the spec's own PATH (execvpe), `argv0` (`-bash` for a
/// login shell), `args`, and exactly `env`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct LaunchSpec {
    pub file: String,
    pub argv0: String,
    pub args: Vec<String>,
    pub env: Vec<(String, String)>,
    /// The session's log, for the `execvpe failed` line.
    pub log: String,
}

/// `createCmdZ` + `exec`: the command as given, else `$SHELL` (`bash` for `run`) as a login shell
/// (`-<basename>`); the caller's environment with `ZMX_SESSION=<name>` and `TERM=xterm-256color` when
/// TERM is unset or `dumb`. Unlike zmx, TMUX/TMUX_PANE and CI marks are dropped: the fake's tmux must
/// not show through, and CI marks change how agent CLIs start (see [`crate::tmux::is_ci_variable`]).
pub fn launch_spec(spec: &DaemonSpec, log: &Path) -> LaunchSpec {
    let mut env: Vec<(String, String)> = std::env::vars()
        .filter(|(k, _)| {
            !matches!(k.as_str(), "TMUX" | "TMUX_PANE" | "ZMX_SESSION")
                && !crate::tmux::is_ci_variable(k)
        })
        .collect();
    env.push(("ZMX_SESSION".into(), spec.name.clone()));
    match env.iter_mut().find(|(k, _)| k == "TERM") {
        Some((_, v)) if v == "dumb" => *v = "xterm-256color".into(),
        Some(_) => {}
        None => env.push(("TERM".into(), "xterm-256color".into())),
    }
    let log = log.display().to_string();
    match &spec.command {
        Some(cmd) => LaunchSpec {
            file: cmd[0].clone(),
            argv0: cmd[0].clone(),
            args: cmd[1..].to_vec(),
            env,
            log,
        },
        None => {
            let shell = if spec.task_mode { "bash" } else { &spec.shell };
            let base = shell.rsplit('/').next().unwrap_or(shell);
            LaunchSpec {
                file: shell.to_string(),
                argv0: format!("-{base}"),
                args: Vec::new(),
                env,
                log,
            }
        }
    }
}

/// tmux settings for the hidden server: no status line or prefix key, zmx's 2,000 lines of scrollback,
/// and zmx's detach key (`ctrl+\`).
const TMUX_CONF: &str = "set -g status off\nset -g history-limit 2000\nset -g prefix None\n\
unbind-key C-b\nset -g escape-time 0\nbind-key -n 'C-\\' detach-client\n";

/// The hidden tmux server of one socket dir.
pub struct Host {
    dir: PathBuf,
}

impl Host {
    pub fn for_socket_dir(socket_dir: &str) -> Host {
        Host {
            dir: super::cfg::private_dir(socket_dir),
        }
    }

    pub fn tmux_socket(&self) -> PathBuf {
        self.dir.join("tmux.sock")
    }

    /// `tmux -S <socket> -f <conf> <args>`, without the caller's TMUX or CI marks.
    pub fn command(&self, args: &[&str]) -> Command {
        let mut cmd = Command::new("tmux");
        cmd.arg("-S")
            .arg(self.tmux_socket())
            .arg("-f")
            .arg(self.dir.join("tmux.conf"))
            .args(args)
            .env_remove("TMUX")
            .env_remove("TMUX_PANE");
        for (k, _) in std::env::vars_os() {
            if k.to_str().is_some_and(crate::tmux::is_ci_variable) {
                cmd.env_remove(k);
            }
        }
        cmd
    }

    fn ok(&self, args: &[&str]) -> Result<String, String> {
        let out = self
            .command(args)
            .output()
            .map_err(|e| format!("tmux: {e}"))?;
        if out.status.success() {
            Ok(String::from_utf8_lossy(&out.stdout).trim_end().to_string())
        } else {
            Err(String::from_utf8_lossy(&out.stderr).trim_end().to_string())
        }
    }

    /// Starts tmux session `tmux_name` (`cols`×`rows`, in `cwd`) running `spec`; returns the pane's pid.
    pub fn spawn(
        &self,
        tmux_name: &str,
        cwd: &str,
        size: (u16, u16),
        spec: &LaunchSpec,
    ) -> Result<u32, String> {
        std::fs::create_dir_all(&self.dir).map_err(|e| e.to_string())?;
        std::fs::write(self.dir.join("tmux.conf"), TMUX_CONF).map_err(|e| e.to_string())?;
        let spec_path = self.dir.join(format!("{tmux_name}.spec.json"));
        std::fs::write(
            &spec_path,
            serde_json::to_vec(spec).expect("spec serializes"),
        )
        .map_err(|e| e.to_string())?;
        // Run the shim as `…/zmx`: until its exec the pty's process is zmx's own fork, named zmx, as
        // in zmx (`daemonize.zig spawnPty`: forkpty, then execvpe in the child).
        let exe = self.dir.join("zmx");
        if !exe.exists() {
            let real = std::env::current_exe().map_err(|e| e.to_string())?;
            let _ = std::os::unix::fs::symlink(real, &exe);
        }
        let (cols, rows) = (size.0.to_string(), size.1.to_string());
        let args = [
            "new-session",
            "-d",
            "-P",
            "-F",
            "#{pane_pid}",
            "-s",
            tmux_name,
            "-x",
            &cols,
            "-y",
            &rows,
            "-c",
            cwd,
            exe.to_str().ok_or("exe path is not UTF-8")?,
            "__exec",
            spec_path.to_str().ok_or("spec path is not UTF-8")?,
        ];
        // tmux exits once its last session ends; a session asked for at that moment meets a dying
        // server ("server exited unexpectedly"), and a fresh one takes the retry.
        let mut last = String::new();
        for _ in 0..20 {
            match self.ok(&args) {
                Ok(pid) => return pid.trim().parse().map_err(|_| format!("pane pid {pid:?}")),
                Err(e) => last = e,
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        Err(last)
    }

    /// Writes `data` into the session's pty byte for byte (`paste-buffer -r`: no LF→CR, no bracketed
    /// paste), as zmx's `.Send` does.
    pub fn input(&self, tmux_name: &str, data: &[u8]) -> Result<(), String> {
        if data.is_empty() {
            return Ok(());
        }
        let buffer = format!("in-{tmux_name}");
        let mut child = self
            .command(&["load-buffer", "-b", &buffer, "-"])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .map_err(|e| e.to_string())?;
        use std::io::Write;
        child
            .stdin
            .take()
            .expect("piped")
            .write_all(data)
            .map_err(|e| e.to_string())?;
        child.wait().map_err(|e| e.to_string())?;
        let target = format!("={tmux_name}:");
        self.ok(&["paste-buffer", "-d", "-r", "-b", &buffer, "-t", &target])
            .map(drop)
    }

    /// The session's scrollback and screen as ghostty's plain formatter writes them for `zmx history`
    /// (`formatter.zig`, `Options.plain`): every row as drawn (soft-wrapped rows stay separate rows),
    /// trailing spaces and trailing blank rows dropped, rows joined by `\n` with none after the last;
    /// the alternate screen while a program uses it. `vt` adds tmux's escape sequences (an
    /// approximation of zmx's `--vt`).
    pub fn history(&self, tmux_name: &str, vt: bool) -> Result<String, String> {
        let target = format!("={tmux_name}:");
        let mut args = vec!["capture-pane", "-p", "-S", "-", "-E", "-", "-t", &target];
        if vt {
            args.insert(1, "-e");
        }
        Ok(plain_rows(&self.ok(&args)?))
    }

    /// The pane's reported path (tmux keeps the last OSC 7 a program sent), empty when none.
    pub fn pane_path(&self, tmux_name: &str) -> String {
        let target = format!("={tmux_name}:");
        self.ok(&["display-message", "-p", "-t", &target, "#{pane_path}"])
            .unwrap_or_default()
    }

    pub fn kill_session(&self, tmux_name: &str) {
        let _ = self.ok(&["kill-session", "-t", &format!("={tmux_name}")]);
    }

    /// Every pane's pid (for a reboot).
    pub fn pane_pids(&self) -> Vec<i32> {
        self.ok(&["list-panes", "-a", "-F", "#{pane_pid}"])
            .unwrap_or_default()
            .lines()
            .filter_map(|l| l.trim().parse().ok())
            .collect()
    }

    /// The server's pid, if it runs.
    pub fn server_pid(&self) -> Option<i32> {
        self.ok(&["display-message", "-p", "#{pid}"])
            .ok()?
            .parse()
            .ok()
    }
}

/// The tmux session name of zmx session `name` in daemon `daemon_pid`: hex, since tmux rewrites `.` and
/// `:` in names, and per daemon, since a killed session's pane may linger for zmx's 500 ms grace while
/// its name is already reused.
pub fn tmux_name(name: &str, daemon_pid: u32) -> String {
    let hex: String = name.bytes().map(|b| format!("{b:02x}")).collect();
    format!("z{hex}-{daemon_pid}")
}

/// `fake-zmx __exec <spec>`: becomes the session's command (same pid), or logs zmx's line and exits 1.
pub fn exec_spec(spec_path: &Path) -> ! {
    let spec: LaunchSpec = match std::fs::read(spec_path)
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok())
    {
        Some(s) => s,
        None => std::process::exit(1),
    };
    let _ = std::fs::remove_file(spec_path);
    let err = Command::new(&spec.file)
        .arg0(&spec.argv0)
        .args(&spec.args)
        .env_clear()
        .envs(crate::hermetic::places())
        .envs(spec.env.iter().map(|(k, v)| (k, v)))
        .exec();
    super::log::append(
        Path::new(&spec.log),
        "error",
        &format!(
            "execvpe failed: cmd={} err={}",
            spec.file,
            exec_error_name(&err)
        ),
    );
    std::process::exit(1)
}

fn exec_error_name(e: &std::io::Error) -> &'static str {
    match e.raw_os_error() {
        Some(libc::ENOENT) => "FileNotFound",
        Some(libc::EACCES) => "AccessDenied",
        _ => "Unexpected",
    }
}

/// Rows of a capture as ghostty's plain formatter emits them: trailing spaces and trailing blank rows
/// dropped, `\n` between rows and none at the end (leading blank rows stay).
pub fn plain_rows(capture: &str) -> String {
    let rows: Vec<&str> = capture.lines().map(|l| l.trim_end_matches(' ')).collect();
    let last = rows
        .iter()
        .rposition(|r| !r.is_empty())
        .map_or(0, |i| i + 1);
    rows[..last].join("\n")
}
