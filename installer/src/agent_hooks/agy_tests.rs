//! agy's `~/.gemini/config/hooks.json` (its documented shape: a hook set's name → events → flat handler
//! lists): our set is one named entry beside the user's, written and removed byte-exactly.

use super::*;

const CMD: &str = "'/opt/bin/agterm-backup' hook agy";

/// A user's hooks.json with a hook set of their own (and one of a tool that groups with a matcher).
const AGY_REAL: &str = r#"{
  "my-linter": {
    "PostToolUse": [{"type": "command", "command": "./lint.sh", "timeout": 30}]
  },
  "hatch": {"PreToolUse": [{"matcher": "write_to_file", "hooks": [{"type": "command", "command": "hatch guard"}]}]}
}
"#;

#[test]
fn our_set_is_one_named_entry_with_every_event_and_goes_whole() {
    for original in [None, Some(""), Some("{}"), Some(AGY_REAL)] {
        let applied = apply(&AGY, original, CMD).unwrap();
        let v: serde_json::Value = serde_json::from_str(&applied).unwrap();
        for event in ["SessionStart", "PreInvocation", "PreToolUse", "Stop"] {
            assert_eq!(
                v["agterm-backup"][event],
                serde_json::json!([{"type": "command", "command": CMD, "timeout": 10}]),
                "{event} in {applied}"
            );
        }
        if let Some(text) = original.filter(|t| t.contains("my-linter")) {
            assert_eq!(
                v["my-linter"],
                serde_json::from_str::<serde_json::Value>(text).unwrap()["my-linter"]
            );
        }
        assert_eq!(
            apply(&AGY, Some(&applied), CMD).unwrap(),
            applied,
            "idempotent"
        );
        assert!(has_ours(&AGY, &applied));
        let removed = remove(&AGY, &applied).unwrap();
        match original.filter(|o| !o.is_empty()) {
            Some(o) => assert_eq!(removed, o, "byte-exact"),
            // A file we created holds an empty object again (the engine deletes it).
            None => assert_eq!(removed.trim(), "{}"),
        }
    }
    // A user's own set is never ours, even with our binary in it.
    let theirs = r#"{"mine": {"Stop": [{"type": "command", "command": "'/opt/bin/agterm-backup' hook agy"}]}}"#;
    assert!(!has_ours(&AGY, theirs));
    assert_eq!(remove(&AGY, theirs).unwrap(), theirs);
}

#[test]
fn a_stale_path_is_refreshed_in_place_and_a_bad_file_refused() {
    let stale = r#"{"agterm-backup": {"SessionStart": [{"type": "command", "command": "'/old/agterm-backup' hook agy", "timeout": 10}]}}"#;
    let applied = apply(&AGY, Some(stale), CMD).unwrap();
    assert!(!applied.contains("/old/"), "{applied}");
    assert_eq!(remove(&AGY, &applied).unwrap(), "{}");
    for bad in [
        r#"{"agterm-backup": []}"#,
        r#"{"agterm-backup": {"Stop": {}}}"#,
        "{\"a\": 1,}",
        "// c\n{}",
    ] {
        assert!(apply(&AGY, Some(bad), CMD).is_err(), "{bad}");
    }
}
