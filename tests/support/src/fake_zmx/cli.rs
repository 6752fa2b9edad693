//! The `zmx` command line (`main.zig`): dispatch, `list` and `version`; the session commands are in
//! [`super::session_cmds`], [`super::attach`], [`super::run`] and [`super::labels`]. Output texts, streams and exit codes are zmx's;
//! an error zmx's `main` returns prints `error: <Name>` on stderr and exits 1 (Zig's default; the
//! stack trace a ReleaseSafe build may add is not modelled).

use super::cfg::{self, Dirs};
use super::format::{session_line, Entry};
use super::proto;
use super::session_cmds;
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
        "run" | "r" => super::run::run(ctx, rest),
        "send" | "s" => session_cmds::send(ctx, rest),
        "history" | "hi" => session_cmds::history(ctx, rest),
        "kill" | "k" => session_cmds::kill(ctx, rest),
        "get" | "g" | "set" | "clear" => super::labels::labels(ctx, cmd, rest),
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
