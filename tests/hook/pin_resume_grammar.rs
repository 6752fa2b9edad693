//! The pinned line's grammar against the real `codex` CLI: `codex resume <id> <kept flags>` must parse
//! (codex's `resume` subcommand accepts every top-level option after the id; `codex resume --help`,
//! 0.169.0). Run offline with stdin closed, a line that parses gets as far as "stdin is not a terminal";
//! a flag in the wrong place fails earlier with a usage error.

use agterm_backup_core::agent::agent;
use agterm_backup_core::resume::ResumeLine;
use agterm_backup_testkit::paths::agent_cli;
use std::process::{Command, Stdio};

fn run_line(line: &str, cli_dir: &std::path::Path) -> String {
    let home = agterm_backup_testkit::scratch::tempdir();
    std::fs::create_dir(home.path().join(".codex")).unwrap();
    let out = Command::new("sh")
        .arg("-c")
        .arg(line)
        .env_clear()
        .envs(agterm_backup_testkit::hermetic::places())
        .env("PATH", format!("{}:/usr/bin:/bin", cli_dir.display()))
        .env("HOME", home.path())
        .env("CODEX_HOME", home.path().join(".codex"))
        .stdin(Stdio::null())
        .output()
        .unwrap();
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

#[test]
fn codex_accepts_the_kept_flags_after_resume_id() {
    let Some(codex) = agent_cli("codex") else {
        return;
    };
    let dir = agterm_backup_testkit::scratch::tempdir();
    let work = dir.path().join("proj 'x'");
    std::fs::create_dir(&work).unwrap();
    let flags: Vec<String> = [
        "--model",
        "gpt-5",
        "-c",
        "model_reasoning_effort=\"high\"",
        "--sandbox",
        "workspace-write",
        "-a",
        "on-request",
        "--add-dir",
        "/tmp",
        "--search",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let id = "019a0b1c-2d3e-7f40-8a9b-0c1d2e3f4a5b";
    let l = ResumeLine::build(
        agent("codex").unwrap(),
        id,
        &flags,
        work.to_str().unwrap(),
        None,
    )
    .unwrap();
    assert!(
        l.line
            .contains(&format!("'codex' 'resume' '{id}' '--model'")),
        "{}",
        l.line
    );
    let said = run_line(&l.line, codex.parent().unwrap());
    assert!(
        said.contains("stdin is not a terminal"),
        "codex did not get past parsing: {said}"
    );
    assert!(!said.contains("unexpected argument"), "{said}");

    // The check can fail: an option codex does not know is a usage error before the tty check.
    let said = run_line(
        &format!("{} '--no-such-flag'", l.line),
        codex.parent().unwrap(),
    );
    assert!(said.contains("unexpected argument"), "{said}");
    // And a resume line never carries one: a flag the table does not know is left out.
    let dropped = ResumeLine::build(
        agent("codex").unwrap(),
        id,
        &["--no-such-flag".to_string()],
        work.to_str().unwrap(),
        None,
    )
    .unwrap();
    assert!(!dropped.line.contains("no-such-flag"), "{}", dropped.line);
    assert!(run_line(&dropped.line, codex.parent().unwrap()).contains("stdin is not a terminal"));
}
