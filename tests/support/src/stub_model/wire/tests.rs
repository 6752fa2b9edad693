use super::*;

#[test]
fn run_prefix_takes_the_rest_of_its_line() {
    assert_eq!(
        tool_command("please RUN:cd sub && pwd\nthanks").as_deref(),
        Some("cd sub && pwd")
    );
    assert_eq!(
        tool_command("USE_TOOL now").as_deref(),
        Some(DEFAULT_TOOL_COMMAND)
    );
    assert_eq!(
        tool_command("RUN:   \nUSE_TOOL").as_deref(),
        Some(DEFAULT_TOOL_COMMAND)
    );
    assert_eq!(tool_command("hello"), None);
}

#[test]
fn text_replies_quote_the_prompt_not_the_reminders() {
    let body = json!({"messages": [{"role": "user", "content": [
        {"type": "text", "text": "<system-reminder>\nctx\n</system-reminder>"},
        {"type": "text", "text": "nested hi"},
        {"type": "text", "text": "<system-reminder>one line</system-reminder>"}]}]});
    assert_eq!(
        decide(&anthropic_last_user(&body)),
        Reply::Text("stub reply to: nested hi".into())
    );
}

#[test]
fn anthropic_tool_call_only_when_tools_are_offered() {
    let body = json!({"messages": [{"role": "user", "content": [
        {"type": "text", "text": "<system-reminder>x</system-reminder>"},
        {"type": "text", "text": "go RUN:pwd"}]}], "tools": [{"name": "Bash"}]});
    assert_eq!(
        decide(&anthropic_last_user(&body)),
        Reply::ToolCall {
            command: "pwd".into()
        }
    );
    let titles = json!({"messages": [{"role": "user", "content": "go RUN:pwd"}]});
    assert!(matches!(
        decide(&anthropic_last_user(&titles)),
        Reply::Text(_)
    ));
}

#[test]
fn anthropic_tool_result_ends_the_turn_with_text() {
    let body = json!({"tools": [{}], "messages": [
        {"role": "user", "content": "USE_TOOL"},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "t", "name": "Bash", "input": {}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t",
                                      "content": "/tmp/p/sub"}]}]});
    assert_eq!(
        decide(&anthropic_last_user(&body)),
        Reply::Text("stub: the tool said /tmp/p/sub".into())
    );
}

#[test]
fn responses_function_call_output_ends_the_turn() {
    let ask = json!({"tools": [{}], "input": [{"type": "message", "role": "user",
        "content": [{"type": "input_text", "text": "USE_TOOL"}]}]});
    assert!(matches!(
        decide(&responses_last_user(&ask)),
        Reply::ToolCall { .. }
    ));
    let done = json!({"tools": [{}], "input": [
        {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "USE_TOOL"}]},
        {"type": "function_call", "call_id": "c", "name": "exec_command", "arguments": "{}"},
        {"type": "function_call_output", "call_id": "c", "output": "ok"}]});
    assert_eq!(
        decide(&responses_last_user(&done)),
        Reply::Text("stub: the tool said ok".into())
    );
}

#[test]
fn streams_are_well_formed_sse() {
    for body in [
        anthropic_stream(
            "m",
            &Reply::ToolCall {
                command: "a'b".into(),
            },
            1,
        ),
        responses_stream(
            &Reply::ToolCall {
                command: "a'b".into(),
            },
            1,
        ),
        responses_stream(&Reply::Text("hi".into()), 2),
    ] {
        for event in body.split("\n\n").filter(|e| !e.is_empty()) {
            let mut lines = event.lines();
            let name = lines.next().unwrap().strip_prefix("event: ").unwrap();
            let data: Value =
                serde_json::from_str(lines.next().unwrap().strip_prefix("data: ").unwrap())
                    .unwrap();
            assert_eq!(data["type"], name);
        }
    }
    let stream = anthropic_stream(
        "m",
        &Reply::ToolCall {
            command: "a'b".into(),
        },
        1,
    );
    assert!(stream.contains(r#"\"command\":\"a'b\""#), "{stream}");
}

/// Kimi Code puts the date and its permission mode in user messages of their own after the prompt and
/// after a tool's result: the prompt is still the user's turn, the tool result still ends the turn.
#[test]
fn chat_skips_kimis_reminder_messages() {
    let reminder = |t: &str| json!({"role": "user", "content": format!("<system-reminder>\n{t}\n</system-reminder>")});
    let tools = json!([{"type": "function", "function": {"name": "Bash"}}]);
    let prompt = json!({"messages": [
        {"role": "system", "content": "You are Kimi"},
        {"role": "user", "content": [{"type": "text", "text": "please USE_TOOL"}]},
        reminder("Today's date is 2026-12-02."), reminder("Auto permission mode is active.")],
        "tools": tools});
    assert!(matches!(
        super::chat::last_user(&prompt),
        LastUser::Text { ref text, tools_offered: true } if text == "please USE_TOOL"
    ));
    let mut after_tool = prompt.clone();
    let messages = after_tool["messages"].as_array_mut().unwrap();
    messages
        .push(json!({"role": "tool", "tool_call_id": "call_stub000001", "content": "hook-test"}));
    messages.push(reminder("Today's date is 2026-12-02."));
    assert!(matches!(
        super::chat::last_user(&after_tool),
        LastUser::ToolResult(ref t) if t == "hook-test"
    ));
}
