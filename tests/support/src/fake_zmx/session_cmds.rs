//! `send`, `history` and `kill`: the commands that act on one existing session (`main.zig`), with
//! zmx's texts for a session that is missing, stale or unresponsive.

use super::cli::{help, piped_stdin, session_entries, session_exists, Ctx, Fail};
use super::proto::{self, Reply, Request};

pub fn send(ctx: &Ctx, rest: &[String]) -> Result<(), Fail> {
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

fn require_session(ctx: &Ctx, name: &str) -> Result<(), Fail> {
    if session_exists(ctx, name)? {
        return Ok(());
    }
    eprintln!("error: session \"{name}\" does not exist");
    Err(Fail::Zig("SessionNotFound"))
}

pub fn history(ctx: &Ctx, rest: &[String]) -> Result<(), Fail> {
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

pub fn kill(ctx: &Ctx, rest: &[String]) -> Result<(), Fail> {
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
