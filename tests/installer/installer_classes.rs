//! One case per class of issue 12, through the real binary on corpus files: trust records of other
//! sources survive `remove`, `remove` after an edit is exact, the agent's reading decides (BOM, duplicate
//! keys), our hook ends up once per event whatever form it had, damaged markers and the user's content
//! between them are the user's, and the messages lead somewhere.

use crate::installer_common::*;
use agterm_backup_installer::{codex_toml, json_hooks, OUR_EVENTS};
use std::path::Path;

fn corpus(name: &str) -> Vec<u8> {
    std::fs::read(corpus_dir().join(name)).unwrap()
}

fn put(path: &Path, bytes: &[u8]) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, bytes).unwrap();
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap()
}

fn ok(out: &std::process::Output) {
    assert!(
        out.status.success(),
        "{}{}",
        text(&out.stdout),
        text(&out.stderr)
    );
}

const CODEX: [&str; 5] = ["installer", "apply", "--agents", "codex", "--no-denylist"];
const CLAUDE: [&str; 5] = ["installer", "apply", "--agents", "claude", "--no-denylist"];

#[test]
fn class_1_trust_records_of_other_sources_survive_a_cutting_remove() {
    let s = Sandbox::new();
    let original = corpus("codex-toml/trust-of-other-sources.toml");
    put(&s.codex_config(), &original);
    ok(&s.run(&CODEX));
    // What Codex's "Trust all" files for our hooks, plus records at the same positions for other sources
    // (a plugin's hooks.json, another hooks.json), and an edit of the user's so that remove must cut.
    let config = s.codex_config().display().to_string();
    let mut trusted = String::from("# edited after apply\n") + &read(&s.codex_config());
    let mut others = String::new();
    for event in OUR_EVENTS {
        let label = agterm_backup_installer::codex_event_label(event);
        trusted.push_str(&format!(
            "\n[hooks.state.\"{config}:{label}:0:0\"]\ntrusted_hash = \"sha256:ours\"\n"
        ));
        others.push_str(&format!(
            "\n[hooks.state.\"/Users/me/.codex/plugins/cache/x/hooks.json:{label}:0:0\"]\ntrusted_hash = \"sha256:theirs\"\n"
        ));
    }
    trusted.push_str(&others);
    std::fs::write(s.codex_config(), &trusted).unwrap();
    ok(&s.run(&["installer", "remove"]));
    let after = read(&s.codex_config());
    let want = format!(
        "# edited after apply\n{}{others}",
        String::from_utf8(original).unwrap()
    );
    assert_eq!(after, want);
}

#[test]
fn class_1_a_config_toml_codex_made_only_for_our_trust_goes_with_our_hooks_json_entries() {
    let s = Sandbox::new();
    put(
        &s.codex_hooks_json(),
        &corpus("codex-hooks-json/hooks-json-foreign.json"),
    );
    ok(&s.run(&CODEX));
    let positions = json_hooks::our_positions(&read(&s.codex_hooks_json()), "codex").unwrap();
    assert_eq!(positions.len(), OUR_EVENTS.len());
    let source = s.codex_hooks_json().display().to_string();
    let trust: String = positions
        .iter()
        .map(|(e, g, h)| {
            format!(
                "[hooks.state.\"{source}:{}:{g}:{h}\"]\ntrusted_hash = \"sha256:x\"\n\n",
                agterm_backup_installer::codex_event_label(e)
            )
        })
        .collect();
    std::fs::write(s.codex_config(), &trust).unwrap();
    ok(&s.run(&["installer", "remove"]));
    assert_eq!(
        std::fs::read(s.codex_hooks_json()).unwrap(),
        corpus("codex-hooks-json/hooks-json-foreign.json")
    );
    assert!(
        !s.codex_config().exists(),
        "config.toml held only our trust: {:?}",
        std::fs::read_to_string(s.codex_config())
    );
}

/// apply, a user edit, remove: the file is the original plus the edit, byte for byte.
fn exact_after_edit(
    name: &str,
    path: fn(&Sandbox) -> std::path::PathBuf,
    args: &[&str],
    edit: fn(&str) -> String,
) {
    let s = Sandbox::new();
    let original = String::from_utf8(corpus(name)).unwrap();
    put(&path(&s), original.as_bytes());
    ok(&s.run(args));
    let applied = read(&path(&s));
    std::fs::write(path(&s), edit(&applied)).unwrap();
    ok(&s.run(&["installer", "remove"]));
    assert_eq!(read(&path(&s)), edit(&original), "{name}");
}

#[test]
fn class_3_remove_after_an_edit_gives_back_exactly_the_users_file() {
    // An empty "Stop": [] of the user's, trailing spaces, no final newline.
    exact_after_edit(
        "claude/empty-hooks-and-stop-kept.json",
        Sandbox::claude_settings,
        &CLAUDE,
        |t| t.replacen("\"sonnet\"", "\"opus\"", 1),
    );
    // Minified, with an empty "hooks": {}.
    exact_after_edit(
        "claude/minified-with-plugins.json",
        Sandbox::claude_settings,
        &CLAUDE,
        |t| {
            t.replacen(
                "\"alwaysThinkingEnabled\":true",
                "\"alwaysThinkingEnabled\":false",
                1,
            )
        },
    );
    // TOML without a final newline.
    exact_after_edit(
        "codex-toml/profiles-no-final-newline.toml",
        Sandbox::codex_config,
        &CODEX,
        |t| format!("# mine\n{t}"),
    );
}

#[test]
fn class_4_the_agents_reading_decides() {
    // A BOM: Claude Code reads the file, so we edit it and keep the BOM.
    let s = Sandbox::new();
    put(&s.claude_settings(), &corpus("claude/bom-settings.json"));
    ok(&s.run(&CLAUDE));
    let applied = std::fs::read(s.claude_settings()).unwrap();
    assert!(applied.starts_with("\u{feff}{".as_bytes()));
    assert!(text(&applied).contains("hook claude"));
    // The same file as Codex's hooks.json: Codex rejects it, so do we.
    let s = Sandbox::new();
    put(
        &s.codex_hooks_json(),
        &corpus("codex-hooks-json/refused-bom-hooks.json"),
    );
    let out = s.run(&CODEX);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("byte-order mark"),
        "{}",
        text(&out.stderr)
    );
    // "hooks" twice: the agent reads the last; refused at the line of the duplicate.
    let s = Sandbox::new();
    put(
        &s.claude_settings(),
        &corpus("claude/refused-duplicate-hooks-key.json"),
    );
    let out = s.run(&CLAUDE);
    assert_eq!(out.status.code(), Some(2));
    let want = format!("{}:6:", s.claude_settings().display());
    assert!(text(&out.stderr).contains(&want), "{}", text(&out.stderr));
    // Deep nesting that the agent accepts is accepted.
    let s = Sandbox::new();
    put(&s.claude_settings(), &corpus("claude/deep-nesting.json"));
    ok(&s.run(&CLAUDE));
}

fn status_of(s: &Sandbox, target: &str) -> serde_json::Value {
    let out = s.run(&["installer", "status", "--json"]);
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["v"], 1, "installer status --json has its version");
    report["targets"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["target"] == target)
        .unwrap()
        .clone()
}

#[test]
fn class_5_one_hook_per_event_whatever_was_there() {
    let s = Sandbox::new();
    put(
        &s.claude_settings(),
        &corpus("claude/two-stale-ours-and-bare.json"),
    );
    put(&s.codex_config(), &corpus("codex-toml/ours-by-hand.toml"));
    assert_eq!(status_of(&s, "claude")["state"], "duplicate");
    assert_eq!(status_of(&s, "codex")["state"], "duplicate");
    ok(&s.run(&["installer", "apply", "--no-denylist"]));
    let claude = read(&s.claude_settings());
    let codex = read(&s.codex_config());
    for state in json_hooks::inspect(Some(&claude), "claude", "")
        .unwrap()
        .into_iter()
        .chain(codex_toml::inspect(Some(&codex), "").unwrap())
    {
        assert_eq!(state.runs, 1, "{}: {claude}\n{codex}", state.event);
    }
    assert!(claude.contains("afplay") && codex.contains("terminal-notifier"));
    assert_eq!(status_of(&s, "claude")["state"], "present");
    assert_eq!(status_of(&s, "codex")["state"], "present");
}

#[test]
fn class_6_damaged_markers_and_the_users_lines_between_them() {
    let s = Sandbox::new();
    put(&s.denylist(), &corpus("denylist/lone-end-marker.conf"));
    put(
        &s.codex_config(),
        &corpus("codex-toml/user-group-inside-block.toml"),
    );
    let args = ["installer", "apply", "--agents", "codex"];
    let first = s.run(&args);
    ok(&first);
    assert!(
        text(&first.stdout).contains("note:"),
        "{}",
        text(&first.stdout)
    );
    let (deny, config) = (read(&s.denylist()), read(&s.codex_config()));
    ok(&s.run(&args));
    assert_eq!(read(&s.denylist()), deny, "a second apply adds no block");
    assert_eq!(read(&s.codex_config()), config);
    assert_eq!(deny.matches(agterm_backup_denylist::BLOCK_START).count(), 1);
    assert!(config.contains("say codex finished"), "{config}");
    ok(&s.run(&["installer", "remove"]));
    assert_eq!(
        std::fs::read(s.denylist()).unwrap(),
        corpus("denylist/lone-end-marker.conf")
    );
    assert!(read(&s.codex_config()).contains("say codex finished"));
}
