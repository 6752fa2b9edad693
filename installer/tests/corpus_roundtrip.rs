//! The whole installer corpus (tests/corpus/installer/ and installer-more/, the shell rc files included) through the engine on real files, with random
//! user edits before `apply` and between `apply` and `remove`: `remove` gives back exactly the file with
//! both user edits and none of ours. (Files that already hold an entry of ours and refused files are left
//! to tests/installer/installer_corpus.rs.)

use agterm_backup_installer::command::hook_command;
use agterm_backup_installer::engine::{plan_apply, plan_remove};
use agterm_backup_installer::shell_rc::files;
use agterm_backup_installer::{config_file, Target, TargetKind};
use proptest::prelude::*;
use similar::{capture_diff_slices, Algorithm, DiffOp};
use std::path::{Path, PathBuf};

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/corpus/installer")
}

/// Every corpus file the installer accepts and that holds nothing of ours: (kind, name, text).
fn eligible() -> Vec<(TargetKind, String, String)> {
    let mut out = Vec::new();
    let more = corpus_dir().with_file_name("installer-more");
    let dirs = std::fs::read_dir(corpus_dir())
        .unwrap()
        .chain(std::fs::read_dir(more).unwrap());
    for dir in dirs {
        let dir = dir.unwrap().path();
        let kind = match dir.file_name().unwrap().to_str().unwrap() {
            "claude" => TargetKind::ClaudeSettings,
            "codex-toml" => TargetKind::CodexConfig,
            "codex-hooks-json" => TargetKind::CodexHooksJson,
            "denylist" => TargetKind::ConfigFile(config_file::named("denylist").unwrap()),
            "tmux" => TargetKind::ConfigFile(config_file::named("tmux").unwrap()),
            "zshrc" => TargetKind::ShellRc(files::ZSHRC),
            "bashrc" => TargetKind::ShellRc(files::BASHRC),
            "fish" => TargetKind::ShellRc(files::FISH_CONFIG),
            "kimi" => TargetKind::KimiConfig,
            // Gemini, Qwen, Copilot: tests/corpus/installer-more/.
            other => match agterm_backup_installer::agent_hooks::hook_file(other) {
                Some(row) => TargetKind::AgentHooks(row),
                None => panic!("unknown corpus folder {other}"),
            },
        };
        for file in std::fs::read_dir(&dir).unwrap() {
            let path = file.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let Ok(text) = String::from_utf8(std::fs::read(&path).unwrap()) else {
                continue;
            };
            if name.starts_with("refused-") || target(kind, Path::new("/x")).has_ours(&text) {
                continue;
            }
            out.push((kind, name, text));
        }
    }
    out.sort_by(|a, b| a.1.cmp(&b.1));
    out
}

fn target(kind: TargetKind, path: &Path) -> Target {
    let agent = match kind {
        TargetKind::ClaudeSettings => "claude",
        TargetKind::CodexConfig | TargetKind::CodexHooksJson => "codex",
        TargetKind::ConfigFile(file) if !file.names_binary => "",
        TargetKind::ConfigFile(_) | TargetKind::ShellRc(_) => {
            return Target {
                kind,
                path: path.to_path_buf(),
                command: "/opt/x y/agterm-backup".into(),
            }
        }
        TargetKind::AgentHooks(row) => row.agent,
        TargetKind::OpencodePlugin => "opencode",
        TargetKind::KimiConfig => "kimi",
    };
    Target {
        kind,
        path: path.to_path_buf(),
        command: if agent.is_empty() {
            String::new()
        } else {
            hook_command(Path::new("/opt/x y/agterm-backup"), agent)
        },
    }
}

/// A user's edit, as the same kind of change wherever it lands.
#[derive(Debug, Clone, Copy)]
enum Edit {
    /// Trailing spaces at the end of the n-th line (or at the end of the file).
    SpacesAtLineEnd(usize),
    /// A line at the top: a comment in TOML, an entry in the denylist, a blank line in JSON.
    LineAtTop,
    /// JSON: the n-th digit of the file changed (never into a leading zero).
    Digit(usize),
    /// JSON: a key of the user's as the first one of the top-level object.
    KeyFirst,
}

/// A replacement of `len` bytes at `at` by `with`.
#[derive(Debug, Clone)]
struct Splice {
    at: usize,
    len: usize,
    with: String,
}

fn is_json(kind: TargetKind) -> bool {
    matches!(
        kind,
        TargetKind::ClaudeSettings | TargetKind::CodexHooksJson
    )
}

fn splice_for(edit: Edit, kind: TargetKind, text: &str) -> Option<Splice> {
    let bom = if text.starts_with('\u{feff}') { 3 } else { 0 };
    match edit {
        Edit::SpacesAtLineEnd(n) => {
            let ends: Vec<usize> = text
                .match_indices('\n')
                .map(|(i, _)| if text[..i].ends_with('\r') { i - 1 } else { i })
                .collect();
            let at = if ends.is_empty() {
                text.len()
            } else {
                ends[n % ends.len()]
            };
            Some(Splice {
                at,
                len: 0,
                with: "  ".into(),
            })
        }
        Edit::LineAtTop => Some(Splice {
            at: bom,
            len: 0,
            with: match kind {
                TargetKind::CodexConfig | TargetKind::KimiConfig => "# edited by hand\n".into(),
                TargetKind::ConfigFile(f) if f.target == "denylist" => "htop\n".into(),
                TargetKind::ConfigFile(f) if f.target == "tmux" => "set -g mouse on\n".into(),
                TargetKind::ShellRc(_) => "alias g=git\n".into(),
                _ => "\n".into(),
            },
        }),
        Edit::Digit(n) if is_json(kind) => {
            let digits: Vec<(usize, char)> = text
                .char_indices()
                .filter(|(_, c)| c.is_ascii_digit())
                .collect();
            let &(at, c) = digits.get(n % digits.len().max(1))?;
            let d = c.to_digit(10).unwrap();
            let next = if d == 9 { 8 } else { d + 1 };
            Some(Splice {
                at,
                len: 1,
                with: next.to_string(),
            })
        }
        Edit::KeyFirst if is_json(kind) => {
            let open = text.find('{')?;
            let rest = text[open + 1..].trim_start();
            if rest.starts_with('}') {
                return None;
            }
            // Codex reads only "description" besides "hooks" in hooks.json (any other key is refused).
            let with = if kind == TargetKind::CodexHooksJson {
                "\"description\": \"mine\", "
            } else {
                "\"userEdit\": [1, {\"x\": null}], "
            };
            Some(Splice {
                at: open + 1,
                len: 0,
                with: with.into(),
            })
        }
        Edit::Digit(_) | Edit::KeyFirst => None,
    }
}

fn apply_splice(text: &str, s: &Splice) -> String {
    format!("{}{}{}", &text[..s.at], s.with, &text[s.at + s.len..])
}

/// Where offset `at` of `old` is in `new` (`old` being a part of `new`), before anything inserted there.
fn map_offset(old: &str, new: &str, at: usize) -> Option<usize> {
    let ops = capture_diff_slices(Algorithm::Myers, old.as_bytes(), new.as_bytes());
    // Before anything inserted at that point (an empty file: everything is inserted at 0).
    if let Some(op) = ops.iter().find(|op| op.old_range().start == at) {
        return Some(op.new_range().start);
    }
    ops.into_iter().find_map(|op| match op {
        DiffOp::Equal {
            old_index,
            new_index,
            len,
        } if old_index <= at && at <= old_index + len => Some(new_index + (at - old_index)),
        _ => None,
    })
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (0..64usize).prop_map(Edit::SpacesAtLineEnd),
        Just(Edit::LineAtTop),
        (0..64usize).prop_map(Edit::Digit),
        Just(Edit::KeyFirst),
    ]
}

fn round_trip(kind: TargetKind, text: &str, first: Edit, second: Edit) -> Result<(), String> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("file");
    let t = target(kind, &path);
    let before = match splice_for(first, kind, text) {
        Some(s) => apply_splice(text, &s),
        None => text.to_string(),
    };
    std::fs::write(&path, &before).unwrap();
    plan_apply(&t)
        .and_then(|c| c.commit())
        .map_err(|p| format!("apply: {p}"))?;
    let applied = std::fs::read_to_string(&path).unwrap();
    let (current, want) = match splice_for(second, kind, &before) {
        Some(s) => {
            let at = map_offset(&before, &applied, s.at).ok_or("edit not mappable")?;
            let mapped = Splice { at, ..s.clone() };
            if applied.get(at..at + s.len) != before.get(s.at..s.at + s.len) {
                return Ok(()); // the replaced byte is not the same one in the applied file
            }
            (apply_splice(&applied, &mapped), apply_splice(&before, &s))
        }
        None => (applied.clone(), before.clone()),
    };
    std::fs::write(&path, &current).unwrap();
    plan_remove(&t)
        .and_then(|c| c.commit())
        .map_err(|p| format!("remove: {p}"))?;
    let removed = std::fs::read_to_string(&path).unwrap_or_default();
    if removed != want {
        return Err(format!(
            "after {first:?} / {second:?}:\napplied:\n{applied}\nedited:\n{current}\nremoved:\n{removed:?}\nwant:\n{want:?}"
        ));
    }
    Ok(())
}

#[test]
fn the_corpus_is_large_enough_to_mean_something() {
    let files = eligible();
    assert!(files.len() >= 40, "{} files", files.len());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]

    #[test]
    fn apply_edit_remove_is_byte_exact_over_the_whole_corpus(first in edit(), second in edit()) {
        let mut failures = Vec::new();
        for (kind, name, text) in eligible() {
            if let Err(e) = round_trip(kind, &text, first, second) {
                failures.push(format!("{name}: {e}"));
            }
        }
        prop_assert!(failures.is_empty(), "{}", failures.join("\n---\n"));
    }
}
