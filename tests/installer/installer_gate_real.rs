//! The gate against the real CLIs (a SKIPPED line when they are not installed; a failure under CI): the
//! key the gate reads is the one the CLI itself honours (Codex's app-server lists no hook of ours with
//! `[features] hooks = false`), or writes (`copilot config [--repo|--local] disableAllHooks …`).

use crate::installer_common::*;
use agterm_backup_installer::gate::{self, Facts, Os, Place, WayOut};
use agterm_backup_installer::paths::Lookup;
use agterm_backup_installer::trust::list_hooks;
use agterm_backup_testkit::paths::agent_cli;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// The sandbox's environment over the real file system.
struct SandboxLookup(Vec<(&'static str, String)>);

impl Lookup for SandboxLookup {
    fn env(&self, key: &str) -> Option<String> {
        self.0
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, v)| v.clone())
    }
    fn read(&self, path: &Path) -> Option<String> {
        std::fs::read_to_string(path).ok()
    }
    fn exists(&self, path: &Path) -> bool {
        path.exists()
    }
}

fn check(
    lookup: &SandboxLookup,
    s: &Sandbox,
    agent: &str,
    project: Option<PathBuf>,
) -> Option<gate::Off> {
    let place = Place {
        lookup,
        root: s.system_root(),
        os: Os::Linux,
        project,
        user: None,
    };
    gate::check(agent, &place, &Facts::default())
}

#[test]
fn real_codex_runs_no_hook_of_ours_where_the_gate_says_features_hooks_is_off() {
    let Some(codex) = agent_cli("codex") else {
        return;
    };
    let s = Sandbox::new();
    let out = s.run(&["installer", "apply", "--agents", "codex", "--no-denylist"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let env = vec![
        (
            "CODEX_HOME".to_string(),
            s.codex_home().display().to_string(),
        ),
        ("HOME".to_string(), s.home().display().to_string()),
    ];
    let lookup = SandboxLookup(vec![
        ("HOME", s.home().display().to_string()),
        ("CODEX_HOME", s.codex_home().display().to_string()),
    ]);
    let listed = |s: &Sandbox| {
        let v =
            list_hooks(&codex, s.dir.path(), &env, Duration::from_secs(60)).expect("app-server");
        our_listed_hooks(&v).len()
    };
    assert_eq!(listed(&s), agterm_backup_installer::OUR_EVENTS.len());
    assert_eq!(check(&lookup, &s, "codex", None), None);

    let applied = std::fs::read_to_string(s.codex_config()).unwrap();
    std::fs::write(
        s.codex_config(),
        format!("[features]\nhooks = false\n\n{applied}"),
    )
    .unwrap();
    assert_eq!(listed(&s), 0, "Codex loads no hook with the feature off");
    let off = check(&lookup, &s, "codex", None).expect("the gate sees it too");
    assert_eq!(off.file, s.codex_config().display().to_string());
    assert_eq!(off.key, "features.hooks");
    assert_eq!(off.way_out, WayOut::RemoveKey);
}

#[test]
fn real_copilot_config_writes_the_key_where_the_gate_reads_it() {
    let Some(copilot) = agent_cli("copilot") else {
        return;
    };
    let s = Sandbox::new();
    let repo = s.dir.path().join("repo");
    std::fs::create_dir_all(repo.join(".git")).unwrap();
    let deep = repo.join("src/app");
    std::fs::create_dir_all(&deep).unwrap();
    let copilot_home = s.home().join(".copilot");
    let config = |args: &[&str]| {
        let out = Command::new(&copilot)
            .arg("config")
            .args(args)
            .env_clear()
            .env("HOME", s.home())
            .env("PATH", "/usr/bin:/bin")
            .current_dir(&repo)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "copilot config {args:?}: {}",
            text(&out.stderr)
        );
    };
    let lookup = SandboxLookup(vec![("HOME", s.home().display().to_string())]);

    config(&["disableAllHooks", "true"]);
    let off = check(&lookup, &s, "copilot", None).expect("the user's switch");
    assert_eq!(
        off.file,
        copilot_home.join("settings.json").display().to_string()
    );
    assert_eq!(off.key, "disableAllHooks");

    config(&["disableAllHooks", "false"]);
    config(&["--repo", "disableAllHooks", "true"]);
    assert_eq!(
        check(&lookup, &s, "copilot", None),
        None,
        "the user-wide answer reads no repository"
    );
    let off = check(&lookup, &s, "copilot", Some(deep.clone())).expect("the repository's switch");
    let repo_file = repo.join(".github/copilot/settings.json");
    assert_eq!(off.file, repo_file.display().to_string());
    assert!(off.project_only);

    config(&["--local", "disableAllHooks", "false"]);
    assert_eq!(check(&lookup, &s, "copilot", Some(deep)), None);
}
