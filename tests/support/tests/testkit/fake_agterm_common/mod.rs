//! Helpers shared by the fake agterm's raw-protocol tests.

use agterm_backup_core::terminal::RestoreMode;
use agterm_backup_testkit::fake_agterm::{FakeAgterm, FakeConfig};
use serde_json::{json, Value};

/// The agterm versions the fake is tested as.
pub const PRESETS: [&str; 5] = ["0.15", "0.16", "0.24", "0.26", "0.34"];

/// A fake agterm of `version` in `mode`, and a folder for its sessions' cwd.
pub fn start(
    version: &str,
    mode: RestoreMode,
) -> (FakeAgterm, agterm_backup_testkit::scratch::ScratchDir) {
    let cwd = agterm_backup_testkit::scratch::tempdir();
    (FakeAgterm::start(FakeConfig::new(version, mode)), cwd)
}

/// The error text of an `ok:false` answer (fails the test on anything else).
pub fn err(v: &Value) -> &str {
    assert_eq!(v["ok"], json!(false), "expected an error, got {v}");
    v["error"].as_str().expect("error text")
}

/// The `result` of an `ok:true` answer (fails the test on anything else).
pub fn ok(v: &Value) -> &Value {
    assert_eq!(v["ok"], json!(true), "expected ok, got {v}");
    &v["result"]
}
