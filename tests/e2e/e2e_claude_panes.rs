//! End to end with the real Claude Code CLI, more panes: two panes of one agterm session in two
//! directories, a session whose Bash tool `cd`s away, and the slug port checked against the folders the
//! real CLI creates. Skipped (with a SKIPPED line) when the CLI is absent.

use agterm_backup_core::quote::{quote, quote_words};
use agterm_backup_core::slug::claude_project_slug;
use agterm_backup_testkit::agents::rig::Rig;
use agterm_backup_testkit::agents::{
    run_cli, start_in_pane, start_in_split, type_prompt, wait_ready, wait_screen, Agent,
};
use agterm_backup_testkit::paths::agent_cli;
use std::path::{Path, PathBuf};
use std::time::Duration;

const AGENT_START: Duration = Duration::from_secs(30);
const TURN: Duration = Duration::from_secs(30);

fn agterm_backup() -> &'static Path {
    Path::new(agterm_backup_testkit::agterm_backup_bin!())
}

/// The left and right panes of one agterm session, each running its own claude in its own directory:
/// two records, each naming only its own conversation, directory and flags.
#[test]
fn claude_split_panes_of_one_agterm_session_keep_their_own_records() {
    let Some(claude) = agent_cli("claude") else {
        return;
    };
    let rig = Rig::new(&["left dir", "right dir"]);
    rig.install_claude(agterm_backup());
    let (left_dir, right_dir) = (rig.root.join("left dir"), rig.root.join("right dir"));
    let left = rig.pane("left");
    let right = rig.split_pane(&left, "right");
    let claude_word = claude.display().to_string();

    let left_line = quote_words(&[claude_word.as_str(), "left prompt"]);
    let left_tmux = start_in_pane(
        &rig.tmux,
        "split",
        &left_dir,
        &rig.pane_env(&left),
        &left_line,
    );
    let right_line = quote_words(&[claude_word.as_str(), "--model", "opus", "right prompt"]);
    let right_tmux = start_in_split(
        &rig.tmux,
        &left_tmux,
        &right_dir,
        &rig.pane_env(&right),
        &right_line,
    );
    for (tmux_pane, reply) in [
        (&left_tmux, "stub reply to: left prompt"),
        (&right_tmux, "stub reply to: right prompt"),
    ] {
        wait_screen(&rig.tmux, tmux_pane, AGENT_START + TURN, reply, |s| {
            s.contains(reply)
        });
    }

    let left_record = rig.wait_record(&left, TURN, "the left Stop record", |r| {
        r["event"] == "Stop"
    });
    let right_record = rig.wait_record(&right, TURN, "the right Stop record", |r| {
        r["event"] == "Stop"
    });
    assert_ne!(left_record["session_id"], right_record["session_id"]);
    for (pane, record, dir, flags) in [
        (&left, &left_record, &left_dir, serde_json::json!([])),
        (
            &right,
            &right_record,
            &right_dir,
            serde_json::json!(["--model", "opus"]),
        ),
    ] {
        let id = record["session_id"].as_str().expect("session_id");
        assert_eq!(record["role"], pane.role.as_str(), "record: {record}");
        assert_eq!(
            record["agterm_session"],
            left.session_id.to_uppercase().as_str()
        );
        assert_eq!(
            record["agent_cwd"],
            dir.display().to_string().as_str(),
            "record: {record}"
        );
        assert_eq!(record["flags"], flags, "record: {record}");
        let transcript =
            PathBuf::from(record["transcript_path"].as_str().expect("transcript_path"));
        assert_eq!(transcript.file_stem().unwrap().to_string_lossy(), id);
        let started = rig.payloads_of("SessionStart");
        assert!(started
            .iter()
            .any(|p| p["session_id"] == id && p["cwd"] == record["agent_cwd"]));
        let journal = std::fs::read_to_string(pane.journal_path()).expect("journal");
        assert!(
            journal.lines().all(|l| l.contains(id)),
            "{} journal: {journal}",
            pane.role
        );
    }
    rig.stub.assert_answered_everything();
}

/// A session whose Bash tool `cd`s into a subdirectory: the payload's cwd follows (hook_cwd), the
/// directory to resume from stays the launch directory (its slug names the transcript's folder).
#[test]
fn claude_bash_cd_moves_hook_cwd_but_agent_cwd_stays_the_launch_dir() {
    let Some(claude) = agent_cli("claude") else {
        return;
    };
    // A second directory whose name needs the slug rule's care (non-ASCII, an apostrophe, spaces).
    let rig = Rig::new(&["sécond ✓ it's", "sécond ✓ it's/sub"]);
    rig.install_claude(agterm_backup());
    let launch_dir = rig.root.join("sécond ✓ it's");
    let sub = launch_dir.join("sub");
    let pane = rig.pane("right");
    let env = rig.pane_env(&pane);

    let tmux_pane = start_in_pane(
        &rig.tmux,
        "cd",
        &launch_dir,
        &env,
        &quote(&claude.display().to_string()),
    );
    wait_ready(&rig.tmux, &tmux_pane, Agent::Claude, AGENT_START);
    type_prompt(&rig.tmux, &tmux_pane, "please RUN:cd sub && pwd");
    let said = format!("stub: the tool said {}", sub.display());
    wait_screen(
        &rig.tmux,
        &tmux_pane,
        TURN,
        "the cd tool call's reply",
        |s| s.contains(&said),
    );

    let sub_str = sub.display().to_string();
    let record = rig.wait_record(&pane, TURN, "a Stop record with hook_cwd in sub/", |r| {
        r["event"] == "Stop" && r["hook_cwd"] == sub_str.as_str()
    });
    assert_eq!(
        record["agent_cwd"],
        launch_dir.display().to_string().as_str(),
        "record: {record}"
    );
    assert_eq!(record["flags"], serde_json::json!([]));
    assert_eq!(record["role"], "right");
    let transcript = PathBuf::from(record["transcript_path"].as_str().expect("transcript_path"));
    assert!(transcript.exists(), "{}", transcript.display());
    let folder = transcript
        .parent()
        .unwrap()
        .file_name()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    assert_eq!(
        folder,
        claude_project_slug(&launch_dir.display().to_string())
    );
    assert_ne!(folder, claude_project_slug(&sub_str));
    rig.stub.assert_answered_everything();
}

/// The slug port against the folders the real CLI creates: a plain name, a unicode one (with an astral
/// character and an apostrophe), and a path over 200 characters (cut and hashed).
#[test]
fn claude_transcript_folder_is_the_slug_of_the_launch_dir() {
    let Some(claude) = agent_cli("claude") else {
        return;
    };
    let long = format!("long/{}/{}", "a".repeat(100), "b".repeat(100));
    let names = ["plain", "ünï cødé ✓ 😀 it's", long.as_str()];
    let rig = Rig::new(&names);
    let env = rig.home.env(&rig.stub);
    let mut seen: Vec<PathBuf> = rig.home.claude_transcripts();
    for name in names {
        let dir = rig.root.join(name);
        run_cli(&claude, &["-p", "hello slug"], &dir, &env);
        let now = rig.home.claude_transcripts();
        let new: Vec<&PathBuf> = now.iter().filter(|t| !seen.contains(t)).collect();
        assert_eq!(
            new.len(),
            1,
            "one new transcript for {}: {new:?}",
            dir.display()
        );
        let folder = new[0]
            .parent()
            .unwrap()
            .file_name()
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let path = dir.display().to_string();
        assert_eq!(folder, claude_project_slug(&path), "slug of {path}");
        if path.chars().count() > 200 {
            assert!(
                folder.len() > 201 && folder.as_bytes()[200] == b'-',
                "cut and hashed: {folder}"
            );
        }
        seen = now;
    }
    rig.stub.assert_answered_everything();
}
