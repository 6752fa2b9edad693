//! The live record: what the hook knows about the agent running in one pane.
//!
//! One JSON object per `live/<PANE-KEY>.json`, and the same object per line of the pane's journal
//! `live/<PANE-KEY>.history.jsonl`. Unknown keys are kept (`extra`), so an older reader never drops what a
//! newer writer added.

use crate::pane::{PaneRole, TerminalPane};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// The record format version written in `v`.
pub const RECORD_VERSION: u32 = 1;

/// Optional key (kept in [`LiveRecord::extra`], so every reader keeps it): the names of launch flags the
/// flag table does not know, dropped with their values instead of being replayed. Absent when none.
pub const DROPPED_FLAGS_KEY: &str = "dropped_flags";

/// The outcome of the last attempt to pin the pane's resume line with the terminal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PinOutcome {
    /// The terminal stored the line and will type it on its next launch.
    Ok,
    /// The terminal has no pins (an old version of it).
    Unsupported,
    /// Stored, but the terminal will not run it in its current mode (rerun setting off, Live, Fresh).
    SettingOff,
    /// The terminal could not be reached or refused the pin.
    Error,
}

mod end;
pub use end::*;

/// The pane's current live record. Field names are the on-disk contract (`design.md`). The default is no
/// record at all (version 0, no agent, no pane): what the hook fills in and its pane stamps.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct LiveRecord {
    pub v: u32,
    /// Agent name from the agent table (`claude`, `codex`, …).
    pub agent: String,
    /// The agent's conversation id, validated before it was written.
    pub session_id: String,
    /// The session id of the first registry row's terminal, whose panes a record's own fields name (the
    /// field's name is on disk since the first release), upper-case; empty for another terminal's pane.
    pub agterm_session: String,
    pub role: PaneRole,
    /// The pane's own token where its terminal gives one (persistent or per spawn, by its version).
    pub pane_id: Option<String>,
    pub transcript_path: Option<String>,
    /// The directory to resume from (the slug rule for Claude, the session cwd for Codex).
    pub agent_cwd: String,
    /// The payload's `cwd` (follows Claude's Bash `cd`; not the resume directory).
    pub hook_cwd: String,
    /// Launch flags to re-apply: positional words and session-entering flags already removed.
    pub flags: Vec<String>,
    pub agent_pid: Option<u32>,
    /// The hook event that wrote this record (`SessionStart`, `UserPromptSubmit`, `PreToolUse`, `Stop`).
    pub event: String,
    /// When written, UTC RFC 3339.
    pub ts: String,
    /// Which terminal the pane belongs to: a row's name in the registry. A terminal whose panes the
    /// fields above do not name keeps its pane under its own name ([`LiveRecord::terminal_pane`]).
    pub terminal: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub window_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub workspace_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pin: Option<PinOutcome>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pinned_line: Option<String>,
    /// Keys this version does not know, kept verbatim.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl LiveRecord {
    /// The identity this record keeps of its pane under its terminal's name (`terminal`): what the
    /// terminal's crate reads as its typed view. `None` for a terminal whose panes the record's own
    /// fields name, and for a record whose `terminal` is not `terminal`.
    pub fn terminal_pane(&self, terminal: &str) -> Option<&Value> {
        (self.terminal == terminal)
            .then(|| self.extra.get(terminal))
            .flatten()
    }

    /// Makes this the record of `pane`: `terminal` names its terminal, the identity sits under that name,
    /// and the fields that name a pane of the terminal the multiplexer was started from are empty.
    pub fn set_terminal_pane(&mut self, pane: &TerminalPane) {
        self.terminal = pane.terminal.as_str().to_string();
        self.agterm_session = String::new();
        self.role = PaneRole::Left;
        self.pane_id = None;
        self.window_id = None;
        self.workspace_id = None;
        self.extra
            .insert(pane.terminal.as_str().into(), pane.identity.clone());
    }

    /// The write time, if `ts` parses.
    pub fn written_at(&self) -> Option<chrono::DateTime<chrono::Utc>> {
        chrono::DateTime::parse_from_rfc3339(&self.ts)
            .ok()
            .map(|t| t.with_timezone(&chrono::Utc))
    }

    /// True when a journal line is due: the agent, its session id, its resume directory or its end
    /// changed (the journal rule must see a conversation the user ended).
    pub fn journal_worthy_change(previous: Option<&LiveRecord>, next: &LiveRecord) -> bool {
        match previous {
            None => true,
            Some(p) => {
                p.agent != next.agent
                    || p.session_id != next.session_id
                    || p.agent_cwd != next.agent_cwd
                    || p.end_reason() != next.end_reason()
            }
        }
    }

    /// The launch flags dropped because the flag table does not know them ([`DROPPED_FLAGS_KEY`]).
    pub fn dropped_flags(&self) -> Vec<String> {
        self.extra
            .get(DROPPED_FLAGS_KEY)
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(Value::as_str)
                    .map(String::from)
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Records `names` as the dropped launch flags; none removes the key.
    pub fn set_dropped_flags(&mut self, names: &[String]) {
        if names.is_empty() {
            self.extra.remove(DROPPED_FLAGS_KEY);
        } else {
            self.extra
                .insert(DROPPED_FLAGS_KEY.into(), Value::from(names.to_vec()));
        }
    }

    /// The `reason` of the agent's `SessionEnd` when this record was written by one (`None`: the
    /// conversation has not ended, and every record older than this field reads so).
    pub fn end_reason(&self) -> Option<&str> {
        self.extra.get(END_REASON_KEY).and_then(Value::as_str)
    }

    /// Sets or removes [`END_REASON_KEY`].
    /// Sets or removes [`END_REASON_KEY`]; removing it removes the end's terminal too.
    pub fn set_end_reason(&mut self, reason: Option<&str>) {
        match reason {
            Some(r) => self.extra.insert(END_REASON_KEY.into(), Value::from(r)),
            None => {
                self.extra.remove(END_TERMINAL_KEY);
                self.extra.remove(END_REASON_KEY)
            }
        };
    }

    /// The agent's terminal at the `SessionEnd` that wrote this record, where the hook looked.
    pub fn end_terminal(&self) -> Option<EndTerminal> {
        self.extra
            .get(END_TERMINAL_KEY)
            .and_then(Value::as_str)
            .and_then(EndTerminal::parse)
    }

    /// Sets or removes [`END_TERMINAL_KEY`].
    pub fn set_end_terminal(&mut self, terminal: Option<EndTerminal>) {
        match terminal {
            Some(t) => self
                .extra
                .insert(END_TERMINAL_KEY.into(), Value::from(t.as_str())),
            None => self.extra.remove(END_TERMINAL_KEY),
        };
    }

    /// True when the record says the user ended the conversation (see [`ended_by_user_at`]).
    pub fn ended_by_user(&self) -> bool {
        self.end_reason()
            .is_some_and(|reason| ended_by_user_at(&self.agent, reason, self.end_terminal()))
    }

    /// Serializes to one line of compact JSON (no trailing newline).
    pub fn to_json_line(&self) -> String {
        serde_json::to_string(self).expect("a LiveRecord always serializes")
    }
}

/// Parses a journal: one record per line. Torn or foreign lines are skipped, never fatal.
pub fn parse_journal(text: &str) -> Vec<LiveRecord> {
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect()
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A test terminal's name: core knows no real one.
    pub const TERM: crate::pane::TerminalName = crate::pane::TerminalName::new("term");

    /// The key of [`sample`]'s pane, as a terminal's crate would make it.
    pub fn sample_key() -> crate::pane::PaneKey {
        key_of(&sample())
    }

    /// The test terminal's key of a record's pane.
    pub fn key_of(r: &LiveRecord) -> crate::pane::PaneKey {
        crate::pane::PaneKey::new(TERM, format!("{}-{}", r.agterm_session, r.role))
    }

    /// Reads back keys shaped like [`sample_key`]'s.
    pub fn parse_sample_key(stem: &str) -> Option<crate::pane::PaneKey> {
        stem.ends_with("-left")
            .then(|| crate::pane::PaneKey::new(TERM, stem.into()))
    }

    pub fn sample() -> LiveRecord {
        LiveRecord {
            v: RECORD_VERSION,
            agent: "claude".into(),
            session_id: "77e8ca85-2b1c-4a8e-9d0b-0c1d2e3f4a5b".into(),
            agterm_session: "6B1E0C2A-AAAA-BBBB-CCCC-0123456789AB".into(),
            role: PaneRole::Left,
            pane_id: Some("9A2F0000-0000-0000-0000-000000000001".into()),
            transcript_path: Some("/h/.claude/projects/-w-p/77e8ca85.jsonl".into()),
            agent_cwd: "/w/p".into(),
            hook_cwd: "/w/p/sub".into(),
            flags: vec!["--model".into(), "sonnet".into()],
            agent_pid: Some(4242),
            event: "SessionStart".into(),
            ts: "2026-12-01T00:00:00Z".into(),
            terminal: "term".into(),
            source: Some("startup".into()),
            window_id: None,
            workspace_id: None,
            pin: Some(PinOutcome::SettingOff),
            pinned_line: None,
            extra: Map::new(),
        }
    }

    #[test]
    fn unknown_keys_survive_a_round_trip() {
        let mut v = serde_json::to_value(sample()).unwrap();
        v["future_key"] = serde_json::json!({"x": [1, 2]});
        let r: LiveRecord = serde_json::from_value(v.clone()).unwrap();
        assert_eq!(serde_json::to_value(&r).unwrap(), v);
    }

    #[test]
    fn required_keys_are_written_even_when_null() {
        let mut r = sample();
        r.pane_id = None;
        r.transcript_path = None;
        r.agent_pid = None;
        let v = serde_json::to_value(&r).unwrap();
        for k in [
            "v",
            "agent",
            "session_id",
            "agterm_session",
            "role",
            "pane_id",
            "transcript_path",
            "agent_cwd",
            "hook_cwd",
            "flags",
            "agent_pid",
            "event",
            "ts",
            "terminal",
        ] {
            assert!(v.get(k).is_some(), "{k} missing");
        }
        assert_eq!(v["pin"], "setting-off");
    }

    #[test]
    fn journal_change_rule() {
        let a = sample();
        assert!(LiveRecord::journal_worthy_change(None, &a));
        let mut b = a.clone();
        b.event = "PreToolUse".into();
        b.hook_cwd = "/elsewhere".into();
        assert!(!LiveRecord::journal_worthy_change(Some(&a), &b));
        b.session_id = "other".into();
        assert!(LiveRecord::journal_worthy_change(Some(&a), &b));
        let mut c = a.clone();
        c.agent_cwd = "/w/q".into();
        assert!(LiveRecord::journal_worthy_change(Some(&a), &c));
    }

    #[test]
    fn a_terminal_pane_round_trips_under_its_terminals_name() {
        use crate::pane::TerminalName;
        let mut r = sample();
        let pane = TerminalPane {
            terminal: TerminalName::new("mux"),
            identity: serde_json::json!({"socket": "/s", "window": 1}),
        };
        r.set_terminal_pane(&pane);
        assert_eq!(r.agterm_session, "");
        let back: LiveRecord = serde_json::from_str(&r.to_json_line()).unwrap();
        assert_eq!(back.terminal, "mux");
        assert_eq!(back.terminal_pane("mux"), Some(&pane.identity));
        assert_eq!(back.terminal_pane("other"), None);
        // A record of another terminal carries no identity of this one.
        assert_eq!(sample().terminal_pane("mux"), None);
    }

    /// Issue 22: the terminal first, the reason table second.
    #[test]
    fn a_gone_terminal_is_never_a_users_quit_and_a_present_one_is_where_the_reason_cannot_tell() {
        use EndTerminal::{Gone, Present};
        for agent in ["claude", "codex", "gemini", "qwen", "copilot", "opencode"] {
            assert!(
                !ended_by_user_at(agent, "prompt_input_exit", Some(Gone)),
                "{agent}"
            );
            assert!(!ended_by_user_at(agent, "other", Some(Gone)), "{agent}");
        }
        for agent in ["gemini", "qwen", "copilot", "opencode"] {
            assert!(ended_by_user_at(agent, "other", Some(Present)), "{agent}");
            assert!(
                !ended_by_user_at(agent, "other", None),
                "{agent}: old records"
            );
        }
        // Claude's SIGTERM (a reboot before the pty closes) reads `other`: its table still decides.
        assert!(!ended_by_user_at("claude", "other", Some(Present)));
        assert!(ended_by_user_at(
            "claude",
            "prompt_input_exit",
            Some(Present)
        ));
        assert!(ended_by_user_at("codex", "other", Some(Present)));
        let mut r = sample();
        r.agent = "qwen".into();
        r.set_end_reason(Some("other"));
        r.set_end_terminal(Some(Present));
        assert!(r.ended_by_user());
        r.set_end_reason(None);
        assert_eq!(
            r.end_terminal(),
            None,
            "a later event clears the end and its terminal"
        );
    }

    #[test]
    fn an_end_is_journal_worthy_and_old_records_are_not_ended() {
        let a = sample();
        assert_eq!(a.end_reason(), None);
        assert!(!a.ended_by_user());
        let mut ended = a.clone();
        ended.set_end_reason(Some("prompt_input_exit"));
        assert!(ended.ended_by_user());
        assert!(LiveRecord::journal_worthy_change(Some(&a), &ended));
        let v = serde_json::to_value(&ended).unwrap();
        assert_eq!(v[END_REASON_KEY], "prompt_input_exit");
        let back: LiveRecord = serde_json::from_value(v).unwrap();
        assert!(back.ended_by_user());
        ended.set_end_reason(None);
        assert_eq!(ended, a);
        // A record as the previous release wrote it (no end key) reads as not ended.
        let old: LiveRecord = serde_json::from_str(&a.to_json_line()).unwrap();
        assert!(!old.ended_by_user());
    }

    #[test]
    fn which_ends_are_the_users() {
        for (agent, reason, user) in [
            ("claude", "prompt_input_exit", true),
            ("claude", "logout", true),
            ("claude", "clear", false),
            ("claude", "resume", false),
            ("claude", "other", false),
            ("claude", "some_future_reason", false),
            ("codex", "other", true),
            ("gemini", "exit", false),
        ] {
            assert_eq!(ended_by_user(agent, reason), user, "{agent} {reason}");
        }
    }

    #[test]
    fn journal_parse_skips_torn_lines() {
        let line = sample().to_json_line();
        let text = format!("{line}\n{{\"v\":1,\"agent\n\n{line}\n");
        assert_eq!(parse_journal(&text).len(), 2);
    }
}
