//! The slug port against the real Claude Code CLI: `claude -p` (offline, against the stub model) writes
//! its transcript under `~/.claude/projects/<slug>/`; the folder it picks for awkward directories
//! (non-ASCII, emoji, spaces and dots, a path over 200 characters) must be the one the port computes.

use agterm_backup_core::slug::claude_project_slug;
use agterm_backup_testkit::agents::AgentHome;
use agterm_backup_testkit::stub_model::StubModel;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

/// The project folders holding a transcript (`*.jsonl`). Claude 2.1.332 also makes an empty `-tmp` when
/// `TMPDIR` is set (as every test's is, to its sandbox): a folder with no transcript files nothing.
fn transcript_folders(projects: &Path) -> Vec<String> {
    let holds_transcript = |dir: &Path| {
        std::fs::read_dir(dir).is_ok_and(|d| {
            d.flatten()
                .any(|e| e.path().extension().is_some_and(|x| x == "jsonl"))
        })
    };
    let mut names: Vec<String> = std::fs::read_dir(projects)
        .map(|d| {
            d.flatten()
                .filter(|e| holds_transcript(&e.path()))
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

#[test]
fn the_real_claude_files_transcripts_under_the_ported_slug() {
    let Some(claude) = agterm_backup_testkit::paths::agent_cli("claude") else {
        eprintln!("SKIPPED: claude CLI not installed");
        return;
    };
    let root = agterm_backup_testkit::scratch::tempdir();
    let base = std::fs::canonicalize(root.path()).unwrap();
    let long = base.join("l".repeat(120)).join("m".repeat(120));
    let dirs = [
        base.join("plain"),
        base.join("café au lait"),
        base.join("rocket🚀.v2_x"),
        long,
    ];
    let stub = StubModel::start().unwrap();
    let home = AgentHome::new(&base.join("agent"), &[]);
    for dir in &dirs {
        std::fs::create_dir_all(dir).unwrap();
        let mut child = Command::new(&claude)
            .args(["-p", "say hi"])
            .current_dir(dir)
            .env_clear()
            .envs(agterm_backup_testkit::hermetic::places())
            .envs(home.env(&stub))
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let deadline = std::time::Instant::now() + Duration::from_secs(60);
        while child.try_wait().unwrap().is_none() {
            assert!(
                std::time::Instant::now() < deadline,
                "claude -p hung in {}",
                dir.display()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        let before: Vec<String> = dirs
            .iter()
            .take_while(|d| *d != dir)
            .map(|d| claude_project_slug(&d.display().to_string()))
            .collect();
        let expected = claude_project_slug(&dir.display().to_string());
        let folders = transcript_folders(&home.claude_projects());
        let new: Vec<&String> = folders.iter().filter(|f| !before.contains(f)).collect();
        assert_eq!(
            new,
            [&expected],
            "claude in {} wrote under {new:?}",
            dir.display()
        );
        assert!(
            std::fs::read_dir(home.claude_projects().join(&expected))
                .unwrap()
                .flatten()
                .any(|e| e.path().extension().is_some_and(|x| x == "jsonl")),
            "no transcript in {expected}"
        );
    }
    // The long path really took the hashed form.
    assert!(claude_project_slug(&dirs[3].display().to_string()).len() > 201);
}
