//! The README's set-up line on a fresh machine: `~/.cargo/bin` not on `PATH`, a throwaway HOME. cargo is
//! stood in for by a script that installs this build where `cargo install --root` would (building a release
//! in a test is too slow); the line must find the binary there, wherever CARGO_INSTALL_ROOT, CARGO_HOME or
//! HOME put it, and wire the hooks to that path. And the LICENSE the manifests name ships.

mod installer_common;

use agterm_backup_testkit::paths::workspace_root;
use installer_common::*;
use std::os::unix::fs::PermissionsExt;

fn setup_line() -> String {
    let readme = std::fs::read_to_string(workspace_root().join("README.md")).unwrap();
    let block = readme
        .split("```sh\n")
        .nth(1)
        .expect("README opens with a sh block");
    let lines: Vec<&str> = block.split("\n```").next().unwrap().lines().collect();
    assert_eq!(lines.len(), 2, "exactly two set-up commands: {lines:?}");
    assert!(lines[1].contains("cargo test --workspace"));
    lines[0].to_string()
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
        let fake = s.dir.path().join("fake-bin");
        std::fs::create_dir_all(&fake).unwrap();
        let cargo = fake.join("cargo");
        std::fs::write(
            &cargo,
            format!(
                "#!/bin/sh\n# cargo install … --root R: put the binary in R/bin\nwhile [ $# -gt 0 ]; do [ \"$1\" = --root ] && root=$2; shift; done\nmkdir -p \"$root/bin\" && cp '{}' \"$root/bin/agterm-backup\"\n",
                binary().display()
            ),
        )
        .unwrap();
        std::fs::set_permissions(&cargo, std::fs::Permissions::from_mode(0o755)).unwrap();
        let root = match var {
            None => s.home().join(sub),
            Some(_) => s.dir.path().join(sub),
        };
        let mut cmd = std::process::Command::new("sh");
        let envs: Vec<_> = s
            .command(&format!("{}:/usr/bin:/bin", fake.display()))
            .get_envs()
            .filter_map(|(k, v)| Some((k.to_owned(), v?.to_owned())))
            .collect();
        cmd.env_clear().envs(envs).current_dir(workspace_root());
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
        assert!(
            text(&out.stdout).contains("not on PATH"),
            "apply says what to add to PATH: {}",
            text(&out.stdout)
        );
    }
}

#[test]
fn the_license_the_manifests_name_ships() {
    let manifest = std::fs::read_to_string(workspace_root().join("Cargo.toml")).unwrap();
    assert!(manifest.contains("license = \"MIT\""));
    let license = std::fs::read_to_string(workspace_root().join("LICENSE")).unwrap();
    assert!(license.starts_with("MIT License\n"));
    assert!(license.contains("Copyright (c) 2026 agterm-backup contributors"));
}
