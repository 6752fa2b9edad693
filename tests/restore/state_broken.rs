//! Every broken file is named, and the rest goes on: records and journals that are truncated, garbage,
//! a symlink, a directory or empty sit beside good ones; `status`, `status --json` and
//! `restore --dry-run` name each with its reason, a pane whose record is broken is planned from its
//! journal (its row says `[journal]`), and `restore` still brings back every good pane.

use crate::restore_support::{text, uuid, Env};
use agterm_backup_core::pane::PaneRole;
use agterm_backup_core::terminal::RestoreMode;
use std::fs;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};

/// How each broken file is made, and a word its reason must hold.
const KINDS: [(&str, &str); 5] = [
    ("truncated", "truncated"),
    ("garbage", "not JSON"),
    ("symlink", "symbolic link"),
    ("directory", "directory"),
    ("empty", "empty"),
];

fn make(kind: &str, path: &Path, victim: &Path) {
    let _ = fs::remove_file(path);
    match kind {
        "truncated" => fs::write(path, br#"{"v":1,"agent":"claude","session_"#).unwrap(),
        "garbage" => fs::write(path, b"\x00\xff\xfegarbage").unwrap(),
        "symlink" => symlink(victim, path).unwrap(),
        "directory" => fs::create_dir(path).unwrap(),
        _ => fs::write(path, b"").unwrap(),
    }
}

#[test]
fn broken_files_are_named_and_every_good_pane_is_restored() {
    let env = Env::new("0.34", RestoreMode::Rerun, None, false);
    let state = env.state();
    // Two good panes: one whole, one whose record is garbage but whose journal is whole.
    let (good_id, fallback_id) = (uuid(), uuid());
    let (gd, gt) = env.project("good", &good_id);
    let (fd, ft) = env.project("fallback", &fallback_id);
    let good = env.fake.add_session(None, None, env.home.path(), false);
    let fallback = env.fake.add_session(None, None, env.home.path(), false);
    env.record(&good.id, PaneRole::Left, &good_id, &gd, &gt, 60);
    env.record(&fallback.id, PaneRole::Left, &fallback_id, &fd, &ft, 60);
    let fallback_key = agterm_backup_agterm::key::key(&fallback.id, PaneRole::Left).unwrap();
    fs::write(state.record_path(&fallback_key), b"{\"v\":1,").unwrap();
    // Each kind of broken file, as a record and as a journal of panes that are gone.
    let victim = env.home.path().join("victim.json");
    fs::write(&victim, b"{}").unwrap();
    let mut named: Vec<(PathBuf, &str)> = vec![(state.record_path(&fallback_key), "truncated")];
    for (i, (kind, says)) in KINDS.iter().enumerate() {
        let key = agterm_backup_agterm::key::key(
            &format!("6B1E0C2A-AAAA-BBBB-CCCC-0000000000{i:02}"),
            PaneRole::Left,
        )
        .unwrap();
        for path in [state.record_path(&key), state.journal_path(&key)] {
            make(kind, &path, &victim);
            named.push((path, says));
        }
    }

    let out = env.run(&["status", "--json"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let broken = v["broken_files"].as_array().unwrap();
    for (path, says) in &named {
        let b = broken
            .iter()
            .find(|b| b["path"] == path.display().to_string())
            .unwrap_or_else(|| panic!("{} not named: {v}", path.display()));
        assert!(b["reason"].as_str().unwrap().contains(says), "{b}");
    }
    assert_eq!(broken.len(), named.len(), "{broken:?}");
    let fb = broken
        .iter()
        .find(|b| b["pane"] == fallback_key.to_string())
        .unwrap();
    assert!(
        fb["reason"]
            .as_str()
            .unwrap()
            .contains("planned from its journal"),
        "{fb}"
    );

    let human = text(&env.run(&["status"]).stdout);
    let dry = env.run(&["restore", "--dry-run"]);
    assert!(dry.status.success(), "{}", text(&dry.stderr));
    let dry = text(&dry.stdout);
    for (path, _) in &named {
        let line = format!("could not use {}", path.display());
        assert!(human.contains(&line), "status: {line}\n{human}");
        assert!(dry.contains(&line), "dry run: {line}\n{dry}");
    }
    assert!(dry.contains("[journal]"), "the fallback is shown: {dry}");

    let (out, plan) = env.restore_json(&["--yes"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        plan["broken_files"].as_array().map(Vec::len),
        Some(named.len()),
        "{plan}"
    );
    env.assert_resumed(&good.id, PaneRole::Left, &good_id, &gd);
    env.assert_resumed(&fallback.id, PaneRole::Left, &fallback_id, &fd);
    assert_eq!(fs::read(&victim).unwrap(), b"{}", "nothing followed");
}
