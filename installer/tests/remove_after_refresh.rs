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

/// The applied text with the timeout of our first handler changed by the user.
fn touch_our_timeout(kind: TargetKind, applied: &str, command: &str) -> String {
    let encoded = if is_json(kind) {
        serde_json::to_string(command).unwrap()
    } else {
        toml_edit::Value::from(command)
            .to_string()
            .trim()
            .to_string()
    };
    let ours = applied.find(&encoded).expect("our command is there");
    let (needle, with) = if is_json(kind) {
        ("\"timeout\": 10", "\"timeout\": 30")
    } else {
        ("timeout = 10", "timeout = 30")
    };
    let at = ours + applied[ours..].find(needle).expect("our timeout");
    format!("{}{with}{}", &applied[..at], &applied[at + needle.len()..])
}

#[test]
fn remove_after_the_user_touched_ours_keeps_what_the_original_had() {
    let mut failures = Vec::new();
    for (kind, name, text) in eligible() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("file");
        std::fs::write(&path, &text).unwrap();
        let t = target(kind, &path, "/opt/x y");
        apply(&t);
        let applied = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, touch_our_timeout(kind, &applied, &t.command)).unwrap();
        let removed = remove(&t);
        // A file without a single line break is only reformatted by the tree (no bytes of the user's lost).
        if removed != text {
            failures.push(format!("{name}:\nremoved {removed:?}\nwant    {text:?}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n---\n"));
}

#[test]
fn remove_after_a_reformat_keeps_every_container_the_original_had() {
    let mut failures = Vec::new();
    for (kind, name, text) in eligible().into_iter().filter(|(k, ..)| is_json(*k)) {
        let body = text.trim_start_matches('\u{feff}');
        let Ok(original) = serde_json::from_str::<serde_json::Value>(body) else {
            continue; // empty or whitespace-only
        };
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("file");
        std::fs::write(&path, &text).unwrap();
        let t = target(kind, &path, "/opt/x y");
        apply(&t);
        let applied: serde_json::Value = serde_json::from_str(
            std::fs::read_to_string(&path)
                .unwrap()
                .trim_start_matches('\u{feff}'),
        )
        .unwrap();
        // What `jq --indent 4 .` writes.
        let mut out = Vec::new();
        let fmt = serde_json::ser::PrettyFormatter::with_indent(b"    ");
        let mut ser = serde_json::Serializer::with_formatter(&mut out, fmt);
        serde::Serialize::serialize(&applied, &mut ser).unwrap();
        out.push(b'\n');
        std::fs::write(&path, &out).unwrap();
        let removed: serde_json::Value = serde_json::from_str(&remove(&t)).unwrap();
        if removed != original {
            failures.push(format!("{name}:\nremoved {removed}\nwant    {original}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n---\n"));
}
