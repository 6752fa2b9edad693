use super::*;

fn cmd(agent: &str) -> String {
    format!("'/opt/bin/agterm-backup' hook {agent}")
}

/// A Gemini settings file as people keep them: comments, their own hooks (a Claude-style group with a
/// matcher on BeforeTool), `hooksConfig`, CRLF line ends.
const GEMINI_REAL: &str = "{\r\n  // my settings\r\n  \"security\": {\"auth\": {\"selectedType\": \"gemini-api-key\"}},\r\n  \"ui\": { \"theme\": \"GitHub\" }, /* keep */\r\n  \"hooksConfig\": {\"enabled\": true},\r\n  \"hooks\": {\r\n    \"BeforeTool\": [\r\n      {\"matcher\": \"write_file|replace\", \"hooks\": [{\"type\": \"command\", \"name\": \"fmt\", \"command\": \"~/bin/fmt.sh\", \"timeout\": 30000}]}\r\n    ]\r\n  }\r\n}\r\n";

const QWEN_REAL: &str = r#"{
	"security": {"auth": {"selectedType": "openai"}},
	"model": {"name": "qwen3-coder-plus"},
	"hooks": {
		"Stop": [{"matcher": "*", "hooks": [{"type": "command", "command": "notify-send done", "timeout": 5000}]}],
		"PostToolUse": [{"hooks": [{"type": "http", "url": "http://127.0.0.1:9/x"}]}]
	},
	"url": "https:\/\/example.com", "big": 12345678901234567890
}"#;

const COPILOT_REAL: &str = r#"{"version": 1, "hooks": {"preToolUse": [{"type": "command", "bash": "./audit.sh", "timeoutSec": 30}],
  "SessionStart": [{"type": "command", "bash": "echo hi >> ~/log", "cwd": "/tmp", "env": {"A": "1"}}]}}
"#;

fn json(text: &str) -> serde_json::Value {
    let no_comments: String = text
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
        .replace("/* keep */", "");
    serde_json::from_str(&no_comments).unwrap_or_else(|e| panic!("{e}: {text}"))
}

fn handlers<'a>(
    row: &HookFile,
    v: &'a serde_json::Value,
    event: &str,
) -> Vec<&'a serde_json::Value> {
    let entries = v[row.hooks_key][event]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or(&[]);
    match row.nesting {
        Nesting::Flat => entries.iter().collect(),
        Nesting::Grouped => entries
            .iter()
            .flat_map(|g| g["hooks"].as_array().map(Vec::as_slice).unwrap_or(&[]))
            .collect(),
    }
}

#[test]
fn an_absent_file_gets_one_handler_per_event_in_the_agents_shape() {
    for row in HOOK_FILES {
        let out = apply(row, None, &cmd(row.agent)).unwrap();
        let v = json(&out);
        for &event in row.events {
            let ours = handlers(row, &v, event);
            assert_eq!(ours.len(), 1, "{}: {out}", row.agent);
            assert_eq!(ours[0][row.command_key], cmd(row.agent).as_str());
            assert_eq!(ours[0]["type"], "command");
        }
        assert!(has_ours(row, &out));
    }
    let copilot = apply(&COPILOT, None, &cmd("copilot")).unwrap();
    assert!(
        copilot.trim_start().starts_with("{\n  \"version\": 1"),
        "{copilot}"
    );
    assert_eq!(json(&copilot)["hooks"]["Stop"][0]["timeoutSec"], 10);
    let gemini = json(&apply(&GEMINI, None, &cmd("gemini")).unwrap());
    assert_eq!(gemini["hooks"]["BeforeAgent"][0]["matcher"], "*");
    assert_eq!(
        gemini["hooks"]["AfterAgent"][0]["hooks"][0]["timeout"],
        10000
    );
    assert_eq!(
        gemini["hooks"]["SessionStart"][0]["hooks"][0]["name"],
        "agterm-backup"
    );
}

#[test]
fn real_world_files_keep_every_byte_and_remove_gives_them_back() {
    for (row, original) in [
        (&GEMINI, GEMINI_REAL),
        (&QWEN, QWEN_REAL),
        (&COPILOT, COPILOT_REAL),
    ] {
        let c = cmd(row.agent);
        let out = apply(row, Some(original), &c).unwrap();
        let mut rest = out.as_str();
        for ch in original.chars() {
            let at = rest
                .find(ch)
                .unwrap_or_else(|| panic!("{}: lost {ch:?}:\n{out}", row.agent));
            rest = &rest[at + ch.len_utf8()..];
        }
        let v = json(&out);
        for &event in row.events {
            let ours: Vec<_> = handlers(row, &v, event)
                .into_iter()
                .filter(|h| h[row.command_key] == c.as_str())
                .collect();
            assert_eq!(ours.len(), 1, "{} {event}: {out}", row.agent);
        }
        assert_eq!(
            apply(row, Some(&out), &c).unwrap(),
            out,
            "{}: idempotent",
            row.agent
        );
        // Only our entries go (exact bytes come back through the engine's backup rule).
        let removed = remove(row, &out).unwrap();
        assert_eq!(json(&removed), json(original), "{}: {removed}", row.agent);
        assert!(!has_ours(row, &removed));
        assert_eq!(remove(row, original).unwrap(), original);
        assert!(!has_ours(row, original));
    }
    // The user's own handler of the same event stays first; ours comes after it.
    let out = apply(&QWEN, Some(QWEN_REAL), &cmd("qwen")).unwrap();
    let stop = &json(&out)["hooks"]["Stop"];
    assert_eq!(stop[0]["hooks"][0]["command"], "notify-send done");
    assert_eq!(stop[1]["hooks"][0]["command"], cmd("qwen").as_str());
    assert!(apply(&GEMINI, Some(GEMINI_REAL), &cmd("gemini"))
        .unwrap()
        .contains("/* keep */"));
}

#[test]
fn a_moved_binary_is_refreshed_in_place() {
    for row in HOOK_FILES {
        let once = apply(row, Some("{\"a\": 1}\n"), &cmd(row.agent)).unwrap();
        let moved = format!("'/new place/agterm-backup' hook {}", row.agent);
        let refreshed = apply(row, Some(&once), &moved).unwrap();
        assert_eq!(refreshed, once.replace(&cmd(row.agent), &moved));
        let states = inspect(row, Some(&refreshed), &moved).unwrap();
        assert!(states
            .iter()
            .all(|s| s.place.as_ref().is_some_and(|p| p.current)));
        let stale = inspect(row, Some(&once), &moved).unwrap();
        assert!(stale
            .iter()
            .all(|s| s.place.as_ref().is_some_and(|p| !p.current)));
        // Another agent's hook command is not ours.
        assert!(!has_ours(
            row,
            &once.replace(&format!("hook {}", row.agent), "hook claude")
        ));
    }
}

#[test]
fn files_the_agent_would_not_read_are_refused() {
    let bad = [
        ("{\"a\": 1,}", "not strict JSON"),
        ("{\"hooks\": []}", "\"hooks\" is not an object"),
        ("[1]", "not a JSON object"),
        ("{\"hooks\": {\"SessionStart\": {}}}", "is not an array"),
        ("{\"a\": \"tab\there\"}", "control character"),
    ];
    for row in HOOK_FILES {
        for (text, why) in bad {
            // agy's events are under our own name, not `hooks`.
            let key = format!("\"{}\"", row.hooks_key);
            let (text, why) = (
                text.replace("\"hooks\"", &key),
                why.replace("\"hooks\"", &key),
            );
            let (text, why) = (text.as_str(), why.as_str());
            let err = apply(row, Some(text), &cmd(row.agent)).unwrap_err().reason;
            assert!(err.contains(why), "{} {text:?}: {err}", row.agent);
            assert!(
                remove(row, text).is_err() || !text.contains(row.hooks_key),
                "{text}"
            );
        }
    }
    // Copilot reads its hook files as plain JSON: a comment is refused there, kept for Gemini and Qwen.
    let commented = "{\n  // mine\n  \"a\": 1\n}\n";
    assert!(apply(&COPILOT, Some(commented), &cmd("copilot")).is_err());
    assert!(apply(&GEMINI, Some(commented), &cmd("gemini"))
        .unwrap()
        .contains("// mine"));
}

#[test]
fn paths_follow_each_agents_home_variable() {
    let home = std::path::Path::new("/h");
    let none = |_: &str| None;
    assert_eq!(
        GEMINI.path(none, home),
        PathBuf::from("/h/.gemini/settings.json")
    );
    assert_eq!(
        QWEN.path(none, home),
        PathBuf::from("/h/.qwen/settings.json")
    );
    assert_eq!(
        COPILOT.path(none, home),
        PathBuf::from("/h/.copilot/hooks/agterm-backup.json")
    );
    let set = |k: &str| Some(format!("/env/{k}"));
    assert_eq!(
        GEMINI.path(set, home),
        PathBuf::from("/env/GEMINI_CLI_HOME/.gemini/settings.json")
    );
    assert_eq!(
        QWEN.path(set, home),
        PathBuf::from("/env/QWEN_HOME/settings.json")
    );
    assert_eq!(
        COPILOT.path(set, home),
        PathBuf::from("/env/COPILOT_HOME/hooks/agterm-backup.json")
    );
    assert_eq!(hook_file("qwen"), Some(&QWEN));
    assert_eq!(hook_file("claude"), None);
}
