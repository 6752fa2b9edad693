//! The shell's "in a captured pane" conditions the registry generates from the terminals' rows
//! (`agterm_backup_terminals::shell_pane_test`), run in the real shells that read them: zsh and bash
//! (the snippets, under `set -u`), fish (its snippet), and the rc line's quick test in sh (dash), bash,
//! zsh and fish. The rows plus two made-up terminals (one variable; two) against every environment of
//! their variables unset, empty or set to a value with a space: the snippets' test holds exactly where
//! some terminal's variables are all non-empty, the quick one where some terminal's last one is (so it
//! never turns a pane away that the snippet would take).

use agterm_backup_terminals::shell_pane_test::{self, PaneVars};
use std::process::Command;

/// One environment: each variable's state, in the order of the tests' variables.
type Env = Vec<Option<&'static str>>;

/// A variable's state in one environment.
const STATES: [Option<&str>; 3] = [None, Some(""), Some("a b")];

/// Every test's variables (the rows and two made-up terminals), and every environment of them.
fn cases() -> (Vec<PaneVars<'static>>, Vec<&'static str>, Vec<Env>) {
    let mut tests = shell_pane_test::of_rows();
    tests.push(&["MADE_UP_PANE"]);
    tests.push(&["MADE_UP_SESSION", "MADE_UP_WINDOW"]);
    let vars: Vec<&str> = tests.iter().flat_map(|t| t.iter().copied()).collect();
    let mut envs: Vec<Env> = vec![vec![]];
    for _ in &vars {
        envs = envs
            .into_iter()
            .flat_map(|e| {
                STATES.iter().map(move |s| {
                    let mut e = e.clone();
                    e.push(*s);
                    e
                })
            })
            .collect();
    }
    (tests, vars, envs)
}

/// What a condition should say in each environment: `1` in a pane, `0` outside.
fn expected(tests: &[PaneVars], vars: &[&str], envs: &[Env], quick: bool) -> String {
    let set = |env: &[Option<&str>], v: &str| {
        let at = vars.iter().position(|x| *x == v).unwrap();
        env[at].is_some_and(|s| !s.is_empty())
    };
    envs.iter()
        .map(|env| {
            let in_a_pane = tests.iter().any(|t| match quick {
                true => t.last().is_some_and(|v| set(env, v)),
                false => !t.is_empty() && t.iter().all(|v| set(env, v)),
            });
            if in_a_pane {
                '1'
            } else {
                '0'
            }
        })
        .collect()
}

/// A script of zsh, bash or sh that prints `1` or `0` per environment for `condition`, under `set -u`.
fn sh_script(condition: &str, vars: &[&str], envs: &[Env]) -> String {
    let mut out = String::from("set -u\n");
    for env in envs {
        out.push_str(&format!("unset {};", vars.join(" ")));
        for (v, s) in vars.iter().zip(env) {
            if let Some(s) = s {
                out.push_str(&format!(" {v}='{s}';"));
            }
        }
        out.push_str(&format!(
            " if {condition}; then printf 1; else printf 0; fi\n"
        ));
    }
    out
}

/// The same in fish: each environment a block of local variables; `condition` is a command list.
fn fish_script(condition: &str, vars: &[&str], envs: &[Env]) -> String {
    let mut out = String::new();
    for env in envs {
        out.push_str("begin\n");
        for (v, s) in vars.iter().zip(env) {
            if let Some(s) = s {
                out.push_str(&format!("set -l {v} '{s}'\n"));
            }
        }
        out.push_str(&format!(
            "if begin\n{condition}\nend\nprintf 1\nelse\nprintf 0\nend\nend\n"
        ));
    }
    out
}

/// `shell` run on `script`, with none of the tested variables in its environment; its output.
fn run(shell: &[&str], script: &str, vars: &[&str]) -> Option<String> {
    let found = Command::new("sh")
        .args(["-c", "command -v \"$0\" >/dev/null", shell[0]])
        .status()
        .is_ok_and(|s| s.success());
    assert!(
        found || std::env::var_os("CI").is_none(),
        "{} is not installed",
        shell[0]
    );
    if !found {
        return None;
    }
    let dir = agterm_backup_testkit::scratch::tempdir();
    let file = dir.path().join("script");
    std::fs::write(&file, script).unwrap();
    let mut cmd = Command::new(shell[0]);
    cmd.args(&shell[1..]).arg(&file);
    for v in vars {
        cmd.env_remove(v);
    }
    let out = cmd.output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success() && stderr.is_empty(),
        "{shell:?}: {stderr}"
    );
    Some(String::from_utf8(out.stdout).unwrap())
}

#[test]
fn the_generated_conditions_hold_in_the_real_shells_exactly_where_a_terminals_variables_are_set() {
    let (tests, vars, envs) = cases();
    assert_eq!(envs.len(), 3usize.pow(vars.len() as u32));
    let (full, quick) = (
        expected(&tests, &vars, &envs, false),
        expected(&tests, &vars, &envs, true),
    );
    // The quick test never says "outside" where the snippet's says "in a pane".
    assert!(full.chars().zip(quick.chars()).all(|(f, q)| f <= q));
    assert!(full.contains('1') && full.contains('0') && full != quick);
    let snippets = shell_pane_test::zsh_bash(&tests);
    let rc_sh = shell_pane_test::rc_sh(&tests);
    let runs = [
        (
            &["zsh", "-f"][..],
            sh_script(&snippets, &vars, &envs),
            &full,
        ),
        (
            &["bash", "--norc"][..],
            sh_script(&snippets, &vars, &envs),
            &full,
        ),
        (&["dash"][..], sh_script(&rc_sh, &vars, &envs), &quick),
        (
            &["bash", "--norc"][..],
            sh_script(&rc_sh, &vars, &envs),
            &quick,
        ),
        (&["zsh", "-f"][..], sh_script(&rc_sh, &vars, &envs), &quick),
        (
            &["fish", "--no-config"][..],
            fish_script(&shell_pane_test::fish(&tests), &vars, &envs),
            &full,
        ),
        (
            &["fish", "--no-config"][..],
            fish_script(
                &format!("test {}", shell_pane_test::rc_fish(&tests)),
                &vars,
                &envs,
            ),
            &quick,
        ),
    ];
    for (shell, script, want) in runs {
        let Some(got) = run(shell, &script, &vars) else {
            continue;
        };
        let wrong: Vec<String> = envs
            .iter()
            .zip(got.chars().zip(want.chars()))
            .filter(|(_, (g, w))| g != w)
            .take(3)
            .map(|(env, (g, _))| format!("{env:?} gave {g}"))
            .collect();
        assert!(
            got.len() == want.len() && wrong.is_empty(),
            "{shell:?} ({} of {} answers): {wrong:?}",
            got.len(),
            want.len()
        );
    }
}
