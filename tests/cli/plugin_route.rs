//! The Claude Code plugin route: installed with the real `claude plugin install`, it fires our hook in an
//! offline `claude` run, `installer apply` leaves settings.json alone so the hook never runs twice, and
//! `installer status` says which route is active.

use agterm_backup_testkit::paths::{agent_cli, workspace_root};
use agterm_backup_testkit::stub_model::StubModel;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::{Command, Output};

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn claude_cmd(claude: &Path, home: &Path) -> Command {
    let mut c = Command::new(claude);
    c.env_clear()
        .envs(agterm_backup_testkit::hermetic::places())
        .env("HOME", home)
        .env("PATH", "/usr/bin:/bin")
        .env("DISABLE_AUTOUPDATER", "1")
        .env("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1");
    c
}

fn ok(out: Output, what: &str) -> String {
    assert!(
        out.status.success(),
        "{what}: {}{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    text(&out.stdout)
}

/// The Claude target's row of `installer status --json`.
fn claude_status(json: &str) -> serde_json::Value {
    let status: serde_json::Value = serde_json::from_str(json).unwrap();
    status["targets"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["target"] == "claude")
        .unwrap()
        .clone()
}

#[test]
fn plugin_install_fires_the_hook_and_apply_does_not_double_it() {
    let Some(claude) = agent_cli("claude") else {
        return;
    };
    let dir = agterm_backup_testkit::scratch::tempdir();
    let home = dir.path().join("home");
    std::fs::create_dir_all(&home).unwrap();
    let root = workspace_root();

    ok(
        claude_cmd(&claude, &home)
            .args(["plugin", "marketplace", "add"])
            .arg(&root)
            .output()
            .unwrap(),
        "marketplace add",
    );
    ok(
        claude_cmd(&claude, &home)
            .args(["plugin", "install", "agterm-backup@agterm-backup"])
            .output()
            .unwrap(),
        "plugin install",
    );
    let settings_path = home.join(".claude/settings.json");
    let before = std::fs::read(&settings_path).unwrap();

    // apply: settings.json is left alone, and says why.
    let ours = agterm_backup_testkit::agterm_backup_bin!();
    let run = |args: &[&str]| {
        Command::new(ours)
            .env_clear()
            .envs(agterm_backup_testkit::hermetic::places())
            .env("HOME", &home)
            .env("PATH", "/usr/bin:/bin")
            .env("AGTERM_BACKUP_HOME", dir.path().join("state"))
            // Managed policy files (`/etc/claude-code`, …) never from the machine.
            .env(
                "AGTERM_BACKUP_SYSTEM_ROOT",
                std::path::Path::new(&dir.path().join("state")).join("system-root"),
            )
            .args(args)
            .output()
            .unwrap()
    };
    let out = ok(
        run(&["installer", "apply", "--agents", "claude", "--no-denylist"]),
        "apply",
    );
    assert!(
        out.contains("plugin agterm-backup@agterm-backup runs the hook"),
        "{out}"
    );
    assert_eq!(
        std::fs::read(&settings_path).unwrap(),
        before,
        "settings.json changed"
    );

    let claude_row = claude_status(&ok(run(&["installer", "status", "--json"]), "status"));
    assert_eq!(claude_row["route"], "plugin", "{claude_row}");
    assert_eq!(claude_row["plugin"], "agterm-backup@agterm-backup");

    // The plugin's hook command is `agterm-backup hook claude` from PATH: a logging wrapper there proves
    // the real CLI runs it.
    let bin = dir.path().join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let log = dir.path().join("calls.log");
    let wrapper = bin.join("agterm-backup");
    std::fs::write(
        &wrapper,
        format!(
            "#!/bin/sh\nprintf '%s\\n' \"$*\" >> '{}'\nexec '{ours}' \"$@\"\n",
            log.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&wrapper, std::fs::Permissions::from_mode(0o755)).unwrap();
    let stub = StubModel::start().unwrap();
    let work = dir.path().join("work");
    std::fs::create_dir_all(&work).unwrap();
    let out = claude_cmd(&claude, &home)
        .env("PATH", format!("{}:/usr/bin:/bin", bin.display()))
        .env("ANTHROPIC_BASE_URL", stub.base_url())
        .env("ANTHROPIC_API_KEY", "sk-ant-test-0123456789abcdefghij")
        .env("AGTERM_BACKUP_HOME", dir.path().join("state"))
        // Managed policy files (`/etc/claude-code`, …) never from the machine.
        .env(
            "AGTERM_BACKUP_SYSTEM_ROOT",
            std::path::Path::new(&dir.path().join("state")).join("system-root"),
        )
        .current_dir(&work)
        .args(["-p", "hi"])
        .output()
        .unwrap();
    ok(out, "claude -p");
    let calls = std::fs::read_to_string(&log).unwrap_or_default();
    let n = calls.lines().filter(|l| *l == "hook claude").count();
    assert!(n >= 3, "the plugin ran our hook {n} times: {calls:?}");

    // With our settings.json hooks added by hand as well, status warns that the hook runs twice.
    let mut v: serde_json::Value = serde_json::from_slice(&before).unwrap();
    let group = serde_json::json!([{"hooks":[{"type":"command","command":format!("'{ours}' hook claude"),"timeout":10}]}]);
    v["hooks"] = serde_json::json!({"SessionStart": group});
    std::fs::write(&settings_path, serde_json::to_vec_pretty(&v).unwrap()).unwrap();
    let claude_row = claude_status(&ok(run(&["installer", "status", "--json"]), "status"));
    assert_eq!(claude_row["route"], "both");
    assert!(
        claude_row["warnings"].to_string().contains("runs twice"),
        "{claude_row}"
    );
}
