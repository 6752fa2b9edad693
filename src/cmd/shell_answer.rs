//! `agterm-backup shell-answer` (hidden): the short-lived background answerer `shell-start` leaves behind
//! when a shell resumes a Claude conversation. It watches that one pane, and answers Claude's "resume
//! from summary?" question as `restore` does ([`answer_when_asked`]), then exits: at Claude's ready input
//! box, when Claude leaves the pane, or at the dialog timeout (`AGTERM_BACKUP_DIALOG_TIMEOUT_SECS`).
//!
//! `AGTERM_BACKUP_ANSWER` picks the option: unset = restore's default (2, the full session), `1`–`3`, or
//! `no` to leave the question to the user (no answerer is started).

use crate::cli::ShellAnswerArgs;
use crate::cmd::restore::open_terminal;
use crate::CliResult;
use agterm_backup_core::pane::PaneRole;
use agterm_backup_core::terminal::PaneRef;
use agterm_backup_hook::pane_env::Env;
use agterm_backup_restore::dialog::answer_keys;
use agterm_backup_restore::execute::{answer_when_asked, ExecOptions};
use agterm_backup_restore::gather::Scope;
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Command, Stdio};

/// Environment variable: which option answers Claude's question after a shell resumed it, or `no`.
pub const ANSWER_ENV: &str = "AGTERM_BACKUP_ANSWER";
/// The option `restore` picks by default (`--answer-choice`).
pub const DEFAULT_CHOICE: u8 = 2;

/// The option to answer with, or `None` when the user leaves the question to themselves (`no`, `off`,
/// `none`, `0`) or set something that is no option.
pub fn choice(value: Option<&str>) -> Option<u8> {
    let Some(v) = value.map(str::trim).filter(|v| !v.is_empty()) else {
        return Some(DEFAULT_CHOICE);
    };
    let n: u8 = v.parse().ok()?;
    answer_keys(n).ok().map(|_| n)
}

/// Starts the answerer for `target` in its own session, detached from the shell's terminal (so it
/// survives the shell handing the foreground to Claude and never reads or writes the tty).
pub fn spawn(scope: &Scope, target: &PaneRef, env: &Env) {
    let Some(n) = choice(env.get(ANSWER_ENV).map(String::as_str)) else {
        return;
    };
    let Ok(exe) = std::env::current_exe() else {
        return;
    };
    let mut cmd = Command::new(exe);
    cmd.args(answer_args(scope, target, n));
    cmd.stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    // SAFETY: setsid is async-signal-safe; nothing else runs between fork and exec.
    unsafe {
        cmd.pre_exec(|| {
            libc::setsid();
            Ok(())
        });
    }
    let _ = cmd.spawn();
}

/// `shell-answer`'s arguments for `target` in `scope`: the scope as its terminal and place, so any
/// row of the registry crosses the command line.
fn answer_args(scope: &Scope, target: &PaneRef, choice: u8) -> Vec<String> {
    let mut args: Vec<String> = vec!["shell-answer".into(), "--choice".into(), choice.to_string()];
    args.extend(["--terminal".into(), scope.kind().as_str().into()]);
    if let Some(place) = scope.place() {
        args.extend(["--place".into(), place.into()]);
    }
    args.extend(["--session".into(), target.session_id.clone()]);
    args.extend(["--role".into(), target.role.as_str().into()]);
    if let Some(id) = &target.pane_id {
        args.extend(["--pane-id".into(), id.clone()]);
    }
    args
}

pub fn run(args: ShellAnswerArgs, socket: Option<PathBuf>) -> CliResult {
    let scope = agterm_backup_terminals::scope_at(args.terminal.kind(), args.place);
    let role: PaneRole = args.role.parse().unwrap_or(PaneRole::Left);
    let target = PaneRef {
        session_id: args.session,
        role,
        pane_id: args.pane_id,
    };
    let env = |k: &str| std::env::var(k).ok();
    let Ok(mut term) = open_terminal(&scope, socket, &env) else {
        return Ok(());
    };
    let opts = ExecOptions::from_env(Some(args.choice), |k| std::env::var(k).ok());
    let _ = answer_when_asked(&mut *term, &target, args.choice, &opts);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_answer_setting_reads_a_choice_or_no() {
        assert_eq!(choice(None), Some(DEFAULT_CHOICE));
        assert_eq!(choice(Some(" ")), Some(DEFAULT_CHOICE));
        assert_eq!(choice(Some("1")), Some(1));
        assert_eq!(choice(Some("3")), Some(3));
        for off in ["no", "off", "none", "0", "4", "yes please"] {
            assert_eq!(choice(Some(off)), None, "{off}");
        }
    }

    /// What `spawn` passes, `run` reads back as the same scope and pane, for every terminal.
    #[test]
    fn every_terminals_scope_crosses_to_the_answerer_and_back() {
        use crate::cli::{Cli, Command};
        use clap::Parser;
        let target = PaneRef {
            session_id: "6B1E0C2A-AAAA-BBBB-CCCC-0123456789AB".into(),
            role: PaneRole::Right,
            pane_id: Some("%7".into()),
        };
        // Every row's: one of a terminal of many instances has a place (with a space in it).
        let scopes = agterm_backup_terminals::ROWS.iter().map(|r| {
            let place = (!r.one_instance).then(|| format!("/tmp/{}-1/my work", r.name.as_str()));
            agterm_backup_terminals::scope_at(r.name, place)
        });
        for scope in scopes {
            let argv =
                std::iter::once("agterm-backup".to_string()).chain(answer_args(&scope, &target, 3));
            let Command::ShellAnswer(a) = Cli::try_parse_from(argv).unwrap().command else {
                panic!("not shell-answer");
            };
            assert_eq!(
                agterm_backup_terminals::scope_at(a.terminal.kind(), a.place),
                scope
            );
            assert_eq!(
                (a.session, a.role, a.pane_id),
                (
                    "6B1E0C2A-AAAA-BBBB-CCCC-0123456789AB".into(),
                    "right".into(),
                    Some("%7".into())
                )
            );
        }
        // A detached answerer of the previous release spelled the place per terminal (`--<alias>`).
        for r in &agterm_backup_terminals::ROWS {
            let Some(place) = r.command_line.place else {
                continue;
            };
            let alias = format!("--{}", place.alias);
            let old = [
                "agterm-backup",
                "shell-answer",
                "--terminal",
                r.name.as_str(),
            ];
            let rest = [
                alias.as_str(),
                "/z",
                "--session",
                "S",
                "--role",
                "left",
                "--choice",
                "1",
            ];
            let Command::ShellAnswer(a) = Cli::try_parse_from(old.into_iter().chain(rest))
                .unwrap()
                .command
            else {
                panic!("not shell-answer");
            };
            assert_eq!(
                agterm_backup_terminals::scope_at(a.terminal.kind(), a.place),
                agterm_backup_terminals::scope_at(r.name, Some("/z".into()))
            );
        }
    }
}
