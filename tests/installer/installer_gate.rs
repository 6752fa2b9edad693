//! Hooks written but never run: `installer apply` and `installer status` (text and JSON) name the file and
//! key that keep an agent from running ours, from the user's own file to the machine's managed policy
//! (below `AGTERM_BACKUP_SYSTEM_ROOT`, never the real `/etc`), and the way out.

use crate::installer_common::{text, Sandbox};
use serde_json::Value;
use std::path::Path;

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn status_json(s: &Sandbox) -> Value {
    let out = s.run(&["installer", "status", "--json"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

fn target<'a>(v: &'a Value, name: &str) -> &'a Value {
    v["targets"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["target"] == name)
        .unwrap_or_else(|| panic!("no {name} target: {v:#}"))
}

#[test]
fn users_disable_all_hooks_is_named_by_apply_and_status() {
    let s = Sandbox::new();
    write(&s.claude_settings(), "{\"disableAllHooks\": true}\n");
    let out = s.run(&["installer", "apply", "--agents", "claude", "--no-denylist"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let file = s.claude_settings().display().to_string();
    let warned = text(&out.stderr);
    assert!(
        warned.contains(&format!("`disableAllHooks: true` in {file}"))
            && warned.contains("remove `disableAllHooks`"),
        "{warned}"
    );

    let human = text(&s.run(&["installer", "status"]).stdout);
    assert!(
        human.contains("NOT RUN: `disableAllHooks: true` in") && human.contains(&file),
        "{human}"
    );
    let v = status_json(&s);
    let claude = target(&v, "claude");
    assert_eq!(claude["state"], "present", "the hook is written: {v:#}");
    let off = &claude["switched_off"];
    assert_eq!(off["file"], file.as_str());
    assert_eq!(off["key"], "disableAllHooks");
    assert_eq!(off["way_out"], "remove-key");
    assert_eq!(off["layer"], "user");

    // Taken out: nothing more to say.
    write(
        &s.claude_settings(),
        &std::fs::read_to_string(s.claude_settings())
            .unwrap()
            .replace("\"disableAllHooks\": true", "\"disableAllHooks\": false"),
    );
    assert!(status_json(&s)["targets"][0]["switched_off"].is_null());
}

#[test]
fn managed_policy_asks_the_administrator_and_beats_the_users_file() {
    let s = Sandbox::new();
    let managed = s
        .system_root()
        .join("etc/claude-code/managed-settings.json");
    write(&managed, "{\"allowManagedHooksOnly\": true}\n");
    write(&s.claude_settings(), "{\"disableAllHooks\": false}\n");
    let out = s.run(&["installer", "apply", "--agents", "claude", "--no-denylist"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let managed = managed.display().to_string();
    let warned = text(&out.stderr);
    assert!(
        warned.contains(&format!("`allowManagedHooksOnly: true` in {managed}"))
            && warned.contains("administrator"),
        "{warned}"
    );
    let v = status_json(&s);
    let off = &target(&v, "claude")["switched_off"];
    assert_eq!(off["file"], managed.as_str(), "{v:#}");
    assert_eq!(off["key"], "allowManagedHooksOnly");
    assert_eq!(off["way_out"], "ask-administrator");
    assert_eq!(off["layer"], "managed");
}

#[test]
fn a_drop_in_that_allows_only_plugins_says_install_our_plugin() {
    let s = Sandbox::new();
    let drop_in = s
        .system_root()
        .join("etc/claude-code/managed-settings.d/50-plugins.json");
    write(
        &drop_in,
        "{\"strictPluginOnlyCustomization\": [\"hooks\"]}\n",
    );
    let out = s.run(&["installer", "apply", "--agents", "claude", "--no-denylist"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let human = text(&s.run(&["installer", "status"]).stdout);
    assert!(
        human.contains("strictPluginOnlyCustomization")
            && human.contains(&drop_in.display().to_string())
            && human.contains("/plugin install agterm-backup@agterm-backup"),
        "{human}"
    );
    // With our plugin installed and enabled, its hook runs: nothing is switched off.
    write(
        &s.claude_dir().join("plugins/installed_plugins.json"),
        r#"{"version":2,"plugins":{"agterm-backup@agterm-backup":[{"scope":"user"}]}}"#,
    );
    write(
        &s.claude_settings(),
        r#"{"enabledPlugins":{"agterm-backup@agterm-backup":true}}"#,
    );
    let v = status_json(&s);
    let claude = target(&v, "claude");
    assert_eq!(claude["route"], "plugin", "{v:#}");
    assert!(claude["switched_off"].is_null(), "{v:#}");
}

#[test]
fn codex_features_hooks_false_in_the_machines_requirements() {
    let s = Sandbox::new();
    let req = s.system_root().join("etc/codex/requirements.toml");
    write(&req, "[features]\nhooks = false\n");
    let out = s.run(&["installer", "apply", "--agents", "codex", "--no-denylist"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let warned = text(&out.stderr);
    assert!(
        warned.contains(&format!("`features.hooks = false` in {}", req.display())),
        "{warned}"
    );
    let v = status_json(&s);
    let off = &target(&v, "codex")["switched_off"];
    assert_eq!(off["key"], "features.hooks", "{v:#}");
    assert_eq!(off["way_out"], "ask-administrator");
}

#[test]
fn gemini_and_qwen_switches_in_the_users_files() {
    let s = Sandbox::new();
    let gemini = s.home().join(".gemini/settings.json");
    let qwen = s.home().join(".qwen/settings.json");
    write(
        &gemini,
        "{\n  // off for now\n  \"hooksConfig\": {\"enabled\": false}\n}\n",
    );
    write(&qwen, "{\"disableAllHooks\": true}\n");
    let out = s.run(&[
        "installer",
        "apply",
        "--agents",
        "gemini,qwen",
        "--no-denylist",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let warned = text(&out.stderr);
    for (file, key) in [(&gemini, "hooksConfig.enabled"), (&qwen, "disableAllHooks")] {
        assert!(
            warned.contains(&format!("`{key}: ")) && warned.contains(&file.display().to_string()),
            "{key}: {warned}"
        );
    }
    let v = status_json(&s);
    assert_eq!(
        target(&v, "gemini")["switched_off"]["key"],
        "hooksConfig.enabled"
    );
    assert_eq!(target(&v, "qwen")["switched_off"]["key"], "disableAllHooks");
}
