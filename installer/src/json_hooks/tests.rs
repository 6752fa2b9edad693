use super::*;
use crate::OUR_EVENTS;

const CMD: &str = "'/opt/bin/agterm-backup' hook claude";

fn is_subsequence(small: &str, big: &str) -> bool {
    let mut it = big.chars();
    small.chars().all(|c| it.any(|b| b == c))
}

#[test]
fn adds_one_group_per_event_to_an_absent_file() {
    let out = apply(None, "claude", CMD).unwrap();
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    for event in OUR_EVENTS {
        let groups = v["hooks"][event].as_array().unwrap();
        assert_eq!(groups.len(), 1);
        assert_eq!(groups[0]["hooks"][0]["command"], CMD);
        assert_eq!(groups[0]["hooks"][0]["timeout"], 10);
        assert_eq!(groups[0]["hooks"][0]["type"], "command");
    }
    assert!(out.ends_with("}\n"));
}

#[test]
fn keeps_tabs_numbers_escapes_and_crlf() {
    let original = "{\r\n\t\"big\": 12345678901234567890,\r\n\t\"inf\": 1e400,\r\n\t\"url\": \"https:\\/\\/x\",\r\n\t\"hooks\": {\r\n\t\t\"Stop\": [\r\n\t\t\t{\"hooks\": [{\"type\": \"command\", \"command\": \"other\"}]}\r\n\t\t]\r\n\t}\r\n}";
    let out = apply(Some(original), "claude", CMD).unwrap();
    assert!(is_subsequence(original, &out), "{out}");
    assert!(
        out.contains("12345678901234567890")
            && out.contains("1e400")
            && out.contains("https:\\/\\/x")
    );
    assert!(
        !out.replace("\r\n", "").contains('\n'),
        "only CRLF newlines: {out:?}"
    );
    assert!(
        out.contains("\n\t\t\t{\r\n") || out.contains("\t\t\t{"),
        "tab indentation: {out}"
    );
    assert!(!out.ends_with('\n'));
    // The foreign Stop group stays first; ours is appended after it.
    // serde_json cannot hold 1e400; the rest of the structure is what matters here.
    let v: serde_json::Value = serde_json::from_str(&out.replace("1e400", "1")).unwrap();
    assert_eq!(v["hooks"]["Stop"][0]["hooks"][0]["command"], "other");
    assert_eq!(v["hooks"]["Stop"][1]["hooks"][0]["command"], CMD);
}

#[test]
fn second_apply_changes_nothing_and_stale_path_is_refreshed_in_place() {
    let once = apply(Some("{\"a\": 1}\n"), "claude", CMD).unwrap();
    assert_eq!(apply(Some(&once), "claude", CMD).unwrap(), once);
    let moved = "'/new place/agterm-backup' hook claude";
    let refreshed = apply(Some(&once), "claude", moved).unwrap();
    assert_eq!(refreshed, once.replace(CMD, moved));
    let states = inspect(Some(&refreshed), "claude", moved).unwrap();
    assert!(states.iter().all(|s| s.place.as_ref().unwrap().current));
    let stale = inspect(Some(&once), "claude", moved).unwrap();
    assert!(stale.iter().all(|s| !s.place.as_ref().unwrap().current));
    assert_eq!(
        stale[0].place.as_ref().unwrap().binary,
        "/opt/bin/agterm-backup"
    );
}

#[test]
fn remove_takes_out_only_ours() {
    let original = "{\n  \"hooks\": {\n    \"Stop\": [\n      {\n        \"hooks\": [\n          {\"type\": \"command\", \"command\": \"'/u/.config/agterm/agent-status/agterm-agent-status.sh' completed --auto-reset\"}\n        ]\n      }\n    ]\n  }\n}\n";
    let applied = apply(Some(original), "claude", CMD).unwrap();
    assert_eq!(remove(&applied, "claude").unwrap(), original);
    // Another agent's entry of ours is not touched by the claude editor.
    let codex_cmd = "'/opt/bin/agterm-backup' hook codex";
    let both = apply(Some(&applied), "codex", codex_cmd).unwrap();
    let without_claude = remove(&both, "claude").unwrap();
    assert!(without_claude.contains(codex_cmd) && !without_claude.contains(CMD));
}

#[test]
fn our_handler_sharing_a_group_is_removed_alone() {
    let text = format!(
        "{{\"hooks\": {{\"Stop\": [{{\"matcher\": \"\", \"hooks\": [{{\"type\": \"command\", \"command\": \"keep\"}}, {{\"type\": \"command\", \"command\": \"{}\"}}]}}]}}}}",
        CMD
    );
    let out = remove(&text, "claude").unwrap();
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["hooks"]["Stop"][0]["hooks"].as_array().unwrap().len(), 1);
    assert_eq!(v["hooks"]["Stop"][0]["hooks"][0]["command"], "keep");
}

#[test]
fn refuses_comments_trailing_commas_and_non_objects_with_position() {
    let jsonc = "{\n  // my settings\n  \"a\": 1\n}\n";
    let r = apply(Some(jsonc), "claude", CMD).unwrap_err();
    assert_eq!((r.line, r.column), (2, 3), "{r:?}");
    let trailing = "{\n  \"a\": 1,\n}\n";
    let r = apply(Some(trailing), "claude", CMD).unwrap_err();
    assert_eq!(r.line, 2, "{r:?}");
    let r = apply(Some("[1, 2]\n"), "claude", CMD).unwrap_err();
    assert_eq!((r.line, r.column), (1, 1));
    assert!(r.reason.contains("not a JSON object"));
    let r = apply(Some("{\n  \"hooks\": []\n}"), "claude", CMD).unwrap_err();
    assert_eq!((r.line, r.column), (2, 12), "{r:?}");
    let r = apply(Some("{\"hooks\": {\"Stop\": {}}}"), "claude", CMD).unwrap_err();
    assert!(r.reason.contains("Stop"), "{r:?}");
}

#[test]
fn empty_and_whitespace_files_count_as_empty_objects() {
    for text in ["", "  \n", "\n\n"] {
        let out = apply(Some(text), "claude", CMD).unwrap();
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["hooks"].as_object().unwrap().len(), OUR_EVENTS.len());
        assert_eq!(remove(text, "claude").unwrap(), text);
    }
}

#[test]
fn a_bom_is_kept_for_claude_and_refused_for_codex() {
    let with_bom = "\u{feff}{\n  \"model\": \"opus\"\n}\n";
    let out = apply(Some(with_bom), "claude", CMD).unwrap();
    assert!(out.starts_with("\u{feff}{\n  \"model\""), "{out:?}");
    assert_eq!(remove(&out, "claude").unwrap(), with_bom);
    let r = apply(
        Some(with_bom),
        "codex",
        "'/opt/bin/agterm-backup' hook codex",
    )
    .unwrap_err();
    assert!(r.reason.contains("byte-order mark"), "{r:?}");
}

#[test]
fn a_duplicate_hooks_key_is_refused_at_the_duplicate() {
    let twice = "{\n  \"hooks\": {},\n  \"model\": \"x\",\n  \"hooks\": {\"Stop\": []}\n}\n";
    let r = apply(Some(twice), "claude", CMD).unwrap_err();
    assert_eq!(r.line, 4, "{r:?}");
    let event_twice = "{\"hooks\": {\"Stop\": [], \"Stop\": []}}";
    assert!(apply(Some(event_twice), "claude", CMD).is_err());
}

#[test]
fn every_stale_entry_of_ours_but_one_goes() {
    let two_stale = "{\"hooks\": {\"Stop\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"'/old/a/agterm-backup' hook claude\"}]}, {\"hooks\": [{\"type\": \"command\", \"command\": \"agterm-backup hook claude\"}, {\"type\": \"command\", \"command\": \"say done\"}]}]}}".to_string();
    let stop = |t: &str| {
        inspect(Some(t), "claude", CMD)
            .unwrap()
            .into_iter()
            .find(|s| s.event == "Stop")
            .unwrap()
    };
    assert_eq!(stop(&two_stale).runs, 2);
    let out = apply(Some(&two_stale), "claude", CMD).unwrap();
    assert_eq!(stop(&out).runs, 1, "{out}");
    assert!(stop(&out).place.unwrap().current);
    assert!(out.contains("say done"), "{out}");
    assert_eq!(apply(Some(&out), "claude", CMD).unwrap(), out);
}

#[test]
fn a_one_line_file_stays_on_one_line_and_the_cut_gives_it_back() {
    for original in [
        "{\"a\":1}",
        "{\"a\":1,\"hooks\":{}}",
        "{ \"a\": [1, 2], \"hooks\": {\"Stop\": []} }",
        "\u{feff}{\"model\":\"opus\"}",
    ] {
        let applied = apply(Some(original), "claude", CMD).unwrap();
        assert!(!applied.contains('\n'), "{applied}");
        assert_eq!(apply(Some(&applied), "claude", CMD).unwrap(), applied);
        let cut = remove(&applied, "claude").unwrap();
        let squeeze = |s: &str| s.chars().filter(|c| !c.is_whitespace()).collect::<String>();
        assert_eq!(
            squeeze(&cut),
            squeeze(original)
                .replace(",\"hooks\":{}", "")
                .replace(",\"hooks\":{\"Stop\":[]}", ""),
            "{cut}"
        );
        assert!(!cut.contains('\n'), "{cut}");
    }
}
