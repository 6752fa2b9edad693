//! The rendered command line is pinned byte for byte: every subcommand's `--help` (hidden ones too),
//! the man page and the bash, zsh and fish completions equal `tests/corpus/help-today/`. Texts built
//! from the agent and terminal rows (`src/agents_help.rs`, `src/terminals_help.rs`) must render what
//! was written out by hand before them. After a deliberate change of the help, rewrite the folder with
//! `AGB_BLESS=1 cargo test --test cli help_today` and review its diff (not an `AGTERM_` name: the
//! test sandbox unsets those).

use clap::CommandFactory;
use std::path::PathBuf;
use std::process::Command;

fn corpus() -> PathBuf {
    agterm_backup_testkit::paths::workspace_root().join("tests/corpus/help-today")
}

/// Every subcommand's words (`installer apply`, …), hidden ones included.
fn every_subcommand() -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut stack: Vec<(Vec<String>, clap::Command)> =
        vec![(Vec::new(), agterm_backup::cli::Cli::command())];
    while let Some((words, cmd)) = stack.pop() {
        for sub in cmd.get_subcommands() {
            let mut w = words.clone();
            w.push(sub.get_name().to_string());
            out.push(w.clone());
            stack.push((w, sub.clone()));
        }
    }
    out
}

/// What the binary prints for `args`, the version as `{VERSION}`.
fn output(args: &[String]) -> String {
    let out = Command::new(agterm_backup_testkit::agterm_backup_bin!())
        .args(args)
        .env_clear()
        .envs(agterm_backup_testkit::hermetic::places())
        .env("COLUMNS", "100")
        .output()
        .unwrap();
    assert!(out.status.success(), "{args:?}: {out:?}");
    String::from_utf8(out.stdout)
        .unwrap()
        .replace(env!("CARGO_PKG_VERSION"), "{VERSION}")
}

#[test]
fn help_man_page_and_completions_are_as_today() {
    let mut pinned: Vec<(String, Vec<String>)> = vec![
        ("top.txt".into(), vec!["--help".into()]),
        ("help.txt".into(), vec!["help".into(), "restore".into()]),
    ];
    for words in every_subcommand() {
        let mut args = words.clone();
        args.push("--help".into());
        pinned.push((format!("{}.txt", words.join("_")), args));
    }
    pinned.push(("man.roff".into(), vec!["man".into()]));
    for shell in ["bash", "zsh", "fish"] {
        pinned.push((
            format!("completions.{shell}"),
            vec!["completions".into(), shell.into()],
        ));
    }
    let bless = std::env::var_os("AGB_BLESS").is_some_and(|v| v == "1");
    if bless {
        std::fs::create_dir_all(corpus()).unwrap();
    }
    let mut differ = Vec::new();
    for (file, args) in &pinned {
        let now = output(args);
        let path = corpus().join(file);
        if bless {
            std::fs::write(&path, &now).unwrap();
        } else if std::fs::read_to_string(&path).ok().as_deref() != Some(now.as_str()) {
            differ.push(format!("{file} (`agterm-backup {}`)", args.join(" ")));
        }
    }
    assert!(
        differ.is_empty(),
        "not as tests/corpus/help-today/ pins it: {differ:?}\n(a deliberate change: AGB_BLESS=1)"
    );
    // Every pinned file is one the test writes: none left over from a subcommand gone.
    let names: Vec<&str> = pinned.iter().map(|(f, _)| f.as_str()).collect();
    for entry in std::fs::read_dir(corpus()).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        assert!(names.contains(&name.as_str()), "stale: {name}");
    }
}
