//! Claude Code's layers: the user's, a project's and its local file, the managed file and its drop-ins
//! (Linux, macOS), the MDM profile (macOS, on plists in the format `plutil -convert xml1` writes). Each
//! test asserts the file and key the answer names.

use super::*;
use crate::fake_lookup::{fake, Fake};

pub(super) const ROOT: &str = "/r";

pub(super) fn place<'a>(fake: &'a Fake, os: Os, project: Option<&str>) -> Place<'a> {
    Place {
        lookup: fake,
        root: PathBuf::from(ROOT),
        os,
        project: project.map(PathBuf::from),
        user: Some("me".into()),
    }
}

fn claude(files: &[(&str, &str)], os: Os, project: Option<&str>, plugin: bool) -> Option<Off> {
    let fake = fake(&[("HOME", "/h")], files);
    check(
        "claude",
        &place(&fake, os, project),
        &Facts {
            claude_plugin: plugin,
        },
    )
}

pub(super) fn assert_names(off: &Off, file: &str, key: &str, way_out: WayOut) {
    assert_eq!(off.file, file, "{off:?}");
    assert_eq!(off.key, key, "{off:?}");
    assert_eq!(off.way_out, way_out, "{off:?}");
    assert!(
        off.says.contains(file) && off.says.contains(key),
        "{}",
        off.says
    );
}

const OFF: &str = r#"{"disableAllHooks": true}"#;
const ON: &str = r#"{"disableAllHooks": false}"#;
const MANAGED_LINUX: &str = "/r/etc/claude-code/managed-settings.json";
const MANAGED_MAC: &str = "/r/Library/Application Support/ClaudeCode/managed-settings.json";
const MDM_DEVICE: &str = "/r/Library/Managed Preferences/com.anthropic.claudecode.plist";
const MDM_USER: &str = "/r/Library/Managed Preferences/me/com.anthropic.claudecode.plist";

#[test]
fn users_own_switch_says_remove_the_key() {
    let off = claude(&[("/h/.claude/settings.json", OFF)], Os::Linux, None, false).unwrap();
    assert_names(
        &off,
        "/h/.claude/settings.json",
        "disableAllHooks",
        WayOut::RemoveKey,
    );
    assert!(!off.project_only);
    assert!(
        off.says.contains("remove `disableAllHooks`"),
        "{}",
        off.says
    );
    // Our plugin does not get round it: with `disableAllHooks` only managed hooks run.
    assert!(claude(&[("/h/.claude/settings.json", OFF)], Os::Linux, None, true).is_some());
    assert_eq!(
        claude(&[("/h/.claude/settings.json", ON)], Os::Linux, None, false),
        None
    );
    assert_eq!(claude(&[], Os::Linux, None, false), None);
}

#[test]
fn claude_config_dir_moves_the_users_file() {
    let fake = fake(
        &[("HOME", "/h"), ("CLAUDE_CONFIG_DIR", "/c")],
        &[("/c/settings.json", OFF), ("/h/.claude/settings.json", ON)],
    );
    let off = check("claude", &place(&fake, Os::Linux, None), &Facts::default()).unwrap();
    assert_names(
        &off,
        "/c/settings.json",
        "disableAllHooks",
        WayOut::RemoveKey,
    );
}

#[test]
fn a_projects_files_switch_hooks_off_in_that_project_only() {
    let files = [("/p/.claude/settings.json", OFF)];
    let off = claude(&files, Os::Linux, Some("/p"), false).unwrap();
    assert_names(
        &off,
        "/p/.claude/settings.json",
        "disableAllHooks",
        WayOut::RemoveKey,
    );
    assert!(off.project_only && off.says.contains("in this project"));
    // The user-wide answer does not read a project.
    assert_eq!(claude(&files, Os::Linux, None, false), None);
    let off = claude(
        &[("/p/.claude/settings.local.json", OFF)],
        Os::Linux,
        Some("/p"),
        false,
    )
    .unwrap();
    assert_names(
        &off,
        "/p/.claude/settings.local.json",
        "disableAllHooks",
        WayOut::RemoveKey,
    );
    assert_eq!(off.layer, LayerKind::Local);
}

#[test]
fn the_last_layer_that_sets_the_key_wins_local_over_project_over_user() {
    let user_off_project_on = [
        ("/h/.claude/settings.json", OFF),
        ("/p/.claude/settings.json", ON),
    ];
    assert_eq!(
        claude(&user_off_project_on, Os::Linux, Some("/p"), false),
        None
    );
    let project_off_local_on = [
        ("/p/.claude/settings.json", OFF),
        ("/p/.claude/settings.local.json", ON),
    ];
    assert_eq!(
        claude(&project_off_local_on, Os::Linux, Some("/p"), false),
        None
    );
    let local_off = [
        ("/h/.claude/settings.json", ON),
        ("/p/.claude/settings.local.json", OFF),
    ];
    let off = claude(&local_off, Os::Linux, Some("/p"), false).unwrap();
    assert_eq!(off.file, "/p/.claude/settings.local.json");
}

#[test]
fn managed_disable_all_hooks_on_linux_asks_the_administrator_and_no_user_file_overrides_it() {
    let files = [
        (MANAGED_LINUX, OFF),
        ("/h/.claude/settings.json", ON),
        ("/p/.claude/settings.local.json", ON),
    ];
    let off = claude(&files, Os::Linux, Some("/p"), true).unwrap();
    assert_names(
        &off,
        MANAGED_LINUX,
        "disableAllHooks",
        WayOut::AskAdministrator,
    );
    assert!(off.says.contains("administrator"), "{}", off.says);
    assert_eq!(off.layer, LayerKind::Managed);
    // Linux reads no macOS path, and macOS no Linux one.
    assert_eq!(claude(&[(MANAGED_MAC, OFF)], Os::Linux, None, false), None);
    assert_eq!(
        claude(&[(MANAGED_LINUX, OFF)], Os::MacOs, None, false),
        None
    );
}

#[test]
fn managed_hooks_only_keeps_ours_out_unless_the_policy_forces_our_plugin_on() {
    let only = r#"{"allowManagedHooksOnly": true}"#;
    let off = claude(&[(MANAGED_LINUX, only)], Os::Linux, None, true).unwrap();
    assert_names(
        &off,
        MANAGED_LINUX,
        "allowManagedHooksOnly",
        WayOut::AskAdministrator,
    );
    assert!(off.says.contains("enabledPlugins"), "{}", off.says);
    let forced = r#"{"allowManagedHooksOnly": true,
                     "enabledPlugins": {"agterm-backup@agterm-backup": true}}"#;
    assert_eq!(
        claude(&[(MANAGED_LINUX, forced)], Os::Linux, None, true),
        None
    );
    // Forced on but not installed: nothing of ours runs.
    assert!(claude(&[(MANAGED_LINUX, forced)], Os::Linux, None, false).is_some());
}

#[test]
fn plugin_only_customization_says_install_our_plugin_which_then_counts() {
    for value in ["true", r#"["skills", "hooks"]"#] {
        let policy = format!(r#"{{"strictPluginOnlyCustomization": {value}}}"#);
        let files = [(MANAGED_LINUX, policy.as_str())];
        let off = claude(&files, Os::Linux, None, false).unwrap();
        assert_names(
            &off,
            MANAGED_LINUX,
            "strictPluginOnlyCustomization",
            WayOut::InstallPlugin,
        );
        assert!(
            off.says
                .contains("/plugin install agterm-backup@agterm-backup"),
            "{}",
            off.says
        );
        assert_eq!(claude(&files, Os::Linux, None, true), None);
    }
    let other_surfaces = [(
        MANAGED_LINUX,
        r#"{"strictPluginOnlyCustomization": ["skills"]}"#,
    )];
    assert_eq!(claude(&other_surfaces, Os::Linux, None, false), None);
}

#[test]
fn drop_ins_merge_over_the_managed_file_in_name_order() {
    let d = "/r/etc/claude-code/managed-settings.d";
    let off = claude(
        &[
            (MANAGED_LINUX, r#"{"model": "opus"}"#),
            (&format!("{d}/10-hooks.json"), OFF),
        ],
        Os::Linux,
        None,
        false,
    )
    .unwrap();
    assert_names(
        &off,
        &format!("{d}/10-hooks.json"),
        "disableAllHooks",
        WayOut::AskAdministrator,
    );
    // A later drop-in sets it back; hidden files and other extensions are not read.
    let files = [
        (format!("{d}/10-hooks.json"), OFF),
        (format!("{d}/20-allow.json"), ON),
        (format!("{d}/.30-off.json"), OFF),
        (format!("{d}/40-off.json.bak"), OFF),
    ];
    let files: Vec<(&str, &str)> = files.iter().map(|(p, t)| (p.as_str(), *t)).collect();
    assert_eq!(claude(&files, Os::Linux, None, false), None);
}

#[test]
fn macos_managed_file_and_drop_ins() {
    let off = claude(&[(MANAGED_MAC, OFF)], Os::MacOs, None, false).unwrap();
    assert_names(
        &off,
        MANAGED_MAC,
        "disableAllHooks",
        WayOut::AskAdministrator,
    );
    let drop_in = "/r/Library/Application Support/ClaudeCode/managed-settings.d/hooks.json";
    let off = claude(&[(drop_in, OFF)], Os::MacOs, None, false).unwrap();
    assert_eq!(off.file, drop_in);
}

#[test]
fn macos_mdm_profile_is_read_and_the_first_managed_source_wins() {
    let plugin_only = include_str!("fixtures/mdm-claudecode-plugin-only.plist");
    let hooks_only = include_str!("fixtures/mdm-claudecode-managed-hooks-only.plist");
    let off = claude(&[(MDM_DEVICE, plugin_only)], Os::MacOs, None, false).unwrap();
    assert_names(
        &off,
        MDM_DEVICE,
        "strictPluginOnlyCustomization",
        WayOut::InstallPlugin,
    );
    assert_eq!(off.value, r#"["skills","hooks"]"#);
    // The per-user profile outranks the device's; the profile outranks managed-settings.json, which
    // then is not read at all (first source wins).
    let files = [
        (MDM_USER, hooks_only),
        (MDM_DEVICE, plugin_only),
        (MANAGED_MAC, OFF),
    ];
    let off = claude(&files, Os::MacOs, None, false).unwrap();
    assert_names(
        &off,
        MDM_USER,
        "allowManagedHooksOnly",
        WayOut::AskAdministrator,
    );
    let quiet_profile = [(MDM_DEVICE, plugin_only), (MANAGED_MAC, OFF)];
    let off = claude(&quiet_profile, Os::MacOs, None, true);
    assert_eq!(off, None, "the profile wins and our plugin runs: {off:?}");
    // A profile that only says how to combine sources says nothing itself.
    let behaviour_only = r#"<plist><dict><key>managedSourcesBehavior</key><string>first-wins</string></dict></plist>"#;
    let off = claude(
        &[(MDM_DEVICE, behaviour_only), (MANAGED_MAC, OFF)],
        Os::MacOs,
        None,
        true,
    );
    assert_eq!(off.map(|o| o.file).as_deref(), Some(MANAGED_MAC));
}

#[test]
fn merge_mode_combines_the_managed_sources() {
    let merge = r#"<plist><dict><key>managedSourcesBehavior</key><string>merge</string>
                   <key>model</key><string>opus</string></dict></plist>"#;
    let off = claude(
        &[(MDM_DEVICE, merge), (MANAGED_MAC, OFF)],
        Os::MacOs,
        None,
        false,
    )
    .unwrap();
    assert_names(
        &off,
        MANAGED_MAC,
        "disableAllHooks",
        WayOut::AskAdministrator,
    );
}
