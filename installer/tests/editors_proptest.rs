//! Property tests of the pure editors over generated documents: whatever the user's file holds, applying
//! loses no byte (the original is a subsequence of the result), a second apply is a no-op, and removing
//! gives the original back (for the shell rc files: a refresh after the user's edits changes only our line).

use agterm_backup_installer::shell_rc::{self, files};
use agterm_backup_installer::{codex_toml, json_hooks};
use proptest::prelude::*;

const CLAUDE: &str = "'/opt/x y/agterm-backup' hook claude";
const CODEX: &str = "'/opt/x y/agterm-backup' hook codex";

fn is_subsequence(small: &str, big: &str) -> bool {
    let mut it = big.chars();
    small.chars().all(|c| it.any(|b| b == c))
}

/// A JSON scalar spelled as users and tools spell them.
fn scalar() -> impl Strategy<Value = String> {
    prop_oneof![
        "-?[1-9][0-9]{0,25}".prop_map(|s| s),
        "[0-9]\\.[0-9]{1,4}[eE][+-]?[0-9]{1,3}".prop_map(|s| s),
        Just("true".to_string()),
        Just("null".to_string()),
        "[a-zA-Z0-9 é日/_-]{0,12}".prop_map(|s| serde_json::to_string(&s).unwrap()),
        Just("\"https:\\/\\/x\\u00e9\\ud83d\\ude00\"".to_string()),
    ]
}

/// A JSON object text with random keys, nesting, indentation (spaces or tabs) and newlines (LF or CRLF).
fn object_text() -> impl Strategy<Value = String> {
    let leaf = scalar();
    let value = leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(|v| format!("[{}]", v.join(", "))),
            prop::collection::vec(("[a-z]{1,8}", inner), 0..4).prop_map(|kv| {
                let body: Vec<String> = kv
                    .into_iter()
                    .map(|(k, v)| format!("\"{k}\": {v}"))
                    .collect();
                format!("{{{}}}", body.join(", "))
            }),
        ]
    });
    (
        prop::collection::btree_map("[a-z]{1,8}", value, 0..6),
        prop_oneof![Just("  "), Just("\t"), Just("    ")],
        prop_oneof![Just("\n"), Just("\r\n")],
        any::<bool>(),
    )
        .prop_map(|(map, indent, nl, final_newline)| {
            let body: Vec<String> = map
                .into_iter()
                .map(|(k, v)| format!("{indent}\"{k}\": {v}"))
                .collect();
            let sep = format!(",{nl}");
            let mut text = if body.is_empty() {
                "{}".to_string()
            } else {
                format!("{{{nl}{}{nl}}}", body.join(&sep))
            };
            if final_newline {
                text.push_str(nl);
            }
            text
        })
}

fn toml_text() -> impl Strategy<Value = String> {
    let value = prop_oneof![
        "-?[1-9][0-9]{0,9}".prop_map(|s| s),
        "[a-zA-Z0-9 é'_-]{0,10}".prop_map(|s| format!("\"{s}\"")),
        "[a-z]{0,6}".prop_map(|s| format!("'{s}'")),
        Just("[1, 2]".to_string()),
        Just("{ a = 1 }".to_string()),
    ];
    (
        prop::collection::btree_map("[a-z]{1,6}", value.clone(), 0..4),
        prop::collection::btree_map(
            "[a-z]{1,6}",
            prop::collection::btree_map("[a-z]{1,6}", value, 0..3),
            0..3,
        ),
        any::<bool>(),
        prop_oneof![Just(""), Just("# a comment\n")],
    )
        .prop_map(|(top, tables, final_newline, comment)| {
            let mut text = comment.to_string();
            for (k, v) in top {
                text.push_str(&format!("{k} = {v}\n"));
            }
            for (name, kv) in tables {
                text.push_str(&format!("\n[t_{name}]\n"));
                for (k, v) in kv {
                    text.push_str(&format!("{k} = {v}\n"));
                }
            }
            if !final_newline && text.ends_with('\n') {
                text.pop();
            }
            text
        })
}

/// An rc file: lines of shell code, comments (conda's and other tools' `# >>> … >>>` blocks among them),
/// blank lines, LF or CRLF, with or without a final newline.
fn rc_text() -> impl Strategy<Value = String> {
    let line = prop_oneof![
        "(export|alias|set|setopt) [A-Za-z_]{1,8}=[a-z0-9 '\"$~/{}-]{0,20}",
        "# [ -~]{0,30}",
        Just("# >>> conda initialize >>>".to_string()),
        Just("  eval \"$(zoxide init zsh)\"".to_string()),
        Just(String::new()),
        "[ \t]{1,3}",
    ];
    (
        proptest::collection::vec(line, 0..12),
        prop_oneof![Just("\n"), Just("\r\n")],
        any::<bool>(),
    )
        .prop_map(|(lines, eol, last)| {
            let mut text = lines.join(eol);
            if last && !text.is_empty() {
                text.push_str(eol);
            }
            text
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn rc_apply_appends_refreshes_in_place_and_remove_restores(
        original in rc_text(),
        rc in prop_oneof![Just(files::ZSHRC), Just(files::BASHRC), Just(files::FISH_CONFIG), Just(files::BASH_LOGIN[2])],
        tail in rc_text(),
    ) {
        let applied = shell_rc::apply(rc, Some(&original), "/old/agterm-backup").unwrap();
        prop_assert!(applied.starts_with(&original));
        let removed = shell_rc::remove(rc, &applied).unwrap();
        if original.is_empty() || original.ends_with('\n') {
            prop_assert_eq!(&removed, &original);
        } else {
            prop_assert_eq!(&removed, &format!("{original}\n"));
        }
        // The user's lines after our block, then a moved binary: only our line changes.
        let edited = format!("{applied}{tail}");
        let refreshed = shell_rc::apply(rc, Some(&edited), "/opt/x y/agterm-backup").unwrap();
        prop_assert_eq!(
            &refreshed,
            &edited.replace(&rc.line("/old/agterm-backup"), &rc.line("/opt/x y/agterm-backup"))
        );
        prop_assert_eq!(shell_rc::apply(rc, Some(&refreshed), "/opt/x y/agterm-backup").unwrap(), refreshed.clone());
        prop_assert_eq!(shell_rc::remove(rc, &refreshed).unwrap(), format!("{removed}{tail}"));
    }

    #[test]
    fn json_apply_keeps_every_byte_and_remove_restores(original in object_text()) {
        let applied = json_hooks::apply(Some(&original), "claude", CLAUDE).unwrap();
        prop_assert!(is_subsequence(&original, &applied), "lost bytes:\n{original}\n=>\n{applied}");
        prop_assert_eq!(json_hooks::apply(Some(&applied), "claude", CLAUDE).unwrap(), applied.clone());
        let states = json_hooks::inspect(Some(&applied), "claude", CLAUDE).unwrap();
        prop_assert!(states.iter().all(|s| s.place.as_ref().is_some_and(|p| p.current)));
        let removed = json_hooks::remove(&applied, "claude").unwrap();
        let squeeze = |s: &str| s.chars().filter(|c| !c.is_whitespace()).collect::<String>();
        prop_assert_eq!(squeeze(&removed), squeeze(&original));
        if original.contains('\r') {
            prop_assert!(!applied.replace("\r\n", "").contains('\n'), "mixed newlines: {applied:?}");
        }
    }

    #[test]
    fn toml_apply_appends_and_remove_restores(original in toml_text()) {
        let applied = codex_toml::apply(Some(&original), CODEX).unwrap();
        prop_assert!(applied.starts_with(&original));
        prop_assert_eq!(codex_toml::apply(Some(&applied), CODEX).unwrap(), applied.clone());
        let removed = codex_toml::remove(&applied, &[]).unwrap();
        if original.is_empty() || original.ends_with('\n') {
            prop_assert_eq!(removed, original);
        } else {
            prop_assert_eq!(removed, format!("{original}\n"));
        }
    }
}
