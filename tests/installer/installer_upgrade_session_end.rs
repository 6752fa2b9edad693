//! Issue 22: Gemini CLI's hook set grew a `SessionEnd`. A `settings.json` the previous release wrote (the
//! same editor over the row without it: SessionStart, BeforeAgent, BeforeTool, AfterAgent) must gain it at
//! the next `apply` — giving exactly what a fresh install writes — and `remove` must then take out exactly
//! our entries, old and new: the original bytes back where the backup the previous release left is there,
//! a file the previous release created deleted, and nothing of ours left (every byte of the user's kept)
//! where the backup is gone. Over every file of the Gemini corpus (`tests/corpus/installer-more/gemini/`).

use crate::installer_common::*;
use agterm_backup_installer::agent_hooks::{self, has_ours, HookFile, GEMINI};
use agterm_backup_installer::command::hook_command;
use agterm_backup_installer::fsio::backup_path;
use std::path::{Path, PathBuf};

/// The Gemini row as the previous release had it.
const PREVIOUS: HookFile = HookFile {
    events: &["SessionStart", "BeforeAgent", "BeforeTool", "AfterAgent"],
    ..GEMINI
};

const APPLY: [&str; 6] = [
    "installer",
    "apply",
    "--agents",
    "gemini",
    "--no-denylist",
    "--no-tmux",
];

fn corpus() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/installer-more/gemini");
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            !p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("refused-")
        })
        .collect();
    files.sort();
    files
}

fn is_subsequence(small: &[u8], big: &[u8]) -> bool {
    let mut it = big.iter();
    small.iter().all(|c| it.any(|b| b == c))
}

/// The events holding a handler of ours in `text`.
fn our_events(text: &str) -> Vec<&'static str> {
    let command = hook_command(&canonical_binary(), "gemini");
    agent_hooks::inspect(&GEMINI, Some(text), &command)
        .expect("the file parses")
        .into_iter()
        .filter(|e| e.place.is_some())
        .map(|e| e.event)
        .collect()
}

/// Puts the previous release's state in a fresh sandbox: its file (written over `original`, or created
/// when there was none) and, for a file it edited, the backup of `original` when `keep_backup`.
fn previous_release(original: Option<&str>, keep_backup: bool) -> (Sandbox, PathBuf, String) {
    let s = Sandbox::new();
    let path = GEMINI.path(|_| None, &s.home());
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let command = hook_command(&canonical_binary(), "gemini");
    let previous = agent_hooks::apply(&PREVIOUS, original, &command).expect("the editor applies");
    assert_eq!(our_events(&previous), PREVIOUS.events, "{previous}");
    std::fs::write(&path, &previous).unwrap();
    if let (Some(original), true) = (original, keep_backup) {
        std::fs::write(backup_path(&path), original).unwrap();
    }
    (s, path, previous)
}

/// `apply` over the previous release's file: SessionEnd added, every byte of the old file kept, and the
/// result what a fresh install of `original` writes.
fn upgrade(s: &Sandbox, path: &Path, previous: &str, original: Option<&str>, name: &str) {
    let out = s.run(&APPLY);
    assert!(out.status.success(), "{name}: {}", text(&out.stderr));
    let upgraded = std::fs::read_to_string(path).unwrap();
    assert_eq!(our_events(&upgraded), GEMINI.events, "{name}:\n{upgraded}");
    assert!(GEMINI.events.contains(&"SessionEnd"), "the hook set grew");
    assert!(
        is_subsequence(previous.as_bytes(), upgraded.as_bytes()),
        "{name}: a byte of the old file was lost:\n{upgraded}"
    );
    let command = hook_command(&canonical_binary(), "gemini");
    let fresh = agent_hooks::apply(&GEMINI, original, &command).unwrap();
    assert_eq!(upgraded, fresh, "{name}: the upgrade is a fresh install");
}

#[test]
fn a_previous_releases_gemini_file_gains_session_end_and_loses_exactly_ours() {
    let mut n = 0;
    for file in corpus() {
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        let original = std::fs::read_to_string(&file).unwrap();
        // With the backup the previous release left: the original bytes come back.
        let (s, path, previous) = previous_release(Some(&original), true);
        upgrade(&s, &path, &previous, Some(&original), &name);
        assert!(s.run(&["installer", "remove"]).status.success(), "{name}");
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            original,
            "{name}: remove gives the original back"
        );
        // Without it: nothing of ours is left, and nothing of the user's is lost.
        let (s, path, previous) = previous_release(Some(&original), false);
        upgrade(&s, &path, &previous, Some(&original), &name);
        assert!(s.run(&["installer", "remove"]).status.success(), "{name}");
        // An empty file is what we write into no file: without its backup it goes, as it would have.
        let Ok(removed) = std::fs::read_to_string(&path) else {
            assert!(original.trim().is_empty(), "{name}: deleted");
            n += 1;
            continue;
        };
        assert!(!has_ours(&GEMINI, &removed), "{name}:\n{removed}");
        assert!(
            is_subsequence(original.as_bytes(), removed.as_bytes()),
            "{name}: {removed}"
        );
        n += 1;
    }
    assert!(n >= 5, "corpus has {n} files");
    // A file the previous release created: deleted again.
    let (s, path, previous) = previous_release(None, false);
    upgrade(&s, &path, &previous, None, "created");
    assert!(s.run(&["installer", "remove"]).status.success());
    assert!(
        !path.exists(),
        "{}",
        std::fs::read_to_string(&path).unwrap()
    );
}
