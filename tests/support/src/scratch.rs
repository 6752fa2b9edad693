//! Where the tests write, and how what they start ends: every temp folder of a test run is made under one
//! folder of this checkout (`/tmp/agb-<hash of the checkout's path>`), and a [`ScratchDir`] kills every
//! process that still names its folder (a tmux server by its `-S` socket, an agent by its `HOME`, a
//! daemon by its working folder, a detached Codex app server by its `CODEX_HOME`) before removing it, on
//! success, failure and panic alike. The last test of the run ([`leftovers`]) then finds nothing there.
//!
//! Killing by "names the folder" rather than by the pids a rig remembers catches what a rig cannot see:
//! processes an agent double-forks into the background, a pane's children after tmux is gone.

use std::path::{Path, PathBuf};

/// The folder every test of this checkout makes its temp folders in: short (tmux and agterm sockets live
/// under it, and `sun_path` holds ~104 bytes) and per checkout, so two checkouts running their suites at
/// once see only their own leftovers.
pub fn suite_root() -> PathBuf {
    let checkout = crate::paths::workspace_root();
    // FNV-1a: stable across runs and Rust versions (std's hasher is neither promised).
    let hash = checkout
        .display()
        .to_string()
        .bytes()
        .fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
        });
    let root = PathBuf::from(format!("/tmp/agb-{:08x}", hash as u32));
    std::fs::create_dir_all(&root)
        .unwrap_or_else(|e| panic!("create the suite folder {}: {e}", root.display()));
    root
}

/// A temp folder under [`suite_root`]. Dropping it kills every process that still names it, then removes
/// it.
pub struct ScratchDir {
    dir: Option<tempfile::TempDir>,
}

/// A new [`ScratchDir`] (`t` + random letters).
pub fn tempdir() -> ScratchDir {
    tempdir_named("t")
}

/// A new [`ScratchDir`] whose name starts with `prefix`.
pub fn tempdir_named(prefix: &str) -> ScratchDir {
    let dir = tempfile::Builder::new()
        .prefix(prefix)
        .tempdir_in(suite_root())
        .unwrap_or_else(|e| panic!("a temp folder under {}: {e}", suite_root().display()));
    ScratchDir { dir: Some(dir) }
}

impl ScratchDir {
    pub fn path(&self) -> &Path {
        self.dir.as_ref().expect("present until drop").path()
    }

    /// Kills what names the folder and removes it now (`drop` does the same).
    pub fn close(mut self) {
        self.clean_up();
    }

    fn clean_up(&mut self) {
        if let Some(dir) = self.dir.take() {
            kill_processes_naming(dir.path());
            // A process killed a moment ago may still be writing (a log line, a socket's unlink).
            for _ in 0..3 {
                if std::fs::remove_dir_all(dir.path()).is_ok() || !dir.path().exists() {
                    break;
                }
            }
            drop(dir);
        }
    }
}

impl AsRef<Path> for ScratchDir {
    fn as_ref(&self) -> &Path {
        self.path()
    }
}

impl Drop for ScratchDir {
    fn drop(&mut self) {
        self.clean_up();
    }
}

/// Kills (SIGKILL) every process other than this one that names `dir` in its command line, working folder
/// or environment, until none is left (a dying tmux server's panes are found on the next pass).
pub fn kill_processes_naming(dir: &Path) {
    for _ in 0..20 {
        let found = processes_naming(dir);
        if found.is_empty() {
            return;
        }
        for (pid, _) in &found {
            // SAFETY: kill(2) on a pid we just read; a pid that ended since is ESRCH, which is fine.
            unsafe { libc::kill(*pid as libc::pid_t, libc::SIGKILL) };
        }
        // Never a panic here (this runs in drop, maybe while unwinding): a process that will not end is
        // reported by the next pass or by the run's last test.
        let until = std::time::Instant::now() + std::time::Duration::from_secs(10);
        while found.iter().any(|(pid, _)| crate::pids::is_running(*pid))
            && std::time::Instant::now() < until
        {
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
    }
}

/// Every live process other than this one (pid, command line) that names `dir` in its command line,
/// working folder or environment.
pub fn processes_naming(dir: &Path) -> Vec<(u32, String)> {
    let needle = dir.display().to_string();
    let me = std::process::id();
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    let mut found = Vec::new();
    for entry in entries.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|n| n.parse::<u32>().ok())
        else {
            continue;
        };
        if pid == me || !crate::pids::is_running(pid) {
            continue;
        }
        let proc_dir = entry.path();
        let read = |name: &str| {
            std::fs::read(proc_dir.join(name))
                .map(|b| String::from_utf8_lossy(&b).replace('\0', " "))
                .unwrap_or_default()
        };
        let cmdline = read("cmdline");
        let cwd = std::fs::read_link(proc_dir.join("cwd"))
            .map(|p| p.display().to_string())
            .unwrap_or_default();
        if cmdline.contains(&needle)
            || cwd.starts_with(&needle)
            || read("environ").contains(&needle)
        {
            found.push((pid, cmdline));
        }
    }
    found
}

/// What a test run left behind: processes that name [`suite_root`] (a test binary's sandbox beside it
/// included), entries in it, and the sandboxes of test binaries that have ended.
#[derive(Debug, Default)]
pub struct Leftovers {
    pub processes: Vec<(u32, String)>,
    pub entries: Vec<PathBuf>,
}

impl Leftovers {
    pub fn is_empty(&self) -> bool {
        self.processes.is_empty() && self.entries.is_empty()
    }
}

/// The run's [`Leftovers`] now.
pub fn leftovers() -> Leftovers {
    let root = suite_root();
    let mut entries: Vec<PathBuf> = std::fs::read_dir(&root)
        .map(|it| it.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    entries.extend(orphaned_sandboxes());
    entries.sort();
    Leftovers {
        processes: processes_naming(&root),
        entries,
    }
}

/// The sandbox folder of the test process `pid` (`hermetic`'s, beside the suite's folder).
pub fn sandbox_of(pid: u32) -> PathBuf {
    PathBuf::from(format!("{}-env-{pid}", suite_root().display()))
}

/// Every sandbox folder of a test process of this checkout that no longer runs.
pub fn orphaned_sandboxes() -> Vec<PathBuf> {
    let root = suite_root();
    let (Some(parent), Some(name)) = (root.parent(), root.file_name()) else {
        return Vec::new();
    };
    let prefix = format!("{}-env-", name.to_string_lossy());
    let Ok(entries) = std::fs::read_dir(parent) else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter_map(|e| {
            let pid: u32 = e
                .file_name()
                .to_str()?
                .strip_prefix(&prefix)?
                .parse()
                .ok()?;
            (pid != std::process::id() && !crate::pids::is_running(pid)).then(|| e.path())
        })
        .collect()
}
