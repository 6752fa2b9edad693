//! A terminal is a folder and a row: outside `terminals/<name>/` and the registry's `ROWS` list, the
//! product's code should not name a terminal. Issue 33 got core there (the few lines left are an on-disk
//! field's name and Claude's `--tmux` flag); the other crates still do, file by file. This test is the
//! ratchet: `terminal_names.baseline` holds, per file, how many lines name a terminal today, and a file
//! that names them more often, or a new file that names one, fails with its lines. A file that names them
//! less often fails too, with the line to write into the baseline, so the count only goes down.
//!
//! The names are the registry rows' (`ROWS`), so a fourth terminal is checked without editing this test.
//! Counted: every `.rs` file under a workspace member's `src/` (the binary's `src/` included), except the
//! terminals' own folders (and the crates nested in them, like `terminals/agterm/denylist/`), the test kit, test-only files (`tests.rs`, `*_tests.rs`, `fixtures.rs`) and everything from a
//! file's `#[cfg(test)]` on; in the registry, the `ROWS` literal is the one place they belong. Our own
//! name (`agterm-backup`, `agterm_backup`, `AGTERM_BACKUP_…`, clap_complete's `agterm__backup`) is not a
//! terminal's.

use crate::module_cycles::graph::{members, rs_files, workspace_root};
use agterm_backup_terminals::ROWS;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

const BASELINE: &str = include_str!("terminal_names.baseline");

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
        // Our own name in any of its spellings: `agterm-backup`, `agterm_backup`, and clap_complete's
        // `agterm__backup` (the bin name's hyphen escaped twice).
        let rest = lower[end..].trim_start_matches(['-', '_']);
        if !(rest.len() < lower.len() - end && rest.starts_with("backup")) {
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
    }
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

fn baseline() -> BTreeMap<String, usize> {
    let mut out = BTreeMap::new();
    for l in BASELINE
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
    {
        let (n, path) = l.split_once(' ').expect("`<count> <path>`");
        let again = out.insert(path.to_string(), n.parse::<usize>().expect("a count"));
        assert!(again.is_none(), "{path} is in the baseline twice");
    }
    out
}

#[test]
fn no_file_outside_the_terminals_folders_names_a_terminal_more_than_the_baseline() {
    let now = measured();
    let was = baseline();
    let mut more = Vec::new();
    let mut fewer = Vec::new();
    for (path, lines) in &now {
        let allowed = was.get(path).copied().unwrap_or(0);
        if lines.len() > allowed {
            more.push(format!(
                "{path}: {} lines name a terminal (baseline {allowed}):\n    {}",
                lines.len(),
                lines.join("\n    ")
            ));
        } else if lines.len() < allowed {
            fewer.push(format!("{} {path}", lines.len()));
        }
    }
    for (path, n) in &was {
        if !now.contains_key(path) {
            fewer.push(format!("0 {path} (was {n}: drop its line)"));
        }
    }
    assert!(
        more.is_empty(),
        "a terminal's name outside terminals/<name>/ and the registry's ROWS: move the code into the \
         terminal's folder behind its row, or ask the rows\n{}",
        more.join("\n")
    );
    assert!(
        fewer.is_empty(),
        "fewer names than tests/cli/terminal_names.baseline says: lower these lines there\n{}",
        fewer.join("\n")
    );
}

#[test]
fn core_names_no_terminal_but_an_on_disk_field_and_a_flag() {
    // What core may still say: the record's on-disk field `agterm_session` (every state dir has it) and
    // Claude's own `--tmux` launch flag (an agent's option, not a terminal of ours).
    let left: Vec<String> = measured()
        .into_iter()
        .filter(|(p, _)| p.starts_with("core/"))
        .flat_map(|(p, lines)| lines.into_iter().map(move |l| format!("{p}: {l}")))
        .filter(|l| !l.contains("agterm_session") && !l.contains("\"--tmux\""))
        .collect();
    assert!(
        left.is_empty(),
        "core names a terminal:\n{}",
        left.join("\n")
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
    assert!(names("agtermbackup", "agterm"));
}
