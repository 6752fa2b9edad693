//! The sources, scanned: every raw open for writing (or rename into place) outside the state folder's
//! guard (`core::state::guard`, `write_atomic`) is listed here with why it is safe, so a new writer that
//! skips the guard fails this test until it is routed through it or listed.

use std::fs;
use std::path::{Path, PathBuf};

/// Every raw open for writing (or rename into place) in the sources, by file: each is either routed
/// through `core::state::guard` / `write_atomic`, or writes outside the state folder, as its row says.
const RAW_WRITERS: &[(&str, usize, &str)] = &[
    ("core/src/state/guard.rs", 6, "the guard itself: every open with O_NOFOLLOW"),
    (
        "core/src/state/atomic.rs",
        4,
        "the atomic writer: its temp file O_EXCL, renames that replace a link rather than follow it",
    ),
    ("core/src/process/procfs.rs", 1, "a tty under /dev, a read-only probe"),
    (
        "core/src/tty_input/io.rs",
        1,
        "the shell's own terminal under /dev, reopened read-only to take its waiting replies",
    ),
];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = e.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

#[test]
fn every_raw_writer_in_the_sources_is_listed() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in ["core/src", "plugins", "terminals", "src"] {
        rust_files(&root.join(dir), &mut files);
    }
    let patterns = [
        "OpenOptions::new()",
        "fs::write(",
        "File::create(",
        "fs::rename(",
    ];
    let mut unlisted = Vec::new();
    for f in files {
        let rel = f.strip_prefix(root).unwrap().display().to_string();
        if rel.ends_with("_tests.rs") || rel.contains("/tests/") || rel.ends_with("/tests.rs") {
            continue;
        }
        let text = fs::read_to_string(&f).unwrap();
        // Only the code before the file's test module counts.
        let code = text.split("#[cfg(test)]").next().unwrap_or("");
        let n: usize = patterns.iter().map(|p| code.matches(p).count()).sum();
        let listed = RAW_WRITERS
            .iter()
            .find(|(path, _, _)| *path == rel)
            .map_or(0, |r| r.1);
        if n != listed {
            unlisted.push(format!("{rel}: {n} raw writers, {listed} listed"));
        }
    }
    assert!(
        unlisted.is_empty(),
        "route these through core::state::guard (or list them, saying why they are outside the state \
         folder): {unlisted:#?}"
    );
}
