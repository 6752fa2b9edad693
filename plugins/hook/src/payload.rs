//! The hook's stdin payload: the few fields the record needs, read leniently (agents add fields freely).
//! Antigravity CLI (`agy`) sends protojson instead of snake_case: `conversationId`, `workspacePaths` (its
//! first is the conversation's directory), `transcriptPath`, `hookEventName`; they are read as the same
//! fields when the snake_case ones are absent.

use serde_json::Value;

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Payload {
    pub session_id: String,
    pub transcript_path: Option<String>,
    pub cwd: Option<String>,
    pub hook_event_name: Option<String>,
    /// SessionStart only: `startup`, `resume`, `clear`, `compact`, `fork`.
    pub source: Option<String>,
    /// SessionEnd only: why the conversation ended (see `record::ended_by_user`).
    pub reason: Option<String>,
}

impl Payload {
    /// Parses a payload; the error says what was wrong, for the log.
    pub fn parse(bytes: &[u8]) -> Result<Payload, String> {
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return Err("empty payload on stdin".into());
        }
        let value: Value = serde_json::from_slice(bytes)
            .map_err(|e| format!("payload is not JSON ({e}, {} bytes)", bytes.len()))?;
        let obj = value
            .as_object()
            .ok_or_else(|| "payload is not a JSON object".to_string())?;
        let text = |k: &str| {
            obj.get(k)
                .and_then(Value::as_str)
                .filter(|s| !s.is_empty())
                .map(String::from)
        };
        let first_workspace = || {
            obj.get("workspacePaths")
                .and_then(Value::as_array)
                .and_then(|a| a.first())
                .and_then(Value::as_str)
                .filter(|s| !s.is_empty())
                .map(String::from)
        };
        Ok(Payload {
            session_id: text("session_id")
                .or_else(|| text("conversationId"))
                .ok_or_else(|| "payload has no session_id string".to_string())?,
            transcript_path: text("transcript_path").or_else(|| text("transcriptPath")),
            cwd: text("cwd").or_else(first_workspace),
            hook_event_name: text("hook_event_name").or_else(|| text("hookEventName")),
            source: text("source"),
            reason: text("reason"),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_a_claude_session_start() {
        let p = Payload::parse(
            br#"{"session_id":"77e8","transcript_path":"/h/.claude/projects/-tmp-p/77e8.jsonl",
                "cwd":"/tmp/p","hook_event_name":"SessionStart","source":"startup","model":"m"}"#,
        )
        .unwrap();
        assert_eq!(p.session_id, "77e8");
        assert_eq!(p.source.as_deref(), Some("startup"));
        assert_eq!(p.cwd.as_deref(), Some("/tmp/p"));
    }

    #[test]
    fn parses_a_claude_session_end() {
        let p = Payload::parse(
            br#"{"session_id":"4746","transcript_path":"/h/t.jsonl","cwd":"/tmp/p","prompt_id":"9d",
                "hook_event_name":"SessionEnd","reason":"prompt_input_exit"}"#,
        )
        .unwrap();
        assert_eq!(p.hook_event_name.as_deref(), Some("SessionEnd"));
        assert_eq!(p.reason.as_deref(), Some("prompt_input_exit"));
    }

    #[test]
    fn parses_an_agy_protojson_payload() {
        let p = Payload::parse(
            br#"{"conversationId":"ec33ebf9-0cba-4100-8142-c61503f6c587","workspacePaths":["/tmp/p","/tmp/q"],
                "transcriptPath":"/h/.gemini/antigravity-cli/brain/ec33/t.jsonl","hookEventName":"SessionStart"}"#,
        )
        .unwrap();
        assert_eq!(p.session_id, "ec33ebf9-0cba-4100-8142-c61503f6c587");
        assert_eq!(p.cwd.as_deref(), Some("/tmp/p"));
        assert_eq!(p.hook_event_name.as_deref(), Some("SessionStart"));
        assert!(p.transcript_path.unwrap().ends_with("t.jsonl"));
        // Without an event name or workspaces (a Stop of an older agy), still a payload.
        let p = Payload::parse(br#"{"conversationId":"c1","workspacePaths":[]}"#).unwrap();
        assert_eq!(
            (p.session_id.as_str(), p.cwd, p.hook_event_name),
            ("c1", None, None)
        );
    }

    #[test]
    fn null_transcript_and_missing_fields_are_none() {
        let p = Payload::parse(br#"{"session_id":"x","transcript_path":null}"#).unwrap();
        assert_eq!(
            (p.transcript_path, p.cwd, p.hook_event_name),
            (None, None, None)
        );
    }

    #[test]
    fn refuses_junk() {
        for bad in [
            &b""[..],
            b"  \n",
            b"not json",
            b"[1,2]",
            br#"{"session_id":5}"#,
            b"{\"session_id\":\"a",
        ] {
            assert!(
                Payload::parse(bad).is_err(),
                "{:?}",
                String::from_utf8_lossy(bad)
            );
        }
    }
}
