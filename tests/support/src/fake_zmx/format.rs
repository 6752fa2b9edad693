//! zmx's text formats: the `zmx list` row (`util.writeSessionLine`), the `cmd=` field (`handleInfo`:
//! args joined by spaces, shell-quoted where needed, cut at 256 bytes with `...`), the `cwd=` field
//! (`toOsc7Cwd`: `file://<hostname><percent-encoded path>`, 256 bytes at most) and labels (`label.zig`).
//! Also [`parse_row`], the inverse of the row format, for tests.

use std::collections::BTreeMap;

/// What one daemon reports about itself (zmx's `ipc.Info` plus its labels).
#[derive(Debug, Clone, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub struct Info {
    /// The pty child's pid (the shell or the command), as zmx reports it — not the daemon's.
    pub pid: i32,
    /// Connected clients other than the one asking.
    pub clients: u64,
    /// Unix seconds the daemon was created.
    pub created: u64,
    pub cmd: Option<String>,
    pub cwd: Option<String>,
    /// `zmx run` tasks: unix seconds the last one ended (0 = running or none) and its exit code.
    pub task_ended_at: u64,
    pub task_exit_code: u8,
    pub labels: BTreeMap<String, String>,
    /// The fake's own: the daemon process, so a test's "reboot" can kill it.
    pub daemon_pid: u32,
    /// The fake's own: the session's tmux session in the hidden server.
    pub tmux_session: String,
}

/// One `zmx list` entry: a live session, or a socket whose probe failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Entry {
    Live { name: String, info: Info },
    Error { name: String, err: String },
}

impl Entry {
    pub fn name(&self) -> &str {
        match self {
            Entry::Live { name, .. } | Entry::Error { name, .. } => name,
        }
    }
}

/// `util.writeSessionLine`. `current` is `$ZMX_SESSION` ("" when unset: zmx passes the empty string,
/// not null, so every row outside a session starts with two spaces). `None` for a `--short` error row.
pub fn session_line(entry: &Entry, short: bool, current: &str) -> Option<String> {
    let prefix = if current == entry.name() {
        "→ "
    } else {
        "  "
    };
    if short {
        return matches!(entry, Entry::Live { .. }).then(|| format!("{}\n", entry.name()));
    }
    let info = match entry {
        Entry::Error { name, err } => {
            let status = if err == "ConnectionRefused" {
                "cleaning up"
            } else {
                "unreachable"
            };
            return Some(format!("{prefix}name={name}\terr={err}\tstatus={status}\n"));
        }
        Entry::Live { info, .. } => info,
    };
    let mut line = format!(
        "{prefix}name={}\tpid={}\tclients={}\tcreated={}",
        entry.name(),
        info.pid,
        info.clients,
        info.created
    );
    if let Some(cwd) = &info.cwd {
        line.push_str(&format!("\tcwd={cwd}"));
    }
    if let Some(cmd) = &info.cmd {
        line.push_str(&format!("\tcmd={cmd}"));
    }
    if info.task_ended_at > 0 {
        line.push_str(&format!(
            "\tended={}\texit_code={}",
            info.task_ended_at, info.task_exit_code
        ));
    }
    for (k, v) in &info.labels {
        line.push_str(&format!("\t{k}={v}"));
    }
    line.push('\n');
    Some(line)
}

/// One parsed `zmx list` row (the inverse of [`session_line`], for tests).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Row {
    /// The row carried the `→ ` mark (`$ZMX_SESSION` names it).
    pub current: bool,
    /// Every `key=value` field in order, `name` first.
    pub fields: Vec<(String, String)>,
}

impl Row {
    pub fn get(&self, key: &str) -> Option<&str> {
        self.fields
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
    pub fn name(&self) -> &str {
        self.get("name").unwrap_or_default()
    }
    pub fn pid(&self) -> Option<u32> {
        self.get("pid")?.parse().ok()
    }
}

/// Parses one `zmx list` line (without its newline).
pub fn parse_row(line: &str) -> Option<Row> {
    let (current, rest) = match line.strip_prefix("→ ") {
        Some(rest) => (true, rest),
        None => (false, line.strip_prefix("  ").unwrap_or(line)),
    };
    let fields: Vec<(String, String)> = rest
        .split('\t')
        .map(|f| {
            f.split_once('=')
                .map(|(k, v)| (k.to_string(), v.to_string()))
        })
        .collect::<Option<_>>()?;
    (fields.first()?.0 == "name").then_some(Row { current, fields })
}

/// `util.shellNeedsQuoting`.
pub fn shell_needs_quoting(arg: &str) -> bool {
    arg.is_empty()
        || arg
            .chars()
            .any(|c| " \t\"'\\$`!(){}[]|&;<>?*~#\n".contains(c))
}

/// `util.shellQuote`: single quotes, `'` as `'\''`.
pub fn shell_quote(arg: &str) -> String {
    format!("'{}'", arg.replace('\'', "'\\''"))
}

/// Longest `cmd` / `cwd` zmx carries (`ipc.MAX_CMD_LEN`, `ipc.MAX_CWD_LEN`).
pub const MAX_FIELD_LEN: usize = 256;

/// The `cmd=` value of a session created with `command` (`Daemon.handleInfo`).
pub fn cmd_field(command: &[String]) -> String {
    let mut out = String::new();
    for (i, arg) in command.iter().enumerate() {
        let src = if shell_needs_quoting(arg) {
            shell_quote(arg)
        } else {
            arg.clone()
        };
        let need = src.len() + usize::from(i > 0);
        if out.len() + need > MAX_FIELD_LEN {
            if out.len() + 3 <= MAX_FIELD_LEN {
                out.push_str("...");
            }
            break;
        }
        if i > 0 {
            out.push(' ');
        }
        out.push_str(&src);
    }
    out
}

/// `util.toOsc7Cwd`: `file://<hostname><path>`, percent-encoding all but `A-Za-z0-9-._~/:@`.
pub fn osc7_cwd(path: &str, hostname: &str) -> String {
    let mut out = format!("file://{hostname}");
    for b in path.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/:@".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// The `cwd=` a daemon reports for a pane path (an OSC 7 value or a plain path): `Daemon.setCwd` keeps a
/// usable `file://` / `kitty-shell-cwd://` value as sent, turns an absolute path into the OSC 7 form,
/// and ignores anything else. The wire cuts it at 256 bytes.
pub fn reported_cwd(value: &str, hostname: &str) -> Option<String> {
    let full = if value.starts_with('/') {
        osc7_cwd(value, hostname)
    } else {
        let rest = value
            .strip_prefix("file://")
            .or_else(|| value.strip_prefix("kitty-shell-cwd://"))?;
        // The path after the host must be absolute (`parseOsc7Cwd`).
        rest.contains('/').then_some(())?;
        value.to_string()
    };
    let mut end = full.len().min(MAX_FIELD_LEN);
    while !full.is_char_boundary(end) {
        end -= 1;
    }
    Some(full[..end].to_string())
}

/// `label.assertLabel`, as `attach --labels` / `set` print it (`None` = fine).
pub fn label_error(key: &str, value: &str) -> Option<String> {
    let ok = |s: &str| {
        s.bytes()
            .all(|c| c.is_ascii_alphanumeric() || b"-_.".contains(&c))
    };
    let msg = "error: key-value kvs can only contain [a-z, A-Z, 0-9, -_.] characters";
    if key.is_empty() {
        Some("error: label key cannot be empty".into())
    } else if ["name", "start_dir", "cmd"].contains(&key) {
        Some(format!("error: \"{key}\" is a read-only built-in field"))
    } else if !ok(key) {
        Some(format!("{msg}: key=[{key}]"))
    } else if !ok(value) {
        Some(format!("{msg}: value=[{value}]"))
    } else {
        None
    }
}

/// `label.LabelIterator`: `k=v` pairs split on spaces (a piece without `=` ends the walk).
pub fn label_pairs(labels: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = labels;
    while let Some(eq) = rest.find('=') {
        let after = &rest[eq + 1..];
        let end = after.find(' ').unwrap_or(after.len());
        out.push((rest[..eq].to_string(), after[..end].to_string()));
        rest = after.get(end + 1..).unwrap_or("");
    }
    out
}

/// `label.labelsToU8`: sorted `k=v` joined by single spaces.
pub fn labels_text(labels: &BTreeMap<String, String>) -> String {
    let pairs: Vec<String> = labels.iter().map(|(k, v)| format!("{k}={v}")).collect();
    pairs.join(" ")
}
