//! `remove` after our entries were refreshed or touched: the whole corpus (tests/corpus/installer/) through
//! the engine on real files. (1) `apply` with one binary, a user edit, `apply` again with the binary moved
//! (`cargo install` after a first try from `target/debug`, a Homebrew path): `remove` still gives back
//! exactly the file with the user's edit and none of ours, as the refresh must not replace the backup of
//! the original with a file holding ours. (2) The user edits a byte of ours (our timeout): `remove` cannot
//! undo our edit byte for byte, and its structural cut still gives back what the original had that the
//! cut alone would drop (an empty `"hooks": {}` or `"Stop": []`, a missing final newline). (3) A JSON file
//! reformatted by a tool after `apply` (`jq --indent 4 .`): `remove` keeps every container the original had.

use agterm_backup_installer::command::hook_command;
use agterm_backup_installer::engine::{plan_apply, plan_remove};
use agterm_backup_installer::{Target, TargetKind};
use std::path::{Path, PathBuf};

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/corpus/installer")
}

/// Every accepted corpus file of an agent (not the denylist) that holds nothing of ours.
fn eligible() -> Vec<(TargetKind, String, String)> {
    let mut out = Vec::new();
    for (dir, kind) in [
        ("claude", TargetKind::ClaudeSettings),
        ("codex-toml", TargetKind::CodexConfig),
        ("codex-hooks-json", TargetKind::CodexHooksJson),
    ] {
        for file in std::fs::read_dir(corpus_dir().join(dir)).unwrap() {
            let path = file.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let Ok(text) = String::from_utf8(std::fs::read(&path).unwrap()) else {
                continue;
            };
            if name.starts_with("refused-") || target(kind, Path::new("/x"), "/a").has_ours(&text) {
                continue;
            }
            out.push((kind, name, text));
        }
    }
    out.sort_by(|a, b| a.1.cmp(&b.1));
    out
}

fn target(kind: TargetKind, path: &Path, bin_dir: &str) -> Target {
    let agent = if kind == TargetKind::ClaudeSettings {
        "claude"
    } else {
        "codex"
    };
    Target {
        kind,
        path: path.to_path_buf(),
        command: hook_command(&Path::new(bin_dir).join("agterm-backup"), agent),
    }
}

fn apply(t: &Target) {
    plan_apply(t).and_then(|c| c.commit()).unwrap();
}

fn remove(t: &Target) -> String {
    plan_remove(t).and_then(|c| c.commit()).unwrap();
    std::fs::read_to_string(&t.path).unwrap_or_default()
}

fn is_json(kind: TargetKind) -> bool {
    kind != TargetKind::CodexConfig
}

/// A line of the user's at the top (after a BOM): a blank line in JSON, a comment in TOML.
fn user_edit(kind: TargetKind, text: &str) -> String {
    let bom = if text.starts_with('\u{feff}') { 3 } else { 0 };
    let line = if is_json(kind) {
        "\n"
    } else {
        "# edited by hand\n"
    };
    format!("{}{line}{}", &text[..bom], &text[bom..])
}

#[test]
fn remove_after_a_refresh_with_a_moved_binary_gives_back_the_original() {
    let mut failures = Vec::new();
    for (kind, name, text) in eligible() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("file");
        std::fs::write(&path, &text).unwrap();
        apply(&target(kind, &path, "/work/agterm-backup/target/debug"));
        let edited = user_edit(kind, &std::fs::read_to_string(&path).unwrap());
        std::fs::write(&path, &edited).unwrap();
        let moved = target(kind, &path, "/home/me/.cargo/bin");
        apply(&moved);
        let removed = remove(&moved);
        let want = user_edit(kind, &text);
        if removed != want {
            failures.push(format!("{name}:\nremoved {removed:?}\nwant    {want:?}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n---\n"));
}
