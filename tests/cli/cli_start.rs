//! The binary's own entry (`src/main.rs` is the C `main`, without Rust's runtime set-up, for the hook's
//! start): what that set-up gave every command still holds (SIGPIPE ignored), and `--version`, answered
//! before the parser is built, prints clap's own line.

use clap::CommandFactory;
use std::os::unix::process::ExitStatusExt;
use std::process::{Command, Stdio};

fn bin() -> Command {
    Command::new(agterm_backup_testkit::agterm_backup_bin!())
}

#[test]
fn version_is_clap_s_own_line() {
    let clap_line = agterm_backup::cli::Cli::command().render_version();
    assert_eq!(agterm_backup::cli::VERSION_LINE, clap_line);
    for flag in ["--version", "-V"] {
        let out = bin().arg(flag).output().unwrap();
        assert!(out.status.success(), "{flag}: {:?}", out.status);
        assert_eq!(String::from_utf8(out.stdout).unwrap(), clap_line, "{flag}");
        assert!(out.stderr.is_empty(), "{flag}");
    }
}

/// A pipe whose reading end is already closed: every write to the other end fails (EPIPE), or kills
/// the writer when SIGPIPE is not ignored.
fn broken_pipe() -> std::fs::File {
    // Close-on-exec: a child another test spawns meanwhile must not hold the reading end open.
    let (read, write) = agterm_backup_testkit::fds::pipe();
    drop(read);
    write
}

#[test]
fn a_closed_pipe_is_an_error_not_a_signal() {
    for args in [&["man"][..], &["--version"], &["completions", "bash"]] {
        let status = bin()
            .args(args)
            .stdout(broken_pipe())
            .stderr(Stdio::null())
            .status()
            .unwrap();
        assert_eq!(status.signal(), None, "{args:?} killed: {status:?}");
    }
}
