//! `installer apply --trust`: marks our Codex hooks trusted the way the TUI's "Trust all and continue"
//! does, through Codex's own app-server (`codex app-server --listen stdio://`, JSON-RPC one message per
//! line): `initialize`, `hooks/list` (each hook's `key` and `currentHash`), then `config/batchWrite` with
//! `hooks.state."<key>".trusted_hash = <currentHash>` for our hooks only. Codex computes the hash and
//! writes the file, so we never guess its hashing.

use crate::command::is_ours;
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

/// What `--trust` did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TrustOutcome {
    /// Keys we just trusted.
    pub trusted_now: Vec<String>,
    /// Keys of ours that were trusted already.
    pub already: Vec<String>,
    /// What Codex itself says it cannot load (a config layer's errors in `hooks/list`), word for word.
    pub codex_errors: Vec<String>,
}

/// The errors Codex reports for its config layers in a `hooks/list` result.
pub fn codex_errors(hooks_list: &Value) -> Vec<String> {
    hooks_list
        .get("data")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|e| e.get("errors").and_then(Value::as_array))
        .flatten()
        .map(|e| {
            match (
                e.get("path").and_then(Value::as_str),
                e.get("message").and_then(Value::as_str),
            ) {
                (Some(p), Some(m)) => format!("{p}: {m}"),
                (None, Some(m)) => m.to_string(),
                _ => e.to_string(),
            }
        })
        .map(|m| m.escape_debug().to_string())
        .collect()
}

/// `codex` on `PATH` (a directory list as in `$PATH`).
pub fn find_codex(path_var: Option<&str>) -> Option<PathBuf> {
    path_var?
        .split(':')
        .filter(|d| !d.is_empty())
        .map(|d| Path::new(d).join("codex"))
        .find(|p| is_executable(p))
}

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// From a `hooks/list` result: the config edits that trust our untrusted hooks, and the keys of ours that
/// are trusted already.
pub fn trust_edits(hooks_list: &Value) -> (Vec<Value>, Vec<String>) {
    let mut edits = Vec::new();
    let mut already = Vec::new();
    let entries = hooks_list
        .get("data")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let mut seen = std::collections::BTreeSet::new();
    for hook in entries
        .iter()
        .filter_map(|e| e.get("hooks").and_then(Value::as_array))
        .flatten()
    {
        let (Some(key), Some(hash), Some(command)) = (
            hook.get("key").and_then(Value::as_str),
            hook.get("currentHash").and_then(Value::as_str),
            hook.get("command").and_then(Value::as_str),
        ) else {
            continue;
        };
        if !is_ours(command, "codex") || !seen.insert(key.to_string()) {
            continue;
        }
        if hook.get("trustStatus").and_then(Value::as_str) == Some("trusted") {
            already.push(key.to_string());
            continue;
        }
        let quoted_key = serde_json::to_string(key).expect("a string encodes");
        edits.push(json!({
            "keyPath": format!("hooks.state.{quoted_key}.trusted_hash"),
            "mergeStrategy": "upsert",
            "value": hash,
        }));
    }
    (edits, already)
}

struct Server {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// The last lines Codex wrote on stderr, for when it stops answering.
    errors: std::sync::Arc<std::sync::Mutex<Vec<String>>>,
    deadline: Instant,
}

impl Server {
    fn start(
        codex: &Path,
        cwd: &Path,
        env: &[(String, String)],
        budget: Duration,
    ) -> Result<Server, String> {
        let mut child = Command::new(codex)
            .args(["app-server", "--listen", "stdio://"])
            .envs(env.iter().map(|(k, v)| (k, v)))
            .current_dir(cwd)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot start `{} app-server`: {e}", codex.display()))?;
        let stdout = child.stdout.take().expect("piped");
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stderr = child.stderr.take().expect("piped");
        let errors = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let sink = errors.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                let mut kept = sink.lock().unwrap_or_else(|e| e.into_inner());
                kept.push(line);
                if kept.len() > 20 {
                    kept.remove(0);
                }
            }
        });
        let stdin = child.stdin.take();
        Ok(Server {
            child,
            stdin,
            lines,
            errors,
            deadline: Instant::now() + budget,
        })
    }

    fn send(&mut self, message: &Value) -> Result<(), String> {
        let stdin = self.stdin.as_mut().ok_or("app-server input closed")?;
        writeln!(stdin, "{message}")
            .and_then(|_| stdin.flush())
            .map_err(|e| format!("app-server: {e}"))
    }

    fn call(&mut self, id: u64, method: &str, params: Value) -> Result<Value, String> {
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))?;
        loop {
            let left = self.deadline.saturating_duration_since(Instant::now());
            let line = self.lines.recv_timeout(left).map_err(|_| {
                format!(
                    "codex app-server did not answer `{method}`{}",
                    self.stderr_reason()
                )
            })?;
            let Ok(message) = serde_json::from_str::<Value>(&line) else {
                continue;
            };
            if message.get("id").and_then(Value::as_u64) != Some(id) {
                continue; // a notification or another request's answer
            }
            if let Some(error) = message.get("error") {
                let text = error
                    .get("message")
                    .and_then(Value::as_str)
                    .unwrap_or("unknown error");
                return Err(format!("codex app-server refused `{method}`: {text}"));
            }
            return Ok(message.get("result").cloned().unwrap_or(Value::Null));
        }
    }
}

impl Server {
    /// Codex's own words on why it stopped: its last error line on stderr, colour codes taken out.
    fn stderr_reason(&self) -> String {
        let kept = self.errors.lock().unwrap_or_else(|e| e.into_inner());
        let strip = |l: &str| {
            let mut out = String::new();
            let mut chars = l.chars();
            while let Some(c) = chars.next() {
                if c == '\u{1b}' {
                    chars.by_ref().find(|c| c.is_ascii_alphabetic());
                } else if !c.is_control() {
                    out.push(c);
                }
            }
            out
        };
        kept.iter()
            .rev()
            .map(|l| strip(l))
            .find(|l| l.contains("ERROR") || l.contains("Error") || l.contains("error"))
            .map(|l| format!(": Codex said: {}", l.trim()))
            .unwrap_or_else(|| " in time".into())
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stdin.take();
        let until = Instant::now() + Duration::from_secs(3);
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn connect(
    codex: &Path,
    cwd: &Path,
    env: &[(String, String)],
    budget: Duration,
) -> Result<(Server, Value), String> {
    let mut server = Server::start(codex, cwd, env, budget)?;
    let version = env!("CARGO_PKG_VERSION");
    server.call(
        1,
        "initialize",
        json!({"clientInfo": {"name": "agterm-backup", "version": version}}),
    )?;
    server.send(&json!({"jsonrpc": "2.0", "method": "initialized"}))?;
    let listed = server.call(
        2,
        "hooks/list",
        json!({"cwds": [cwd.display().to_string()]}),
    )?;
    Ok((server, listed))
}

/// Codex's own view of the hooks it loads for `cwd` (the `hooks/list` result): key, command, event,
/// `currentHash`, `trustStatus` per hook, plus the warnings and errors of each config layer. `env` is
/// added to the inherited environment (e.g. `CODEX_HOME`).
pub fn list_hooks(
    codex: &Path,
    cwd: &Path,
    env: &[(String, String)],
    budget: Duration,
) -> Result<Value, String> {
    connect(codex, cwd, env, budget).map(|(_, listed)| listed)
}

/// Trusts our hooks through `codex app-server` run from `cwd` (the environment, `CODEX_HOME` included,
/// is inherited).
pub fn trust_our_hooks(codex: &Path, cwd: &Path, budget: Duration) -> Result<TrustOutcome, String> {
    let (mut server, listed) = connect(codex, cwd, &[], budget)?;
    let (edits, already) = trust_edits(&listed);
    let trusted_now = edits
        .iter()
        .filter_map(|e| e["keyPath"].as_str())
        .map(|k| {
            k.trim_start_matches("hooks.state.")
                .trim_end_matches(".trusted_hash")
        })
        .filter_map(|k| serde_json::from_str::<String>(k).ok())
        .collect();
    if !edits.is_empty() {
        server.call(
            3,
            "config/batchWrite",
            json!({"edits": edits, "reloadUserConfig": false}),
        )?;
    }
    Ok(TrustOutcome {
        trusted_now,
        already,
        codex_errors: codex_errors(&listed),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trusts_only_our_untrusted_hooks() {
        let listed = json!({"data": [{"cwd": "/w", "hooks": [
            {"key": "/h/config.toml:stop:0:0", "command": "'/x/agterm-codex-status.sh' stop",
             "currentHash": "sha256:a", "trustStatus": "untrusted"},
            {"key": "/h/config.toml:stop:1:0", "command": "'/b/agterm-backup' hook codex",
             "currentHash": "sha256:b", "trustStatus": "untrusted"},
            {"key": "/h/config.toml:session_start:0:0", "command": "'/b/agterm-backup' hook codex",
             "currentHash": "sha256:c", "trustStatus": "trusted"},
            {"key": "/h/config.toml:pre_tool_use:0:0", "command": "'/b/agterm-backup' hook codex",
             "currentHash": "sha256:d", "trustStatus": "modified"}
        ], "warnings": [], "errors": []}]});
        let (edits, already) = trust_edits(&listed);
        assert_eq!(already, vec!["/h/config.toml:session_start:0:0"]);
        assert_eq!(edits.len(), 2);
        assert_eq!(
            edits[0]["keyPath"],
            "hooks.state.\"/h/config.toml:stop:1:0\".trusted_hash"
        );
        assert_eq!(edits[0]["value"], "sha256:b");
        assert_eq!(edits[1]["value"], "sha256:d");
    }

    #[test]
    fn finds_codex_on_path() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(find_codex(Some(&dir.path().display().to_string())), None);
        let codex = dir.path().join("codex");
        std::fs::write(&codex, "#!/bin/sh\n").unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&codex, std::fs::Permissions::from_mode(0o755)).unwrap();
        assert_eq!(
            find_codex(Some(&format!("/nonexistent:{}", dir.path().display()))),
            Some(codex)
        );
        assert_eq!(find_codex(None), None);
    }
}
