//! One session's daemon (`fake-zmx __daemon <spec>`, started detached by the client that created the
//! session, as zmx's `Daemon.run` double-forks): it holds the listening socket the client bound, starts
//! the pty child (`daemonize.createCmdZ` + `exec`), answers requests, and ends when the child exits or a
//! `kill` arrives — deleting its socket first, then SIGHUP to the child's group, 500 ms, SIGKILL
//! (`Daemon.handleKill`). Killed with SIGKILL (a reboot), it leaves its socket file behind.

use super::format::{cmd_field, osc7_cwd, reported_cwd, Info};
use super::host::Host;
use super::proto::{Reply, Request};
use super::sys::{hostname, rand_u16, unix_now};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::os::fd::{AsRawFd, FromRawFd};
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The fd the creating client hands the bound, listening socket over on.
pub const LISTEN_FD: i32 = 3;

/// What the creating client tells its daemon.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct DaemonSpec {
    pub name: String,
    pub socket_path: String,
    pub log_dir: String,
    /// `attach <name> <cmd…>`: exec'd as is. `None`: the login shell.
    pub command: Option<Vec<String>>,
    /// `$SHELL`, else `/bin/sh`.
    pub shell: String,
    /// `zmx run` created it: the shell is `bash`, whatever `$SHELL` says.
    pub task_mode: bool,
    /// The creating client's cwd.
    pub cwd: String,
    /// Columns and rows of the creating client's terminal (120×24 without one).
    pub size: (u16, u16),
    /// Unix seconds the client decided to create it (zmx's `Daemon.init`, before the fork).
    pub created: u64,
}

static TERMINATED: AtomicBool = AtomicBool::new(false);

extern "C" fn on_sigterm(_: libc::c_int) {
    TERMINATED.store(true, Ordering::SeqCst);
}

struct Client {
    stream: UnixStream,
    pending: Vec<u8>,
}

struct Daemon {
    spec: DaemonSpec,
    host: Host,
    tmux_name: String,
    pid: i32,
    created: u64,
    log: PathBuf,
    labels: BTreeMap<String, String>,
    clients: Vec<Client>,
    task: Option<String>,
    task_ended_at: u64,
    task_exit_code: u8,
}

/// `__daemon`: never returns.
pub fn run(spec: DaemonSpec) -> ! {
    for fd in LISTEN_FD + 1..256 {
        // zmx closes what it inherited, so no caller's pipe stays open for the session's lifetime.
        unsafe { libc::close(fd) };
    }
    unsafe { libc::signal(libc::SIGTERM, on_sigterm as *const () as libc::sighandler_t) };
    // Close-on-exec from here on: a tmux server started below must not hold the socket open, or a
    // crashed daemon's socket would accept instead of refusing.
    unsafe { libc::fcntl(LISTEN_FD, libc::F_SETFD, libc::FD_CLOEXEC) };
    let listener = unsafe { UnixListener::from_raw_fd(LISTEN_FD) };
    let _ = listener.set_nonblocking(true);
    let log = PathBuf::from(&spec.log_dir).join(format!("{}.log", spec.name));
    let host = Host::for_socket_dir(
        std::path::Path::new(&spec.socket_path)
            .parent()
            .and_then(|p| p.to_str())
            .unwrap_or_default(),
    );
    let tmux_name = super::host::tmux_name(&spec.name, std::process::id());
    let launch = super::host::launch_spec(&spec, &log);
    let pid = match host.spawn(&tmux_name, &spec.cwd, spec.size, &launch) {
        Ok(pid) => pid as i32,
        Err(e) => {
            super::log::append(&log, "error", &format!("pty spawn failed: {e}"));
            let _ = std::fs::remove_file(&spec.socket_path);
            std::process::exit(1);
        }
    };
    super::log::append(
        &log,
        "info",
        &format!("pty spawned session={} pid={pid}", spec.name),
    );
    let mut daemon = Daemon {
        created: spec.created,
        spec,
        host,
        tmux_name,
        pid,
        log,
        labels: BTreeMap::new(),
        clients: Vec::new(),
        task: None,
        task_ended_at: 0,
        task_exit_code: 0,
    };
    daemon.serve(&listener);
    daemon.shutdown()
}

impl Daemon {
    fn serve(&mut self, listener: &UnixListener) {
        let mut last_task_check = Instant::now();
        while !TERMINATED.load(Ordering::SeqCst) && self.child_alive() {
            let mut fds: Vec<libc::pollfd> = std::iter::once(listener.as_raw_fd())
                .chain(self.clients.iter().map(|c| c.stream.as_raw_fd()))
                .map(|fd| libc::pollfd {
                    fd,
                    events: libc::POLLIN,
                    revents: 0,
                })
                .collect();
            unsafe { libc::poll(fds.as_mut_ptr(), fds.len() as libc::nfds_t, 100) };
            // Hang-ups first, so a probe right after a client left does not count it.
            self.read_clients(&fds[1..]);
            if fds[0].revents != 0 {
                while let Ok((stream, _)) = listener.accept() {
                    if self.handle_connection(stream) {
                        return;
                    }
                }
            }
            if self.task.is_some() && last_task_check.elapsed() > Duration::from_millis(200) {
                last_task_check = Instant::now();
                self.check_task();
            }
        }
    }

    fn child_alive(&self) -> bool {
        unsafe { libc::kill(self.pid, 0) == 0 }
    }

    /// One new connection's request. `true`: the daemon must shut down now.
    fn handle_connection(&mut self, mut stream: UnixStream) -> bool {
        let _ = stream.set_nonblocking(false);
        let req = match read_request(&stream) {
            Some(r) => r,
            None => return false,
        };
        let reply = match req {
            Request::Info => {
                self.drop_departed();
                Some(Reply::Info(self.info()))
            }
            Request::Send { data } => {
                let _ = self.host.input(&self.tmux_name, &data);
                None
            }
            Request::History { vt } => Some(Reply::History {
                text: self.host.history(&self.tmux_name, vt).unwrap_or_default(),
            }),
            Request::Kill => {
                super::log::append(&self.log, "info", "kill received");
                self.clients.push(Client {
                    stream,
                    pending: Vec::new(),
                });
                return true;
            }
            Request::Attach { .. } => {
                let _ = stream.set_nonblocking(true);
                self.clients.push(Client {
                    stream,
                    pending: Vec::new(),
                });
                return false;
            }
            Request::Input { data } => {
                let _ = self.host.input(&self.tmux_name, &data);
                None
            }
            Request::Switch { target } => return self.switch(target),
            Request::LabelSet { labels } => {
                for (k, v) in super::format::label_pairs(&labels) {
                    if v.is_empty() {
                        self.labels.remove(&k);
                    } else {
                        self.labels.insert(k, v);
                    }
                }
                Some(Reply::Ack)
            }
            Request::LabelClear => {
                self.labels.clear();
                Some(Reply::Ack)
            }
            Request::Run { cmd } => Some(self.start_task(cmd)),
        };
        if let Some(reply) = reply {
            write_reply(&mut stream, &reply);
        }
        false
    }

    /// `handleSwitch`: the leader (here: the newest attached client) is told to go to `target`. With
    /// no client attached zmx's daemon fails (`NoLeaderFound`) and so ends the session; the fake too.
    fn switch(&mut self, target: String) -> bool {
        let cwd = self.current_cwd();
        match self.clients.last_mut() {
            Some(leader) => {
                let _ = leader.stream.set_nonblocking(false);
                write_reply(&mut leader.stream, &Reply::Switch { target, cwd });
                let _ = leader.stream.set_nonblocking(true);
                false
            }
            None => {
                super::log::append(&self.log, "error", "switch failed: NoLeaderFound");
                true
            }
        }
    }

    fn read_clients(&mut self, polled: &[libc::pollfd]) {
        let mut closed = Vec::new();
        for (i, pfd) in polled.iter().enumerate() {
            if pfd.revents == 0 || i >= self.clients.len() {
                continue;
            }
            let mut buf = [0u8; 4096];
            match self.clients[i].stream.read(&mut buf) {
                Ok(0) => closed.push(i),
                Ok(n) => self.clients[i].pending.extend_from_slice(&buf[..n]),
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
                Err(_) => closed.push(i),
            }
            while let Some(nl) = self.clients[i].pending.iter().position(|&b| b == b'\n') {
                let line: Vec<u8> = self.clients[i].pending.drain(..=nl).collect();
                if let Ok(Request::Input { data }) = serde_json::from_slice(&line) {
                    let _ = self.host.input(&self.tmux_name, &data);
                }
            }
        }
        for i in closed.into_iter().rev() {
            self.clients.remove(i);
        }
    }

    /// Forgets attached clients that already hung up (one may leave while the daemon is still busy
    /// with the connections queued behind it).
    fn drop_departed(&mut self) {
        self.clients.retain(|c| {
            let mut byte = [0u8; 1];
            let n = unsafe {
                libc::recv(
                    c.stream.as_raw_fd(),
                    byte.as_mut_ptr().cast(),
                    1,
                    libc::MSG_PEEK | libc::MSG_DONTWAIT,
                )
            };
            n != 0
        });
    }

    fn info(&self) -> Info {
        Info {
            pid: self.pid,
            clients: self.clients.len() as u64,
            created: self.created,
            cmd: self.spec.command.as_deref().map(cmd_field),
            cwd: Some(self.current_cwd()).filter(|c| !c.is_empty()),
            task_ended_at: self.task_ended_at,
            task_exit_code: self.task_exit_code,
            labels: self.labels.clone(),
            daemon_pid: std::process::id(),
            tmux_session: self.tmux_name.clone(),
        }
    }

    /// The last OSC 7 the session's programs sent (tmux's `pane_path`), else where it started.
    fn current_cwd(&self) -> String {
        let host = hostname();
        reported_cwd(&self.host.pane_path(&self.tmux_name), &host)
            .or_else(|| reported_cwd(&self.spec.cwd, &host))
            .unwrap_or_else(|| osc7_cwd(&self.spec.cwd, &host))
    }

    /// `handleRun`: types the command, then `; echo ZMX_TASK_COMPLETED:<id>:$?` (on its own line after a
    /// heredoc), each ended by `\r`.
    fn start_task(&mut self, cmd: Vec<u8>) -> Reply {
        let id = format!("{:04x}", rand_u16());
        let marker = format!("ZMX_TASK_COMPLETED:{id}:");
        let body = cmd.strip_suffix(b"\r").unwrap_or(&cmd);
        let heredoc = body.windows(2).any(|w| w == b"<<");
        let mut typed = body.to_vec();
        typed.extend_from_slice(
            if heredoc {
                format!("\r\necho {marker}$?\r")
            } else {
                format!("; echo {marker}$?\r")
            }
            .as_bytes(),
        );
        let _ = self.host.input(&self.tmux_name, &typed);
        self.task = Some(marker);
        self.task_ended_at = 0;
        self.task_exit_code = 0;
        Reply::Ack
    }

    fn check_task(&mut self) {
        let Some(marker) = &self.task else { return };
        let text = self
            .host
            .history(&self.tmux_name, false)
            .unwrap_or_default();
        if let Some(code) = task_exit_code(&text, marker) {
            self.task_exit_code = code;
            self.task_ended_at = unix_now();
            self.task = None;
        }
    }

    /// zmx's shutdown order: socket file gone, clients hung up, then SIGHUP, 500 ms, SIGKILL.
    fn shutdown(mut self) -> ! {
        let _ = std::fs::remove_file(&self.spec.socket_path);
        self.clients.clear();
        unsafe { libc::kill(-self.pid, libc::SIGHUP) };
        std::thread::sleep(Duration::from_millis(500));
        unsafe { libc::kill(-self.pid, libc::SIGKILL) };
        self.host.kill_session(&self.tmux_name);
        std::process::exit(0)
    }
}

/// `util.findTaskExitMarker`: the first `marker<digits>` up to a line end (the echoed `marker$?` of
/// the typed line does not parse and is skipped).
pub fn task_exit_code(output: &str, marker: &str) -> Option<u8> {
    output.match_indices(marker).find_map(|(i, _)| {
        let rest = &output[i + marker.len()..];
        let end = rest.find(['\n', '\r']).unwrap_or(rest.len());
        rest[..end].parse().ok()
    })
}

fn read_request(stream: &UnixStream) -> Option<Request> {
    let mut line = Vec::new();
    let mut byte = [0u8; 1];
    let _ = stream.set_read_timeout(Some(Duration::from_secs(2)));
    let mut s = stream;
    while s.read(&mut byte).ok()? == 1 {
        if byte[0] == b'\n' {
            return serde_json::from_slice(&line).ok();
        }
        line.push(byte[0]);
    }
    None
}

fn write_reply(stream: &mut UnixStream, reply: &Reply) {
    let mut line = serde_json::to_vec(reply).expect("reply serializes");
    line.push(b'\n');
    let _ = stream.write_all(&line);
}
