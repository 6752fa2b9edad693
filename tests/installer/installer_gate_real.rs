//! The gate against the real CLIs (a SKIPPED line when they are not installed; a failure under CI): the
//! key the gate reads is the one the CLI itself honours (Codex's app-server lists no hook of ours with
//! `[features] hooks = false`), or writes (`copilot config --repo|--local disableAllHooks …`).

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
    fn list(&self, dir: &Path) -> Vec<String> {
        agterm_backup_installer::paths::Process.list(dir)
    }
    fn only_root_writes(&self, path: &Path) -> bool {
        agterm_backup_installer::paths::Process.only_root_writes(path)
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
fn real_copilot_config_writes_the_repositorys_key_where_the_gate_reads_it() {
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
            .envs(agterm_backup_testkit::hermetic::places())
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

    // The user's own key is written but does not stop Copilot's hooks (installer_gate_real_more.rs runs
    // them): the gate does not read it.
    config(&["disableAllHooks", "true"]);
    assert!(copilot_home.join("settings.json").exists());
    assert_eq!(check(&lookup, &s, "copilot", Some(deep.clone())), None);
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

/// What the real Claude Code does (our hook logged, or not, in a `claude -p` turn against the stub model)
/// and what the gate says, for each layer: a project's and its local file over the user's, and a managed
/// document. The managed one goes in through `--managed-settings` (the policy tier an SDK host passes,
/// weighed as the managed file is) so the test never writes the machine's `/etc/claude-code`; the gate
/// reads the same document as the managed file below the sandbox's root.
#[test]
fn real_claude_runs_our_hook_exactly_where_the_gate_says_it_does() {
    let Some(claude) = agent_cli("claude") else {
        return;
    };
    let stub = agterm_backup_testkit::stub_model::StubModel::start().expect("stub model starts");
    type Case = (
        &'static str,
        &'static str,
        &'static str,
        &'static str,
        Option<&'static str>,
    );
    // (user settings extra, project settings, local settings, managed document, the gate's key)
    let cases: [Case; 8] = [
        ("", "", "", "", None),
        (
            "",
            "",
            "{\"disableAllHooks\": true}",
            "",
            Some("disableAllHooks"),
        ),
        (
            "\"disableAllHooks\": true,",
            "{\"disableAllHooks\": false}",
            "",
            "",
            None,
        ),
        (
            "",
            "{\"disableAllHooks\": true}",
            "{\"disableAllHooks\": false}",
            "",
            None,
        ),
        (
            "",
            "",
            "",
            "{\"disableAllHooks\": true}",
            Some("disableAllHooks"),
        ),
        (
            "",
            "",
            "",
            "{\"allowManagedHooksOnly\": true}",
            Some("allowManagedHooksOnly"),
        ),
        (
            "",
            "",
            "",
            "{\"strictPluginOnlyCustomization\": [\"hooks\"]}",
            Some("strictPluginOnlyCustomization"),
        ),
        (
            "",
            "",
            "",
            "{\"strictPluginOnlyCustomization\": [\"skills\"]}",
            None,
        ),
    ];
    for (user_extra, project, local, managed, want) in cases {
        let s = Sandbox::new();
        let log = logged_hook(&s);
        if !user_extra.is_empty() {
            let settings = std::fs::read_to_string(s.claude_settings()).unwrap();
            std::fs::write(
                s.claude_settings(),
                settings.replacen('{', &format!("{{{user_extra}"), 1),
            )
            .unwrap();
        }
        let work = s.dir.path().join("work");
        for (name, text) in [("settings.json", project), ("settings.local.json", local)] {
            if !text.is_empty() {
                std::fs::create_dir_all(work.join(".claude")).unwrap();
                std::fs::write(work.join(".claude").join(name), text).unwrap();
            }
        }
        let mut cmd = claude_command(&claude, &s, &stub.base_url());
        if !managed.is_empty() {
            cmd.args(["--managed-settings", managed]);
            let file = s
                .system_root()
                .join("etc/claude-code/managed-settings.json");
            std::fs::create_dir_all(file.parent().unwrap()).unwrap();
            std::fs::write(&file, managed).unwrap();
        }
        let out = cmd.output().unwrap();
        let case =
            format!("user+{user_extra:?} project {project:?} local {local:?} managed {managed:?}");
        assert!(
            out.status.success(),
            "{case}: {}{}",
            text(&out.stdout),
            text(&out.stderr)
        );
        let ran = std::fs::read_to_string(&log)
            .unwrap_or_default()
            .lines()
            .any(|l| l == "hook claude");
        let lookup = SandboxLookup(vec![
            ("HOME", s.home().display().to_string()),
            ("CLAUDE_CONFIG_DIR", s.claude_dir().display().to_string()),
        ]);
        let gate = check(&lookup, &s, "claude", Some(work.clone()));
        assert_eq!(
            gate.as_ref().map(|o| o.key.as_str()),
            want,
            "{case}: the gate said {gate:?}"
        );
        assert_eq!(
            ran,
            want.is_none(),
            "{case}: Claude Code ran our hook: {ran}"
        );
    }
}

/// Claude Code's launch flags that leave out the user's hooks: the real CLI runs none of ours with them,
/// and the gate names them.
#[test]
fn real_claude_runs_no_hook_of_ours_with_the_launch_flags_the_gate_names() {
    let Some(claude) = agent_cli("claude") else {
        return;
    };
    let stub = agterm_backup_testkit::stub_model::StubModel::start().expect("stub model starts");
    for flag in ["", "--bare", "--safe-mode"] {
        let s = Sandbox::new();
        let log = logged_hook(&s);
        let mut cmd = claude_command(&claude, &s, &stub.base_url());
        if !flag.is_empty() {
            cmd.arg(flag);
        }
        let out = cmd.output().unwrap();
        assert!(
            out.status.success(),
            "{flag}: {}{}",
            text(&out.stdout),
            text(&out.stderr)
        );
        let ran = std::fs::read_to_string(&log)
            .unwrap_or_default()
            .lines()
            .any(|l| l == "hook claude");
        let argv: Vec<String> = ["claude", "-p", "hi", flag]
            .iter()
            .map(|a| a.to_string())
            .collect();
        let why = gate::launched_without_hooks("claude", &argv);
        assert_eq!(
            ran,
            why.is_none(),
            "{flag:?}: ran {ran}, the gate said {why:?}"
        );
    }
}

/// `installer apply --agents claude` from a copy of the binary that logs each run of the hook; the log.
fn logged_hook(s: &Sandbox) -> PathBuf {
    let bin_dir = s.dir.path().join("bin");
    std::fs::create_dir_all(&bin_dir).unwrap();
    let copy = bin_dir.join("agterm-backup");
    std::fs::copy(binary(), &copy).unwrap();
    std::fs::create_dir_all(s.claude_dir()).unwrap();
    std::fs::write(s.claude_settings(), "{\"feedbackSurveyRate\": 0}\n").unwrap();
    let out = agterm_backup_testkit::fds::output_past_busy_text(
        Command::new(&copy)
            .env_clear()
            .envs(agterm_backup_testkit::hermetic::places())
            .envs(
                s.command("/usr/bin:/bin")
                    .get_envs()
                    .filter_map(|(k, v)| Some((k.to_owned(), v?.to_owned()))),
            )
            .args([
                "installer",
                "apply",
                "--agents",
                "claude",
                "--no-denylist",
                "--no-tmux",
                "--no-shell",
            ]),
    )
    .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let log = s.dir.path().join("hook-calls.log");
    let real = bin_dir.join("agterm-backup.real");
    std::fs::rename(&copy, &real).unwrap();
    std::fs::write(
        &copy,
        format!(
            "#!/bin/sh\nprintf '%s\\n' \"$*\" >> '{}'\nexec '{}' \"$@\"\n",
            log.display(),
            real.display()
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&copy, std::fs::Permissions::from_mode(0o755)).unwrap();
    log
}
