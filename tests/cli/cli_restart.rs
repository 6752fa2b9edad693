//! `agterm-backup restart` with nothing to restart: no terminal running, no record. A terminal that is
//! not running is one line, not a failure (as for `restore`), unless `--terminal` named it; `--json`
//! still prints its versioned document.

use std::process::Command;

fn restart(home: &std::path::Path, args: &[&str]) -> std::process::Output {
    Command::new(agterm_backup_testkit::agterm_backup_bin!())
        .arg("restart")
        .args(args)
        .env_clear()
        .envs(agterm_backup_testkit::hermetic::places())
        .env("PATH", "/usr/bin:/bin")
        .env("HOME", home)
        .env("XDG_RUNTIME_DIR", home.join("run"))
        .env("TMPDIR", home.join("tmp"))
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap()
}

#[test]
fn nothing_running_is_a_line_and_an_empty_summary() {
    let home = agterm_backup_testkit::scratch::tempdir();
    let out = restart(home.path(), &["--dry-run"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("agterm is not running"), "{text}");
    assert!(text.contains("nothing captured"), "{text}");
    assert!(
        text.contains("restarted 0, waiting 0, skipped 0, failed 0"),
        "{text}"
    );

    let out = restart(home.path(), &["--json"]);
    assert!(out.status.success());
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["v"], 1);
    assert_eq!(doc["panes"], serde_json::json!([]));
    assert_eq!(doc["summary"]["restarted"], 0);

    // Named, a terminal that is not running is the error it is.
    let out = restart(home.path(), &["--terminal", "agterm", "--yes"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("agterm"));
}
