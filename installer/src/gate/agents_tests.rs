//! Codex's, Gemini's and Qwen's switches, one test per switch and layer; the plist reader.

use super::tests::{assert_names, place};
use super::*;
use crate::fake_lookup::fake;

fn gate(
    agent: &str,
    env: &[(&'static str, &'static str)],
    files: &[(&str, &str)],
    project: Option<&str>,
) -> Option<Off> {
    let mut env = env.to_vec();
    env.push(("HOME", "/h"));
    let fake = fake(&env, files);
    check(agent, &place(&fake, Os::Linux, project), &Facts::default())
}

#[test]
fn codex_features_hooks_false_in_the_users_config() {
    for key in ["hooks", "codex_hooks"] {
        let text = format!("[features]\n{key} = false\n");
        let off = gate("codex", &[], &[("/h/.codex/config.toml", &text)], None).unwrap();
        assert_names(
            &off,
            "/h/.codex/config.toml",
            &format!("features.{key}"),
            WayOut::RemoveKey,
        );
    }
    let on = "[features]\nhooks = true\n";
    assert_eq!(
        gate("codex", &[], &[("/h/.codex/config.toml", on)], None),
        None
    );
    let moved = gate(
        "codex",
        &[("CODEX_HOME", "/x")],
        &[("/x/config.toml", "features.hooks = false\n")],
        None,
    )
    .unwrap();
    assert_eq!(moved.file, "/x/config.toml");
}

#[test]
fn codex_project_and_managed_layers() {
    let user_off = ("/h/.codex/config.toml", "[features]\nhooks = false\n");
    let project_on = ("/p/.codex/config.toml", "[features]\nhooks = true\n");
    assert_eq!(
        gate("codex", &[], &[user_off, project_on], Some("/p")),
        None
    );
    let managed = (
        "/r/etc/codex/managed_config.toml",
        "[features]\nhooks = false\n",
    );
    let off = gate("codex", &[], &[project_on, managed], Some("/p")).unwrap();
    assert_names(
        &off,
        "/r/etc/codex/managed_config.toml",
        "features.hooks",
        WayOut::AskAdministrator,
    );
}

#[test]
fn codex_requirements_force_hooks_off_or_managed_only() {
    let req = "/r/etc/codex/requirements.toml";
    let off = gate(
        "codex",
        &[],
        &[(req, "allow_managed_hooks_only = true\n")],
        None,
    )
    .unwrap();
    assert_names(
        &off,
        req,
        "allow_managed_hooks_only",
        WayOut::AskAdministrator,
    );
    let forced = [
        (req, "[features]\nhooks = false\n"),
        ("/h/.codex/config.toml", "[features]\nhooks = true\n"),
    ];
    let off = gate("codex", &[], &forced, None).unwrap();
    assert_names(&off, req, "features.hooks", WayOut::AskAdministrator);
}

#[test]
fn gemini_hooks_config_enabled_false_by_layer() {
    let user = "/h/.gemini/settings.json";
    let off_text = "// mine\n{\"hooksConfig\": {\"enabled\": false}}";
    let off = gate("gemini", &[], &[(user, off_text)], None).unwrap();
    assert_names(&off, user, "hooksConfig.enabled", WayOut::RemoveKey);
    // The project's file outranks the user's; the machine's settings outrank both.
    let project_on = (
        "/p/.gemini/settings.json",
        "{\"hooksConfig\": {\"enabled\": true}}",
    );
    assert_eq!(
        gate("gemini", &[], &[(user, off_text), project_on], Some("/p")),
        None
    );
    let system = "/r/etc/gemini-cli/settings.json";
    let off = gate("gemini", &[], &[project_on, (system, off_text)], Some("/p")).unwrap();
    assert_names(
        &off,
        system,
        "hooksConfig.enabled",
        WayOut::AskAdministrator,
    );
    // The machine's defaults lose to the user's own file.
    let defaults = "/r/etc/gemini-cli/system-defaults.json";
    let user_on = (user, "{\"hooksConfig\": {\"enabled\": true}}");
    assert_eq!(
        gate("gemini", &[], &[(defaults, off_text), user_on], None),
        None
    );
    let moved = gate(
        "gemini",
        &[("GEMINI_CLI_SYSTEM_SETTINGS_PATH", "/s/g.json")],
        &[("/s/g.json", off_text)],
        None,
    )
    .unwrap();
    assert_eq!(moved.file, "/s/g.json");
}

#[test]
fn gemini_reads_its_machine_files_only_when_only_root_can_change_them() {
    let system = "/r/etc/gemini-cli/settings.json";
    let off_text = "{\"hooksConfig\": {\"enabled\": false}}";
    let mut fake = fake(&[("HOME", "/h")], &[(system, off_text)]);
    let off = check("gemini", &place(&fake, Os::Linux, None), &Facts::default());
    assert_names(
        &off.unwrap(),
        system,
        "hooksConfig.enabled",
        WayOut::AskAdministrator,
    );
    fake.not_roots.push(PathBuf::from(system));
    assert_eq!(
        check("gemini", &place(&fake, Os::Linux, None), &Facts::default()),
        None
    );
    // Qwen has no such rule.
    let qwen = "/r/etc/qwen-code/settings.json";
    let mut fake =
        crate::fake_lookup::fake(&[("HOME", "/h")], &[(qwen, "{\"disableAllHooks\": true}")]);
    fake.not_roots.push(PathBuf::from(qwen));
    assert!(check("qwen", &place(&fake, Os::Linux, None), &Facts::default()).is_some());
}

#[test]
fn gemini_hooks_config_disabled_naming_our_hook() {
    let user = "/h/.gemini/settings.json";
    let ours = r#"{"hooksConfig": {"disabled": ["other", "agterm-backup"]}}"#;
    let off = gate("gemini", &[], &[(user, ours)], None).unwrap();
    assert_names(&off, user, "hooksConfig.disabled", WayOut::RemoveKey);
    let others = r#"{"hooksConfig": {"disabled": ["other"]}}"#;
    assert_eq!(gate("gemini", &[], &[(user, others)], None), None);
    // A union: a project's list adds to the user's.
    let project = "/p/.gemini/settings.json";
    let off = gate(
        "gemini",
        &[],
        &[(user, others), (project, ours)],
        Some("/p"),
    )
    .unwrap();
    assert_names(&off, project, "hooksConfig.disabled", WayOut::RemoveKey);
    assert!(off.project_only);
}

#[test]
fn qwen_disable_all_hooks_by_layer() {
    let user = "/h/.qwen/settings.json";
    let off_text = "{\"disableAllHooks\": true /* for now */}";
    let off = gate("qwen", &[], &[(user, off_text)], None).unwrap();
    assert_names(&off, user, "disableAllHooks", WayOut::RemoveKey);
    let moved = gate(
        "qwen",
        &[("QWEN_HOME", "/q")],
        &[("/q/settings.json", off_text)],
        None,
    )
    .unwrap();
    assert_eq!(moved.file, "/q/settings.json");
    let project = ("/p/.qwen/settings.json", off_text);
    let off = gate("qwen", &[], &[project], Some("/p")).unwrap();
    assert!(off.project_only && off.file == "/p/.qwen/settings.json");
    let system = "/r/etc/qwen-code/settings.json";
    let user_on = (user, "{\"disableAllHooks\": false}");
    let off = gate("qwen", &[], &[user_on, (system, off_text)], None).unwrap();
    assert_names(&off, system, "disableAllHooks", WayOut::AskAdministrator);
    assert_eq!(gate("qwen", &[], &[user_on], None), None);
}

#[test]
fn copilot_disable_all_hooks_in_the_repositorys_files_only() {
    let off_text = "{\"disableAllHooks\": true}";
    let on = "{\"disableAllHooks\": false}";
    // The user's own file does not stop Copilot's hooks (the real CLI runs ours with it).
    assert_eq!(
        gate(
            "copilot",
            &[],
            &[("/h/.copilot/settings.json", off_text)],
            None
        ),
        None
    );
    let repo = "/p/.github/copilot/settings.json";
    assert_eq!(
        gate("copilot", &[], &[(repo, off_text)], None),
        None,
        "no project asked"
    );
    // The repository's files sit at its root, above the pane's folder.
    let files = [("/p/.git", ""), (repo, off_text)];
    let off = gate("copilot", &[], &files, Some("/p/src/deep")).unwrap();
    assert_names(&off, repo, "disableAllHooks", WayOut::RemoveKey);
    assert!(off.project_only);
    let local = "/p/.github/copilot/settings.local.json";
    let files = [("/p/.git", ""), (repo, off_text), (local, on)];
    assert_eq!(gate("copilot", &[], &files, Some("/p/src")), None);
    let files = [("/p/.git", ""), (local, off_text)];
    assert_eq!(
        gate("copilot", &[], &files, Some("/p")).unwrap().file,
        local
    );
}

#[test]
fn agents_without_a_known_switch_have_no_row() {
    for agent in ["opencode", "kimi", "agy"] {
        assert!(ROWS.iter().all(|r| r.agent != agent));
        assert_eq!(gate(agent, &[], &[], None), None);
    }
}

#[test]
fn plist_reader_reads_the_profile_as_plutil_converts_it() {
    let value = plist::parse(include_str!("fixtures/mdm-claudecode-plugin-only.plist")).unwrap();
    assert_eq!(
        value["permissions"]["deny"],
        serde_json::json!(["Bash(curl:*)", "Read(./.env & secrets)"])
    );
    assert_eq!(value["cleanupPeriodDays"], 30);
    assert_eq!(value["enabledPlugins"], serde_json::json!({}));
    let value = plist::parse(include_str!(
        "fixtures/mdm-claudecode-managed-hooks-only.plist"
    ))
    .unwrap();
    assert_eq!(value["allowManagedHooksOnly"], true);
    assert_eq!(
        value["hooks"]["PreToolUse"][0]["hooks"][0]["command"],
        "/usr/local/bin/audit-bash"
    );
    assert_eq!(plist::parse("not a plist"), None);
    assert_eq!(
        plist::parse("<plist><dict><key>a</key></dict></plist>"),
        None
    );
}
