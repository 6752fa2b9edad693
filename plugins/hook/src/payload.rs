//! The hook's stdin payload: the few fields the record needs, read leniently (agents add fields freely).

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
        Ok(Payload {
            session_id: text("session_id")
                .ok_or_else(|| "payload has no session_id string".to_string())?,
            transcript_path: text("transcript_path"),
            cwd: text("cwd"),
            hook_event_name: text("hook_event_name"),
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
