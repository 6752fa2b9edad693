//! Gemini CLI, Qwen Code and Copilot CLI run our hook (a headless turn against the stub model; a wrapper
//! logs each run) exactly where the gate says they do: the user's file, a project's (a trusted folder; a
//! repository's root for Copilot), and the machine's system settings (Gemini's and Qwen's, moved into the
//! sandbox by their own `…_SYSTEM_SETTINGS_PATH` variables). A SKIPPED line when a CLI is not installed.

use crate::installer_common::*;
use agterm_backup_installer::gate::{self, Facts, Os, Place};
use agterm_backup_installer::paths::Lookup;
use agterm_backup_testkit::agents::{run_cli, AgentHome};
use agterm_backup_testkit::paths::agent_cli;
use agterm_backup_testkit::stub_model::StubModel;
use std::path::{Path, PathBuf};

struct EnvLookup(Vec<(String, String)>);

impl Lookup for EnvLookup {
    fn env(&self, key: &str) -> Option<String> {
        self.0
            .iter()
            .find(|(k, _)| k == key)
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

/// (file below the home or the work folder or the system folder, JSON to put in front of its keys)
type Case<'a> = &'a [(&'a str, &'a str)];

/// One world: an agent home seeded for the three CLIs, our hook applied through a logging wrapper.
struct World {
    s: Sandbox,
    home: PathBuf,
    work: PathBuf,
    log: PathBuf,
    env: Vec<(String, String)>,
}

fn world(stub: &StubModel) -> World {
    let s = Sandbox::new();
    let work = s.dir.path().join("repo/work");
    std::fs::create_dir_all(s.dir.path().join("repo/.git")).unwrap();
    std::fs::create_dir_all(&work).unwrap();
    let agents = AgentHome::new(s.dir.path(), &[&work]);
    agents.seed_more_agents(&[&work, &s.dir.path().join("repo")], None);
    let home = agents.home.clone();
    let bin_dir = s.dir.path().join("bin");
    std::fs::create_dir_all(&bin_dir).unwrap();
    let copy = bin_dir.join("agterm-backup");
    std::fs::copy(binary(), &copy).unwrap();
    let out = agterm_backup_testkit::fds::output_past_busy_text(
        std::process::Command::new(&copy)
            .env_clear()
            .envs(agterm_backup_testkit::hermetic::places())
            .env("HOME", &home)
            .env("PATH", "/usr/bin:/bin")
            .env("AGTERM_BACKUP_HOME", s.backup_home())
            .env("AGTERM_BACKUP_SYSTEM_ROOT", s.system_root())
            .args(["installer", "apply", "--agents", "gemini,qwen,copilot"])
            .args(["--no-denylist", "--no-tmux", "--no-shell"]),
    )
    .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let log = s.dir.path().join("hook-calls.log");
    let real = bin_dir.join("agterm-backup.real");
    std::fs::rename(&copy, &real).unwrap();
    let wrapper = format!(
        "#!/bin/sh\nprintf '%s\\n' \"$*\" >> '{}'\nexec '{}' \"$@\"\n",
        log.display(),
        real.display()
    );
    std::fs::write(&copy, wrapper).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&copy, std::fs::Permissions::from_mode(0o755)).unwrap();
    let clis = agent_cli("node").and_then(|n| n.parent().map(Path::to_path_buf));
    let path = format!("{}:/usr/bin:/bin", clis.unwrap().display());
    let system = s.system_root();
    let mut env = agents.more_agents_env(stub);
    env.extend([
        ("HOME".to_string(), home.display().to_string()),
        ("PATH".to_string(), path),
        (
            "AGTERM_BACKUP_HOME".to_string(),
            s.backup_home().display().to_string(),
        ),
        (
            "GEMINI_CLI_SYSTEM_SETTINGS_PATH".to_string(),
            system.join("gemini/settings.json").display().to_string(),
        ),
        (
            "QWEN_CODE_SYSTEM_SETTINGS_PATH".to_string(),
            system.join("qwen/settings.json").display().to_string(),
        ),
    ]);
    World {
        s,
        home,
        work,
        log,
        env,
    }
}

/// Puts `keys` (JSON members) first in the object of `path`, creating it when absent.
fn add_keys(path: &Path, keys: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let text = std::fs::read_to_string(path).unwrap_or_else(|_| "{}".into());
    let at = text.find('{').expect("an object");
    let rest = text[at + 1..].trim_start();
    let sep = if rest.starts_with('}') { "" } else { "," };
    let edited = format!("{}{{{keys}{sep}{}", &text[..at], &text[at + 1..]);
    std::fs::write(path, edited).unwrap();
}

fn run_case(stub: &StubModel, agent: &str, cli: &Path, case: Case<'_>) {
    let w = world(stub);
    for (file, keys) in case {
        let path = match file.split_once(':') {
            Some(("home", rest)) => w.home.join(rest),
            Some(("work", rest)) => w.work.join(rest),
            Some(("repo", rest)) => w.work.parent().unwrap().join(rest),
            Some(("system", rest)) => w.s.system_root().join(rest),
            _ => panic!("{file}"),
        };
        add_keys(&path, keys);
    }
    let prompt = format!("gate {agent}");
    let args: Vec<&str> = match agent {
        "copilot" => vec!["-p", &prompt, "--allow-all-tools"],
        "gemini" => vec!["-p", &prompt],
        _ => vec![&prompt],
    };
    run_cli(cli, &args, &w.work, &w.env);
    let calls = std::fs::read_to_string(&w.log).unwrap_or_default();
    let ran = calls.lines().any(|l| l == format!("hook {agent}"));
    let lookup = EnvLookup(w.env.clone());
    let place = Place {
        lookup: &lookup,
        root: w.s.system_root(),
        os: Os::Linux,
        project: Some(w.work.clone()),
        user: None,
    };
    let off = gate::check(agent, &place, &Facts::default());
    assert_eq!(
        ran,
        off.is_none(),
        "{agent} {case:?}: ran our hook: {ran} ({calls:?}); the gate said {off:?}"
    );
}

fn cases_for(agent: &str, cases: &[Case<'_>]) {
    let (Some(cli), Some(_)) = (agent_cli(agent), agent_cli("node")) else {
        return;
    };
    let stub = StubModel::start().expect("stub model starts");
    for case in cases {
        run_case(&stub, agent, &cli, case);
    }
}

#[test]
fn real_gemini_runs_our_hook_where_the_gate_says() {
    let off = "\"hooksConfig\": {\"enabled\": false}";
    let on = "\"hooksConfig\": {\"enabled\": true}";
    cases_for(
        "gemini",
        &[
            &[],
            &[("home:.gemini/settings.json", off)],
            &[(
                "home:.gemini/settings.json",
                "\"hooksConfig\": {\"disabled\": [\"agterm-backup\"]}",
            )],
            &[("work:.gemini/settings.json", off)],
            &[
                ("home:.gemini/settings.json", off),
                ("work:.gemini/settings.json", on),
            ],
            &[
                ("work:.gemini/settings.json", on),
                ("system:gemini/settings.json", off),
            ],
        ],
    );
}

#[test]
fn real_qwen_runs_our_hook_where_the_gate_says() {
    let off = "\"disableAllHooks\": true";
    let on = "\"disableAllHooks\": false";
    cases_for(
        "qwen",
        &[
            &[],
            &[("home:.qwen/settings.json", off)],
            &[("work:.qwen/settings.json", off)],
            &[
                ("home:.qwen/settings.json", off),
                ("work:.qwen/settings.json", on),
            ],
            &[
                ("home:.qwen/settings.json", on),
                ("system:qwen/settings.json", off),
            ],
        ],
    );
}

#[test]
fn real_copilot_runs_our_hook_where_the_gate_says() {
    let off = "\"disableAllHooks\": true";
    let on = "\"disableAllHooks\": false";
    cases_for(
        "copilot",
        &[
            &[],
            // Copilot 1.0.102 runs our hook with the user's own `disableAllHooks: true`.
            &[("home:.copilot/settings.json", off)],
            &[("repo:.github/copilot/settings.json", off)],
            &[("repo:.github/copilot/settings.local.json", off)],
            &[
                ("home:.copilot/settings.json", off),
                ("repo:.github/copilot/settings.json", on),
            ],
            &[
                ("repo:.github/copilot/settings.json", off),
                ("repo:.github/copilot/settings.local.json", on),
            ],
        ],
    );
}
