//! Gemini's `generateContent` / `streamGenerateContent?alt=sse` (`POST /v1beta/models/<model>:<method>`),
//! the wire Gemini CLI speaks with `GOOGLE_GEMINI_BASE_URL`: the last user turn of a request (`contents[]`
//! with `parts`; a `functionResponse` part means the tool ran), and the answer as one JSON object or as SSE
//! `data:` lines of the same objects.

use super::{LastUser, Reply};
use serde_json::{json, Value};

/// Gemini CLI's shell tool.
pub const SHELL_TOOL: &str = "run_shell_command";

/// The model and method of a `/v1beta/models/<model>:<method>` route.
pub fn model_method(route: &str) -> Option<(&str, &str)> {
    route.strip_prefix("/v1beta/models/")?.split_once(':')
}

fn offers_shell(body: &Value) -> bool {
    body.get("tools")
        .and_then(Value::as_array)
        .is_some_and(|tools| {
            tools.iter().any(|t| {
                t["functionDeclarations"]
                    .as_array()
                    .is_some_and(|d| d.iter().any(|f| f["name"] == SHELL_TOOL))
            })
        })
}

/// The last user turn of a Gemini request.
pub fn last_user(body: &Value) -> LastUser {
    let Some(last) = body
        .get("contents")
        .and_then(Value::as_array)
        .and_then(|c| c.iter().rev().find(|c| c["role"] == "user"))
    else {
        return LastUser::Nothing;
    };
    let parts = last["parts"].as_array().cloned().unwrap_or_default();
    if let Some(response) = parts.iter().find_map(|p| p.get("functionResponse")) {
        let output = &response["response"]["output"];
        let text = output
            .as_str()
            .map(String::from)
            .unwrap_or_else(|| response["response"].to_string());
        return LastUser::ToolResult(text);
    }
    let text: Vec<&str> = parts.iter().filter_map(|p| p["text"].as_str()).collect();
    LastUser::Text {
        text: text.join("\n"),
        tools_offered: offers_shell(body),
    }
}

/// One `GenerateContentResponse` for `body`.
pub fn response(body: &Value, model: &str) -> Value {
    let part = match super::decide(&last_user(body)) {
        Reply::ToolCall { command } => {
            json!({"functionCall": {"name": SHELL_TOOL, "args": {"command": command}}})
        }
        Reply::Text(text) => json!({"text": text}),
    };
    json!({"candidates": [{"content": {"role": "model", "parts": [part]}, "finishReason": "STOP",
                           "index": 0}],
           "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15},
           "modelVersion": model})
}

/// The SSE body of `streamGenerateContent?alt=sse`: the whole answer as one event.
pub fn stream(body: &Value, model: &str) -> String {
    format!("data: {}\r\n\r\n", response(body, model))
}

/// `:countTokens`.
pub fn count_tokens() -> Value {
    json!({"totalTokens": 10})
}

/// `GET /v1beta/models`.
pub fn models(model: &str) -> Value {
    json!({"models": [{"name": format!("models/{model}"), "displayName": "Stub",
                       "supportedGenerationMethods": ["generateContent", "streamGenerateContent",
                                                      "countTokens"]}]})
}
