//! Finding the binaries the tests run: this workspace's own and the real agent CLIs.

use std::path::{Path, PathBuf};

/// The workspace root (where the top-level Cargo.toml is).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .expect("tests/support sits two levels below the workspace root")
        .to_path_buf()
}

/// The `agterm-backup` binary the tests run: `$AGTERM_BACKUP_TEST_BINARY` when set (CI points it at the
/// musl build, `target/x86_64-unknown-linux-musl/release/agterm-backup`, to run the same tests against
/// what Alpine users install), else `built`, the one cargo built beside the test. Use it through
/// [`crate::agterm_backup_bin!`], which passes `built`.
pub fn agterm_backup_binary(built: &'static str) -> &'static str {
    static CHOSEN: std::sync::OnceLock<&'static str> = std::sync::OnceLock::new();
    CHOSEN.get_or_init(|| match std::env::var("AGTERM_BACKUP_TEST_BINARY") {
        Ok(path) if !path.is_empty() => {
            let chosen = Path::new(&path);
            assert!(
                chosen.is_absolute() && chosen.is_file(),
                "AGTERM_BACKUP_TEST_BINARY={path}: not an absolute path to a file (build it first, \
                 e.g. cargo build --release --target x86_64-unknown-linux-musl)"
            );
            Box::leak(path.into_boxed_str())
        }
        _ => built,
    })
}

/// The cargo profile directory the running test was built into (`target/debug`).
pub fn profile_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("current exe");
    // target/debug/deps/<test>-<hash>
    exe.parent()
        .and_then(|deps| deps.parent())
        .expect("test exe lives in <profile>/deps")
        .to_path_buf()
}

/// The folder holding the real agent CLIs (`claude`, `codex`, …): `<tools>/node_modules/.bin`, where
/// `<tools>` is [`agent_clis_home`]. `None` when they are not installed.
pub fn agent_cli_dir() -> Option<PathBuf> {
    let bin = agent_clis_home()?.join("node_modules/.bin");
    (bin.join("claude").exists() && bin.join("codex").exists()).then_some(bin)
}

/// Where `tests/install-deps.sh` installs the agent CLIs: `$AGTERM_BACKUP_AGENT_CLIS`, else
/// `${XDG_CACHE_HOME:-$HOME/.cache}/agterm-backup-tests/agent-clis`: one folder for every checkout, which
/// `cargo clean` leaves alone.
pub fn agent_clis_home() -> Option<PathBuf> {
    let set = |name: &str| {
        std::env::var_os(name)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    if let Some(dir) = set("AGTERM_BACKUP_AGENT_CLIS") {
        return Some(dir);
    }
    let cache = set("XDG_CACHE_HOME").or_else(|| set("HOME").map(|h| h.join(".cache")))?;
    Some(cache.join("agterm-backup-tests/agent-clis"))
}

/// The path of a real agent CLI for a test that needs it (the same as [`agent_cli`], which fails under
/// `CI` itself).
pub fn agent_cli_or_fail_in_ci(name: &str) -> Option<PathBuf> {
    agent_cli(name)
}

/// The starship release whose init scripts `tests/install-deps.sh` unpacks into the tools folder.
pub const STARSHIP: &str = "1.27.0";

/// The folder of starship's own init scripts (`starship.{bash,zsh,fish}`, from its crate on crates.io),
/// as `tests/install-deps.sh` unpacks them into the tools folder; `None` when they are not there.
pub fn starship_init_dir() -> Option<PathBuf> {
    let dir = agent_clis_home()?.join(format!("starship-{STARSHIP}/src/init"));
    dir.join("starship.fish").exists().then_some(dir)
}

/// The older Claude Code release `tests/install-deps.sh` installs beside the pinned one
/// (`<tools>/claude-previous`), for `restart`'s version change. `None` (a SKIPPED line) when absent; a
/// failure under `CI`.
pub fn previous_claude() -> Option<PathBuf> {
    let found = agent_clis_home()
        .map(|d| d.join("claude-previous/node_modules/.bin/claude"))
        .filter(|p| p.exists());
    if found.is_none() {
        let how = "run `tests/install-deps.sh` to run this test";
        assert!(
            std::env::var_os("CI").is_none_or(|v| v.is_empty()),
            "the previous Claude Code release is not installed and CI is set; {how}"
        );
        eprintln!("SKIPPED: the previous Claude Code release is not installed; {how}");
    }
    found
}

/// The path of a real agent CLI, or `None` (with a line on stderr saying how to get it) when absent. With
/// `CI` set an absent CLI fails the test instead: CI installs them (`tests/install-deps.sh`), so a skip
/// there would hide a broken set-up.
pub fn agent_cli(name: &str) -> Option<PathBuf> {
    let found = agent_cli_dir()
        .map(|dir| dir.join(name))
        .filter(|p| p.exists());
    if found.is_none() {
        let how = "run `tests/install-deps.sh` (or set AGTERM_BACKUP_AGENT_CLIS) to run this test";
        assert!(
            std::env::var_os("CI").is_none_or(|v| v.is_empty()),
            "the real `{name}` CLI is not installed and CI is set; {how}"
        );
        eprintln!("SKIPPED: the real `{name}` CLI is not installed; {how}");
    }
    found
}
