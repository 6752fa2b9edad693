//! The README's set-up line on a fresh machine: `~/.cargo/bin` not on `PATH`, a throwaway HOME. cargo is
//! stood in for by a script that installs this build where `cargo install --root` would (building a release
//! in a test is too slow); the line must find the binary there, wherever CARGO_INSTALL_ROOT, CARGO_HOME or
//! HOME put it, and wire the hooks (and the login shell's `init` line) to that path. And the LICENSE the
//! manifests name ships.

use crate::installer_common::*;
use agterm_backup_testkit::paths::workspace_root;
use std::os::unix::fs::PermissionsExt;

fn setup_lines() -> Vec<String> {
    let readme = std::fs::read_to_string(workspace_root().join("README.md")).unwrap();
    let block = readme
        .split("```sh\n")
        .nth(1)
        .expect("README opens with a sh block");
    let lines: Vec<&str> = block.split("\n```").next().unwrap().lines().collect();
    assert_eq!(lines.len(), 2, "exactly two set-up commands: {lines:?}");
    assert!(lines[1].contains("cargo test --workspace"));
    lines.iter().map(|l| l.to_string()).collect()
}

fn setup_line() -> String {
    setup_lines().swap_remove(0)
}

/// A stand-in for rustup's `cargo`: `cargo install` puts this build where the real one would
/// (`--root`, else CARGO_INSTALL_ROOT, else CARGO_HOME, else ~/.cargo), `cargo test` says it ran.
fn fake_cargo() -> String {
    format!(
        "#!/bin/sh\nroot=${{CARGO_INSTALL_ROOT:-${{CARGO_HOME:-$HOME/.cargo}}}}\n\
         [ \"$1\" = install ] || {{ echo \"fake cargo: $*\"; exit 0; }}\n\
         while [ $# -gt 0 ]; do [ \"$1\" = --root ] && root=$2; shift; done\n\
         mkdir -p \"$root/bin\" && cp '{}' \"$root/bin/agterm-backup\"\n",
        binary().display()
    )
}

#[test]
fn the_first_readme_line_works_without_cargo_bin_on_path() {
    let line = setup_line();
    for (var, sub) in [
        (None, ".cargo"),
        (Some("CARGO_HOME"), "cargo-home"),
        (Some("CARGO_INSTALL_ROOT"), "root"),
    ] {
        let s = Sandbox::new();
        // rustup's layout: cargo lives in CARGO_HOME/bin (~/.cargo/bin), and that folder is not on PATH.
        let cargo_home = match var {
            Some("CARGO_HOME") => s.dir.path().join(sub),
            _ => s.home().join(".cargo"),
        };
        std::fs::create_dir_all(cargo_home.join("bin")).unwrap();
        let cargo = cargo_home.join("bin/cargo");
        std::fs::write(&cargo, fake_cargo()).unwrap();
        std::fs::set_permissions(&cargo, std::fs::Permissions::from_mode(0o755)).unwrap();
        let root = match var {
            None => s.home().join(sub),
            Some(_) => s.dir.path().join(sub),
        };
        let mut cmd = std::process::Command::new("sh");
        let envs: Vec<_> = s
            .command("/usr/bin:/bin")
            .get_envs()
            .filter_map(|(k, v)| Some((k.to_owned(), v?.to_owned())))
            .collect();
        // The login shell as login(1) sets it: the line adds our block to its rc file.
        cmd.env_clear()
            .envs(agterm_backup_testkit::hermetic::places())
            .envs(envs)
            .env("SHELL", "/bin/zsh")
            .current_dir(workspace_root());
        if let Some(var) = var {
            cmd.env(var, &root);
        }
        let out = cmd.args(["-c", &line]).output().unwrap();
        assert!(
            out.status.success(),
            "{var:?}: {}{}",
            text(&out.stdout),
            text(&out.stderr)
        );
        let settings = std::fs::read_to_string(s.claude_settings()).unwrap();
        let hook = format!("'{}/bin/agterm-backup' hook claude", root.display());
        assert!(settings.contains(&hook), "{var:?}: {settings}");
        let zshrc = std::fs::read_to_string(s.home().join(".zshrc")).unwrap_or_default();
        let eval = format!(
            "eval \"$('{}/bin/agterm-backup' init zsh)\"",
            root.display()
        );
        assert!(zshrc.contains(&eval), "{var:?}: {zshrc}");
        if var == Some("CARGO_INSTALL_ROOT") {
            // The line puts cargo's folder on PATH, not an install root of the user's own.
            assert!(
                text(&out.stdout).contains("not on PATH"),
                "apply says what to add to PATH: {}",
                text(&out.stdout)
            );
        }
    }
}

#[test]
fn the_second_readme_line_finds_cargo_without_cargo_bin_on_path() {
    let test_line = setup_lines()[1].clone();
    let s = Sandbox::new();
    let bin = s.home().join(".cargo/bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::fs::write(bin.join("cargo"), fake_cargo()).unwrap();
    std::fs::set_permissions(bin.join("cargo"), std::fs::Permissions::from_mode(0o755)).unwrap();
    // Everything but install-deps.sh (which installs packages) runs as the README says.
    let line = test_line.replace("tests/install-deps.sh", "true");
    assert_ne!(line, test_line, "the line runs tests/install-deps.sh");
    let envs: Vec<_> = s
        .command("/usr/bin:/bin")
        .get_envs()
        .filter_map(|(k, v)| Some((k.to_owned(), v?.to_owned())))
        .collect();
    let out = std::process::Command::new("sh")
        .env_clear()
        .envs(agterm_backup_testkit::hermetic::places())
        .envs(envs)
        .args(["-c", &line])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout).trim(),
        "fake cargo: test --workspace --no-fail-fast"
    );
    // CI runs the very same command, on a busy user's machine (tests/busy-machine.sh).
    let ci = std::fs::read_to_string(workspace_root().join(".ci/run")).unwrap();
    let busy = format!("tests/busy-machine.sh '{test_line}'");
    assert!(ci.lines().any(|l| l.starts_with(&busy)), "{ci}");
}

#[test]
fn the_license_the_manifests_name_ships() {
    let manifest = std::fs::read_to_string(workspace_root().join("Cargo.toml")).unwrap();
    assert!(manifest.contains("license = \"MIT\""));
    let license = std::fs::read_to_string(workspace_root().join("LICENSE")).unwrap();
    assert!(license.starts_with("MIT License\n"));
    assert!(license.contains("Copyright (c) 2026 agterm-backup contributors"));
}
