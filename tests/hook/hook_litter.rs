//! No litter: hooks killed with `kill -9` at every moment of their run leave temp files behind; the next
//! writer of the file sweeps its dead writers' temps, `status` sweeps the rest, and the locks the dead
//! held never block the next hook.

use crate::hook_common::*;
use std::fs;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const IDS: [&str; 2] = [ID_A, "0c4ea2b1-5d6e-4f70-8a9b-0c1d2e3f4a5b"];

fn temps(dir: &std::path::Path) -> Vec<String> {
    fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp") || n.contains(".tmp"))
        .collect()
}

fn hook_cmd(w: &World, payload: &[u8]) -> std::process::Child {
    let input = w.path().join("payload");
    fs::write(&input, payload).unwrap();
    Command::new(hook_bin())
        .args(["hook", "claude"])
        .env_clear()
        .envs(agterm_backup_testkit::hermetic::places())
        .envs(w.env_pairs())
        .current_dir(w.path())
        .stdin(fs::File::open(&input).unwrap())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap()
}

#[test]
fn hooks_killed_mid_write_leave_nothing_once_the_next_writer_and_status_ran() {
    let w = World::new();
    let state = w.state();
    // A spread of delays (0 to 4 ms, 37 µs apart modulo 4 ms): the kills land all along the hook's run
    // (reading, the lock, the journal, the temp file, the rename).
    let mut killed = 0;
    let mut most_temps = 0;
    for i in 0..200u64 {
        let payload = claude_payload("SessionStart", IDS[(i % 2) as usize], "/w", "/w");
        let mut child = hook_cmd(&w, &payload);
        std::thread::sleep(Duration::from_micros((i * 37) % 4000));
        // SAFETY: signalling our own child.
        unsafe { libc::kill(child.id() as i32, libc::SIGKILL) };
        let status = child.wait().unwrap();
        if std::os::unix::process::ExitStatusExt::signal(&status) == Some(libc::SIGKILL) {
            killed += 1;
        }
        most_temps = most_temps.max(temps(&state.live_dir()).len());
    }
    let left_by_the_dead = temps(&state.live_dir());
    eprintln!(
        "{killed} of 200 hooks killed; temps left by the dead: {} (at most {most_temps} at once)",
        left_by_the_dead.len()
    );
    // A hook that finished before its kill is no test of litter; a fast machine finishes more of them.
    assert!(killed >= 20, "only {killed} hooks were killed mid-run");
    // The next writer: not blocked by a dead hook's lock, and it sweeps the record's temps.
    let started = Instant::now();
    w.hook("claude", &claude_payload("SessionStart", ID_A, "/w", "/w"));
    assert!(started.elapsed() < Duration::from_secs(2), "blocked");
    w.hook(
        "claude",
        &claude_payload("SessionStart", IDS[1], "/w", "/w"),
    );
    assert_eq!(w.record().map(|r| r.session_id), Some(IDS[1].to_string()));
    let record_name = format!("{}.json", w.key());
    let after_writer: Vec<_> = temps(&state.live_dir())
        .into_iter()
        .filter(|n| n.contains(&record_name))
        .collect();
    assert_eq!(after_writer, Vec::<String>::new(), "the next writer swept");
    // `status` sweeps every folder of the state folder.
    let out = Command::new(hook_bin())
        .arg("status")
        .env_clear()
        .envs(agterm_backup_testkit::hermetic::places())
        .envs(w.env_pairs())
        .current_dir(w.path())
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for dir in [state.root().to_path_buf(), state.live_dir()] {
        assert_eq!(temps(&dir), Vec::<String>::new(), "{}", dir.display());
    }
    let mut names: Vec<_> = fs::read_dir(state.live_dir())
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let key = w.key();
    let mut want = vec![
        format!("{key}.history.jsonl"),
        format!("{key}.json"),
        format!("{key}.lock"),
    ];
    want.sort();
    assert_eq!(names, want);
}
