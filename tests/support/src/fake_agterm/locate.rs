//! Finding the test kit's binaries (`fake-agterm`, `fake-zmx`) from any package's tests.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The `fake-agterm` binary beside the running test (or bench), rebuilt with cargo when missing or older
/// than the fake's sources (other packages' tests do not build this crate's binaries).
pub fn fake_agterm_bin() -> PathBuf {
    testkit_bin("fake-agterm")
}

/// The test kit's binary `name` beside the running test (or bench), rebuilt with cargo when missing or
/// older than the kit's sources.
pub fn testkit_bin(name: &str) -> PathBuf {
    static BUILT: std::sync::Mutex<Vec<PathBuf>> = std::sync::Mutex::new(Vec::new());
    let mut built = BUILT.lock().unwrap_or_else(|e| e.into_inner());
    let path = crate::paths::profile_dir().join(name);
    if built.contains(&path) {
        return path;
    }
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let bin_time = std::fs::metadata(&path).and_then(|m| m.modified()).ok();
    let stale = match bin_time {
        None => true,
        Some(t) => newest_mtime(&src).is_some_and(|s| s > t),
    };
    if stale {
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        // A bench runs from `target/release`: build the fake there too.
        let release = path.parent().is_some_and(|p| p.ends_with("release"));
        let status = Command::new(cargo)
            .current_dir(crate::paths::workspace_root())
            .args(["build", "-p", "agterm-backup-testkit", "--bin", name])
            .args(release.then_some("--release"))
            .status()
            .expect("cargo runs");
        assert!(status.success(), "cargo build --bin {name} failed");
    }
    built.push(path.clone());
    path
}

fn newest_mtime(dir: &Path) -> Option<std::time::SystemTime> {
    let mut newest = None;
    for entry in std::fs::read_dir(dir).ok()?.flatten() {
        let path = entry.path();
        let t = if path.is_dir() {
            newest_mtime(&path)
        } else {
            entry.metadata().and_then(|m| m.modified()).ok()
        };
        newest = newest.max(t);
    }
    newest
}
