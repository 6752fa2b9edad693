//! The whole command (`cargo bench --bench restore_command`): `agterm-backup restore --dry-run --json`
//! over 200 panes whose records and 10 000-line journals are on disk, against the fake agterm (a real
//! socket; its 200 panes are real login shells in tmux), against a bare process start measured in the
//! same run.
//!
//! - **baseline** — `agterm-backup --version`: the same binary's start and exit, nothing read.
//! - **restore** — the dry run: list the panes over the socket, read every record and the tail of every
//!   journal (each current record names a conversation started after agterm's launch, so the journal
//!   rule steps back to the newest line before it), check the 200 transcripts on disk, plan, print JSON.
//!
//! Interleaved runs, medians and best runs. Target: the restore under 100 ms wall.

mod common;

use agterm_backup_core::pane::PaneRole;
use agterm_backup_core::state::StateDir;
use agterm_backup_core::terminal::RestoreMode;
use agterm_backup_testkit::fake_agterm::{FakeAgterm, FakeConfig, SessionHandle};
use chrono::{DateTime, Duration, Utc};
use std::io::Write;
use std::path::Path;
use std::process::{Command, Output};
use std::time::Instant;

const SESSIONS: usize = 100; // two panes each
const LINES: usize = 10_000;
const RUNS: usize = 15;
const TARGET_MS: f64 = 100.0;

/// Writes one pane's journal (`LINES` lines, the last one before the launch), its current record
/// (after the launch) and the transcript of the conversation the journal rule will pick.
fn capture(state: &StateDir, home: &Path, pane: (&str, PaneRole, &str), launch: DateTime<Utc>) {
    let start = launch - Duration::days(30);
    let record = |n, at| common::record(pane.0, pane.1, pane.2, n, home, at);
    let key = agterm_backup_agterm::key::key(pane.0, pane.1).unwrap();
    let mut journal =
        std::io::BufWriter::new(std::fs::File::create(state.journal_path(&key)).unwrap());
    for n in 0..LINES {
        let r = record(n, start + Duration::seconds(n as i64 * 60));
        writeln!(journal, "{}", r.to_json_line()).unwrap();
    }
    let current = record(LINES, Utc::now() + Duration::seconds(5));
    writeln!(journal, "{}", current.to_json_line()).unwrap();
    journal.flush().unwrap();
    agterm_backup_terminals::write_record(state, &current).unwrap();
    let picked = record(LINES - 1, start);
    let transcript = Path::new(picked.transcript_path.as_deref().unwrap());
    std::fs::create_dir_all(transcript.parent().unwrap()).unwrap();
    std::fs::create_dir_all(&picked.agent_cwd).unwrap();
    std::fs::write(transcript, "{}\n").unwrap();
}

fn main() {
    let bin = Path::new(agterm_backup_testkit::agterm_backup_bin!());
    let home = tempfile::tempdir().unwrap();
    let fake = FakeAgterm::start(
        FakeConfig::new("0.34", RestoreMode::None).env("HOME", home.path().to_str().unwrap()),
    );
    let t = Instant::now();
    let sessions: Vec<SessionHandle> = (0..SESSIONS)
        .map(|_| fake.add_session(None, None, home.path(), true))
        .collect();
    eprintln!(
        "{} panes in the fake agterm in {:.1} s",
        SESSIONS * 2,
        t.elapsed().as_secs_f64()
    );
    // The fake's launch time is its process start (what restore reads as the cutoff): just now.
    let launch = Utc::now() - Duration::seconds(1);
    let state = StateDir::at(home.path().join("state"));
    state.ensure().unwrap();
    for s in &sessions {
        let right = s.right.as_ref().unwrap();
        capture(
            &state,
            home.path(),
            (&s.id, PaneRole::Left, &s.left.pane_id),
            launch,
        );
        capture(
            &state,
            home.path(),
            (&s.id, PaneRole::Right, &right.pane_id),
            launch,
        );
    }
    let journal_bytes: u64 = std::fs::read_dir(state.root().join("live"))
        .unwrap()
        .flatten()
        .filter_map(|e| e.metadata().ok().map(|m| m.len()))
        .sum();
    eprintln!(
        "{:.0} MB of records and journals on disk",
        journal_bytes as f64 / 1e6
    );

    let run = |args: &[&str]| -> (f64, Output) {
        let t = Instant::now();
        let out = Command::new(bin)
            .args(args)
            .env_clear()
            .env("PATH", "/usr/bin:/bin")
            .env("HOME", home.path())
            .env("AGTERM_SOCKET", fake.socket())
            .env("AGTERM_STATE_DIR", fake.state_dir())
            .env("AGTERM_BACKUP_HOME", state.root())
            .output()
            .expect("agterm-backup runs");
        (t.elapsed().as_secs_f64() * 1e3, out)
    };
    let (_, out) = run(&["restore", "--dry-run", "--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let plan: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON plan");
    let rows = plan["rows"].as_array().unwrap();
    let typed = rows
        .iter()
        .filter(|r| r["action"] == "type" && r["journal"] == true)
        .count();
    assert_eq!(
        typed,
        SESSIONS * 2,
        "every pane steps back to its pre-launch conversation: {:#}",
        rows.iter().find(|r| r["action"] != "type").unwrap_or(&plan)
    );
    assert!(fake.typed_log().is_empty(), "a dry run types nothing");

    let (mut base, mut restore) = (Vec::new(), Vec::new());
    for _ in 0..RUNS {
        base.push(run(&["--version"]).0);
        restore.push(run(&["restore", "--dry-run", "--json"]).0);
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let (b, r) = (median(&mut base), median(&mut restore));
    println!(
        "restore --dry-run --json, {} panes × {LINES} journal lines on disk, fake agterm: median {r:.1} ms \
         (best {:.1} ms; target {TARGET_MS} ms: {}); baseline `--version` median {b:.2} ms; \
         restore = baseline {:+.1} ms (×{:.1})",
        SESSIONS * 2,
        restore[0],
        if r <= TARGET_MS { "met" } else { "MISSED" },
        r - b,
        r / b
    );
}
