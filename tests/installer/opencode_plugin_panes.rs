//! The opencode plugin the installer writes starts its hook in every captured terminal's pane and
//! nowhere else: its pane test is the terminals' rows' (`shell_pane_test::javascript`), as the shell
//! snippets' is. The previous plugin started only where agterm's variable was set, so opencode in a tmux
//! pane or a zmx session was never recorded. Run in real node: the written plugin is imported as a module
//! and its factory called in each terminal's pane environment, in partial ones, and in none.

use agterm_backup_installer::command::hook_command;
use agterm_backup_installer::opencode_plugin;
use agterm_backup_terminals::ROWS;
use std::path::Path;
use std::process::Command;

/// Whether the plugin, imported in node with exactly `env` (and PATH), hands opencode its hooks.
fn starts_its_hooks(plugin: &Path, env: &[(&str, &str)]) -> bool {
    let script = format!(
        "const m = await import({url}); const h = await m.AgtermBackup({{ directory: '/' }}); \
         process.stdout.write(Object.keys(h).length ? 'hooks' : 'none');",
        url = serde_json::to_string(&format!("file://{}", plugin.display())).unwrap()
    );
    let out = Command::new("node")
        .args(["--input-type=module", "-e", &script])
        .env_clear()
        .envs(agterm_backup_testkit::hermetic::places())
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .envs(env.iter().copied())
        .output()
        .unwrap_or_else(|e| panic!("node is needed (tests/install-deps.sh installs it): {e}"));
    let said = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success() && (said == "hooks" || said == "none"),
        "node: {said} {}",
        String::from_utf8_lossy(&out.stderr)
    );
    said == "hooks"
}

#[test]
fn the_plugin_starts_in_each_terminals_pane_and_nowhere_else() {
    let dir = agterm_backup_testkit::scratch::tempdir();
    // `.mjs`: node reads it as the ES module opencode loads.
    let plugin = dir.path().join("agterm-backup.mjs");
    let command = hook_command(Path::new("/nonexistent/agterm-backup"), "opencode");
    std::fs::write(&plugin, opencode_plugin::apply(None, &command).unwrap()).unwrap();

    assert!(!starts_its_hooks(&plugin, &[]), "outside every pane");
    for row in &ROWS {
        let vars = row.shell_pane_vars;
        let all: Vec<(&str, &str)> = vars.iter().map(|v| (*v, "x")).collect();
        assert!(
            starts_its_hooks(&plugin, &all),
            "in a {} pane",
            row.name.as_str()
        );
        // Empty is unset, and a terminal of several variables needs them all.
        let empty: Vec<(&str, &str)> = vars.iter().map(|v| (*v, "")).collect();
        assert!(
            !starts_its_hooks(&plugin, &empty),
            "{} empty",
            row.name.as_str()
        );
        if vars.len() > 1 {
            for (i, missing) in vars.iter().enumerate() {
                let mut some = all.clone();
                some.remove(i);
                assert!(
                    !starts_its_hooks(&plugin, &some),
                    "{} without {missing}",
                    row.name.as_str()
                );
            }
        }
    }
}
