//! The help, the man page and the crate descriptions name the agents and terminals the tool really
//! serves, and `--socket` shows only where agterm is asked.

use std::process::Command;

const AGENTS: [&str; 6] = [
    "Claude Code",
    "Codex",
    "Gemini CLI",
    "Copilot CLI",
    "Qwen Code",
    "opencode",
];
/// The terminals, from the registry's rows: a new one must show in the help and the descriptions too.
fn terminals() -> Vec<&'static str> {
    agterm_backup_terminals::ROWS
        .iter()
        .map(|r| r.name.as_str())
        .collect()
}

fn run(args: &[&str]) -> String {
    let out = Command::new(agterm_backup_testkit::agterm_backup_bin!())
        .args(args)
        .env("COLUMNS", "400")
        .output()
        .unwrap();
    assert!(out.status.success(), "{args:?}: {out:?}");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn help_and_man_page_name_every_agent_and_terminal() {
    let help = run(&["--help"]);
    // The man page is roff: hyphens are escaped, words may wrap.
    let man = run(&["man"]).replace("\\-", "-").replace('\n', " ");
    for text in [&help, &man] {
        for name in AGENTS.iter().copied().chain(terminals()) {
            assert!(text.contains(name), "{name} missing from:\n{text}");
        }
        assert!(!text.contains("Claude Code and Codex back"), "{text}");
    }
    let restore = run(&["restore", "--help"]);
    assert!(
        restore.contains("tmux") && restore.contains("zmx"),
        "{restore}"
    );
    let answer = run(&["answer", "--help"]);
    assert!(
        answer.contains("tmux") && answer.contains("zmx"),
        "{answer}"
    );
}

#[test]
fn socket_shows_only_where_agterm_is_asked() {
    for cmd in ["status", "restore", "answer", "snap"] {
        assert!(run(&[cmd, "--help"]).contains("--socket"), "{cmd}");
    }
    for cmd in [
        vec!["installer", "apply"],
        vec!["timer"],
        vec!["init"],
        vec!["completions"],
        vec!["hook"],
    ] {
        let mut args = cmd.clone();
        args.push("--help");
        assert!(!run(&args).contains("--socket"), "{cmd:?}");
    }
    assert!(!run(&["--help"]).contains("--socket"));
}

#[test]
fn socket_before_the_command_still_works() {
    let home = agterm_backup_testkit::scratch::tempdir();
    let sock = home.path().join("nowhere.sock");
    for before in [true, false] {
        let mut cmd = Command::new(agterm_backup_testkit::agterm_backup_bin!());
        match before {
            true => cmd.arg("--socket").arg(&sock).args(["status", "--json"]),
            false => cmd.args(["status", "--json", "--socket"]).arg(&sock),
        };
        let out = cmd
            .env_clear()
            .envs(agterm_backup_testkit::hermetic::places())
            .env("HOME", home.path())
            .env("AGTERM_BACKUP_HOME", home.path().join("state"))
            // Managed policy files (`/etc/claude-code`, …) never from the machine.
            .env(
                "AGTERM_BACKUP_SYSTEM_ROOT",
                std::path::Path::new(&home.path().join("state")).join("system-root"),
            )
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let error = report["agterm"]["error"].as_str().unwrap_or_default();
        assert!(error.contains("nowhere.sock"), "{report}");
    }
}

#[test]
fn the_crate_descriptions_name_the_agents_and_terminals() {
    let root = agterm_backup_testkit::paths::workspace_root();
    let description = |rel: &str| {
        let text = std::fs::read_to_string(root.join(rel).join("Cargo.toml")).unwrap();
        text.lines()
            .find_map(|l| l.strip_prefix("description = "))
            .unwrap_or_default()
            .to_string()
    };
    let main = description(".");
    for name in AGENTS.iter().copied().chain(terminals()) {
        assert!(main.contains(name), "{name}: {main}");
    }
    for rel in ["plugins/hook", "plugins/restore"] {
        let d = description(rel);
        for t in terminals() {
            assert!(d.contains(t), "{rel} lacks {t}: {d}");
        }
    }
    let installer = description("installer");
    for name in AGENTS {
        assert!(
            installer.contains(name),
            "installer lacks {name}: {installer}"
        );
    }
}
