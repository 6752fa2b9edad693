//! A stub of the two model APIs the real agent CLIs call, on 127.0.0.1 (an ephemeral port), so Claude Code
//! and Codex run for real, offline, and fire their hooks.
//!
//! - Claude: `POST /v1/messages?beta=true` (Anthropic Messages, SSE when `stream` is true) and
//!   `/v1/messages/count_tokens`.
//! - Codex: `POST /v1/responses` (OpenAI Responses, SSE).
//! - Copilot CLI, Qwen Code, opencode: `POST /v1/chat/completions` (OpenAI Chat Completions, SSE when
//!   `stream` is true) and `GET /v1/models` ([`wire::chat`]).
//! - Gemini CLI: `POST /v1beta/models/<model>:streamGenerateContent?alt=sse`, `:generateContent`,
//!   `:countTokens` and `GET /v1beta/models` ([`wire::gemini`]).
//!
//! A last user message containing `USE_TOOL` or `RUN:<command>` gets a shell tool call (Claude `Bash`,
//! Codex `exec_command`); the request after the tool result gets a plain text reply (see [`wire`]). Every
//! request is logged (method, path, body) to a list tests read, and optionally as JSON lines to a file.
//! Speaks HTTP/1.1 with keep-alive, `Content-Length` and chunked request bodies.

mod http;
pub mod wire;

use http::{read_request, write_response, Request};

use serde_json::{json, Value};
use std::io::{self, BufReader, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// One request the stub received.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoggedRequest {
    pub method: String,
    /// Path with query (`/v1/messages?beta=true`).
    pub path: String,
    pub body: String,
    /// The status the stub answered with (404 for a path it does not serve).
    pub status: u16,
}

impl LoggedRequest {
    /// The body parsed as JSON (`Null` when it is not JSON).
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or(Value::Null)
    }

    /// The path without its query string.
    pub fn route(&self) -> &str {
        self.path.split('?').next().unwrap_or("")
    }
}

struct Shared {
    log: Mutex<Vec<LoggedRequest>>,
    log_file: Option<PathBuf>,
    seq: AtomicU64,
    stop: AtomicBool,
}

/// A running stub server. Stops accepting on drop.
pub struct StubModel {
    addr: SocketAddr,
    shared: Arc<Shared>,
}

impl StubModel {
    /// Starts the server on 127.0.0.1 with an ephemeral port, serving from a background thread.
    pub fn start() -> io::Result<StubModel> {
        StubModel::start_logging_to(None)
    }

    /// Like [`StubModel::start`], also appending each request as one JSON line
    /// (`{"method","path","body"}`) to `log_file`.
    pub fn start_logging_to(log_file: Option<PathBuf>) -> io::Result<StubModel> {
        StubModel::bind(0, log_file)
    }

    /// Starts on a given port of 127.0.0.1 (0 = ephemeral).
    pub fn bind(port: u16, log_file: Option<PathBuf>) -> io::Result<StubModel> {
        let listener = TcpListener::bind(("127.0.0.1", port))?;
        let addr = listener.local_addr()?;
        let shared = Arc::new(Shared {
            log: Mutex::new(Vec::new()),
            log_file,
            seq: AtomicU64::new(0),
            stop: AtomicBool::new(false),
        });
        let accept_shared = Arc::clone(&shared);
        std::thread::Builder::new()
            .name("stub-model-accept".into())
            .spawn(move || {
                for conn in listener.incoming() {
                    if accept_shared.stop.load(Ordering::SeqCst) {
                        break;
                    }
                    let Ok(conn) = conn else { continue };
                    let conn_shared = Arc::clone(&accept_shared);
                    let _ = std::thread::Builder::new()
                        .name("stub-model-conn".into())
                        .spawn(move || serve_connection(conn, &conn_shared));
                }
            })?;
        Ok(StubModel { addr, shared })
    }

    pub fn port(&self) -> u16 {
        self.addr.port()
    }

    /// `http://127.0.0.1:<port>` (Claude's `ANTHROPIC_BASE_URL`; Codex's `base_url` adds `/v1`).
    pub fn base_url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Every request received so far, in arrival order.
    pub fn requests(&self) -> Vec<LoggedRequest> {
        self.shared
            .log
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// The model requests (Messages or Responses) received so far.
    pub fn model_requests(&self) -> Vec<LoggedRequest> {
        self.requests()
            .into_iter()
            .filter(|r| {
                r.method == "POST"
                    && (matches!(
                        r.route(),
                        "/v1/messages" | "/v1/responses" | "/v1/chat/completions"
                    ) || wire::gemini::model_method(r.route())
                        .is_some_and(|(_, m)| m.ends_with("enerateContent")))
            })
            .collect()
    }

    /// The requests the stub had no answer for (it replied 404): what a CLI asked that the stub lacks.
    pub fn unanswered(&self) -> Vec<(String, String)> {
        self.requests()
            .into_iter()
            .filter(|r| r.status != 200)
            .map(|r| (r.method, r.path))
            .collect()
    }

    /// Fails the test when any request got something other than a 200 (the agent asked for something
    /// the stub does not serve, so the run did not go the way the test meant).
    pub fn assert_answered_everything(&self) {
        assert_eq!(
            self.unanswered(),
            vec![],
            "requests the stub model could not answer"
        );
    }

    /// Waits until `pred` holds for the request log, or returns false after `timeout`.
    pub fn wait_until(&self, timeout: Duration, pred: impl Fn(&[LoggedRequest]) -> bool) -> bool {
        let start = Instant::now();
        loop {
            if pred(&self.requests()) {
                return true;
            }
            if start.elapsed() > timeout {
                return false;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for StubModel {
    fn drop(&mut self) {
        self.shared.stop.store(true, Ordering::SeqCst);
        // Wake the blocking accept so the thread sees `stop`.
        let _ = TcpStream::connect_timeout(&self.addr, Duration::from_millis(200));
    }
}

fn serve_connection(conn: TcpStream, shared: &Shared) {
    let _ = conn.set_read_timeout(Some(Duration::from_secs(120)));
    let Ok(mut writer) = conn.try_clone() else {
        return;
    };
    let mut reader = BufReader::new(conn);
    loop {
        if shared.stop.load(Ordering::SeqCst) {
            break;
        }
        let request = match read_request(&mut reader) {
            Ok(Some(r)) => r,
            Ok(None) => break,
            Err(_) => {
                let _ = write_response(&mut writer, 400, "text/plain", b"bad request", true);
                break;
            }
        };
        let close = request
            .header("connection")
            .is_some_and(|v| v.eq_ignore_ascii_case("close"));
        let (status, content_type, body) = route(shared, &request);
        record(shared, &request, status);
        if write_response(&mut writer, status, content_type, body.as_bytes(), close).is_err()
            || close
        {
            break;
        }
    }
    let _ = writer.shutdown(Shutdown::Both);
}

fn record(shared: &Shared, request: &Request, status: u16) {
    let entry = LoggedRequest {
        method: request.method.clone(),
        path: request.path.clone(),
        body: String::from_utf8_lossy(&request.body).into_owned(),
        status,
    };
    if let Some(file) = &shared.log_file {
        let line =
            json!({"method": entry.method, "path": entry.path, "status": status, "body": entry.body}).to_string();
        if let Ok(mut f) = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(file)
        {
            let _ = writeln!(f, "{line}");
        }
    }
    shared
        .log
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .push(entry);
}

fn route(shared: &Shared, request: &Request) -> (u16, &'static str, String) {
    let route = request.path.split('?').next().unwrap_or("");
    let seq = shared.seq.fetch_add(1, Ordering::SeqCst) + 1;
    let body: Value = serde_json::from_slice(&request.body).unwrap_or(Value::Null);
    match (request.method.as_str(), route) {
        ("POST", "/v1/messages") => {
            let model = body["model"].as_str().unwrap_or("claude-stub").to_string();
            let reply = wire::decide(&wire::anthropic_last_user(&body));
            if body["stream"] == true {
                (
                    200,
                    "text/event-stream",
                    wire::anthropic_stream(&model, &reply, seq),
                )
            } else {
                (
                    200,
                    "application/json",
                    wire::anthropic_message(&model, &reply, seq).to_string(),
                )
            }
        }
        ("POST", "/v1/messages/count_tokens") => (
            200,
            "application/json",
            json!({"input_tokens": 10}).to_string(),
        ),
        ("POST", "/v1/responses") => {
            let reply = wire::decide(&wire::responses_last_user(&body));
            (
                200,
                "text/event-stream",
                wire::responses_stream(&reply, seq),
            )
        }
        ("POST", "/v1/chat/completions") => {
            if body["stream"] == true {
                (200, "text/event-stream", wire::chat::stream(&body, seq))
            } else {
                (
                    200,
                    "application/json",
                    wire::chat::message(&body, seq).to_string(),
                )
            }
        }
        ("GET", "/v1/models") => (200, "application/json", wire::chat::models().to_string()),
        ("GET", "/v1beta/models") => (
            200,
            "application/json",
            wire::gemini::models("gemini-2.5-flash").to_string(),
        ),
        ("POST", r) if wire::gemini::model_method(r).is_some() => {
            let (model, method) = wire::gemini::model_method(r).expect("checked");
            match method {
                "streamGenerateContent" => {
                    (200, "text/event-stream", wire::gemini::stream(&body, model))
                }
                "generateContent" => (
                    200,
                    "application/json",
                    wire::gemini::response(&body, model).to_string(),
                ),
                "countTokens" => (
                    200,
                    "application/json",
                    wire::gemini::count_tokens().to_string(),
                ),
                _ => not_found(request, route),
            }
        }
        ("HEAD" | "GET", "/" | "") => (200, "text/plain", String::new()),
        _ => not_found(request, route),
    }
}

fn not_found(request: &Request, route: &str) -> (u16, &'static str, String) {
    (
        404,
        "application/json",
        json!({"type": "error", "error": {"type": "not_found_error",
               "message": format!("the stub model has no {} {}", request.method, route)}})
        .to_string(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    fn raw(stub: &StubModel, request: &[u8]) -> String {
        let mut conn = TcpStream::connect(("127.0.0.1", stub.port())).unwrap();
        conn.write_all(request).unwrap();
        let mut out = String::new();
        conn.read_to_string(&mut out).unwrap();
        out
    }

    #[test]
    fn chunked_body_and_keep_alive_then_close() {
        let stub = StubModel::start().unwrap();
        let body =
            r#"{"stream":true,"tools":[{}],"messages":[{"role":"user","content":"RUN:pwd"}]}"#;
        let (a, b) = body.split_at(20);
        let first = format!(
            "POST /v1/messages?beta=true HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n\
             {:x}\r\n{a}\r\n{:x}\r\n{b}\r\n0\r\n\r\n",
            a.len(),
            b.len()
        );
        let second = "POST /v1/messages/count_tokens HTTP/1.1\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}";
        let out = raw(&stub, format!("{first}{second}").as_bytes());
        assert_eq!(out.matches("HTTP/1.1 200 OK").count(), 2, "{out}");
        assert!(out.contains("\"name\":\"Bash\""), "{out}");
        assert!(out.contains("input_tokens"), "{out}");
        let log = stub.requests();
        assert_eq!(log.len(), 2);
        assert_eq!(log[0].body, body);
        assert_eq!(log[0].route(), "/v1/messages");
        assert_eq!(stub.model_requests().len(), 1);
    }

    #[test]
    fn responses_and_unknown_paths_and_log_file() {
        let dir = crate::scratch::tempdir();
        let file = dir.path().join("log.jsonl");
        let stub = StubModel::start_logging_to(Some(file.clone())).unwrap();
        let body = r#"{"stream":true,"tools":[{}],"input":[{"type":"message","role":"user","content":[{"type":"input_text","text":"USE_TOOL"}]}]}"#;
        let out = raw(
            &stub,
            format!("POST /v1/responses HTTP/1.1\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}", body.len())
                .as_bytes(),
        );
        assert!(
            out.contains("exec_command") && out.contains("response.completed"),
            "{out}"
        );
        let out = raw(
            &stub,
            b"GET /v1/embeddings HTTP/1.1\r\nConnection: close\r\n\r\n",
        );
        assert!(out.starts_with("HTTP/1.1 404"), "{out}");
        let lines: Vec<Value> = std::fs::read_to_string(&file)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[0]["path"], "/v1/responses");
        assert_eq!(lines[1]["method"], "GET");
        assert_eq!(lines[1]["status"], 404);
        assert_eq!(
            stub.unanswered(),
            vec![("GET".to_string(), "/v1/embeddings".to_string())]
        );
    }

    fn post(stub: &StubModel, path: &str, body: &str) -> String {
        raw(
            stub,
            format!(
                "POST {path} HTTP/1.1\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                body.len()
            )
            .as_bytes(),
        )
    }

    #[test]
    fn chat_completions_stream_text_then_a_tool_call_then_the_tool_result() {
        let stub = StubModel::start().unwrap();
        let tools = r#""tools":[{"type":"function","function":{"name":"bash"}}]"#;
        let out = post(
            &stub,
            "/v1/chat/completions",
            &format!(
                r#"{{"stream":true,{tools},"messages":[{{"role":"user","content":[{{"type":"text","text":"hi there"}}]}}]}}"#
            ),
        );
        assert!(
            out.contains("stub reply to: hi there") && out.contains("data: [DONE]"),
            "{out}"
        );
        assert!(
            out.contains(r#""finish_reason":"stop""#) && out.contains(r#""usage""#),
            "{out}"
        );
        let out = post(
            &stub,
            "/v1/chat/completions",
            &format!(
                r#"{{"stream":true,{tools},"messages":[{{"role":"user","content":"RUN:pwd"}}]}}"#
            ),
        );
        assert!(
            out.contains(r#""tool_calls":[{"#) && out.contains(r#""finish_reason":"tool_calls""#),
            "{out}"
        );
        assert!(
            out.contains(r#"\"command\":\"pwd\""#) && out.contains(r#""name":"bash""#),
            "{out}"
        );
        let out = post(
            &stub,
            "/v1/chat/completions",
            r#"{"messages":[{"role":"user","content":"RUN:pwd"},{"role":"tool","content":"/tmp/x"}]}"#,
        );
        assert!(
            out.contains("stub: the tool said /tmp/x") && out.contains("chat.completion"),
            "{out}"
        );
        assert!(raw(
            &stub,
            b"GET /v1/models HTTP/1.1\r\nConnection: close\r\n\r\n"
        )
        .contains("stub-model"));
        assert_eq!(stub.model_requests().len(), 3);
        stub.assert_answered_everything();
    }

    #[test]
    fn gemini_generate_content_streams_and_calls_the_shell_tool() {
        let stub = StubModel::start().unwrap();
        let tools = r#""tools":[{"functionDeclarations":[{"name":"run_shell_command"}]}]"#;
        let out = post(
            &stub,
            "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse",
            &format!(
                r#"{{{tools},"contents":[{{"role":"user","parts":[{{"text":"ctx"}},{{"text":"hello gemini"}}]}}]}}"#
            ),
        );
        assert!(
            out.contains("data: {") && out.contains("stub reply to: hello gemini"),
            "{out}"
        );
        let out = post(
            &stub,
            "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse",
            &format!(
                r#"{{{tools},"contents":[{{"role":"user","parts":[{{"text":"USE_TOOL"}}]}}]}}"#
            ),
        );
        assert!(
            out.contains(r#""functionCall":{"#) && out.contains(r#""name":"run_shell_command""#),
            "{out}"
        );
        assert!(
            out.contains(r#""args":{"command":"echo stub-tool-ran"}"#),
            "{out}"
        );
        let out = post(
            &stub,
            "/v1beta/models/m:generateContent",
            r#"{"contents":[{"role":"user","parts":[{"functionResponse":{"name":"run_shell_command","response":{"output":"ran"}}}]}]}"#,
        );
        assert!(
            out.contains("stub: the tool said ran") && out.contains(r#""modelVersion":"m""#),
            "{out}"
        );
        assert!(post(&stub, "/v1beta/models/m:countTokens", "{}").contains("totalTokens"));
        assert_eq!(stub.model_requests().len(), 3);
        stub.assert_answered_everything();
    }
}
