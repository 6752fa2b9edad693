//! Every flag a resume line replays parses in the pinned real CLIs.
//!
//! For each kept row of Claude's and Codex's flag tables (every alias), a launch with that flag and a
//! valid value goes through the hook's filter, then through `ResumeLine`, and the real CLI runs the line's
//! words offline in a throwaway HOME. Each CLI is stopped right after it parsed its arguments by a check
//! that comes after parsing: Claude looks the (unknown) conversation up and says "No conversation found";
//! Codex refuses to start its TUI without a terminal ("stdin is not a terminal"). A flag the CLI does not
//! know, a value split from its flag or a value it refuses fails instead (commander and clap both report
//! those as `error: …`), and a control run with an unknown flag proves the check catches it.

use agterm_backup_core::agent::{AgentSpec, FlagRole, Takes, CLAUDE, CODEX};
use agterm_backup_core::flags::filter_launch_args;
use agterm_backup_core::resume::ResumeLine;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const CLAUDE_ID: &str = "77e8ca85-2b1c-4a8e-9d0b-0c1d2e3f4a5b";
const CODEX_ID: &str = "019a0b1c-2d3e-7f40-8a9b-0c1d2e3f4a5b";

/// A throwaway HOME and project directory, with files for the flags that name one.
struct World {
    home: agterm_backup_testkit::scratch::ScratchDir,
    project: PathBuf,
}

impl World {
    fn new() -> World {
        let home = agterm_backup_testkit::scratch::tempdir();
        let project = home.path().join("project");
        std::fs::create_dir_all(project.join("plugin")).unwrap();
        std::fs::create_dir_all(home.path().join("codex")).unwrap();
        let private = home.path().join("private");
        std::fs::create_dir(&private).unwrap();
        std::fs::set_permissions(
            &private,
            std::os::unix::fs::PermissionsExt::from_mode(0o700),
        )
        .unwrap();
        std::fs::write(project.join("prompt.txt"), "be terse\n").unwrap();
        World { home, project }
    }

    /// A value the CLI accepts for `flag` (the first guess; [`choice_from`] refines it).
    fn value_for(&self, flag: &str) -> String {
        let file = self.project.join("prompt.txt").display().to_string();
        let dir = self.project.join("plugin").display().to_string();
        match flag {
            "--settings" | "--agents" | "--managed-settings" => "{}".into(),
            "--mcp-config" => r#"{"mcpServers":{}}"#.into(),
            "--json-schema" => r#"{"type":"object"}"#.into(),
            f if f.ends_with("-file") && f != "--debug-file" => file,
            "--add-dir" | "--plugin-dir" | "--plugin-dir-no-mcp" | "--project-config-root" => dir,
            "-c" | "--config" => "model=\"o3\"".into(),
            "--remote" => "ws://127.0.0.1:9".into(),
            "--remote-auth-token-env" => "MOCK_TOKEN".into(),
            "--local-provider" => "ollama".into(),
            "--enable" | "--disable" => "shell_tool".into(),
            "--setting-sources" => "user,project".into(),
            "--autocompact" => "auto".into(),
            "--channels" | "--dangerously-load-development-channels" => "server:box".into(),
            "--messaging-socket-path" => self
                .home
                .path()
                .join("private/msg.sock")
                .display()
                .to_string(),
            // Not a valid address on purpose: a valid one is fetched from the internet.
            "--client-data-url" => "x".into(),
            _ => "x".into(),
        }
    }
}

/// A better value when the CLI named what it accepts: the first of its choices, or a number.
fn choice_from(output: &str) -> Option<String> {
    if let Some(rest) = output.split("Allowed choices are ").nth(1) {
        return rest.split([',', '.']).next().map(|c| c.trim().to_string());
    }
    if let Some(rest) = output.split("[possible values: ").nth(1) {
        return rest.split([',', ']']).next().map(|c| c.trim().to_string());
    }
    let wants_number = [
        "must be a number",
        "positive integer",
        "greater than 0",
        "number",
    ];
    wants_number
        .iter()
        .any(|w| output.contains(w))
        .then(|| "5".to_string())
}

/// Runs `cli` with `args` in `world`, offline; returns (exit code, stdout + stderr).
fn run(cli: &Path, world: &World, args: &[String]) -> (Option<i32>, String) {
    let home = world.home.path();
    let out = Command::new(cli)
        .args(args)
        .current_dir(&world.project)
        .env_clear()
        .envs(agterm_backup_testkit::hermetic::places())
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("HOME", home)
        .env("CODEX_HOME", home.join("codex"))
        .env("ANTHROPIC_API_KEY", "sk-ant-test-0000000000000000000000")
        .env("ANTHROPIC_BASE_URL", "http://127.0.0.1:9")
        .env("DISABLE_AUTOUPDATER", "1")
        .env("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1")
        .env("MOCK_TOKEN", "t")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.code(), text)
}

/// What the CLI made of a line.
#[derive(Debug, PartialEq, Eq)]
enum Parsed {
    /// It got past parsing to the check that stops it.
    Yes,
    /// An argument error (`error: …` from commander or clap).
    No(String),
    /// Neither: it stopped somewhere else.
    Elsewhere(String),
}

fn judge(output: &str, past_parsing: &str) -> Parsed {
    if let Some(line) = output.lines().find(|l| l.starts_with("error:")) {
        return Parsed::No(line.to_string());
    }
    if output.contains(past_parsing) {
        return Parsed::Yes;
    }
    Parsed::Elsewhere(output.lines().take(3).collect::<Vec<_>>().join(" | "))
}

/// The resume line's words for a launch with `launch`, after the hook's filter: asserts the filter
/// keeps every word of it.
fn resume_words(spec: &AgentSpec, id: &str, launch: &[String], world: &World) -> Vec<String> {
    let filtered = filter_launch_args(spec, launch);
    assert_eq!(
        filtered.flags, launch,
        "the filter must keep {launch:?} whole"
    );
    assert!(filtered.dropped.is_empty());
    let cwd = world.project.to_str().unwrap();
    let line = ResumeLine::build(spec, id, &filtered.flags, cwd, Some(cwd)).unwrap();
    line.argv[1..].to_vec()
}

/// How many CLIs run at once: each start is mostly one core's work for a second or two.
const WORKERS: usize = 3;

/// What the CLI made of one kept flag: the verdict and the value it was last tried with.
struct Tried {
    name: &'static str,
    value: Option<String>,
    verdict: Parsed,
}

/// Every kept flag of `spec`, each alone on a resume line: the ones the CLI did not parse. The flags are
/// dealt out to [`WORKERS`] threads, each with a HOME of its own (a CLI writes its config there).
fn unparsed_flags(
    spec: &AgentSpec,
    cli: &Path,
    id: &str,
    past_parsing: &str,
    allowed_elsewhere: &[(&str, &str)],
) -> Vec<String> {
    let flags: Vec<(&'static str, bool)> = spec
        .flags
        .iter()
        .filter(|r| r.role == FlagRole::Keep)
        .flat_map(|r| r.names.iter().map(|n| (*n, r.takes != Takes::Nothing)))
        .collect();
    let tried: Vec<Tried> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..WORKERS)
            .map(|w| {
                let mine: Vec<(&'static str, bool)> =
                    flags.iter().copied().skip(w).step_by(WORKERS).collect();
                s.spawn(move || {
                    let world = World::new();
                    mine.into_iter()
                        .map(|flag| try_flag(spec, cli, id, past_parsing, &world, flag))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().expect("a worker panicked"))
            .collect()
    });
    let mut problems = Vec::new();
    let mut parsed = 0;
    for Tried {
        name,
        value,
        verdict,
    } in tried
    {
        match verdict {
            Parsed::Yes => parsed += 1,
            Parsed::Elsewhere(why) => {
                let expected = allowed_elsewhere
                    .iter()
                    .any(|(flag, says)| *flag == name && why.contains(says));
                if !expected {
                    problems.push(format!("{name} {value:?}: stopped elsewhere: {why}"));
                }
            }
            Parsed::No(why) => problems.push(format!("{name} {value:?}: {why}")),
        }
    }
    assert!(parsed > 10, "only {parsed} flags reached {past_parsing:?}");
    problems
}

/// One kept flag (its name, whether it takes a value) on a resume line, with a value the CLI accepts
/// when it names its choices.
fn try_flag(
    spec: &AgentSpec,
    cli: &Path,
    id: &str,
    past_parsing: &str,
    world: &World,
    (name, takes_value): (&'static str, bool),
) -> Tried {
    let mut value = takes_value.then(|| world.value_for(name));
    let mut verdict = Parsed::No(String::new());
    for _attempt in 0..3 {
        let mut launch = vec![name.to_string()];
        launch.extend(value.clone());
        if name == "--remote-auth-token-env" {
            launch.extend(["--remote".into(), "ws://127.0.0.1:9".into()]);
        }
        let (_, out) = run(cli, world, &resume_words(spec, id, &launch, world));
        verdict = judge(&out, past_parsing);
        match (
            &verdict,
            value.is_some().then(|| choice_from(&out)).flatten(),
        ) {
            (Parsed::No(_) | Parsed::Elsewhere(_), Some(better))
                if value.as_ref() != Some(&better) =>
            {
                value = Some(better)
            }
            _ => break,
        }
    }
    Tried {
        name,
        value,
        verdict,
    }
}

#[test]
fn every_kept_claude_flag_parses_in_the_real_claude() {
    let Some(cli) = agterm_backup_testkit::paths::agent_cli_or_fail_in_ci("claude") else {
        return;
    };
    let world = World::new();
    // The check catches what the old filter produced: an unknown flag, and a value split off.
    for bad in [&["--frobnicate"][..], &["--max-turns", "--model", "sonnet"]] {
        let mut args = vec!["--resume".to_string(), CLAUDE_ID.to_string()];
        args.extend(bad.iter().map(|s| s.to_string()));
        let (_, out) = run(&cli, &world, &args);
        assert!(
            matches!(judge(&out, "No conversation found"), Parsed::No(_)),
            "{bad:?}: {out}"
        );
    }
    // Refusals that come after parsing: the test runs as root and without a terminal, and some flags
    // only go with print mode (an interactive launch with them never started, so never needs a resume).
    let elsewhere = [
        ("--dangerously-skip-permissions", "root/sudo"),
        ("--allow-dangerously-skip-permissions", "root/sudo"),
        ("--watch-artifact", "requires an interactive session"),
        (
            "--watch-artifact-no-autoreact",
            "requires an interactive session",
        ),
        ("--include-partial-messages", "requires --print"),
        ("--forward-subagent-text", "requires --print"),
        ("--prompt-suggestions", "requires --print"),
        (
            "--replay-user-messages",
            "requires both --input-format=stream-json",
        ),
        (
            "--managed-settings-in-initialize",
            "requires --await-initialize",
        ),
        ("--client-data-url", "the URL must be"),
        // 2.1.332: checked after parsing, without a terminal or with the folder untrusted.
        (
            "--agents-view-if-allowed",
            "requires an interactive terminal",
        ),
        ("--remote-control", "starts an interactive session"),
        ("--rc", "starts an interactive session"),
    ];
    let problems = unparsed_flags(
        &CLAUDE,
        &cli,
        CLAUDE_ID,
        "No conversation found",
        &elsewhere,
    );
    assert!(
        problems.is_empty(),
        "claude refused kept flags:\n{}",
        problems.join("\n")
    );
}

#[test]
fn every_kept_codex_flag_parses_in_the_real_codex() {
    let Some(cli) = agterm_backup_testkit::paths::agent_cli_or_fail_in_ci("codex") else {
        return;
    };
    let world = World::new();
    for bad in [&["--frobnicate"][..], &["-m"]] {
        let mut args = vec!["resume".to_string(), CODEX_ID.to_string()];
        args.extend(bad.iter().map(|s| s.to_string()));
        let (code, out) = run(&cli, &world, &args);
        assert_eq!(code, Some(2), "{bad:?}: {out}");
        assert!(
            matches!(judge(&out, "stdin is not a terminal"), Parsed::No(_)),
            "{bad:?}: {out}"
        );
    }
    let problems = unparsed_flags(&CODEX, &cli, CODEX_ID, "stdin is not a terminal", &[]);
    assert!(
        problems.is_empty(),
        "codex refused kept flags:\n{}",
        problems.join("\n")
    );
}
