use super::*;
use crate::agent::{FlagSpec, CLAUDE, CODEX};
use proptest::prelude::*;

fn words(s: &str) -> Vec<String> {
    s.split_whitespace().map(String::from).collect()
}

fn claude(s: &str) -> LaunchArgs {
    filter_launch_args(&CLAUDE, &words(s))
}

fn codex(s: &str) -> LaunchArgs {
    filter_launch_args(&CODEX, &words(s))
}

#[test]
fn prompt_and_positionals_are_dropped_values_kept() {
    let a = claude("--model sonnet fix the bug --verbose");
    assert_eq!(a.flags, words("--model sonnet --verbose"));
    assert!(!a.headless);
    assert_eq!(claude("--model=opus hello").flags, words("--model=opus"));
}

#[test]
fn variadic_flags_keep_every_value_up_to_the_next_flag() {
    let a = claude("--add-dir a b --model sonnet");
    assert_eq!(a.flags, words("--add-dir a b --model sonnet"));
    assert_eq!(claude("--add-dir a b").flags, words("--add-dir a b"));
    // `-i` attaches images to the first prompt: dropped with all of them.
    assert_eq!(codex("-i x.png y.png -m o3").flags, words("-m o3"));
    assert_eq!(codex("--image=a.png,b.png -m o3").flags, words("-m o3"));
}

#[test]
fn optional_value_flags_take_only_a_non_flag_word() {
    assert_eq!(
        claude("--debug hooks --verbose").flags,
        words("--debug hooks --verbose")
    );
    assert_eq!(
        claude("--debug --verbose").flags,
        words("--debug --verbose")
    );
    assert_eq!(
        claude("--remote-control --verbose").flags,
        words("--remote-control --verbose")
    );
    assert_eq!(claude("--rc box --ide").flags, words("--rc box --ide"));
}

#[test]
fn first_launch_only_flags_are_not_replayed() {
    // A worktree to create (the `cd` already enters it), prompt prefills and attachments.
    assert_eq!(claude("-w feat -c --verbose").flags, words("--verbose"));
    assert_eq!(claude("--worktree --model x").flags, words("--model x"));
    assert_eq!(
        claude("--prefill hello --file f1:a f2:b --ide").flags,
        words("--ide")
    );
    assert_eq!(
        claude("--rewind-files u1 --model x").flags,
        words("--model x")
    );
    assert_eq!(
        codex("--worktree -s read-only").flags,
        words("-s read-only")
    );
}

#[test]
fn codex_cd_is_not_applied_twice() {
    // The line's `cd` enters the session cwd, which already is where `-C` pointed.
    for launch in [
        "-C sub -m o3",
        "--cd sub -m o3",
        "--cd=sub -m o3",
        "-Csub -m o3",
        "-C=sub -m o3",
    ] {
        assert_eq!(codex(launch).flags, words("-m o3"), "{launch}");
    }
    assert_eq!(codex("resume -C /abs/p --last -m o3").flags, words("-m o3"));
}

#[test]
fn hidden_options_keep_their_values() {
    // Options that `claude --help` does not list but the binary defines.
    assert_eq!(
        claude("--max-turns 5 --model sonnet").flags,
        words("--max-turns 5 --model sonnet")
    );
    assert_eq!(
        claude("--thinking enabled --fast-mode on --advisor opus").flags,
        words("--thinking enabled --fast-mode on --advisor opus")
    );
    assert_eq!(
        codex("--yolo --not-so-yolo").flags,
        words("--yolo --not-so-yolo")
    );
}

#[test]
fn unknown_flags_are_dropped_with_their_value_and_reported() {
    let a = claude("--frobnicate 5 --model sonnet");
    assert_eq!(a.flags, words("--model sonnet"));
    assert_eq!(a.dropped, words("--frobnicate"));
    // An unknown switch before a flag takes nothing else with it.
    let b = claude("--frobnicate --model sonnet hello");
    assert_eq!(
        (b.flags, b.dropped),
        (words("--model sonnet"), words("--frobnicate"))
    );
    // `=value` and glued short values go with the flag.
    let c = codex("--future=x -Zvalue -m o3");
    assert_eq!((c.flags, c.dropped), (words("-m o3"), words("--future -Z")));
    // An unknown short flag inside a cluster takes the rest of the cluster (it may be its value).
    // A subcommand after an unknown flag is still the subcommand: the run stays headless.
    assert!(codex("--future exec do it").headless);
    assert_eq!(
        codex("--future resume ID -m o3").subcommand.as_deref(),
        Some("resume")
    );
    let d = claude("-cX9 --ide");
    assert_eq!((d.flags, d.dropped), (words("--ide"), words("-X")));
}

#[test]
fn session_entering_flags_are_stripped_with_their_values() {
    let id = "77e8ca85-2b1c-4a8e-9d0b-0c1d2e3f4a5b";
    assert_eq!(
        claude(&format!("--resume {id} --model sonnet")).flags,
        words("--model sonnet")
    );
    assert_eq!(
        claude(&format!("-r {id} --verbose")).flags,
        words("--verbose")
    );
    assert_eq!(claude("--resume --verbose").flags, words("--verbose"));
    assert_eq!(
        claude("-c --fork-session --model x").flags,
        words("--model x")
    );
    assert_eq!(
        claude(&format!("--session-id {id} --verbose")).flags,
        words("--verbose")
    );
    assert_eq!(
        claude(&format!("--session-id={id}")).flags,
        Vec::<String>::new()
    );
    assert_eq!(
        claude(&format!("--resume={id} --effort high")).flags,
        words("--effort high")
    );
}

#[test]
fn codex_session_subcommands_are_dropped() {
    let id = "019a0b1c-2d3e-7f40-8a9b-0c1d2e3f4a5b";
    let a = codex(&format!("resume {id} -m o3 --search"));
    assert_eq!(a.flags, words("-m o3 --search"));
    assert_eq!(a.subcommand.as_deref(), Some("resume"));
    assert!(!a.headless);
    assert_eq!(
        codex("fork --last -s read-only").flags,
        words("-s read-only")
    );
    assert_eq!(codex("resume --last --all").flags, Vec::<String>::new());
    // A global option before the subcommand does not hide it.
    let b = codex(&format!("-m o3 resume {id}"));
    assert_eq!(
        (b.flags, b.subcommand.as_deref()),
        (words("-m o3"), Some("resume"))
    );
}

#[test]
fn headless_runs_are_detected() {
    assert!(claude("-p hello").headless);
    assert!(claude("--print --model x hi").headless);
    assert!(claude("--output-format json --print").headless);
    assert!(claude("doctor").headless);
    assert!(claude("-cp").headless, "a -p inside a cluster");
    assert!(codex("exec do it").headless);
    assert!(codex("-m o3 e do it").headless);
    assert!(codex("app-server --listen unix:// --managed-daemon").headless);
    // A prompt that happens to be a subcommand name later on is still a prompt.
    assert!(!claude("--model x hello doctor").headless);
    // Codex `-p` is --profile, not print.
    let c = codex("-p work");
    assert!(!c.headless);
    assert_eq!(c.flags, words("-p work"));
}

#[test]
fn short_clusters_and_glued_values() {
    assert_eq!(claude("-cd").flags, words("-d"));
    assert_eq!(codex("-mo3 hello").flags, words("-mo3"));
    assert_eq!(codex("-s=read-only").flags, words("-s=read-only"));
    assert_eq!(claude("-nmy-name").flags, words("-nmy-name"));
}

#[test]
fn double_dash_ends_flags() {
    assert_eq!(claude("--verbose -- --model x").flags, words("--verbose"));
}

#[test]
fn a_value_flag_at_the_end_is_kept_alone() {
    assert_eq!(claude("--model").flags, words("--model"));
}

#[test]
fn records_of_the_old_filter_replay_as_today() {
    let rec = |s: &str, spec: &AgentSpec| replayable(spec, &words(s));
    // What the previous filter kept: `-C`/`-i` (now first-launch-only), a lost value, an unknown flag.
    assert_eq!(rec("-C sub -m o3", &CODEX), words("-m o3"));
    assert_eq!(rec("-i x.png y.png -m o3", &CODEX), words("-m o3"));
    assert_eq!(
        rec("--max-turns --model sonnet", &CLAUDE),
        words("--model sonnet")
    );
    assert_eq!(
        rec("--frobnicate --model sonnet", &CLAUDE),
        words("--model sonnet")
    );
    // What today's filter writes replays unchanged.
    let fresh = words("--model sonnet --add-dir a b --debug hooks -nname --max-turns 5 --verbose");
    assert_eq!(replayable(&CLAUDE, &fresh), fresh);
}

/// One launch word group, with what the filter must make of it.
#[derive(Debug, Clone)]
enum Token {
    Value(&'static str, String),
    Switch(&'static str),
    Session(&'static str),
    SessionValue(&'static str, String),
    Positional(String),
}

/// The first name of every Claude row with `takes` and `role`.
fn claude_names(takes: Takes, role: FlagRole) -> Vec<&'static str> {
    CLAUDE
        .flags
        .iter()
        .filter(|f: &&FlagSpec| f.takes == takes && f.role == role)
        .map(|f| f.names[0])
        .collect()
}

fn claude_token() -> impl Strategy<Value = Token> {
    let value = prop::sample::select(claude_names(Takes::One, FlagRole::Keep));
    let session = prop::sample::select(claude_names(Takes::Nothing, FlagRole::Session));
    let session_value = prop::sample::select(claude_names(Takes::One, FlagRole::Session));
    prop_oneof![
        (value, "\\PC{0,12}").prop_map(|(f, v)| Token::Value(f, v)),
        prop::sample::select(&["--verbose", "--chrome", "--ide", "--strict-mcp-config"][..])
            .prop_map(Token::Switch),
        session.prop_map(Token::Session),
        (session_value, "\\PC{0,12}").prop_map(|(f, v)| Token::SessionValue(f, v)),
        "[^-\\s][^\\s]{0,10}".prop_map(Token::Positional),
    ]
}

proptest! {
    /// Model-based: the output is exactly the kept tokens, values attached, in order; no positional
    /// word and no session flag survives.
    #[test]
    fn filter_matches_the_model(tokens in prop::collection::vec(claude_token(), 0..12)) {
        let mut argv = Vec::new();
        let mut expected = Vec::new();
        let mut first_positional: Option<String> = None;
        for t in &tokens {
            match t {
                Token::Value(f, v) => {
                    argv.extend([f.to_string(), v.clone()]);
                    expected.extend([f.to_string(), v.clone()]);
                }
                Token::Switch(f) => {
                    argv.push(f.to_string());
                    expected.push(f.to_string());
                }
                Token::Session(f) => argv.push(f.to_string()),
                Token::SessionValue(f, v) => argv.extend([f.to_string(), v.clone()]),
                Token::Positional(p) => {
                    first_positional.get_or_insert_with(|| p.clone());
                    argv.push(p.clone());
                }
            }
        }
        let out = filter_launch_args(&CLAUDE, &argv);
        prop_assert_eq!(&out.flags, &expected);
        // What the filter keeps is what a restore replays.
        prop_assert_eq!(&replayable(&CLAUDE, &out.flags), &expected);
        let headless = first_positional
            .map(|p| CLAUDE.headless_subcommands.contains(&p.as_str()))
            .unwrap_or(false);
        prop_assert_eq!(out.headless, headless);
    }

    #[test]
    fn never_panics_and_keeps_only_input_words(argv in prop::collection::vec("\\PC{0,8}", 0..16)) {
        for spec in crate::agent::AGENTS {
            let out = filter_launch_args(spec, &argv);
            // Every kept word is an input word, or one short flag split out of an input cluster.
            for w in &out.flags {
                let split_short = w.starts_with('-')
                    && argv.iter().any(|a| a.starts_with('-') && a[1..].contains(&w[1..]));
                prop_assert!(argv.contains(w) || split_short, "{:?} not from {:?}", w, argv);
            }
        }
    }
}
