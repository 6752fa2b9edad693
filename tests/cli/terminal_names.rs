//! A terminal is a folder and a row (issue 33): outside `terminals/<name>/` and the registry's `ROWS`
//! list, the product's code names no terminal. What a terminal knows lives in its crate and reaches the
//! rest through its row; the consumers only iterate the rows. This test fails on any line that names
//! one, with the line and where it belongs.
//!
//! The names are the registry rows' (`ROWS`), so a fourth terminal is checked without editing this test.
//! Counted: every `.rs` file under a workspace member's `src/` (the binary's `src/` included), and the code
//! that is not Rust there and under `plugins/` (the `init` snippets, the opencode plugin), except the
//! terminals' own folders (and the crates nested in them, like `terminals/agterm/denylist/`), the test
//! kit, test-only files (`tests.rs`, `*_tests.rs`, `fixtures.rs`) and everything from a file's
//! `#[cfg(test)]` on; in the registry, the `ROWS` literal is the one place they belong. Our own name
//! (`agterm-backup`, `agterm_backup`, `AGTERM_BACKUP_…`, clap_complete's `agterm__backup`, the
//! opencode plugin's `AgtermBackup`) is not a terminal's. [`NOT_A_TERMINAL`] lists the two words that
//! contain a terminal's name and are not about one, each with its reason; an entry that no longer
//! matches fails too.

use crate::module_cycles::graph::{members, rs_files, workspace_root};
use agterm_backup_terminals::ROWS;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Words that contain a terminal's name but are not about a terminal of ours: the file, the word, why.
const NOT_A_TERMINAL: [(&str, &str, &str); 2] = [
    (
        "core/src/record.rs",
        "agterm_session",
        "the live record's on-disk field (design.md): every state dir since the first release has it",
    ),
    (
        "core/src/agent/claude.rs",
        "\"--tmux\"",
        "Claude Code's own launch flag, a row of its flag table",
    ),
];

/// The folders whose files are counted, relative to the workspace root.
fn counted_roots() -> Vec<PathBuf> {
    let root = workspace_root();
    let own: Vec<PathBuf> = ROWS
        .iter()
        .map(|r| root.join("terminals").join(r.name.as_str()))
        .collect();
    members()
        .into_iter()
        .filter(|m| !own.iter().any(|o| m.starts_with(o)) && !m.ends_with("tests/support"))
        .map(|m| m.join("src"))
        .collect()
}

/// The product's code that is not Rust below `dir`: the shell snippets `init` prints, a plugin in
/// JavaScript. The opencode plugin's own pane test was such a copy the Rust-only count missed.
fn script_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for path in entries.flatten().map(|e| e.path()) {
        let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
        if path.is_dir() && path.file_name().is_some_and(|n| n != "node_modules") {
            script_files(&path, out);
        } else if ["js", "mjs", "ts", "sh", "zsh", "bash", "fish"].contains(&ext) {
            out.push(path);
        }
    }
}

fn test_only(path: &Path) -> bool {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    // `fixtures.rs`: the test data a crate shares with other crates' tests (behind `cfg(test)` or its
    // `fixtures` feature).
    name == "tests.rs" || name.ends_with("_tests.rs") || name == "fixtures.rs"
}

/// Whether `line` names terminal `name` (any case), other than inside our own name.
fn names(line: &str, name: &str) -> bool {
    let lower = line.to_ascii_lowercase();
    let mut from = 0;
    while let Some(at) = lower[from..].find(name) {
        let end = from + at + name.len();
        // Our own name in any of its spellings: `agterm-backup`, `agterm_backup`, clap_complete's
        // `agterm__backup` (the bin name's hyphen escaped twice) and the plugin's `AgtermBackup`.
        if !lower[end..]
            .trim_start_matches(['-', '_'])
            .starts_with("backup")
        {
            return true;
        }
        from = end;
    }
    false
}

/// The product lines of `text` that name a terminal: up to `#[cfg(test)]`, without the `ROWS` literal.
fn naming_lines(text: &str, terminals: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    let mut in_rows = false;
    for line in text.lines() {
        if line.trim_start().starts_with("#[cfg(test)]") {
            break;
        }
        if line.starts_with("pub static ROWS") {
            in_rows = true;
        }
        if in_rows {
            in_rows = line != "];";
            continue;
        }
        if terminals.iter().any(|t| names(line, t)) {
            out.push(line.trim().to_string());
        }
    }
    out
}

/// Per file (relative path), the lines naming a terminal.
fn measured() -> BTreeMap<String, Vec<String>> {
    let terminals: Vec<&str> = ROWS.iter().map(|r| r.name.as_str()).collect();
    let root = workspace_root();
    let mut files = Vec::new();
    for dir in counted_roots() {
        rs_files(&dir, &mut files);
        script_files(&dir, &mut files);
    }
    // The agents' plugins that are not crates (opencode's JavaScript): code the installer writes.
    script_files(&root.join("plugins"), &mut files);
    files.sort();
    files.dedup();
    files
        .into_iter()
        .filter(|f| !test_only(f))
        .filter_map(|f| {
            let text = std::fs::read_to_string(&f).ok()?;
            let lines = naming_lines(&text, &terminals);
            let rel = f.strip_prefix(&root).ok()?.display().to_string();
            (!lines.is_empty()).then_some((rel, lines))
        })
        .collect()
}

/// The entry of [`NOT_A_TERMINAL`] that accounts for `line` of `path`: its word is there, and without
/// it the line names no terminal.
fn exception_for(path: &str, line: &str, terminals: &[&str]) -> Option<usize> {
    NOT_A_TERMINAL.iter().position(|(p, word, _)| {
        let rest = line.replace(word, "");
        *p == path && line.contains(word) && !terminals.iter().any(|t| names(&rest, t))
    })
}

#[test]
fn no_file_outside_the_terminals_folders_names_a_terminal() {
    let terminals: Vec<&str> = ROWS.iter().map(|r| r.name.as_str()).collect();
    let mut found = Vec::new();
    let mut used = vec![false; NOT_A_TERMINAL.len()];
    for (path, lines) in measured() {
        for line in lines {
            match exception_for(&path, &line, &terminals) {
                Some(i) => used[i] = true,
                None => found.push(format!("{path}: {line}")),
            }
        }
    }
    assert!(
        found.is_empty(),
        "a terminal's name outside terminals/<name>/ and the registry's ROWS: move the code into the \
         terminal's folder behind its row, or ask the rows\n{}",
        found.join("\n")
    );
    let stale: Vec<_> = NOT_A_TERMINAL
        .iter()
        .zip(&used)
        .filter(|(_, used)| !**used)
        .map(|((p, word, _), _)| format!("{p}: {word}"))
        .collect();
    assert!(
        stale.is_empty(),
        "NOT_A_TERMINAL names words no file has any more: drop them\n{}",
        stale.join("\n")
    );
}

#[test]
fn the_counter_sees_names_in_any_case_but_not_our_own_and_stops_at_tests() {
    let t = ["agterm", "tmux", "zmx"];
    let text = "let a = TMUX_PANE;\nuse agterm_backup_core;\n// AGTERM_BACKUP_HOME\nzmx::x();\n\
                pub static ROWS: [Row; 1] = [\n    tmux,\n];\nfn f() {}\n#[cfg(test)]\nmod tests { tmux }";
    assert_eq!(naming_lines(text, &t), ["let a = TMUX_PANE;", "zmx::x();"]);
    assert!(names("agterm-backup runs in agterm", "agterm"));
    assert!(!names("agterm-backup and agterm_backup", "agterm"));
    assert!(!names("agterm__backup__subcmd__installer", "agterm"));
    assert!(!names("export const AgtermBackup", "agterm"));
    assert!(names("agterm backup", "agterm"));
}
