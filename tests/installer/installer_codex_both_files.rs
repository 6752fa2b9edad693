//! Codex loads both `config.toml` and `hooks.json` of a layer and runs the hooks of both, so our hook in
//! the file the installer does not write to (copied there by hand, left by an older install) runs twice.
//! `status` says `duplicate` and names that file, `apply` takes ours out of it (everything else there
//! stays), `remove` takes ours out of both; the real Codex then lists our hook once per event.

use crate::installer_common::*;
use agterm_backup_installer::json_hooks;
use agterm_backup_testkit::paths::agent_cli_or_fail_in_ci;
use serde_json::{json, Value};

const CODEX: [&str; 5] = ["installer", "apply", "--agents", "codex", "--no-denylist"];

/// Another tool's guard and sound hooks, and ours written by hand on Stop.
fn hooks_json_with_ours() -> String {
    r#"{
  "description": "guards and sounds",
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "Bash",
        "hooks": [{ "type": "command", "command": "~/.codex/guards/block-rm-rf.sh", "timeout": 5 }]
      }
    ],
    "Stop": [
      { "hooks": [{ "type": "command", "command": "paplay /usr/share/sounds/freedesktop/stereo/complete.oga" }] },
      { "hooks": [{ "type": "command", "command": "agterm-backup hook codex" }] }
    ]
  }
}
"#
    .to_string()
}

fn without_ours() -> Value {
    json!({
        "description": "guards and sounds",
        "hooks": {
            "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "~/.codex/guards/block-rm-rf.sh", "timeout": 5}]}],
            "Stop": [{"hooks": [{"type": "command", "command": "paplay /usr/share/sounds/freedesktop/stereo/complete.oga"}]}]
        }
    })
}

fn codex_status(s: &Sandbox) -> Value {
    let out = s.run(&["installer", "status", "--json"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    report["targets"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["target"] == "codex")
        .cloned()
        .unwrap()
}

fn assert_clean_hooks_json(s: &Sandbox) {
    let text = std::fs::read_to_string(s.codex_hooks_json()).unwrap();
    assert_eq!(json_hooks::our_positions(&text, "codex").unwrap(), vec![]);
    assert_eq!(
        serde_json::from_str::<Value>(&text).unwrap(),
        without_ours()
    );
}

#[test]
fn our_hook_in_both_codex_files_is_a_duplicate_and_apply_and_remove_leave_none_behind() {
    let s = Sandbox::new();
    let original = std::fs::read(corpus_dir().join("codex-toml/full-real-world.toml")).unwrap();
    std::fs::create_dir_all(s.codex_home()).unwrap();
    std::fs::write(s.codex_config(), &original).unwrap();
    let out = s.run(&CODEX);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let applied = std::fs::read(s.codex_config()).unwrap();
    std::fs::write(s.codex_hooks_json(), hooks_json_with_ours()).unwrap();

    let codex = codex_status(&s);
    assert_eq!(codex["state"], "duplicate", "{codex:#}");
    let stop = codex["hooks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|h| h["event"] == "Stop")
        .unwrap();
    assert_eq!(stop["state"], "duplicate", "{codex:#}");
    let warnings = codex["warnings"].to_string();
    assert!(warnings.contains("hooks.json"), "{warnings}");

    let out = s.run(&CODEX);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("hooks.json"),
        "{}",
        text(&out.stdout)
    );
    assert_clean_hooks_json(&s);
    assert_eq!(std::fs::read(s.codex_config()).unwrap(), applied);
    assert_eq!(codex_status(&s)["state"], "present");

    std::fs::write(s.codex_hooks_json(), hooks_json_with_ours()).unwrap();
    let out = s.run(&["installer", "remove", "--agents", "codex"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_clean_hooks_json(&s);
    assert_eq!(std::fs::read(s.codex_config()).unwrap(), original);
}

#[test]
fn real_codex_lists_our_hook_once_per_event_after_apply_cleans_the_other_file() {
    let Some(codex) = agent_cli_or_fail_in_ci("codex") else {
        return;
    };
    let s = Sandbox::new();
    std::fs::create_dir_all(s.codex_home()).unwrap();
    assert!(s.run(&CODEX).status.success());
    std::fs::write(s.codex_hooks_json(), hooks_json_with_ours()).unwrap();
    let env = [(
        "CODEX_HOME".to_string(),
        s.codex_home().display().to_string(),
    )];
    let list = |s: &Sandbox| {
        let listed = agterm_backup_installer::trust::list_hooks(
            &codex,
            s.dir.path(),
            &env,
            std::time::Duration::from_secs(60),
        )
        .unwrap();
        our_listed_hooks(&listed).len()
    };
    let events = agterm_backup_installer::OUR_EVENTS.len();
    assert_eq!(list(&s), events + 1, "Codex runs ours from both files");
    assert!(s.run(&CODEX).status.success());
    assert_eq!(list(&s), events);
}
