//! The test binaries' sandbox (`agterm_backup_testkit::hermetic`): what a test spawns, with the test's
//! environment or a cleared one, finds the sandbox's HOME, XDG folders, tmux and zmx default folders and
//! TMPDIR, never the machine's, so a user's tmux server, `/tmp/zmx-$UID`, agterm and `~/.claude` are
//! out of a test's reach on a busy machine.

use agterm_backup_testkit::hermetic::{machine_home, places, sandbox};
use std::path::{Path, PathBuf};
use std::process::Command;

/// HOME, TMUX_TMPDIR, TMPDIR, then what must be unset: the XDG folders (they follow HOME), a tmux
/// server, a zmx folder, agterm's socket.
const PROBE: &str = r#"printf '%s\n' "$HOME" "$TMUX_TMPDIR" "$TMPDIR" "${XDG_CONFIG_HOME-unset}" "${XDG_DATA_HOME-unset}" "${XDG_RUNTIME_DIR-unset}" "${TMUX-unset}" "${ZMX_DIR-unset}" "${AGTERM_SOCKET-unset}""#;

fn lines(cmd: &mut Command) -> Vec<String> {
    let out = cmd.output().expect("sh runs");
    assert!(out.status.success(), "{out:?}");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(String::from)
        .collect()
}

fn assert_not_the_machines(seen: &Path) {
    if let Some(home) = machine_home() {
        assert!(
            !seen.starts_with(&home),
            "a spawned process sees the machine's HOME {}: {}",
            home.display(),
            seen.display()
        );
    }
}

#[test]
fn a_child_with_the_tests_environment_sees_only_the_sandbox() {
    let seen = lines(Command::new("sh").args(["-c", PROBE]));
    let root = sandbox();
    for place in &seen[..3] {
        let place = PathBuf::from(place);
        assert!(
            place.starts_with(&root),
            "{} outside {}",
            place.display(),
            root.display()
        );
        assert_not_the_machines(&place);
    }
    assert!(seen[3..].iter().all(|v| v == "unset"), "{seen:?}");
    // The tools stay the machine's, read-only: the agent CLIs' folder is named outright.
    let tools = std::env::var_os("AGTERM_BACKUP_AGENT_CLIS").map(PathBuf::from);
    assert!(tools.is_some_and(|t| !t.starts_with(&root)));
}

#[test]
fn a_child_with_a_cleared_environment_gets_tmux_and_zmx_defaults_in_the_sandbox() {
    let home = agterm_backup_testkit::scratch::tempdir();
    let seen = lines(
        Command::new("sh")
            .args(["-c", PROBE])
            .env_clear()
            .envs(places())
            .env("HOME", home.path()),
    );
    assert_eq!(seen[0], home.path().display().to_string());
    for place in &seen[1..3] {
        assert!(Path::new(place).starts_with(sandbox()), "{place}");
    }
}

#[test]
fn a_tmux_server_without_a_socket_named_starts_in_the_sandbox() {
    // `tmux` with no `-S`/`-L`: the default socket, which on a user's machine is their own server's.
    let tmux = |args: &[&str]| {
        Command::new("tmux")
            .args(["-f", "/dev/null"])
            .args(args)
            .env_remove("TMUX")
            .output()
            .expect("tmux runs (install it: apt-get install tmux)")
    };
    let name = format!("hermetic-{}", std::process::id());
    let started = tmux(&["new-session", "-d", "-s", &name, "sleep 600"]);
    assert!(started.status.success(), "{started:?}");
    let socket = tmux(&["display-message", "-p", "-t", &name, "#{socket_path}"]);
    let _ = tmux(&["kill-session", "-t", &name]);
    let socket = PathBuf::from(String::from_utf8_lossy(&socket.stdout).trim());
    assert!(socket.starts_with(sandbox()), "{}", socket.display());
}

/// Every `.rs` file under `dir`.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn every_cleared_environment_in_the_tests_starts_from_the_sandboxs_places() {
    // A spawn that clears its environment loses the sandbox: without `places()` its tmux, zmx and
    // TMPDIR fall back to the machine's `/tmp/tmux-$UID/default` and `/tmp/zmx-$UID`.
    let tests = agterm_backup_testkit::paths::workspace_root().join("tests");
    let mut files = Vec::new();
    rust_files(&tests, &mut files);
    let mut bare = Vec::new();
    // This file names the pattern in its own checks.
    for file in files
        .into_iter()
        .filter(|f| !f.ends_with("testkit/hermetic.rs"))
    {
        let text = std::fs::read_to_string(&file).unwrap();
        for (at, _) in text.match_indices(".env_clear()") {
            let next: String = text[at + ".env_clear()".len()..]
                .chars()
                .filter(|c| !c.is_whitespace())
                .take(60)
                .collect();
            let from_places = [
                ".envs(agterm_backup_testkit::hermetic::places())",
                ".envs(crate::hermetic::places())",
                ".envs(places())",
            ];
            if !from_places.iter().any(|p| next.starts_with(p)) {
                let line = text[..at].lines().count();
                bare.push(format!("{}:{line}", file.display()));
            }
        }
    }
    assert!(
        bare.is_empty(),
        "env_clear() without .envs(…hermetic::places()) right after: {bare:#?}"
    );
}

#[test]
fn every_test_binary_enters_the_sandbox() {
    // A test binary is an area's `main.rs` (tests/<area>/, tests/support/tests/<area>/), a lone file of
    // tests/support/tests/, or a library's unit tests that can reach the test kit.
    let root = agterm_backup_testkit::paths::workspace_root();
    let mut binaries = vec![
        root.join("src/lib.rs"),
        root.join("tests/support/src/lib.rs"),
    ];
    for dir in [root.join("tests"), root.join("tests/support/tests")] {
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let path = entry.path();
            if path.join("main.rs").is_file() {
                binaries.push(path.join("main.rs"));
            } else if dir.ends_with("support/tests") && path.extension().is_some_and(|e| e == "rs")
            {
                binaries.push(path);
            }
        }
    }
    assert!(binaries.len() >= 9, "{binaries:#?}");
    let outside: Vec<_> = binaries
        .iter()
        .filter(|b| {
            !std::fs::read_to_string(b)
                .unwrap()
                .contains("hermetic_test_binary!();")
        })
        .collect();
    assert!(
        outside.is_empty(),
        "test binaries without a sandbox: {outside:#?}"
    );
}
