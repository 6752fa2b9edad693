//! Two tmux servers of one user, one state folder: each server's layout jobs (the installer's tmux hooks,
//! `agterm-backup tmux-layout`) take their own socket's lock and leave their own socket's dirty mark, so
//! a job of one server — even one stuck on a wedged server — never holds up or swallows the other's
//! moves, and moves on both at once all end up kept. Real tmux servers on private sockets whose config is
//! the installer's block; the kept layouts are read as restore reads them.

use agterm_backup_testkit::tmux::Tmux;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

struct Rig {
    _dir: agterm_backup_testkit::scratch::ScratchDir,
    state: PathBuf,
    work: PathBuf,
    env: Vec<(String, String)>,
    a: Tmux,
    b: Tmux,
}

impl Rig {
    /// Two servers (`a.sock`, `b.sock`) of one user, each with a session of three panes.
    fn new() -> Rig {
        let dir = agterm_backup_testkit::scratch::tempdir();
        let root = dir.path().canonicalize().unwrap();
        let (home, state, work) = (root.join("h"), root.join("state"), root.join("work"));
        for d in [&home, &work] {
            std::fs::create_dir_all(d).unwrap();
        }
        let bin = agterm_backup_testkit::agterm_backup_bin!();
        // `PS1=… exec bash`, not `env PS1=… bash`: a new pane is a shell at every step, never an `env`
        // that restore, looking at once, would read as a busy program.
        let conf = format!(
            "set -g default-command \"PS1='pane$ ' exec /bin/bash --noprofile --norc -i\"\n{}",
            agterm_backup_tmux::conf::our_block(bin)
        );
        std::fs::write(home.join(".tmux.conf"), conf).unwrap();
        let env = vec![
            ("HOME".to_string(), home.display().to_string()),
            ("AGTERM_BACKUP_HOME".into(), state.display().to_string()),
            ("PATH".into(), std::env::var("PATH").unwrap_or_default()),
            ("LANG".into(), "C.UTF-8".into()),
            ("SHELL".into(), "/bin/bash".into()),
        ];
        let (a, b) = (
            Tmux::as_user(root.join("a.sock"), &env),
            Tmux::as_user(root.join("b.sock"), &env),
        );
        let rig = Rig {
            _dir: dir,
            state,
            work,
            env,
            a,
            b,
        };
        for t in [&rig.a, &rig.b] {
            let d = rig.work.display().to_string();
            t.ok(&[
                "new-session",
                "-d",
                "-s",
                "work",
                "-x",
                "200",
                "-y",
                "50",
                "-c",
                &d,
            ]);
            for _ in 0..2 {
                t.ok(&["split-window", "-t", "work:", "-c", &d]);
            }
            rig.wait_kept(t, "the first layout");
        }
        rig
    }

    /// Waits until the layout kept for `t`'s server is the server's layout now (every `%N` at its place).
    fn wait_kept(&self, t: &Tmux, what: &str) {
        let pid = t.ok(&["display-message", "-p", "#{pid}"]);
        let socket = t.socket().display().to_string();
        let mut live = t.ok(&[
            "list-panes",
            "-a",
            "-F",
            "#{pane_id} #{session_name}:#{window_index}.#{pane_index}",
        ]);
        live = sorted(&live);
        let what = format!("{what}: {socket} kept as {live:?}");
        Tmux::wait_for(Duration::from_secs(10), &what, || {
            kept(&self.state, &socket, &pid)
                .filter(|k| *k == live)
                .map(|_| ())
        });
    }

    /// Panes moved, closed and opened on `t` (every one fires a tmux hook of the block).
    fn move_panes(&self, t: &Tmux, rounds: usize) {
        let d = self.work.display().to_string();
        for _ in 0..rounds {
            t.ok(&["swap-pane", "-s", "work:0.0", "-t", "work:0.2"]);
            t.ok(&["split-window", "-t", "work:0.1", "-c", &d]);
            t.ok(&["kill-pane", "-t", "work:0.0"]);
            t.ok(&["break-pane", "-d", "-s", "work:0.1"]);
            t.ok(&["join-pane", "-s", "work:1.0", "-t", "work:0.0"]);
        }
    }
}

/// The kept layout of the server `socket` + `pid`, as `%N session:window.pane` lines, sorted.
fn kept(state: &Path, socket: &str, pid: &str) -> Option<String> {
    let layouts = agterm_backup_tmux::layout_file::read_layouts(state);
    let l = layouts
        .iter()
        .find(|l| l.socket == socket && l.server_pid.to_string() == pid)?;
    let lines: Vec<String> = l
        .panes
        .iter()
        .map(|p| format!("{} {}:{}.{}", p.pane_id, p.session, p.window, p.pane))
        .collect();
    Some(sorted(&lines.join("\n")))
}

fn sorted(lines: &str) -> String {
    let mut v: Vec<&str> = lines.lines().collect();
    v.sort();
    v.join("\n")
}

/// Sends `SIGCONT` to a stopped server when dropped (before its `Tmux` handle kills it).
struct Continue(i32);

impl Drop for Continue {
    fn drop(&mut self) {
        // SAFETY: kill has no memory preconditions.
        unsafe { libc::kill(self.0, libc::SIGCONT) };
    }
}

/// Whether some process holds a lock file in `<state>/tmux/` (a layout job is between its question and
/// its write).
fn a_lock_is_held(state: &Path) -> bool {
    let Ok(entries) = std::fs::read_dir(state.join("tmux")) else {
        return false;
    };
    entries
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().ends_with(".lock"))
        .any(|e| {
            let Ok(f) = std::fs::File::open(e.path()) else {
                return false;
            };
            use std::os::unix::io::AsRawFd;
            // SAFETY: a valid open descriptor; flock has no other precondition.
            let free = unsafe { libc::flock(f.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } == 0;
            if free {
                // SAFETY: as above.
                unsafe { libc::flock(f.as_raw_fd(), libc::LOCK_UN) };
            }
            !free
        })
}

#[test]
fn a_server_whose_layout_job_is_stuck_never_holds_up_another_servers_moves() {
    let r = Rig::new();
    // B's server wedges while its layout job asks it (the job waits for tmux, holding its lock).
    let b_pid: i32 =
        r.b.ok(&["display-message", "-p", "#{pid}"])
            .parse()
            .unwrap();
    let b_tmux = format!("{},{b_pid},0", r.b.socket().display());
    // SAFETY: kill has no memory preconditions.
    assert_eq!(unsafe { libc::kill(b_pid, libc::SIGSTOP) }, 0);
    let resume_b = Continue(b_pid);
    let mut job = Command::new(agterm_backup_testkit::agterm_backup_bin!())
        .arg("tmux-layout")
        .env_clear()
        .envs(agterm_backup_testkit::hermetic::places())
        .envs(r.env.iter().map(|(k, v)| (k, v)))
        .env("TMUX", &b_tmux)
        .spawn()
        .unwrap();
    Tmux::wait_for(
        Duration::from_secs(5),
        "B's layout job holds a lock",
        || a_lock_is_held(&r.state).then_some(()),
    );
    // Meanwhile A's panes move: A's own hooks keep every move.
    r.move_panes(&r.a, 2);
    r.wait_kept(&r.a, "A's moves while B's job is stuck");
    drop(resume_b);
    assert!(job.wait().unwrap().success());
    r.wait_kept(&r.b, "B, once it answers again");
}

#[test]
fn moves_on_two_servers_at_once_are_all_kept() {
    let r = Rig::new();
    std::thread::scope(|s| {
        s.spawn(|| r.move_panes(&r.a, 6));
        s.spawn(|| r.move_panes(&r.b, 6));
    });
    r.wait_kept(&r.a, "A's last move");
    r.wait_kept(&r.b, "B's last move");
}
