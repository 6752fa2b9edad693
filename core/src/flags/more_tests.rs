//! The launch-flag filter over the Gemini CLI, Copilot CLI and Qwen Code rows: launch lines a person
//! types, and what each resume must carry again.

use super::*;
use crate::agent::{COPILOT, GEMINI, OPENCODE, QWEN};

fn run(spec: &AgentSpec, line: &str) -> LaunchArgs {
    let args: Vec<String> = line.split_whitespace().map(String::from).collect();
    filter_launch_args(spec, &args)
}

fn kept(spec: &AgentSpec, line: &str) -> Vec<String> {
    let l = run(spec, line);
    assert!(!l.headless, "{line} is interactive");
    l.flags
}

fn w(s: &str) -> Vec<String> {
    s.split_whitespace().map(String::from).collect()
}

#[test]
fn gemini_keeps_values_and_drops_prompts_and_sessions() {
    assert_eq!(
        kept(&GEMINI, "-m gemini-2.5-pro fix the bug"),
        w("-m gemini-2.5-pro")
    );
    assert_eq!(
        kept(
            &GEMINI,
            "--include-directories ../lib -e ext1 --yolo --resume 3f2a"
        ),
        w("--include-directories ../lib -e ext1 --yolo")
    );
    // `-i <prompt>` is interactive, but its prompt must not come back.
    assert_eq!(
        kept(&GEMINI, "-i hello --approval-mode auto_edit"),
        w("--approval-mode auto_edit")
    );
    // `-w` made the worktree the session lives in (the `cd` enters it): not made again.
    assert_eq!(kept(&GEMINI, "--session-id abc -r -w -d"), w("-d"));
    assert_eq!(kept(&GEMINI, "-w feature --sandbox"), w("--sandbox"));
    // An option Gemini does not have is dropped with its value, never replayed blind.
    let l = run(&GEMINI, "--max-turns 5 -m flash");
    assert_eq!((l.flags, l.dropped), (w("-m flash"), w("--max-turns")));
}

#[test]
fn gemini_headless_modes() {
    for line in [
        "-p hi",
        "--prompt=hi",
        "-o json",
        "--acp",
        "--list-sessions",
        "--delete-session 2",
        "mcp list",
        "extensions install x",
        "hooks",
    ] {
        assert!(run(&GEMINI, line).headless, "{line}");
    }
    // A positional query is interactive in Gemini (dropped, not headless).
    assert!(!run(&GEMINI, "explain this repo").headless);
}

#[test]
fn copilot_keeps_values_and_drops_sessions_and_prompts() {
    assert_eq!(
        kept(
            &COPILOT,
            "--model gpt-4.1 --allow-tool shell write --yolo -C /w/p --attachment a.png"
        ),
        w("--model gpt-4.1 --allow-tool shell write --yolo")
    );
    assert_eq!(
        kept(
            &COPILOT,
            "--resume=0a1b --continue -n mine -i hello --agent rev"
        ),
        w("--agent rev")
    );
    assert_eq!(kept(&COPILOT, "-r 0a1b --banner"), w("--banner"));
    assert_eq!(
        kept(&COPILOT, "--session-id 0a1b --mouse off"),
        w("--mouse off")
    );
    for line in [
        "-p hi --allow-all-tools",
        "-s",
        "--output-format json",
        "--acp",
        "sessions list",
        "login",
    ] {
        assert!(run(&COPILOT, line).headless, "{line}");
    }
}

#[test]
fn qwen_positional_query_is_one_shot() {
    assert!(run(&QWEN, "fix the tests").headless);
    assert!(run(&QWEN, "-m qwen3 -- fix it").headless);
    assert!(run(&QWEN, "sessions list").headless);
    for line in [
        "-p hi",
        "-o stream-json",
        "--input-format stream-json",
        "--acp",
        "--json-file /tmp/x",
    ] {
        assert!(run(&QWEN, line).headless, "{line}");
    }
    assert_eq!(
        kept(
            &QWEN,
            "-i hello -m qwen3 --allowed-tools a b --yolo --resume 22b2 --approval-mode yolo"
        ),
        w("-m qwen3 --allowed-tools a b --yolo --approval-mode yolo")
    );
    assert_eq!(kept(&QWEN, "-c --session-id x --fork-session -d"), w("-d"));
}

#[test]
fn opencode_drops_its_project_path_sessions_and_prompt() {
    assert_eq!(
        kept(
            &OPENCODE,
            "/w/proj -m stub/stub-model --session ses_1 --prompt hi --agent plan"
        ),
        w("-m stub/stub-model --agent plan")
    );
    assert_eq!(
        kept(&OPENCODE, "-c --fork --cors a b --auto"),
        w("--cors a b --auto")
    );
    for line in [
        "run hello",
        "serve",
        "web",
        "attach http://127.0.0.1:4096",
        "session list",
        "-v",
    ] {
        assert!(run(&OPENCODE, line).headless, "{line}");
    }
}
