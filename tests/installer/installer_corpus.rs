//! The installer against a corpus of real-world-shaped config files (tests/corpus/installer/), through the
//! real binary. On every file: (a) `apply` then `remove` gives back the original bytes (for files that
//! already held a stale entry of ours: the original minus ours), (b) a second `apply` changes no byte and
//! not the mtime, (c) no byte outside our entries is lost (the original is a subsequence of the applied
//! text, and cutting our entries out gives the original back up to whitespace), (d) a refused file
//! (`refused-*`) exits 2 with one `file:line:col:` line and stays untouched. `--dry-run` never writes. The
//! shell rc files (`zshrc/`, `bashrc/`, `fish/`) run with that login shell in `$SHELL` and `--shell`.

use crate::installer_common::*;
use agterm_backup_installer::command::hook_command;
use agterm_backup_installer::shell_rc::{files, RcFile, Shell};
use agterm_backup_installer::{Target, TargetKind};
use std::path::{Path, PathBuf};

/// The target kind of the terminal config file `target` (its registry row's).
fn config_file(target: &str) -> TargetKind {
    TargetKind::ConfigFile(agterm_backup_installer::config_file::named(target).unwrap())
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    Claude,
    CodexToml,
    CodexHooksJson,
    Denylist,
    Tmux,
    /// A login shell's rc file: the folder names the shell.
    Shell(RcFile),
}

impl Kind {
    fn from_dir(dir: &str) -> Kind {
        match dir {
            "claude" => Kind::Claude,
            "codex-toml" => Kind::CodexToml,
            "codex-hooks-json" => Kind::CodexHooksJson,
            "denylist" => Kind::Denylist,
            "tmux" => Kind::Tmux,
            "zshrc" => Kind::Shell(files::ZSHRC),
            "bashrc" => Kind::Shell(files::BASHRC),
            "fish" => Kind::Shell(files::FISH_CONFIG),
            other => panic!("unknown corpus folder {other}"),
        }
    }
    fn path_in(self, s: &Sandbox) -> PathBuf {
        match self {
            Kind::Claude => s.claude_settings(),
            Kind::CodexToml => s.codex_config(),
            Kind::CodexHooksJson => s.codex_hooks_json(),
            Kind::Denylist => s.denylist(),
            Kind::Tmux => s.tmux_conf(),
            Kind::Shell(rc) if rc == files::FISH_CONFIG => {
                s.home().join(".config/fish/config.fish")
            }
            Kind::Shell(rc) => s.home().join(rc.name),
        }
    }
    fn apply_args(self) -> Vec<&'static str> {
        match self {
            Kind::Claude => vec![
                "installer",
                "apply",
                "--agents",
                "claude",
                "--no-denylist",
                "--no-tmux",
            ],
            Kind::CodexToml | Kind::CodexHooksJson => vec![
                "installer",
                "apply",
                "--agents",
                "codex",
                "--no-denylist",
                "--no-tmux",
            ],
            Kind::Denylist => vec!["installer", "apply", "--agents", "claude", "--no-tmux"],
            Kind::Tmux => vec!["installer", "apply", "--agents", "claude", "--no-denylist"],
            Kind::Shell(_) => apply_shell_only(),
        }
    }
    /// The login shell each run has (`None`: the password database's, and no `--shell`).
    fn login_shell(self) -> Option<&'static str> {
        match self {
            Kind::Shell(rc) => Some(match rc.shell {
                Shell::Zsh => "/bin/zsh",
                Shell::Bash => "/bin/bash",
                Shell::Fish => "/usr/bin/fish",
            }),
            _ => None,
        }
    }
    fn target(self, path: &Path) -> Target {
        let (kind, agent) = match self {
            Kind::Claude => (TargetKind::ClaudeSettings, "claude"),
            Kind::CodexToml => (TargetKind::CodexConfig, "codex"),
            Kind::CodexHooksJson => (TargetKind::CodexHooksJson, "codex"),
            Kind::Denylist => (config_file("denylist"), ""),
            Kind::Tmux => (config_file("tmux"), ""),
            Kind::Shell(rc) => (TargetKind::ShellRc(rc), ""),
        };
        let command = if matches!(self, Kind::Tmux | Kind::Shell(_)) {
            canonical_binary().display().to_string()
        } else if agent.is_empty() {
            String::new()
        } else {
            hook_command(&canonical_binary(), agent)
        };
        Target {
            kind,
            path: path.to_path_buf(),
            command,
        }
    }
}

fn corpus() -> Vec<(Kind, PathBuf)> {
    let mut out = Vec::new();
    for dir in std::fs::read_dir(corpus_dir()).unwrap() {
        let dir = dir.unwrap().path();
        let kind = Kind::from_dir(dir.file_name().unwrap().to_str().unwrap());
        for file in std::fs::read_dir(&dir).unwrap() {
            out.push((kind, file.unwrap().path()));
        }
    }
    out.sort_by(|a, b| a.1.cmp(&b.1));
    out
}

fn is_subsequence(small: &str, big: &str) -> bool {
    let mut it = big.chars();
    small.chars().all(|c| it.any(|b| b == c))
}

fn squeeze(s: &str) -> String {
    s.chars().filter(|c| !c.is_whitespace()).collect()
}

/// `squeeze`, then without empty event arrays and an empty `hooks` object: cutting our entries out without
/// the backup drops a container we emptied, even one that was already there empty (the same for the agent).
fn squeeze_without_empty_hooks(s: &str) -> String {
    let mut out = squeeze(s);
    loop {
        let before = out.clone();
        for key in agterm_backup_installer::OUR_EVENTS
            .map(|e| format!("\"{e}\":[]"))
            .into_iter()
            .chain(["\"hooks\":{}".to_string()])
        {
            out = out
                .replace(&format!(",{key}"), "")
                .replace(&format!("{key},"), "")
                .replace(&key, "");
        }
        if out == before {
            return out;
        }
    }
}

/// Old binary paths of ours that corpus files hold (replaced by the current one on apply).
fn refresh_stale_paths(text: &str) -> String {
    let now = canonical_binary().display().to_string();
    let mut out = text.to_string();
    for old in [
        "/usr/local/Cellar/agterm-backup/0.0.9/bin/agterm-backup",
        "/opt/homebrew/Cellar/agterm-backup/0.0.9/bin/agterm-backup",
        "/old/bin/agterm-backup",
    ] {
        out = out.replace(old, &now);
    }
    out
}

/// Checks one corpus file; returns the failures found.
fn check(kind: Kind, file: &Path) -> Vec<String> {
    let name = file.file_name().unwrap().to_string_lossy().into_owned();
    let mut failures = Vec::new();
    let mut fail = |m: String| failures.push(format!("{name}: {m}"));
    let s = Sandbox::new();
    let run = |args: &[&str]| {
        let mut cmd = s.command("/usr/bin:/bin");
        if let Some(shell) = kind.login_shell() {
            cmd.env("SHELL", shell);
        }
        cmd.args(args).output().expect("agterm-backup runs")
    };
    let path = kind.path_in(&s);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let original = std::fs::read(file).unwrap();
    std::fs::write(&path, &original).unwrap();
    let (mtime0, mode0) = (mtime(&path), mode(&path));
    let refused = name.starts_with("refused-");

    // --dry-run writes nothing.
    let mut dry = kind.apply_args();
    dry.push("--dry-run");
    let out = run(&dry);
    if read_opt(&path).as_deref() != Some(&original[..]) || mtime(&path) != mtime0 {
        fail("--dry-run touched the file".into());
    }
    if refused {
        // (d) refused: exit 2, one line naming file:line:col, untouched, no backup.
        // `refused-apply-*` files are valid but cannot take our entries: `remove` has nothing to do there.
        let remove_refused = !name.starts_with("refused-apply-");
        for args in [dry.clone(), kind.apply_args(), vec!["installer", "remove"]] {
            let out = run(&args);
            if args[1] == "remove" && !remove_refused {
                if !out.status.success() {
                    fail(format!(
                        "remove of a valid file failed: {}",
                        text(&out.stderr)
                    ));
                }
                continue;
            }
            let err = text(&out.stderr);
            if out.status.code() != Some(2) {
                fail(format!(
                    "{args:?} exit {:?}, want 2; stderr {err}",
                    out.status.code()
                ));
            }
            let prefix = format!("agterm-backup: {}:", path.display());
            let located = err
                .strip_prefix(&prefix)
                .and_then(|rest| {
                    let mut parts = rest.splitn(3, ':');
                    Some((
                        parts.next()?.parse::<usize>().ok()?,
                        parts.next()?.parse::<usize>().ok()?,
                    ))
                })
                .is_some();
            if err.lines().count() != 1 || !located {
                fail(format!(
                    "{args:?}: want one `file:line:col:` line, got {err:?}"
                ));
            }
        }
        if read_opt(&path).as_deref() != Some(&original[..])
            || mtime(&path) != mtime0
            || mode(&path) != mode0
        {
            fail("refused file was touched".into());
        }
        if std::fs::metadata(agterm_backup_installer::fsio::backup_path(&path)).is_ok() {
            fail("refused file got a backup".into());
        }
        return failures;
    }
    if !out.status.success() {
        fail(format!("--dry-run failed: {}", text(&out.stderr)));
    }
    let original_text = String::from_utf8(original.clone()).unwrap();
    let target = kind.target(&path);
    let holds_stale_ours = target.has_ours(&original_text);

    // apply
    let out = run(&kind.apply_args());
    if !out.status.success() {
        fail(format!("apply failed: {}", text(&out.stderr)));
        return failures;
    }
    let applied = String::from_utf8(std::fs::read(&path).unwrap()).unwrap();
    if mode(&path) != mode0 {
        fail(format!("mode changed {:?} -> {:?}", mode0, mode(&path)));
    }
    if applied != original_text
        && read_opt(&agterm_backup_installer::fsio::backup_path(&path)).as_deref()
            != Some(&original[..])
    {
        fail("the .agterm-backup.bak does not hold the pre-change bytes".into());
    }
    // (c) no byte lost: every original byte survives, in order (stale entries of ours refreshed, or taken
    // out where there was more than one per event).
    let users = if holds_stale_ours {
        target.remove_text(&original_text).unwrap()
    } else {
        original_text.clone()
    };
    if !is_subsequence(&refresh_stale_paths(&original_text), &applied)
        && !is_subsequence(&users, &applied)
    {
        fail(format!("bytes of the original were lost:\n{applied}"));
    }
    let status = run(&["installer", "status", "--json"]);
    let report: serde_json::Value = serde_json::from_slice(&status.stdout).unwrap();
    let entry = report["targets"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["path"] == path.display().to_string())
        .cloned();
    if entry.as_ref().map(|e| e["state"].clone()) != Some("present".into()) {
        fail(format!("status after apply: {entry:?}"));
    }
    // (c) cutting our entries out of the applied text gives the original (up to whitespace).
    let cut = target.remove_text(&applied).unwrap();
    let reference = if original_text.trim().is_empty()
        && !matches!(
            kind,
            Kind::Denylist | Kind::CodexToml | Kind::Tmux | Kind::Shell(_)
        ) {
        "{}".to_string() // an empty JSON file counts as `{}`
    } else if holds_stale_ours {
        target.remove_text(&original_text).unwrap()
    } else {
        original_text.clone()
    };
    if squeeze_without_empty_hooks(&cut) != squeeze_without_empty_hooks(&reference) {
        fail(format!(
            "removing ours from the applied text:\n{cut}\nwant:\n{reference}"
        ));
    }
    if target.has_ours(&cut) {
        fail("removal left an entry of ours".into());
    }

    // (b) a second apply changes nothing, not even the mtime.
    let mtime1 = mtime(&path);
    let out = run(&kind.apply_args());
    let line = text(&out.stdout)
        .lines()
        .find(|l| l.contains(&path.display().to_string()) && !l.contains(": note: "))
        .map(str::to_string);
    if !out.status.success() || !line.as_deref().is_some_and(|l| l.ends_with(": unchanged")) {
        fail(format!("second apply: {line:?} {}", text(&out.stderr)));
    }
    if read_opt(&path).as_deref() != Some(applied.as_bytes()) || mtime(&path) != mtime1 {
        fail("second apply touched the file".into());
    }

    // (a) remove restores the original bytes (or the original minus our stale entries).
    let out = run(&["installer", "remove"]);
    if !out.status.success() {
        fail(format!("remove failed: {}", text(&out.stderr)));
    }
    let removed = read_opt(&path).map(|b| String::from_utf8(b).unwrap());
    let want = if holds_stale_ours {
        target.remove_text(&original_text).unwrap()
    } else {
        original_text.clone()
    };
    if removed.as_deref() != Some(want.as_str()) {
        fail(format!("after remove:\n{removed:?}\nwant:\n{want:?}"));
    }
    if mode(&path) != mode0 {
        fail("remove changed the mode".into());
    }
    // Files apply created for the other targets are gone again.
    for other in [
        s.claude_settings(),
        s.codex_config(),
        s.denylist(),
        s.home().join(".bash_profile"),
    ] {
        if other != path && other.exists() {
            fail(format!("{} left behind", other.display()));
        }
    }
    failures
}

#[test]
fn corpus_has_at_least_thirty_real_world_files() {
    let files = corpus();
    assert!(files.len() >= 30, "{} files", files.len());
    for kind in [
        Kind::Claude,
        Kind::CodexToml,
        Kind::CodexHooksJson,
        Kind::Denylist,
        Kind::Tmux,
        Kind::Shell(files::ZSHRC),
        Kind::Shell(files::BASHRC),
        Kind::Shell(files::FISH_CONFIG),
    ] {
        assert!(
            files.iter().any(|(k, _)| *k == kind),
            "{kind:?} has no files"
        );
    }
}

#[test]
fn every_corpus_file_keeps_its_bytes() {
    let files = corpus();
    let failures: Vec<String> = files
        .iter()
        .flat_map(|(kind, file)| check(*kind, file))
        .collect();
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n---\n")
    );
    eprintln!("checked {} corpus files", files.len());
}
