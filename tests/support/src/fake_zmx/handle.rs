//! The test side of the fake zmx: a bin dir whose `zmx` is the fake, its socket dir, and what a test does
//! around it (list, wait, type, read, reboot, attach from an outer terminal).

use super::format::{parse_row, Row};
use super::host::Host;
use crate::tmux::Tmux;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// One fake zmx install: `<dir>/bin/zmx` → the `fake-zmx` binary, sessions in `<dir>/zmx` (`ZMX_DIR`).
/// Dropping it kills its sessions, as [`FakeZmx::reboot`] does, and removes the fake's private state.
pub struct FakeZmx {
    bin_dir: PathBuf,
    socket_dir: PathBuf,
}

impl FakeZmx {
    /// Sets up `<dir>/bin/zmx` and the socket dir `<dir>/zmx` (keep `dir` short: a session's socket path
    /// must fit in 107 bytes).
    pub fn new(dir: &Path) -> FakeZmx {
        let bin_dir = dir.join("bin");
        let socket_dir = dir.join("zmx");
        std::fs::create_dir_all(&bin_dir).expect("bin dir");
        let link = bin_dir.join("zmx");
        let _ = std::fs::remove_file(&link);
        std::os::unix::fs::symlink(super::fake_zmx_bin(), &link).expect("zmx symlink");
        FakeZmx {
            bin_dir,
            socket_dir,
        }
    }

    /// The folder holding `zmx` (put it first on a shell's or agent's PATH).
    pub fn bin_dir(&self) -> &Path {
        &self.bin_dir
    }

    /// `<bin dir>/zmx`.
    pub fn zmx(&self) -> PathBuf {
        self.bin_dir.join("zmx")
    }

    /// `ZMX_DIR`: where the session sockets are.
    pub fn socket_dir(&self) -> &Path {
        &self.socket_dir
    }

    /// zmx's log dir under `ZMX_DIR` (`zmx.log`, `<session>.log`).
    pub fn log_dir(&self) -> PathBuf {
        self.socket_dir.join("logs")
    }

    /// The variables a shell or agent needs to find this zmx: `PATH` (the bin dir first, then this
    /// process's PATH), `ZMX_DIR`, `SHELL=/bin/bash` (a session's default command: a login bash, so
    /// Debian's `/etc/profile` resets PATH in it) and an empty `HOME` of its own (`<dir>/home`), so no
    /// login shell reads the real user's profile.
    pub fn env(&self) -> Vec<(String, String)> {
        let path = std::env::var("PATH").unwrap_or_default();
        let home = self.bin_dir.with_file_name("home");
        let _ = std::fs::create_dir_all(&home);
        vec![
            ("PATH".into(), format!("{}:{path}", self.bin_dir.display())),
            ("ZMX_DIR".into(), self.socket_dir.display().to_string()),
            ("SHELL".into(), "/bin/bash".into()),
            ("HOME".into(), home.display().to_string()),
        ]
    }

    /// `zmx <args>` as a test runs it: [`FakeZmx::env`], outside any session (no `ZMX_SESSION`, no
    /// `TMUX`), stdin from /dev/null.
    pub fn command(&self, args: &[&str]) -> Command {
        let mut cmd = Command::new(self.zmx());
        cmd.args(args)
            .envs(self.env())
            .env_remove("ZMX_SESSION")
            .env_remove("TMUX")
            .env_remove("TMUX_PANE")
            .stdin(Stdio::null());
        cmd
    }

    pub fn run(&self, args: &[&str]) -> Output {
        self.command(args).output().expect("fake zmx runs")
    }

    /// `zmx attach <name> [cmd…]` from `cwd` with stdin /dev/null: creates the session if missing and
    /// returns at once (a client without a terminal detaches at EOF).
    pub fn attach_detached(&self, name: &str, cwd: &Path, cmd: &[&str]) -> Output {
        let mut args = vec!["attach", name];
        args.extend_from_slice(cmd);
        self.command(&args)
            .current_dir(cwd)
            .output()
            .expect("fake zmx runs")
    }

    /// `zmx list`, parsed (stale sockets show as `err=` rows once, and are deleted by it).
    pub fn list(&self) -> Vec<Row> {
        let out = self.run(&["list"]);
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .filter_map(parse_row)
            .collect()
    }

    /// The live session `name`'s row, if any.
    pub fn session(&self, name: &str) -> Option<Row> {
        self.list()
            .into_iter()
            .find(|r| r.name() == name && r.get("pid").is_some())
    }

    /// Waits until session `name` is listed live; returns its row.
    pub fn wait_for_session(&self, name: &str, timeout: Duration) -> Row {
        Tmux::wait_for(timeout, &format!("zmx session {name}"), || {
            self.session(name)
        })
    }

    /// Waits until session `name` is gone.
    pub fn wait_gone(&self, name: &str, timeout: Duration) {
        Tmux::wait_for(timeout, &format!("zmx session {name} to end"), || {
            self.session(name).is_none().then_some(())
        })
    }

    /// `zmx history <name>`.
    pub fn history(&self, name: &str) -> String {
        String::from_utf8_lossy(&self.run(&["history", name]).stdout).into_owned()
    }

    /// Waits until `needle` shows in `zmx history <name>`; returns the history.
    pub fn wait_for_history(&self, name: &str, needle: &str, timeout: Duration) -> String {
        Tmux::wait_for(
            timeout,
            &format!("{needle:?} in zmx session {name}"),
            || {
                let h = self.history(name);
                h.contains(needle).then_some(h)
            },
        )
    }

    /// `zmx send <name> <text>` (raw bytes, nothing appended; add `\r` to run a line).
    pub fn send(&self, name: &str, text: &str) -> Output {
        self.run(&["send", name, text])
    }

    /// The hidden tmux server behind the sessions (kept running when the handle drops), for reading a
    /// session's screen or foreground process.
    pub fn host_tmux(&self) -> Tmux {
        Tmux::new(self.host().tmux_socket()).keep_on_drop()
    }

    /// The tmux session target (`=<tmux session>`) of live session `name` in [`FakeZmx::host_tmux`].
    pub fn tmux_target(&self, name: &str) -> Option<String> {
        let path = super::cfg::socket_path(self.socket_dir.to_str()?, name).ok()?;
        let info = super::proto::probe(&path).ok()?;
        Some(format!("={}", info.tmux_session))
    }

    /// The tmux pane target (`=<tmux session>:`) of live session `name`, for `Tmux::capture`,
    /// `send_text` and the agent drivers (a bare session target names no pane).
    pub fn tmux_pane(&self, name: &str) -> Option<String> {
        self.tmux_target(name).map(|t| format!("{t}:"))
    }

    /// The shell line that attaches to `name` with this zmx from any shell (explicit path and ZMX_DIR).
    pub fn attach_line(&self, name: &str) -> String {
        let q = super::format::shell_quote;
        format!(
            "ZMX_DIR={} {} attach {}",
            q(&self.socket_dir.display().to_string()),
            q(&self.zmx().display().to_string()),
            q(name)
        )
    }

    /// A user attaching from an outer terminal: types [`FakeZmx::attach_line`] into `pane` of `tmux`
    /// (creating the session with that shell's environment if it is missing).
    pub fn attach_in(&self, tmux: &Tmux, pane: &str, name: &str) {
        tmux.send_text(pane, &self.attach_line(name), true);
    }

    /// What a reboot does to zmx: every daemon, every process of every session and the hidden tmux server
    /// are SIGKILLed, so nothing cleans up and each session's socket file stays behind, refusing
    /// connections. Returns once they are all gone.
    pub fn reboot(&self) {
        let host = self.host();
        let mut victims = daemon_pids(&self.socket_dir);
        kill_all(&victims);
        let panes = host.pane_pids();
        for pid in &panes {
            unsafe { libc::kill(-pid, libc::SIGKILL) };
        }
        victims.extend(&panes);
        victims.extend(session_processes(&self.socket_dir));
        victims.extend(host.server_pid());
        kill_all(&victims);
        let deadline = Instant::now() + Duration::from_secs(10);
        while victims.iter().any(|&p| alive(p)) && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = std::fs::remove_file(host.tmux_socket());
    }

    /// One session's daemon dies (SIGKILL) and its processes with it, as when the daemon crashes: the
    /// socket file stays behind, refusing; the other sessions live on.
    pub fn crash(&self, name: &str) {
        let path = super::cfg::socket_path(self.socket_dir.to_str().unwrap_or_default(), name);
        let info = path.ok().and_then(|p| super::proto::probe(&p).ok());
        let info = info.unwrap_or_else(|| panic!("no live zmx session {name} to crash"));
        let daemon = info.daemon_pid as i32;
        kill_all(&[daemon]);
        unsafe { libc::kill(-info.pid, libc::SIGKILL) };
        self.host().kill_session(&info.tmux_session);
        let deadline = Instant::now() + Duration::from_secs(10);
        while [daemon, info.pid].iter().any(|&p| alive(p)) && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Session socket files that refuse connections (what a reboot leaves).
    pub fn stale_sockets(&self) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(&self.socket_dir)
            .into_iter()
            .flatten()
            .flatten()
            .filter(|e| {
                use std::os::unix::fs::FileTypeExt;
                e.file_type().is_ok_and(|t| t.is_socket())
                    && std::os::unix::net::UnixStream::connect(e.path())
                        .is_err_and(|err| err.raw_os_error() == Some(libc::ECONNREFUSED))
            })
            .filter_map(|e| e.file_name().into_string().ok())
            .collect();
        names.sort();
        names
    }

    fn host(&self) -> Host {
        Host::for_socket_dir(self.socket_dir.to_str().expect("UTF-8 socket dir"))
    }
}

impl Drop for FakeZmx {
    fn drop(&mut self) {
        self.reboot();
        let _ = std::fs::remove_dir_all(super::cfg::private_dir(
            self.socket_dir.to_str().unwrap_or_default(),
        ));
    }
}

fn kill_all(pids: &[i32]) {
    for &pid in pids {
        unsafe { libc::kill(pid, libc::SIGKILL) };
    }
}

fn alive(pid: i32) -> bool {
    crate::agents::is_running(pid as u32)
}

/// Every process's argv, from /proc.
fn processes() -> impl Iterator<Item = (i32, Vec<String>)> {
    std::fs::read_dir("/proc")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<i32>().ok())
        .filter_map(|pid| {
            let raw = std::fs::read(format!("/proc/{pid}/cmdline")).ok()?;
            let argv = raw
                .split(|&b| b == 0)
                .filter(|a| !a.is_empty())
                .map(|a| String::from_utf8_lossy(a).into_owned())
                .collect();
            Some((pid, argv))
        })
}

/// The daemons serving sessions in `socket_dir`.
fn daemon_pids(socket_dir: &Path) -> Vec<i32> {
    let needle = format!("\"socket_path\":\"{}/", socket_dir.display());
    processes()
        .filter(|(_, argv)| argv.get(1).map(String::as_str) == Some("__daemon"))
        .filter(|(_, argv)| argv.get(2).is_some_and(|s| s.contains(&needle)))
        .map(|(pid, _)| pid)
        .collect()
}

/// Processes that left their session's process group but still carry its environment
/// (`ZMX_DIR=<socket_dir>` and a `ZMX_SESSION`).
fn session_processes(socket_dir: &Path) -> Vec<i32> {
    let dir = format!("ZMX_DIR={}", socket_dir.display());
    let me = std::process::id() as i32;
    processes()
        .map(|(pid, _)| pid)
        .filter(|&pid| pid != me)
        .filter(|pid| {
            let env = std::fs::read(format!("/proc/{pid}/environ")).unwrap_or_default();
            let vars: Vec<&[u8]> = env.split(|&b| b == 0).collect();
            vars.contains(&dir.as_bytes()) && vars.iter().any(|v| v.starts_with(b"ZMX_SESSION="))
        })
        .collect()
}
