use super::*;
use crate::agent::{agent, FlagRole, Takes, AGENTS};
use proptest::prelude::*;
use std::os::unix::fs::PermissionsExt;
use std::process::Command;

const ID: &str = "77e8ca85-2b1c-4a8e-9d0b-0c1d2e3f4a5b";

fn words(w: &[&str]) -> Vec<String> {
    w.iter().map(|s| s.to_string()).collect()
}

#[test]
fn grammar_per_agent() {
    let flags = words(&["--model", "x"]);
    let cases = [
        ("claude", "'claude' '--resume' 'ID' '--model' 'x'"),
        ("codex", "'codex' 'resume' 'ID' '--model' 'x'"),
        ("gemini", "'gemini' '--resume' 'ID' '--model' 'x'"),
        ("opencode", "'opencode' '--session' 'ID' '--model' 'x'"),
        ("copilot", "'copilot' '--resume=ID' '--model' 'x'"),
        ("qwen", "'qwen' '--resume' 'ID' '--model' 'x'"),
        ("grok", "'grok' '--resume' 'ID' '--model' 'x'"),
        ("kimi", "'kimi' '--session' 'ID' '--model' 'x'"),
        // agy's documented options have no `--model`: it is dropped, never replayed blind.
        ("agy", "'agy' '--conversation' 'ID'"),
    ];
    assert_eq!(cases.len(), AGENTS.len());
    for (name, want) in cases {
        let l =
            ResumeLine::build(agent(name).unwrap(), "ID", &flags, "/w/p", Some("/w/p")).unwrap();
        assert_eq!(l.line, want, "{name}");
        assert!(!l.with_cd);
    }
}

#[test]
fn flags_an_older_filter_recorded_are_replayed_as_today() {
    let codex = agent("codex").unwrap();
    let l = ResumeLine::build(
        codex,
        ID,
        &words(&["-C", "sub", "-m", "o3"]),
        "/p/sub",
        None,
    )
    .unwrap();
    assert_eq!(
        l.line,
        format!("cd '/p/sub' && 'codex' 'resume' '{ID}' '-m' 'o3'")
    );
}

#[test]
fn cd_only_when_the_shell_is_elsewhere() {
    let claude = agent("claude").unwrap();
    let at = |shell: Option<&str>| ResumeLine::build(claude, ID, &[], "/w/it's", shell).unwrap();
    assert_eq!(
        at(None).line,
        format!("cd '/w/it'\\''s' && 'claude' '--resume' '{ID}'")
    );
    assert!(at(Some("/w/other")).with_cd);
    assert!(
        !at(Some("/w/it's/")).with_cd,
        "a trailing slash is the same directory"
    );
}

#[test]
fn refuses_bad_ids_control_characters_and_relative_dirs() {
    let claude = agent("claude").unwrap();
    let build = |id: &str, flags: &[&str], cwd: &str| {
        ResumeLine::build(claude, id, &words(flags), cwd, None)
    };
    assert_eq!(
        build("", &[], "/w"),
        Err(ResumeError::InvalidId(String::new()))
    );
    assert!(matches!(
        build("a;rm -rf /", &[], "/w"),
        Err(ResumeError::InvalidId(_))
    ));
    assert!(matches!(
        build("-x", &[], "/w"),
        Err(ResumeError::InvalidId(_))
    ));
    for bad in ["a\nb", "tab\there", "esc\u{1b}[0m", "del\u{7f}", "c1\u{85}"] {
        let e = build(ID, &["--model", bad], "/w").unwrap_err();
        assert!(
            matches!(e, ResumeError::ControlCharacter { what: "flag", .. }),
            "{bad:?}"
        );
        let e = build(ID, &[], &format!("/w/{bad}")).unwrap_err();
        assert!(
            matches!(
                e,
                ResumeError::ControlCharacter {
                    what: "directory",
                    ..
                }
            ),
            "{bad:?}"
        );
    }
    assert_eq!(
        build(ID, &[], "w/rel"),
        Err(ResumeError::BadDirectory("w/rel".into()))
    );
    assert!(build(ID, &[], "").is_err());
    // Bytes that were not UTF-8 came through a lossy conversion as U+FFFD: refused, never guessed.
    let lossy = String::from_utf8_lossy(b"/w/caf\xe9").into_owned();
    let e = build(ID, &[], &lossy).unwrap_err();
    assert!(
        matches!(
            e,
            ResumeError::NotUtf8 {
                what: "directory",
                ..
            }
        ),
        "{e:?}"
    );
    assert_eq!(e.code(), "not-utf8");
    let e = build(ID, &["--add-dir", &lossy], "/w").unwrap_err();
    assert!(
        matches!(e, ResumeError::NotUtf8 { what: "flag", .. }),
        "{e:?}"
    );
    assert_eq!(
        build(ID, &[], "/w").unwrap().line,
        format!("cd '/w' && 'claude' '--resume' '{ID}'")
    );
}

/// A PATH folder holding an executable for every agent that writes its argv (NUL-separated) and its cwd.
struct StubAgents {
    dir: tempfile::TempDir,
}

impl StubAgents {
    fn new() -> StubAgents {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out");
        for a in AGENTS {
            let p = dir.path().join(a.name);
            let body = format!(
                "#!/bin/sh\nprintf '%s\\0' \"$@\" > '{o}.argv'\npwd > '{o}.cwd'\n",
                o = out.display()
            );
            std::fs::write(&p, body).unwrap();
            std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
        StubAgents { dir }
    }

    /// Runs `line` with `sh -c` from `start` and returns (argv after argv[0], cwd).
    fn run(&self, line: &str, start: &Path) -> (Vec<String>, String) {
        self.run_in(&SHELLS[0], line, start)
    }

    /// Runs `line` with `<shell> -c` (no rc files, a throwaway HOME) from `start` and returns (argv
    /// after argv[0], cwd).
    fn run_in(&self, shell: &Shell, line: &str, start: &Path) -> (Vec<String>, String) {
        let out = self.dir.path().join("out");
        let _ = std::fs::remove_file(out.with_extension("argv"));
        let home = self.dir.path().join("home");
        let status = Command::new(shell.program)
            .args(shell.args)
            .arg(line)
            .current_dir(start)
            .env_clear()
            .env("HOME", &home)
            .env("XDG_CONFIG_HOME", home.join("config"))
            .env("XDG_DATA_HOME", home.join("data"))
            .env(
                "PATH",
                format!("{}:/usr/bin:/bin", self.dir.path().display()),
            )
            .status()
            .unwrap_or_else(|e| panic!("cannot run {}: {e}", shell.program));
        assert!(status.success(), "{} -c {line:?} failed", shell.program);
        let argv = std::fs::read(out.with_extension("argv")).unwrap();
        let mut words: Vec<String> = argv
            .split(|&b| b == 0)
            .map(|w| String::from_utf8(w.to_vec()).unwrap())
            .collect();
        assert_eq!(words.pop().as_deref(), Some(""), "NUL-terminated");
        let cwd = std::fs::read_to_string(out.with_extension("cwd")).unwrap();
        (words, cwd.trim_end_matches('\n').to_string())
    }
}

#[test]
fn an_over_long_line_becomes_a_0700_script_that_runs_the_same_words() {
    let stubs = StubAgents::new();
    let state_root = tempfile::tempdir().unwrap();
    let state = StateDir::at(state_root.path());
    let work = tempfile::tempdir().unwrap();
    let cwd = work.path().join("it's $HOME `x`");
    std::fs::create_dir(&cwd).unwrap();
    let long = "y'$".repeat(400);
    let flags = words(&["--append-system-prompt", &long, "--model", "sonnet"]);
    let l = ResumeLine::build(
        agent("claude").unwrap(),
        ID,
        &flags,
        cwd.to_str().unwrap(),
        None,
    )
    .unwrap();
    assert!(!l.fits());
    let argv = l.argv.clone();
    let line = l.into_typable(&state, "6B1E-left").unwrap();
    let script = state.root().join("scripts/6B1E-left.sh");
    assert_eq!(line, format!("sh '{}'", script.display()));
    assert!(line.len() <= MAX_LINE_BYTES);
    assert_eq!(
        std::fs::metadata(&script).unwrap().permissions().mode() & 0o777,
        0o700
    );
    let dir_mode = std::fs::metadata(script.parent().unwrap())
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(dir_mode & 0o777, 0o700);
    let (got, got_cwd) = stubs.run(&line, work.path());
    assert_eq!(got, argv[1..]);
    assert_eq!(got_cwd, cwd.to_str().unwrap());
}

#[test]
fn an_over_long_line_is_refused_when_the_state_folder_is_not_utf8() {
    use std::os::unix::ffi::OsStrExt;
    let root = tempfile::tempdir().unwrap();
    let state_dir = root.path().join(std::ffi::OsStr::from_bytes(b"st\xff"));
    let state = StateDir::at(&state_dir);
    let long = "y".repeat(1200);
    let flags = words(&["--append-system-prompt", &long]);
    let l = ResumeLine::build(agent("claude").unwrap(), ID, &flags, "/w", None).unwrap();
    // `sh '<lossy path>'` would name a script that does not exist.
    let err = l.into_typable(&state, "x").unwrap_err();
    assert!(err.to_string().contains("not UTF-8"), "{err}");
}

#[test]
fn a_short_line_is_typed_as_it_is() {
    let state_root = tempfile::tempdir().unwrap();
    let l = ResumeLine::build(agent("codex").unwrap(), ID, &[], "/w", None).unwrap();
    let want = l.line.clone();
    assert_eq!(
        l.into_typable(&StateDir::at(state_root.path()), "x")
            .unwrap(),
        want
    );
    assert!(!state_root.path().join("scripts").exists());
}

#[test]
fn script_names_cannot_escape_the_scripts_folder() {
    let s = StateDir::at("/st");
    assert_eq!(
        script_path(&s, "../../etc/x"),
        PathBuf::from("/st/scripts/_.._etc_x.sh")
    );
    assert_eq!(
        script_path(&s, ".."),
        PathBuf::from("/st/scripts/resume.sh")
    );
}

/// A login shell the line must mean the same words in, and how to make it run one command line without
/// reading any rc file.
struct Shell {
    program: &'static str,
    args: &'static [&'static str],
}

const SHELLS: [Shell; 4] = [
    Shell {
        program: "sh",
        args: &["-c"],
    },
    Shell {
        program: "bash",
        args: &["--norc", "--noprofile", "-c"],
    },
    Shell {
        program: "zsh",
        args: &["-f", "-c"],
    },
    Shell {
        program: "fish",
        args: &["--no-config", "-c"],
    },
];

/// Characters every shell treats specially somewhere: quotes, backslash, backticks, `$`, globs, braces,
/// brackets, `%` (fish process expansion), `^`, `@`, `!` (history), `~`, `#`, spaces, unicode.
const SPECIALS: &str = "a-z0-9 '\"`$\\\\*?!;&|<>(){}\\[\\]%^@#~=,é中😀-";

/// Words without control characters, built from [`SPECIALS`].
fn word() -> impl Strategy<Value = String> {
    proptest::string::string_regex(&format!("[{SPECIALS}]{{0,24}}")).unwrap()
}

/// A directory name (no `/`, not `.` or `..`).
fn dir_name() -> impl Strategy<Value = String> {
    proptest::string::string_regex(&format!("[{SPECIALS}]{{1,16}}"))
        .unwrap()
        .prop_filter("not . or ..", |n| n != "." && n != "..")
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// `sh -c`, `bash -c`, `zsh -c` and `fish -c` on the line each give the stub agent exactly the
    /// intended words, in exactly the directory.
    #[test]
    fn sh_gets_back_exactly_the_words(
        which in 0..AGENTS.len(),
        id in "[A-Za-z0-9][A-Za-z0-9._-]{0,40}",
        values in proptest::collection::vec(word(), 0..4),
        dirs in proptest::collection::vec(dir_name(), 1..3),
        shell_here in any::<bool>(),
    ) {
        let stubs = StubAgents::new();
        let work = tempfile::tempdir().unwrap();
        let mut cwd = work.path().to_path_buf();
        for d in &dirs {
            cwd.push(d);
        }
        std::fs::create_dir_all(&cwd).unwrap();
        let cwd_s = cwd.to_str().unwrap();
        let spec = &AGENTS[which];
        let shell_cwd = shell_here.then_some(cwd_s);
        // A kept option that takes the next word whatever it is (`--model <value>`; Qwen's yargs options
        // take a word only when it is not an option, so its first array option): the values carry the
        // hostile words.
        let takes_any = |t: Takes| spec.flags.iter().find(|f| f.role == FlagRole::Keep && f.takes == t);
        // (agy's documented options take no value: its line carries the hostile directory and id only.)
        let value_flag = takes_any(Takes::One).or_else(|| takes_any(Takes::Many)).map(|f| f.names[0]);
        let flags: Vec<String> = value_flag
            .map(|flag| values.iter().flat_map(|v| [flag.to_string(), v.clone()]).collect())
            .unwrap_or_default();
        let l = ResumeLine::build(spec, &id, &flags, cwd_s, shell_cwd).unwrap();
        prop_assert_eq!(l.with_cd, !shell_here);
        let start = if shell_here { cwd.as_path() } else { work.path() };
        for shell in &SHELLS {
            let (got, got_cwd) = stubs.run_in(shell, &l.line, start);
            prop_assert_eq!(&got[..], &l.argv[1..], "{}", shell.program);
            // The replay repairs a record whose value was lost (a value-taking flag followed by a known
            // flag, `--debug-file -c`: `-c` is Claude's `--continue`), so the words that reach the agent
            // are the replayable ones, each exactly.
            let kept = crate::flags::replayable(spec, &flags);
            prop_assert_eq!(&got[got.len() - kept.len()..], &kept[..]);
            prop_assert!(got.iter().take(2).any(|w| w.contains(&id)));
            prop_assert_eq!(&got_cwd, cwd_s, "{}", shell.program);
        }
    }

    /// A control character anywhere in a flag or the directory refuses the line.
    #[test]
    fn control_characters_never_make_a_line(
        pre in "[a-z]{0,5}",
        c in proptest::char::range('\u{0}', '\u{1f}'),
        post in "[a-z]{0,5}",
        in_dir in any::<bool>(),
    ) {
        let bad = format!("{pre}{c}{post}");
        let claude = agent("claude").unwrap();
        let r = if in_dir {
            ResumeLine::build(claude, ID, &[], &format!("/w/{bad}"), None)
        } else {
            ResumeLine::build(claude, ID, &[bad], "/w", None)
        };
        let refused = matches!(r, Err(ResumeError::ControlCharacter { .. }));
        prop_assert!(refused);
    }
}
