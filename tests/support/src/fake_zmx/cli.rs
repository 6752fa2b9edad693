//! The `zmx` command line (`main.zig`): dispatch and the commands that only talk to existing sessions
//! (`list`, `send`, `history`, `kill`, `version`, labels). Output texts, streams and exit codes are zmx's;
//! an error zmx's `main` returns prints `error: <Name>` on stderr and exits 1 (Zig's default; the
//! stack trace a ReleaseSafe build may add is not modelled).

use super::cfg::{self, Dirs};
use super::format::{label_error, labels_text, session_line, Entry};
use super::proto::{self, Reply, Request};
use std::io::{IsTerminal, Read, Write};
use std::path::{Path, PathBuf};

/// How a command ends other than success.
#[derive(Debug)]
pub enum Fail {
    /// An error returned from zmx's `main`: `error: <name>`, exit 1.
    Zig(&'static str),
    /// Already reported; exit with this code.
    Exit(i32),
}

/// Everything a command needs from the environment.
pub struct Ctx {
    pub dirs: Dirs,
    pub shell: String,
    pub prefix: String,
    pub zmx_log: PathBuf,
}

impl Ctx {
    pub fn log(&self, level: &str, message: &str) {
        super::log::append(&self.zmx_log, level, message);
    }
    pub fn name(&self, raw: &str) -> Result<String, Fail> {
        cfg::session_name(&self.prefix, raw).map_err(Fail::Zig)
    }
    /// The socket path, or `None` after printing zmx's "too long" error (zmx then exits 0).
    pub fn socket(&self, name: &str) -> Option<String> {
        cfg::socket_path(&self.dirs.socket_dir, name)
            .map_err(|msg| eprintln!("{msg}"))
            .ok()
    }
    /// `socket.cleanupStaleSocket`.
    pub fn cleanup_stale(&self, name: &str) {
        self.log(
            "warning",
            &format!("stale socket found, cleaning up session={name}"),
        );
        let _ = std::fs::remove_file(Path::new(&self.dirs.socket_dir).join(name));
    }
}

/// Runs `zmx <args>`; returns the exit code.
pub fn main(args: Vec<String>) -> i32 {
    match args.first().map(String::as_str) {
        Some("__daemon") => {
            let spec = serde_json::from_str(args.get(1).map_or("", String::as_str));
            super::daemon::run(spec.expect("daemon spec"))
        }
        Some("__exec") => super::host::exec_spec(Path::new(args.get(1).map_or("", |s| s))),
        _ => {}
    }
    let dirs = cfg::dirs_from_env();
    let mode = cfg::dir_mode(|k| std::env::var(k).ok());
    for dir in [&dirs.socket_dir, &dirs.log_dir] {
        use std::os::unix::fs::DirBuilderExt;
        if let Err(e) = std::fs::DirBuilder::new()
            .recursive(true)
            .mode(mode)
            .create(dir)
        {
            eprintln!("error: {}", proto::connect_error_name(&e));
            return 1;
        }
    }
    let ctx = Ctx {
        zmx_log: Path::new(&dirs.log_dir).join("zmx.log"),
        dirs,
        shell: std::env::var("SHELL").unwrap_or_else(|_| "/bin/sh".into()),
        prefix: std::env::var("ZMX_SESSION_PREFIX").unwrap_or_default(),
    };
    let result = dispatch(&ctx, &args);
    let _ = std::io::stdout().flush();
    match result {
        Ok(()) => 0,
        Err(Fail::Zig(name)) => {
            eprintln!("error: {name}");
            1
        }
        Err(Fail::Exit(code)) => code,
    }
}

fn dispatch(ctx: &Ctx, args: &[String]) -> Result<(), Fail> {
    let Some(cmd) = args.first() else {
        return list(ctx, false);
    };
    let rest = &args[1..];
    let wants_help = |a: &String| a == "--help" || a == "-h";
    match cmd.as_str() {
        "version" | "v" | "-v" | "--version" => version(ctx),
        "list" | "l" | "ls" if rest.iter().any(wants_help) => help(),
        "list" | "l" | "ls" => list(ctx, rest.iter().any(|a| a == "--short")),
        "attach" | "a" => super::attach::attach(ctx, rest),
        "run" | "r" => super::attach::run(ctx, rest),
        "send" | "s" => send(ctx, rest),
        "history" | "hi" => history(ctx, rest),
        "kill" | "k" => kill(ctx, rest),
        "get" | "g" | "set" | "clear" => labels(ctx, cmd, rest),
        "print" | "p" | "write" | "wr" | "wait" | "w" | "tail" | "t" | "detach" | "d"
        | "completions" | "c" => {
            eprintln!(
                "fake-zmx: `zmx {cmd}` is not modelled (see agterm_backup_testkit::fake_zmx)"
            );
            Err(Fail::Exit(2))
        }
        _ => help(),
    }
}

pub fn help() -> Result<(), Fail> {
    print!(
        "zmx - session persistence for terminal processes (fake for tests)\n\n\
         Usage: zmx <command> [args...]\n\n\
         Commands: attach, run, send, list|ls, kill, history, get, set, clear, version, help\n"
    );
    Ok(())
}

fn version(ctx: &Ctx) -> Result<(), Fail> {
    print!(
        "zmx\t\t{}\nghostty_vt\t{}\nsocket_dir\t{}\nlog_dir\t\t{}\n",
        super::ZMX_VERSION,
        super::GHOSTTY_VERSION,
        ctx.dirs.socket_dir,
        ctx.dirs.log_dir
    );
    Ok(())
}

/// `util.get_session_entries`: every Unix socket in the socket dir, probed; a refused one is reported
/// and deleted (that is how a reboot's stale sockets go away).
pub fn session_entries(ctx: &Ctx) -> Result<Vec<Entry>, Fail> {
    let dir = std::fs::read_dir(&ctx.dirs.socket_dir)
        .map_err(|e| Fail::Zig(proto::connect_error_name(&e)))?;
    let mut entries = Vec::new();
    for item in dir.flatten() {
        let Ok(name) = item.file_name().into_string() else {
            continue;
        };
        use std::os::unix::fs::FileTypeExt;
        let is_socket = std::fs::metadata(item.path()).is_ok_and(|m| m.file_type().is_socket());
        let Ok(path) = cfg::socket_path(&ctx.dirs.socket_dir, &name) else {
            continue;
        };
        if !is_socket {
            continue;
        }
        match proto::probe(&path) {
            Ok(info) => entries.push(Entry::Live { name, info }),
            Err(err) => {
                if err == "ConnectionRefused" {
                    ctx.cleanup_stale(&name);
                }
                entries.push(Entry::Error {
                    name,
                    err: err.to_string(),
                });
            }
        }
    }
    Ok(entries)
}

fn list(ctx: &Ctx, short: bool) -> Result<(), Fail> {
    let mut entries = session_entries(ctx)?;
    if entries.is_empty() {
        if !short {
            eprintln!("no sessions found in {}", ctx.dirs.socket_dir);
        }
        return Ok(());
    }
    entries.sort_by(|a, b| a.name().cmp(b.name()));
    let current = std::env::var("ZMX_SESSION").unwrap_or_default();
    let mut out = std::io::stdout().lock();
    for entry in &entries {
        if let Some(line) = session_line(entry, short, &current) {
            let _ = out.write_all(line.as_bytes());
        }
    }
    Ok(())
}

/// Reads stdin to the end when it is not a terminal (`send`, `run` without text arguments).
pub fn piped_stdin() -> Vec<u8> {
    let mut buf = Vec::new();
    if !std::io::stdin().is_terminal() {
        let _ = std::io::stdin().read_to_end(&mut buf);
    }
    buf
}

fn send(ctx: &Ctx, rest: &[String]) -> Result<(), Fail> {
    let raw = rest.first().map_or("", String::as_str);
    if raw == "--help" || raw == "-h" {
        return help();
    }
    if raw.is_empty() {
        return Err(Fail::Zig("SessionNameRequired"));
    }
    let name = ctx.name(raw)?;
    let Some(path) = ctx.socket(&name) else {
        return Ok(());
    };
    let mut payload = rest[1..].join(" ").into_bytes();
    if rest.len() < 2 {
        payload = piped_stdin();
        if payload.last() == Some(&b'\n') {
            payload.pop();
        }
    }
    if payload.is_empty() {
        return Err(Fail::Zig("TextRequired"));
    }
    ctx.log("info", &format!("send session={name}"));
    match proto::probe(&path) {
        Ok(_) => {}
        Err("ConnectionRefused") => {
            ctx.cleanup_stale(&name);
            println!("cleaned up stale session {name}");
            return Ok(());
        }
        Err(err) => {
            println!("session {name} is unresponsive ({err})\ndaemon may be busy: try again");
            return Ok(());
        }
    }
    if let Ok(mut stream) = proto::connect_session(&path) {
        let _ = proto::send_request(&mut stream, &Request::Send { data: payload });
        // Wait for the daemon to take it (it closes after handling), so a following `send` keeps order.
        let _ = proto::read_reply(&stream, proto::PROBE_TIMEOUT);
    }
    Ok(())
}

/// `socket.sessionExists`: `Ok(false)` when nothing is there, an error for a non-socket.
pub fn session_exists(ctx: &Ctx, name: &str) -> Result<bool, Fail> {
    use std::os::unix::fs::FileTypeExt;
    match std::fs::metadata(Path::new(&ctx.dirs.socket_dir).join(name)) {
        Ok(m) if m.file_type().is_socket() => Ok(true),
        Ok(_) => Err(Fail::Zig("FileNotUnixSocket")),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(false),
        Err(e) => Err(Fail::Zig(proto::connect_error_name(&e))),
    }
}

fn require_session(ctx: &Ctx, name: &str) -> Result<(), Fail> {
    if session_exists(ctx, name)? {
        return Ok(());
    }
    eprintln!("error: session \"{name}\" does not exist");
    Err(Fail::Zig("SessionNotFound"))
}

fn history(ctx: &Ctx, rest: &[String]) -> Result<(), Fail> {
    let mut raw = None;
    let mut vt = false;
    for arg in rest {
        match arg.as_str() {
            "--help" | "-h" => return help(),
            "--vt" => vt = true,
            "--html" => {
                eprintln!("fake-zmx: `zmx history --html` is not modelled");
                return Err(Fail::Exit(2));
            }
            _ if raw.is_none() => raw = Some(arg.clone()),
            _ => {}
        }
    }
    let raw = raw.unwrap_or_else(|| std::env::var("ZMX_SESSION").unwrap_or_default());
    let name = ctx.name(&raw)?;
    let Some(path) = ctx.socket(&name) else {
        return Ok(());
    };
    require_session(ctx, &name)?;
    match proto::round_trip(&path, &Request::History { vt }) {
        Ok(Reply::History { text }) => print!("{text}"),
        Err("ConnectionRefused") => ctx.cleanup_stale(&name),
        _ => {}
    }
    Ok(())
}

/// `socket.parseSessionArg`: a trailing `*` matches by prefix.
fn matcher(ctx: &Ctx, raw: &str) -> Result<(String, bool), Fail> {
    match raw.strip_suffix('*') {
        Some("") if ctx.prefix.is_empty() => Ok((String::new(), true)),
        Some(prefix) => Ok((ctx.name(prefix)?, true)),
        None => Ok((ctx.name(raw)?, false)),
    }
}

fn kill(ctx: &Ctx, rest: &[String]) -> Result<(), Fail> {
    let mut force = false;
    let mut matchers = Vec::new();
    for arg in rest {
        match arg.as_str() {
            "--help" | "-h" => return help(),
            "--force" => force = true,
            _ => matchers.push(matcher(ctx, arg)?),
        }
    }
    if matchers.is_empty() {
        return Err(Fail::Zig("SessionNameRequired"));
    }
    for entry in session_entries(ctx)? {
        let name = entry.name();
        let hit = matchers.iter().any(|(m, prefix)| {
            if *prefix {
                name.starts_with(m.as_str())
            } else {
                name == m
            }
        });
        if hit {
            if let Err(err) = kill_one(ctx, name, force) {
                eprintln!("failed to kill session={name}: {err}");
            }
        }
    }
    Ok(())
}

fn kill_one(ctx: &Ctx, name: &str, force: bool) -> Result<(), &'static str> {
    ctx.log("info", &format!("kill session={name}"));
    let Some(path) = ctx.socket(name) else {
        return Ok(());
    };
    match session_exists(ctx, name) {
        Ok(true) => {}
        Ok(false) => {
            eprintln!("error: session \"{name}\" does not exist");
            return Err("SessionNotFound");
        }
        Err(_) => return Err("FileNotUnixSocket"),
    }
    let mut stream = match proto::connect_session(&path) {
        Ok(s) => s,
        Err(err) if force || err == "ConnectionRefused" => {
            ctx.cleanup_stale(name);
            println!("cleaned up stale session {name}");
            return Ok(());
        }
        Err(err) => {
            println!(
                "session {name} is unresponsive ({err})\ndaemon may be busy: try again, add `--force` flag, or kill the process directly"
            );
            return Ok(());
        }
    };
    let _ = proto::send_request(&mut stream, &Request::Kill);
    // The daemon hangs up once its socket file is gone, so the name is free when we return.
    let _ = stream.set_read_timeout(None);
    let _ = std::io::copy(&mut stream, &mut std::io::sink());
    println!("killed session {name}");
    Ok(())
}

/// `get`, `set`, `clear` (labels live in the daemon, for the session's lifetime).
fn labels(ctx: &Ctx, cmd: &str, rest: &[String]) -> Result<(), Fail> {
    let raw = rest.first().ok_or(Fail::Zig("SessionNameRequired"))?;
    if raw == "--help" || raw == "-h" {
        return help();
    }
    let env_name = std::env::var("ZMX_SESSION").unwrap_or_default();
    let raw = if raw == "." {
        if env_name.is_empty() {
            eprintln!("error: \".\" requires ZMX_SESSION (are you inside a zmx session?)");
            return Err(Fail::Zig("SessionNameRequired"));
        }
        env_name
    } else {
        raw.clone()
    };
    let name = ctx.name(&raw)?;
    let Some(path) = ctx.socket(&name) else {
        return Ok(());
    };
    let label_fail = |err: &str| {
        match err {
            "Timeout" => {
                eprintln!("error: session \"{name}\" does not support labels (daemon too old?)")
            }
            "ConnectionRefused" | "Unexpected" => {
                eprintln!("error: session \"{name}\" not found or unresponsive")
            }
            other => eprintln!("error: {other}"),
        }
        Fail::Exit(1)
    };
    match cmd {
        "set" => {
            let kvs = rest[1..].join(" ");
            assert_labels(&kvs)?;
            set_labels(&path, &kvs).map_err(label_fail)
        }
        "clear" => match proto::round_trip(&path, &Request::LabelClear) {
            Ok(_) => Ok(()),
            Err(e) => Err(label_fail(e)),
        },
        _ => {
            let info = proto::probe(&path).map_err(label_fail)?;
            let text = labels_text(&info.labels);
            match rest.get(1) {
                None => print!("{text}"),
                Some(key) => match info.labels.get(key) {
                    Some(v) => print!("{v}"),
                    None => return Err(Fail::Zig("LabelKeyNotFound")),
                },
            }
            Ok(())
        }
    }
}

/// `assertLabels`: the first bad pair's message, exit 1.
pub fn assert_labels(kvs: &str) -> Result<(), Fail> {
    for (k, v) in super::format::label_pairs(kvs) {
        if let Some(msg) = label_error(&k, &v) {
            eprintln!("{msg}");
            return Err(Fail::Exit(1));
        }
    }
    Ok(())
}

pub fn set_labels(path: &str, kvs: &str) -> Result<(), &'static str> {
    let req = Request::LabelSet {
        labels: kvs.to_string(),
    };
    proto::round_trip(path, &req).map(drop)
}
