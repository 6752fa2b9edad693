//! What the stub model answers, as pure functions: the reply decision from a request body, and the
//! streamed (SSE) or plain JSON bodies in the Anthropic Messages and OpenAI Responses shapes.

use serde_json::{json, Value};

pub mod chat;
pub mod gemini;

/// A word in the last user message that makes the stub answer with a shell tool call
/// (`echo stub-tool-ran`).
pub const USE_TOOL: &str = "USE_TOOL";
/// `RUN:<command>` in the last user message makes the stub call the shell tool with `<command>` (the rest
/// of that line).
pub const RUN_PREFIX: &str = "RUN:";
/// The command run for a bare [`USE_TOOL`].
pub const DEFAULT_TOOL_COMMAND: &str = "echo stub-tool-ran";

/// What the model says in one turn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reply {
    Text(String),
    /// Run this shell command through the agent's shell tool (Claude `Bash`, Codex `exec_command`).
    ToolCall {
        command: String,
    },
}

/// The reply to one model request: a tool call when the request offers tools and its last user message
/// asks for one, text otherwise (also right after a tool result, so a turn always ends).
pub fn decide(last_user: &LastUser) -> Reply {
    match last_user {
        LastUser::ToolResult(output) => {
            Reply::Text(format!("stub: the tool said {}", output.trim()))
        }
        LastUser::Text {
            text,
            tools_offered,
        } => match tool_command(text) {
            Some(command) if *tools_offered => Reply::ToolCall { command },
            _ => Reply::Text(format!("stub reply to: {}", last_line(text))),
        },
        LastUser::Nothing => Reply::Text("stub reply".into()),
    }
}

/// The command a user message asks for: the rest of the line after `RUN:`, else the default for
/// `USE_TOOL`, else none.
pub fn tool_command(text: &str) -> Option<String> {
    if let Some(at) = text.find(RUN_PREFIX) {
        let rest = &text[at + RUN_PREFIX.len()..];
        let command = rest.lines().next().unwrap_or("").trim();
        if !command.is_empty() {
            return Some(command.to_string());
        }
    }
    text.contains(USE_TOOL)
        .then(|| DEFAULT_TOOL_COMMAND.to_string())
}

/// The prompt's last line: the last non-empty line outside Claude's `<system-reminder>` sections (it
/// puts them before or after the prompt).
fn last_line(text: &str) -> String {
    let mut in_reminder = false;
    let mut last = "";
    for line in text.lines() {
        let trimmed = line.trim();
        if in_reminder || trimmed.starts_with("<system-reminder>") {
            in_reminder = !trimmed.ends_with("</system-reminder>");
        } else if !trimmed.is_empty() {
            last = trimmed;
        }
    }
    last.chars().take(80).collect()
}

/// The part of a request the reply depends on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LastUser {
    /// The last input is a tool's result (its output text).
    ToolResult(String),
    /// The last user message's text, and whether the request offers any tools.
    Text {
        text: String,
        tools_offered: bool,
    },
    Nothing,
}

fn tools_offered(body: &Value) -> bool {
    body.get("tools")
        .and_then(Value::as_array)
        .is_some_and(|t| !t.is_empty())
}

/// Text of a content value: a string, or the `text` of every block in an array.
fn content_text(content: &Value) -> String {
    match content {
        Value::String(s) => s.clone(),
        Value::Array(blocks) => blocks
            .iter()
            .filter_map(|b| b.get("text").and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    }
}

/// The last user turn of an Anthropic Messages request (`messages[]`, content string or blocks; a
/// `tool_result` block means the tool ran).
pub fn anthropic_last_user(body: &Value) -> LastUser {
    let Some(last) = body
        .get("messages")
        .and_then(Value::as_array)
        .and_then(|m| m.iter().rev().find(|m| m["role"] == "user"))
    else {
        return LastUser::Nothing;
    };
    let content = &last["content"];
    if let Some(result) = content
        .as_array()
        .and_then(|blocks| blocks.iter().find(|b| b["type"] == "tool_result"))
    {
        return LastUser::ToolResult(content_text(&result["content"]));
    }
    LastUser::Text {
        text: content_text(content),
        tools_offered: tools_offered(body),
    }
}

/// The last user turn of an OpenAI Responses request (`input[]` items; a trailing
/// `function_call_output` means the tool ran).
pub fn responses_last_user(body: &Value) -> LastUser {
    let Some(items) = body.get("input").and_then(Value::as_array) else {
        return match body.get("input").and_then(Value::as_str) {
            Some(text) => LastUser::Text {
                text: text.into(),
                tools_offered: tools_offered(body),
            },
            None => LastUser::Nothing,
        };
    };
    if let Some(last) = items.last() {
        if last["type"] == "function_call_output" || last["type"] == "custom_tool_call_output" {
            let output = match &last["output"] {
                Value::String(s) => s.clone(),
                other => content_text(other),
            };
            return LastUser::ToolResult(output);
        }
    }
    match items.iter().rev().find(|i| i["role"] == "user") {
        Some(message) => LastUser::Text {
            text: content_text(&message["content"]),
            tools_offered: tools_offered(body),
        },
        None => LastUser::Nothing,
    }
}

fn sse(out: &mut String, event: &str, data: &Value) {
    out.push_str("event: ");
    out.push_str(event);
    out.push_str("\ndata: ");
    out.push_str(&data.to_string());
    out.push_str("\n\n");
}

/// An Anthropic Messages stream for `reply` (ids numbered by `seq`).
pub fn anthropic_stream(model: &str, reply: &Reply, seq: u64) -> String {
    let mut out = String::new();
    sse(
        &mut out,
        "message_start",
        &json!({"type": "message_start", "message": {
            "id": format!("msg_stub{seq:06}"), "type": "message", "role": "assistant", "model": model,
            "content": [], "stop_reason": null, "stop_sequence": null,
            "usage": {"input_tokens": 10, "output_tokens": 1,
                      "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}}}),
    );
    let stop_reason = match reply {
        Reply::Text(text) => {
            sse(
                &mut out,
                "content_block_start",
                &json!({"type": "content_block_start", "index": 0,
                "content_block": {"type": "text", "text": ""}}),
            );
            sse(
                &mut out,
                "content_block_delta",
                &json!({"type": "content_block_delta", "index": 0,
                "delta": {"type": "text_delta", "text": text}}),
            );
            "end_turn"
        }
        Reply::ToolCall { command } => {
            sse(
                &mut out,
                "content_block_start",
                &json!({"type": "content_block_start", "index": 0,
                "content_block": {"type": "tool_use", "id": format!("toolu_stub{seq:06}"),
                                  "name": "Bash", "input": {}}}),
            );
            let input = json!({"command": command, "description": "stub tool call"}).to_string();
            sse(
                &mut out,
                "content_block_delta",
                &json!({"type": "content_block_delta", "index": 0,
                "delta": {"type": "input_json_delta", "partial_json": input}}),
            );
            "tool_use"
        }
    };
    sse(
        &mut out,
        "content_block_stop",
        &json!({"type": "content_block_stop", "index": 0}),
    );
    sse(
        &mut out,
        "message_delta",
        &json!({"type": "message_delta",
        "delta": {"stop_reason": stop_reason, "stop_sequence": null}, "usage": {"output_tokens": 5}}),
    );
    sse(&mut out, "message_stop", &json!({"type": "message_stop"}));
    out
}

/// A non-streamed Anthropic Messages response for `reply`.
pub fn anthropic_message(model: &str, reply: &Reply, seq: u64) -> Value {
    let (content, stop_reason) = match reply {
        Reply::Text(text) => (json!([{"type": "text", "text": text}]), "end_turn"),
        Reply::ToolCall { command } => (
            json!([{"type": "tool_use", "id": format!("toolu_stub{seq:06}"), "name": "Bash",
                    "input": {"command": command, "description": "stub tool call"}}]),
            "tool_use",
        ),
    };
    json!({"id": format!("msg_stub{seq:06}"), "type": "message", "role": "assistant", "model": model,
           "content": content, "stop_reason": stop_reason, "stop_sequence": null,
           "usage": {"input_tokens": 10, "output_tokens": 5}})
}

/// An OpenAI Responses stream for `reply` (Codex's wire format).
pub fn responses_stream(reply: &Reply, seq: u64) -> String {
    let mut out = String::new();
    let response_id = format!("resp_stub{seq:06}");
    sse(
        &mut out,
        "response.created",
        &json!({"type": "response.created",
        "response": {"id": response_id}}),
    );
    let item = match reply {
        Reply::Text(text) => {
            let id = format!("msg_stub{seq:06}");
            sse(
                &mut out,
                "response.output_item.added",
                &json!({"type": "response.output_item.added",
                "output_index": 0, "item": {"type": "message", "role": "assistant", "id": id,
                                            "content": []}}),
            );
            sse(
                &mut out,
                "response.output_text.delta",
                &json!({"type": "response.output_text.delta",
                "item_id": id, "output_index": 0, "content_index": 0, "delta": text}),
            );
            json!({"type": "message", "role": "assistant", "id": id,
                   "content": [{"type": "output_text", "text": text, "annotations": []}]})
        }
        Reply::ToolCall { command } => {
            let item = json!({"type": "function_call", "id": format!("fc_stub{seq:06}"),
                "call_id": format!("call_stub{seq:06}"), "name": "exec_command",
                "arguments": json!({"cmd": command}).to_string()});
            sse(
                &mut out,
                "response.output_item.added",
                &json!({"type": "response.output_item.added",
                "output_index": 0, "item": item}),
            );
            item
        }
    };
    sse(
        &mut out,
        "response.output_item.done",
        &json!({"type": "response.output_item.done",
        "output_index": 0, "item": item}),
    );
    sse(
        &mut out,
        "response.completed",
        &json!({"type": "response.completed",
        "response": {"id": response_id, "usage": {"input_tokens": 10, "input_tokens_details": null,
            "output_tokens": 5, "output_tokens_details": null, "total_tokens": 15}}}),
    );
    out
}

#[cfg(test)]
mod tests;
