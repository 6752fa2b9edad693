//! The README documents every `--json` output; this keeps the documentation true. Each JSON block under
//! "JSON output" in README.md is parsed, and its key paths (nested objects, and the union over the objects
//! of each array) must be exactly those the real command prints.

use crate::restore_support::{text, uuid, Env};
use agterm_backup_core::pane::PaneRole;
use agterm_backup_core::terminal::RestoreMode;
use serde_json::Value;
use std::collections::BTreeSet;

/// The JSON blocks of the README's "JSON output" section, in order.
fn readme_blocks() -> Vec<Value> {
    let readme =
        std::fs::read_to_string(agterm_backup_testkit::paths::workspace_root().join("README.md"))
            .unwrap();
    let section = readme
        .split("## JSON output")
        .nth(1)
        .expect("README has a JSON output section");
    let section = section.split("\n## ").next().unwrap();
    section
        .split("```json\n")
        .skip(1)
        .map(|b| b.split("```").next().unwrap())
        .map(|b| {
            serde_json::from_str(b).unwrap_or_else(|e| panic!("README block is not JSON: {e}\n{b}"))
        })
        .collect()
}

/// Every key path: `key`, `key.inner` for an object, `key[].inner` for the objects of an array.
fn key_paths(v: &Value, prefix: &str, out: &mut BTreeSet<String>) {
    if let Value::Object(map) = v {
        for (k, inner) in map {
            let path = format!("{prefix}{k}");
            out.insert(path.clone());
            match inner {
                Value::Object(_) => key_paths(inner, &format!("{path}."), out),
                Value::Array(items) => {
                    for item in items.iter().filter(|i| i.is_object()) {
                        key_paths(item, &format!("{path}[]."), out);
                    }
                }
                _ => {}
            }
        }
    }
}

fn paths(v: &Value) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    key_paths(v, "", &mut out);
    out
}

#[test]
fn the_readme_json_schemas_match_what_the_commands_print() {
    let blocks = readme_blocks();
    assert_eq!(
        blocks.len(),
        4,
        "restore, restart, status and installer status"
    );

    let env = Env::new("0.34", RestoreMode::Rerun, None, false);
    let applied = env.run(&["installer", "apply", "--agents", "claude", "--no-denylist"]);
    assert!(applied.status.success(), "{}", text(&applied.stderr));
    // A hook written but switched off, so the keys that say why are printed too.
    let settings = env.home.path().join(".claude/settings.json");
    let written = std::fs::read_to_string(&settings).unwrap();
    std::fs::write(
        &settings,
        written.replacen('{', "{\n  \"disableAllHooks\": true,", 1),
    )
    .unwrap();
    let id = uuid();
    let (dir, transcript) = env.project("api", &id);
    let s = env.fake.add_session(None, None, env.home.path(), false);
    env.record(&s.id, PaneRole::Left, &id, &dir, &transcript, 30);
    // A broken record beside it, so `broken_files` has an entry to compare.
    let broken = agterm_backup_agterm::key::key(&s.id, PaneRole::Right).unwrap();
    std::fs::write(env.state().record_path(&broken), b"garbage").unwrap();

    let (out, restore) = env.restore_json(&["--dry-run"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let status_out = env.run(&["status", "--json"]);
    assert!(status_out.status.success(), "{}", text(&status_out.stderr));
    let status: Value = serde_json::from_slice(&status_out.stdout).unwrap();
    let installer_out = env.run(&["installer", "status", "--json"]);
    assert!(
        installer_out.status.success(),
        "{}",
        text(&installer_out.stderr)
    );
    let installer: Value = serde_json::from_slice(&installer_out.stdout).unwrap();
    let restart_out = env.run(&["restart", "--dry-run", "--json"]);
    assert!(
        restart_out.status.success(),
        "{}",
        text(&restart_out.stderr)
    );
    let restart: Value = serde_json::from_slice(&restart_out.stdout).unwrap();
    assert!(
        !restart["panes"].as_array().unwrap().is_empty(),
        "{restart:#}"
    );

    for (name, documented, printed) in [
        ("restore --json", &blocks[0], &restore),
        ("restart --json", &blocks[1], &restart),
        ("status --json", &blocks[2], &status),
        ("installer status --json", &blocks[3], &installer),
    ] {
        assert!(
            printed["rows"].as_array().is_none_or(|r| !r.is_empty()),
            "{name}: a row to compare against"
        );
        assert_eq!(
            paths(documented),
            paths(printed),
            "{name}: README keys (left) differ from the output (right):\n{printed:#}"
        );
    }
    assert_eq!(restore["v"], 1);
    assert_eq!(status["v"], 1);
    assert_eq!(restart["v"], 1);
}
