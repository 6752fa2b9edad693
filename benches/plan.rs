//! Restore planning at scale: 200 captured panes, each with a 10 000-line journal, generated in memory.
//!
//! What is measured (best of several runs, release build):
//!
//! - **planned** — what `restore` does after reading the files: for every pane, parse the current record
//!   and read its journal *backwards* until the newest entry before agterm's launch
//!   ([`journal_tail`]; here the record was rewritten after the launch, so the journal rule has to step
//!   back), then one [`plan`] call over all panes (join by pane id, foreground checks, transcript set,
//!   resume lines). Target: 50 ms.
//! - **baseline** — a naive reader in the same run: parse every journal line of every pane
//!   ([`parse_journal`]), no planning at all. The ratio shows what reading journals from the end buys.
//!
//! File I/O is not included (the journals are strings in memory); `read_journal_tail` reads only the
//! last 64 KiB of each file, so I/O stays proportional to the panes, not to the history.
//!
//! Run: `cargo bench --bench plan`.

mod common;

use agterm_backup_core::pane::PaneRole;
use agterm_backup_core::record::{parse_journal, LiveRecord};
use agterm_backup_core::terminal::{PaneView, RestoreMode};
use agterm_backup_restore::load::journal_tail;
use agterm_backup_restore::plan::{plan, Action, CapturedPane, PlanInput};
use agterm_backup_restore::transcripts::Transcripts;
use chrono::{DateTime, Duration, Utc};
use std::path::Path;
use std::time::Instant;

const PANES: usize = 200;
const LINES: usize = 10_000;
const TARGET_MS: f64 = 50.0;

fn session(i: usize) -> String {
    format!("6B1E0C2A-AAAA-BBBB-CCCC-{i:012X}")
}

/// The `n`th conversation of pane `p`, as its hook wrote it at `at`.
fn record(p: usize, n: usize, at: DateTime<Utc>) -> LiveRecord {
    let token = format!("9A2F0000-0000-0000-0000-{p:012X}");
    common::record(
        &session(p),
        PaneRole::Left,
        &token,
        n,
        Path::new("/home/u"),
        at,
    )
}

fn main() {
    let launch = Utc::now();
    let start = launch - Duration::days(30);
    eprintln!("generating {PANES} journals × {LINES} lines …");
    let mut journals = Vec::with_capacity(PANES);
    let mut currents = Vec::with_capacity(PANES);
    let mut transcripts = Transcripts::default();
    for p in 0..PANES {
        let mut text = String::with_capacity(LINES * 600);
        for n in 0..LINES {
            let r = record(p, n, start + Duration::seconds(n as i64 * 60));
            text.push_str(&r.to_json_line());
            text.push('\n');
        }
        // The current record: a conversation started after the launch (the journal rule steps back).
        let current = record(p, LINES, launch + Duration::seconds(5));
        text.push_str(&current.to_json_line());
        text.push('\n');
        transcripts
            .paths
            .insert(record(p, LINES - 1, start).transcript_path.unwrap());
        currents.push(serde_json::to_string_pretty(&current).unwrap());
        journals.push(text);
    }
    let panes: Vec<PaneView> = (0..PANES)
        .map(|p| PaneView {
            session_id: session(p),
            role: PaneRole::Left,
            pane_id: Some(format!("9A2F0000-0000-0000-0000-{p:012X}")),
            window_id: None,
            session_name: None,
            cwd: Some("/home/u".into()),
            foreground: None,
            shell_in_front: Some(true),
            remote: false,
            realized: Some(true),
            pin: None,
            live: None,
            own: Default::default(),
        })
        .collect();
    let bytes: usize = journals.iter().map(String::len).sum();
    eprintln!("{:.0} MB of journal text", bytes as f64 / 1e6);

    let planned = best_of(5, || {
        let captured: Vec<CapturedPane> = (0..PANES)
            .map(|p| CapturedPane {
                key: agterm_backup_agterm::key::key(&session(p), PaneRole::Left).unwrap(),
                record: serde_json::from_str(&currents[p]).ok(),
                journal: journal_tail(&journals[p], Some(launch)).0,
            })
            .collect();
        let rows = plan(&PlanInput {
            captured: &captured,
            panes: &panes,
            mode: Some(RestoreMode::Rerun),
            launched_at: Some(launch),
            as_of: None,
            now: None,
            transcripts: &transcripts,
            launch: None,
            restart: false,
        });
        let typed = rows
            .iter()
            .filter(|r| matches!(r.action, Action::Type { .. }) && r.from_journal)
            .count();
        assert_eq!(
            typed, PANES,
            "every pane steps back to its pre-launch conversation"
        );
        typed
    });
    let baseline = best_of(2, || {
        journals
            .iter()
            .map(|j| parse_journal(j).len())
            .sum::<usize>()
    });
    println!(
        "plan: {PANES} panes × {LINES} journal lines: planned {:.2} ms (target {TARGET_MS} ms: {}), baseline full journal parse {:.1} ms, ratio planned/baseline {:.5} ({:.0}× faster)",
        planned,
        if planned <= TARGET_MS { "met" } else { "MISSED" },
        baseline,
        planned / baseline,
        baseline / planned
    );
}

/// The best wall time of `runs` runs, in milliseconds.
fn best_of<T>(runs: usize, mut f: impl FnMut() -> T) -> f64 {
    let mut best = f64::INFINITY;
    for _ in 0..runs {
        let t = Instant::now();
        std::hint::black_box(f());
        best = best.min(t.elapsed().as_secs_f64() * 1e3);
    }
    best
}
