//! A launch flag the table does not know is dropped with its value (never split from it, never
//! replayed), recorded by name in the live record, and named by `status`.

use crate::hook_common::*;
use std::process::Command;

#[test]
fn unknown_flags_are_dropped_with_their_values_recorded_and_shown_by_status() {
    let w = World::new();
    let proj = w.path().join("proj");
    std::fs::create_dir_all(&proj).unwrap();
    let proj = std::fs::canonicalize(proj).unwrap();
    let claude = w.fake_agent("claude");
    let script = w.script(&format!(
        "'{}' hook claude\nexit $?\n",
        hook_bin().display()
    ));
    let payload = claude_payload(
        "SessionStart",
        ID_A,
        &proj.display().to_string(),
        &proj.display().to_string(),
    );
    let mut argv = vec![claude.display().to_string(), script.display().to_string()];
    // A hidden option the table knows (`--max-turns`), one nobody knows with a value, a known switch.
    argv.extend(
        [
            "--max-turns",
            "5",
            "--frobnicate",
            "7",
            "--model",
            "sonnet",
            "--verbose",
            "hi",
        ]
        .map(String::from),
    );
    w.start(&argv, &proj, &Stdin::Bytes(&payload)).wait_silent();
    let r = w.record().expect("record");
    assert_eq!(
        r.flags,
        ["--max-turns", "5", "--model", "sonnet", "--verbose"]
    );
    assert_eq!(r.dropped_flags(), ["--frobnicate"]);

    let out = Command::new(agterm_backup_testkit::agterm_backup_bin!())
        .args(["status", "--json"])
        .env_clear()
        .envs(agterm_backup_testkit::hermetic::places())
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("HOME", w.path())
        .env("AGTERM_BACKUP_HOME", w.state().root())
        // Managed policy files (`/etc/claude-code`, …) never from the machine.
        .env(
            "AGTERM_BACKUP_SYSTEM_ROOT",
            std::path::Path::new(&w.state().root()).join("system-root"),
        )
        .env("AGTERM_SOCKET", w.path().join("no-agterm.sock"))
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
    let warnings = v["warnings"].to_string();
    assert!(warnings.contains("dropped --frobnicate"), "{warnings}");
    assert!(
        !warnings.contains("--frobnicate 7"),
        "values are never shown: {warnings}"
    );
}
