//! agterm on Linux (issue 22, item 4): with no `$AGTERM_SOCKET` or `$AGTERM_STATE_DIR`, the binary finds
//! the Linux ports' agterm where they put it (`$XDG_DATA_HOME/agterm/agterm.sock`, else
//! `~/.local/share/agterm/agterm.sock`), and `installer apply` writes the denylist block where they read
//! it (`~/.config/agterm/restore-denylist.conf`), so their Re-run launch leaves `claude` a plain shell.
//! The fake agterm plays the Linux port ([`FakeConfig::linux_paths`]).

use agterm_backup_core::pane::PaneRole;
use agterm_backup_core::terminal::RestoreMode;
use agterm_backup_testkit::fake_agterm::{FakeAgterm, FakeConfig, RestartKind};
use serde_json::Value;
use std::path::Path;
use std::process::{Command, Output};
use std::time::Duration;

const WAIT: Duration = Duration::from_secs(20);

/// The binary with only what a user's login has: `HOME` (and `XDG_DATA_HOME` when given), no agterm
/// variable.
fn ours(home: &Path, xdg_data: Option<&Path>, args: &[&str]) -> Output {
    let mut cmd = Command::new(agterm_backup_testkit::agterm_backup_bin!());
    cmd.env_clear()
        .envs(agterm_backup_testkit::hermetic::places())
        .env("HOME", home)
        .env("PATH", "/usr/bin:/bin")
        .args(args);
    if let Some(data) = xdg_data {
        cmd.env("XDG_DATA_HOME", data);
    }
    cmd.output().expect("agterm-backup runs")
}

#[test]
fn the_linux_ports_socket_and_denylist_are_found_from_home_alone() {
    for with_xdg in [false, true] {
        let scratch = agterm_backup_testkit::scratch::tempdir();
        let home = scratch.path().join("home");
        let data = scratch.path().join("data");
        std::fs::create_dir_all(&home).unwrap();
        let xdg = with_xdg.then_some(data.as_path());
        let mut config = FakeConfig::new("0.34", RestoreMode::Rerun)
            .env("HOME", home.to_str().unwrap())
            .linux_paths();
        if let Some(d) = xdg {
            config = config.env("XDG_DATA_HOME", d.to_str().unwrap());
        }
        let mut fake = FakeAgterm::start(config);
        let expected_socket = match xdg {
            Some(d) => d.join("agterm/agterm.sock"),
            None => home.join(".local/share/agterm/agterm.sock"),
        };
        assert_eq!(fake.socket(), expected_socket);

        // `status` reaches it with no agterm variable.
        let status = ours(&home, xdg, &["status", "--json"]);
        let json: Value = serde_json::from_slice(&status.stdout).unwrap_or_else(|e| {
            panic!(
                "status --json: {e}\n{}",
                String::from_utf8_lossy(&status.stderr)
            )
        });
        let agterm = json["terminals"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["terminal"] == "agterm")
            .cloned()
            .unwrap_or_default();
        assert_eq!(agterm["version"], "0.34.0", "xdg {with_xdg}: {json}");
        assert!(agterm["error"].is_null(), "xdg {with_xdg}: {json}");

        // `installer apply` adds claude to the denylist the port reads.
        let apply = ours(
            &home,
            xdg,
            &[
                "installer",
                "apply",
                "--agents",
                "claude",
                "--no-tmux",
                "--no-shell",
            ],
        );
        assert!(
            apply.status.success(),
            "{}",
            String::from_utf8_lossy(&apply.stderr)
        );
        let denylist = std::fs::read_to_string(home.join(".config/agterm/restore-denylist.conf"))
            .expect("the denylist where the Linux port reads it");
        assert!(denylist.lines().any(|l| l.trim() == "claude"), "{denylist}");
        assert_eq!(
            fake.denylist_path(),
            home.join(".config/agterm/restore-denylist.conf")
        );

        // A Re-run launch of the port then gives the pane that ran `claude` a plain shell.
        let bin = scratch.path().join("bin");
        std::fs::create_dir_all(&bin).unwrap();
        std::os::unix::fs::symlink("/bin/sleep", bin.join("claude")).unwrap();
        let project = scratch.path().join("project");
        std::fs::create_dir_all(&project).unwrap();
        let s = fake.add_session(None, None, &project, false);
        let claude = bin.join("claude").display().to_string();
        fake.type_line(&s.id, PaneRole::Left, &format!("'{claude}' 300"));
        fake.wait_for_foreground(&s.id, PaneRole::Left, WAIT, |fg| {
            fg.as_ref().is_some_and(|argv| argv[0] == claude)
        });
        fake.restart(RestartKind::CleanQuit);
        assert_eq!(
            fake.launch_actions(&s.id),
            vec![(PaneRole::Left, "denied".to_string())],
            "xdg {with_xdg}"
        );
    }
}
