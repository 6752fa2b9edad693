//! The `stub-model` binary as a process: it prints its URL once it listens on 127.0.0.1, answers a
//! streamed Messages request with a tool call, and logs every request to the file it was given.

use agterm_backup_testkit::fake_agterm::locate::testkit_bin;
use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};

struct KillOnDrop(Child);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn stub_model_binary_serves_on_loopback_and_logs_to_its_file() {
    let dir = agterm_backup_testkit::scratch::tempdir();
    let log = dir.path().join("requests.jsonl");
    let mut child = KillOnDrop(
        Command::new(testkit_bin("stub-model"))
            .arg("--log")
            .arg(&log)
            .stdout(Stdio::piped())
            .spawn()
            .expect("stub-model starts"),
    );
    let mut url = String::new();
    BufReader::new(child.0.stdout.take().unwrap())
        .read_line(&mut url)
        .unwrap();
    let addr = url
        .trim()
        .strip_prefix("http://127.0.0.1:")
        .unwrap_or_else(|| panic!("stub-model printed {url:?}, not a loopback URL"));
    let port: u16 = addr.parse().expect("a port");

    let body = r#"{"model":"m","stream":true,"tools":[{"name":"Bash"}],"messages":[{"role":"user","content":"RUN:cd sub && pwd"}]}"#;
    let mut conn = TcpStream::connect(("127.0.0.1", port)).unwrap();
    write!(
        conn,
        "POST /v1/messages?beta=true HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: {}\r\n\
         Connection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut response = String::new();
    conn.read_to_string(&mut response).unwrap();
    assert!(response.starts_with("HTTP/1.1 200 OK"), "{response}");
    assert!(response.contains("text/event-stream"), "{response}");
    assert!(
        response.contains(r#"\"command\":\"cd sub && pwd\""#),
        "{response}"
    );
    assert!(
        response.contains("\"stop_reason\":\"tool_use\""),
        "{response}"
    );

    let logged: Vec<Value> = std::fs::read_to_string(&log)
        .expect("the log file exists")
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(logged.len(), 1);
    assert_eq!(logged[0]["path"], "/v1/messages?beta=true");
    assert_eq!(logged[0]["body"], body);

    let refused = Command::new(testkit_bin("stub-model"))
        .args(["--port", "x"])
        .output()
        .unwrap();
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("--port \"x\""));
}
