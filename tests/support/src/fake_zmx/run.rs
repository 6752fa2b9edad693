//! `zmx run`: a task typed into a session (created with `bash` if missing), with its exit code tracked
//! by the marker the daemon watches for.

use super::attach::{caller_cwd, ensure_session};
use super::cli::{self, Ctx, Fail};
use super::proto::{self, Reply, Request};
use std::time::Duration;

/// `zmx run <name> [-d] [cmd…]`: create-if-missing (a `bash` login shell), type the command with the
/// task marker. `-d` prints `command sent!`; without it the fake waits for the task and exits with its
/// code, but does not relay its output (zmx tails it).
pub fn run(ctx: &Ctx, rest: &[String]) -> Result<(), Fail> {
    let raw = rest.first().map_or("", String::as_str);
    if raw == "--help" || raw == "-h" {
        return cli::help();
    }
    let detached = rest.iter().skip(1).any(|a| a.starts_with("-d"));
    let args: Vec<&String> = rest
        .iter()
        .skip(1)
        .filter(|a| !a.starts_with("-d"))
        .collect();
    let name = ctx.name(raw)?;
    let Some(path) = ctx.socket(&name) else {
        return Ok(());
    };
    ensure_session(ctx, &name, &path, None, &caller_cwd(), true)?;
    let mut cmd: Vec<u8> = if args.is_empty() {
        cli::piped_stdin()
    } else {
        let words: Vec<String> = args
            .iter()
            .map(|a| match super::format::shell_needs_quoting(a) {
                true => super::format::shell_quote(a),
                false => a.to_string(),
            })
            .collect();
        words.join(" ").into_bytes()
    };
    if cmd.is_empty() {
        return Err(Fail::Zig("CommandRequired"));
    }
    match cmd.last() {
        Some(b'\n') => *cmd.last_mut().expect("non-empty") = b'\r',
        _ => cmd.push(b'\r'),
    }
    match proto::round_trip(&path, &Request::Run { cmd }) {
        Ok(Reply::Ack) => {}
        _ => return Err(Fail::Zig("SessionNotReady")),
    }
    if detached {
        println!("command sent!");
        return Ok(());
    }
    loop {
        std::thread::sleep(Duration::from_millis(200));
        match proto::probe(&path) {
            Ok(info) if info.task_ended_at > 0 => {
                return Err(Fail::Exit(info.task_exit_code.into()))
            }
            Ok(_) => {}
            Err(_) => return Ok(()),
        }
    }
}
