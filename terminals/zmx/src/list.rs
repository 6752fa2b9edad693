//! `zmx list` as data. Each session is one line of tab-separated `key=value` fields (`util.zig
//! writeSessionLine`, zmx 0.7.0 and main @ea45749):
//!
//! ```text
//! name=<name>\tpid=<pty child>\tclients=<n>\tcreated=<unix s>[\tcwd=<dir>][\tcmd=<argv>][\tended=<unix s>\texit_code=<n>][\t<label>=<v>…]
//! name=<name>\terr=<error>\tstatus=cleaning up|unreachable
//! ```
//!
//! Inside a session every line starts with `→ ` (the caller's own) or two spaces. `pid` is the pty's
//! first process (the shell, or the command the session was created with), not the daemon. `cwd` is the
//! directory the session started in, or the latest OSC 7 report (`file://<host><percent-encoded path>`);
//! zmx 0.7.0 printed `start_dir=` instead. With no session zmx prints nothing on stdout.

/// One session as `zmx list` shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Listed {
    pub name: String,
    /// The pty's first process; `None` on an error row.
    pub pid: Option<u32>,
    pub clients: Option<u32>,
    /// Unix seconds.
    pub created: Option<i64>,
    /// A local path, decoded.
    pub cwd: Option<String>,
    pub cmd: Option<String>,
    /// A `zmx run` task finished (Unix seconds).
    pub ended: Option<i64>,
    /// The daemon did not answer (`err=`): busy (`Timeout`, …), or gone ([`Listed::is_stale`]).
    pub error: Option<String>,
}

impl Listed {
    /// A socket whose daemon is gone (it refused the connection; zmx deletes it while listing): no
    /// session, whatever the row says.
    pub fn is_stale(&self) -> bool {
        self.error.as_deref() == Some("ConnectionRefused")
    }
}

/// Every session of `zmx list`'s stdout; lines that name no session are left out.
pub fn parse_list(out: &str) -> Vec<Listed> {
    out.lines().filter_map(parse_line).collect()
}

/// One line of `zmx list`.
pub fn parse_line(line: &str) -> Option<Listed> {
    let line = line
        .strip_prefix("→ ")
        .or_else(|| line.strip_prefix("  "))
        .unwrap_or(line);
    let mut fields = line.split('\t').filter_map(|f| f.split_once('='));
    let (key, name) = fields.next()?;
    if key != "name" || name.is_empty() {
        return None;
    }
    let mut row = Listed {
        name: name.to_string(),
        pid: None,
        clients: None,
        created: None,
        cwd: None,
        cmd: None,
        ended: None,
        error: None,
    };
    for (key, value) in fields {
        match key {
            "pid" => row.pid = value.parse().ok().filter(|&p| p > 0),
            "clients" => row.clients = value.parse().ok(),
            "created" => row.created = value.parse().ok(),
            "cwd" | "start_dir" => row.cwd = local_path(value),
            "cmd" => row.cmd = Some(value.to_string()),
            "ended" => row.ended = value.parse().ok().filter(|&t| t > 0),
            "err" => row.error = Some(value.to_string()),
            _ => {}
        }
    }
    if row.error.is_none() && row.pid.is_none() {
        return None;
    }
    Some(row)
}

/// A `cwd` value as a local path: a plain absolute path, or an OSC 7 `file://<host>/<path>` decoded
/// (the host is not checked: zmx keeps a remote one only as reported, and a path that does not exist
/// here confirms nothing).
fn local_path(value: &str) -> Option<String> {
    let path = match value.strip_prefix("file://") {
        Some(rest) => &rest[rest.find('/')?..],
        None => value,
    };
    let decoded = percent_decode(path)?;
    decoded.starts_with('/').then_some(decoded)
}

fn percent_decode(s: &str) -> Option<String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = s.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_as_zmx_writes_them() {
        // Built field by field after writeSessionLine, and its own test's expected lines.
        let out = "name=api\tpid=4242\tclients=1\tcreated=1796126424\tcwd=file://box/w/my%20api\tcmd=claude --resume x\tproject=pico\n\
                   → name=dev\tpid=123\tclients=2\tcreated=0\n\
                   \x20\x20name=task\tpid=77\tclients=0\tcreated=5\tcwd=/w\tended=9\texit_code=0\n\
                   name=stale\terr=ConnectionRefused\tstatus=cleaning up\n\
                   no sessions found in /tmp/zmx-1000\n";
        let rows = parse_list(out);
        assert_eq!(rows.len(), 4, "{rows:#?}");
        assert_eq!(rows[0].name, "api");
        assert_eq!((rows[0].pid, rows[0].clients), (Some(4242), Some(1)));
        assert_eq!(rows[0].created, Some(1796126424));
        assert_eq!(rows[0].cwd.as_deref(), Some("/w/my api"));
        assert_eq!(rows[0].cmd.as_deref(), Some("claude --resume x"));
        assert_eq!((rows[1].name.as_str(), rows[1].clients), ("dev", Some(2)));
        assert_eq!(
            (rows[2].cwd.as_deref(), rows[2].ended),
            (Some("/w"), Some(9))
        );
        assert_eq!(rows[3].error.as_deref(), Some("ConnectionRefused"));
        assert_eq!(rows[3].pid, None);
        assert!(rows[3].is_stale() && !rows[0].is_stale());
        let busy = parse_line("name=b\terr=Timeout\tstatus=unreachable").unwrap();
        assert!(!busy.is_stale(), "a busy daemon is a session");
    }

    #[test]
    fn zmx_0_7_start_dir_and_odd_values() {
        let row = parse_line("name=a b\tpid=1\tclients=0\tcreated=2\tstart_dir=/w/x").unwrap();
        assert_eq!(
            (row.name.as_str(), row.cwd.as_deref()),
            ("a b", Some("/w/x"))
        );
        // A name holding `=` keeps it; a relative or undecodable cwd is no cwd.
        let eq = parse_line("name=k=v\tpid=1\tclients=0\tcreated=2\tcwd=rel").unwrap();
        assert_eq!((eq.name.as_str(), eq.cwd), ("k=v", None));
        assert_eq!(
            parse_line("name=x\tpid=1\tcwd=file://h/%zz").unwrap().cwd,
            None
        );
        for junk in [
            "",
            "pid=1\tname=x",
            "name=\tpid=1",
            "name=x\tpid=0",
            "name=x",
        ] {
            assert_eq!(parse_line(junk), None, "{junk:?}");
        }
    }
}
