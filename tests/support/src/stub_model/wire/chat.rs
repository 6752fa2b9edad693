//! OpenAI Chat Completions (`POST /v1/chat/completions`), the wire Copilot CLI (BYOK), Qwen Code,
//! opencode's openai-compatible provider and Kimi Code (`KIMI_MODEL_PROVIDER_TYPE=openai`) speak: the last user turn of a request, and the streamed (SSE
//! chunks, tool-call deltas, a usage chunk, `[DONE]`) or plain JSON answer.

use super::{content_text, tools_offered, LastUser, Reply};
use serde_json::{json, Value};

/// Shell tools the agents offer, by the names they give them (Qwen `run_shell_command`, Copilot and
/// opencode `bash`); the first one the request offers runs a [`Reply::ToolCall`].
pub const SHELL_TOOLS: &[&str] = &["run_shell_command", "bash", "shell", "Bash"];

/// The model id `GET /v1/models` lists (the agents are configured with it).
pub const MODEL: &str = "stub-model";

/// The last user turn of a Chat Completions request (`messages[]`; a trailing `tool` message means the
/// tool ran).
pub fn last_user(body: &Value) -> LastUser {
    let Some(all) = body.get("messages").and_then(Value::as_array) else {
        return LastUser::Nothing;
    };
    // Kimi Code sends the date and its permission mode as user messages of their own after the prompt
    // (and after a tool result): they are not the user's turn.
    let messages: Vec<&Value> = all.iter().filter(|m| !is_reminder(m)).collect();
    if let Some(last) = messages.last().filter(|m| m["role"] == "tool") {
        return LastUser::ToolResult(content_text(&last["content"]));
    }
    match messages.iter().rev().find(|m| m["role"] == "user") {
        Some(m) => LastUser::Text {
            text: content_text(&m["content"]),
            tools_offered: tools_offered(body),
        },
        None => LastUser::Nothing,
    }
}

/// A user message that is only a `<system-reminder>…</system-reminder>`.
fn is_reminder(message: &Value) -> bool {
    let text = content_text(&message["content"]);
    message["role"] == "user"
        && text.trim_start().starts_with("<system-reminder>")
        && text.trim_end().ends_with("</system-reminder>")
}

/// The name of the shell tool the request offers (`tools[].function.name`), if any.
pub fn shell_tool(body: &Value) -> Option<String> {
    let names: Vec<&str> = body
        .get("tools")
        .and_then(Value::as_array)?
        .iter()
        .filter_map(|t| t["function"]["name"].as_str())
        .collect();
    SHELL_TOOLS
        .iter()
        .find(|s| names.contains(s))
        .map(|s| s.to_string())
}

/// A reply the agent can act on: a tool call only when the request offers a shell tool.
pub fn reply_for(body: &Value) -> (Reply, Option<String>) {
    let tool = shell_tool(body);
    match super::decide(&last_user(body)) {
        Reply::ToolCall { command } if tool.is_some() => (Reply::ToolCall { command }, tool),
        Reply::ToolCall { command } => (Reply::Text(format!("stub reply to: {command}")), None),
        text => (text, None),
    }
}

fn chunk(seq: u64, model: &str, choices: Value, usage: Option<Value>) -> String {
    let mut c = json!({"id": format!("chatcmpl-stub{seq:06}"), "object": "chat.completion.chunk",
                       "created": 1_700_000_000, "model": model, "choices": choices});
    if let Some(u) = usage {
        c["usage"] = u;
    }
    format!("data: {c}\n\n")
}

fn usage() -> Value {
    json!({"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15})
}

fn tool_call(seq: u64, tool: &str, command: &str) -> Value {
    json!({"id": format!("call_stub{seq:06}"), "type": "function",
           "function": {"name": tool, "arguments":
               json!({"command": command, "description": "stub tool call"}).to_string()}})
}

/// The SSE body of a streamed completion for `body`.
pub fn stream(body: &Value, seq: u64) -> String {
    let model = body["model"].as_str().unwrap_or(MODEL).to_string();
    let (reply, tool) = reply_for(body);
    let mut out = String::new();
    let finish = match (&reply, tool) {
        (Reply::ToolCall { command }, Some(tool)) => {
            let mut call = tool_call(seq, &tool, command);
            call["index"] = json!(0);
            let delta = json!({"role": "assistant", "content": null, "tool_calls": [call]});
            out.push_str(&chunk(
                seq,
                &model,
                json!([{"index": 0, "delta": delta, "finish_reason": null}]),
                None,
            ));
            "tool_calls"
        }
        (Reply::Text(text), _) | (Reply::ToolCall { command: text }, None) => {
            let delta = json!({"role": "assistant", "content": text});
            out.push_str(&chunk(
                seq,
                &model,
                json!([{"index": 0, "delta": delta, "finish_reason": null}]),
                None,
            ));
            "stop"
        }
    };
    out.push_str(&chunk(
        seq,
        &model,
        json!([{"index": 0, "delta": {}, "finish_reason": finish}]),
        None,
    ));
    out.push_str(&chunk(seq, &model, json!([]), Some(usage())));
    out.push_str("data: [DONE]\n\n");
    out
}

/// A non-streamed completion for `body`.
pub fn message(body: &Value, seq: u64) -> Value {
    let model = body["model"].as_str().unwrap_or(MODEL).to_string();
    let (message, finish) = match reply_for(body) {
        (Reply::ToolCall { command }, Some(tool)) => (
            json!({"role": "assistant", "content": null, "tool_calls": [tool_call(seq, &tool, &command)]}),
            "tool_calls",
        ),
        (Reply::Text(text), _) | (Reply::ToolCall { command: text }, None) => {
            (json!({"role": "assistant", "content": text}), "stop")
        }
    };
    json!({"id": format!("chatcmpl-stub{seq:06}"), "object": "chat.completion", "created": 1_700_000_000,
           "model": model, "choices": [{"index": 0, "message": message, "finish_reason": finish}],
           "usage": usage()})
}

/// `GET /v1/models`.
pub fn models() -> Value {
    json!({"object": "list", "data": [{"id": MODEL, "object": "model", "created": 1_700_000_000,
                                        "owned_by": "stub"}]})
}
