//! Helpers shared by the fake zmx's tests.

#![allow(dead_code)]

use agterm_backup_testkit::fake_zmx::{FakeZmx, Row};
use agterm_backup_testkit::tmux::Tmux;
use std::process::Output;
use std::time::Duration;

pub const WAIT: Duration = Duration::from_secs(10);
pub const CLEAR: &str = "\x1b[2J\x1b[H";
pub const RESTORE: &str = "\x1bc\x1b]110\x1b\\\x1b]111\x1b\\\x1b]112\x1b\\";

pub fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

pub fn ok(out: &Output) -> String {
    assert!(out.status.success(), "zmx failed: {out:?}");
    text(&out.stdout)
}

pub fn argv(pid: u32) -> Vec<String> {
    let raw = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
    raw.split(|&b| b == 0)
        .filter(|a| !a.is_empty())
        .map(text)
        .collect()
}

/// `pid`'s argv once it is `want` (a pane's process is forked before it execs the command).
pub fn wait_argv(pid: u32, want: &[&str]) {
    Tmux::wait_for(WAIT, &format!("pid {pid} to run {want:?}"), || {
        (argv(pid) == want).then_some(())
    })
}

pub fn environ(pid: u32) -> Vec<String> {
    let raw = std::fs::read(format!("/proc/{pid}/environ")).expect("environ");
    raw.split(|&b| b == 0).map(text).collect()
}

pub fn hostname() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .unwrap()
        .trim()
        .to_string()
}

/// A fake zmx in a fresh temp dir (dropped after the fake: its sessions die first).
pub fn fake() -> (agterm_backup_testkit::scratch::ScratchDir, FakeZmx) {
    let dir = agterm_backup_testkit::scratch::tempdir();
    let zmx = FakeZmx::new(dir.path());
    (dir, zmx)
}

pub fn started(zmx: &FakeZmx, name: &str) -> (Row, u32) {
    let row = zmx.wait_for_session(name, WAIT);
    let pid = row.pid().expect("pid");
    (row, pid)
}

/// Waits until session `target` has the one client (moved there by a switch); on timeout panics with
/// what every session, screen and log shows.
pub fn moved_to(zmx: &FakeZmx, target: &str, outer: &Tmux, pane: &str) -> Row {
    let deadline = std::time::Instant::now() + WAIT;
    loop {
        let row = zmx.session(target);
        if let Some(row) = row.filter(|r| r.get("clients") == Some("1")) {
            return row;
        }
        if std::time::Instant::now() > deadline {
            let logs: Vec<String> = std::fs::read_dir(zmx.log_dir())
                .unwrap()
                .flatten()
                .map(|e| std::fs::read_to_string(e.path()).unwrap_or_default())
                .collect();
            panic!(
                "no client moved to {target}: {:?}\nouter: {}\nlogs: {logs:#?}",
                zmx.list(),
                outer.capture(pane, true)
            );
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// A user's terminal outside zmx: a bash in a pane of another tmux server, with the fake's env.
pub fn outer_terminal(dir: &std::path::Path, zmx: &FakeZmx) -> (Tmux, String) {
    let outer = Tmux::new(dir.join("outer.sock"));
    let shell = ["bash", "--norc", "--noprofile"];
    let pane = outer.spawn("outer", dir, &zmx.env(), &shell);
    (outer, pane)
}

/// Waits until session `name` lists `n` clients.
pub fn clients(zmx: &FakeZmx, name: &str, n: &str) -> Row {
    Tmux::wait_for(WAIT, &format!("{n} client(s) on {name}"), || {
        zmx.session(name).filter(|r| r.get("clients") == Some(n))
    })
}
