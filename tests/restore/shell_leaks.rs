//! Issue 30: the bash and zsh snippets leave nothing behind that another shell or handler can trip on,
//! on a real pty with the real binary and a conversation to resume:
//! - nothing of ours in the environment of the processes started from the pane (the agent; a
//!   `bash --norc` prints no `__agterm_backup_start: command not found`): PROMPT_COMMAND exported before
//!   our line (audit setups), exported after it, or `set -a` (allexport) on;
//! - the user's ERR trap fires once per failing command, as without us: plain, under `set -E`
//!   (errtrace), under `set -ET` (functrace) with a DEBUG trap.

use crate::shell_rig;

use shell_rig::{rc_line, Pane, STAND_IN};

/// A pane whose `.bashrc` is `before`, our line, then `after`; `agent`: the stand-in `claude`, else the
/// rig's.
fn pane(before: &str, after: &str, agent: Option<&str>) -> Pane {
    // PATH as the test asked (a PROMPT_COMMAND set here replaces the fake's, which restores it).
    let bashrc = format!(
        "PATH=@HOME@/bin:$PATH\nPS1='$ '\n{before}\n{}\n{after}\n",
        rc_line("bash")
    );
    let mut rc = vec![
        (".bash_profile", ". ~/.bashrc\n".to_string()),
        (".bashrc", bashrc),
    ];
    if let Some(agent) = agent {
        rc.push(("bin/claude", agent.to_string()));
    }
    Pane::start("bash", &rc, agent.is_none())
}

/// Types `line` and waits for `done-42` after it; returns the screen.
fn run(pane: &Pane, line: &str, round: usize) -> String {
    pane.keys(&format!("{line}; echo done-{round}-$((6*7))\n"));
    pane.wait_screen(&format!("done-{round}-42"))
}

/// No name of ours in this shell's environment, and a `bash --norc` started from it prompts cleanly.
fn assert_nothing_exported(pane: &Pane, case: &str) {
    let screen = run(pane, "echo leaks-$(env | grep -c agterm_backup_)", 1);
    assert!(screen.contains("leaks-0"), "{case}: exported:\n{screen}");
    pane.keys("bash --norc -i\n");
    let screen = run(pane, "echo child", 2);
    pane.keys("exit\n");
    let screen = format!("{screen}{}", run(pane, "echo back", 3));
    assert!(!screen.contains("not found"), "{case}:\n{screen}");
    assert!(!screen.contains("__agterm_backup"), "{case}:\n{screen}");
}

#[test]
fn shells_started_from_the_pane_see_nothing_of_ours() {
    // The agent reports how many of our names its environment holds.
    let agent = STAND_IN.replacen(
        "#!/bin/bash\n",
        "#!/bin/bash\necho \"STANDIN env-leaks=$(env | grep -c agterm_backup_)\"\n",
        1,
    );
    for (case, before, after) in [
        ("exported before", "export PROMPT_COMMAND='history -a'", ""),
        ("exported after", "", "export PROMPT_COMMAND"),
        ("set -a", "set -a", "set +a"),
    ] {
        let p = pane(before, after, Some(&agent));
        p.assert_resumed_with_a_terminal();
        assert!(
            p.screen().contains("STANDIN env-leaks=0"),
            "{case}:\n{}",
            p.screen()
        );
        let screen = p.quit_and_probe("echo probe-$((6*7))", "probe-42");
        p.assert_quiet_after(&screen);
        assert_nothing_exported(&p, case);
    }
}

#[test]
fn the_users_err_trap_fires_once_per_failing_command() {
    for (case, options) in [
        ("plain", ""),
        ("errtrace", "set -E"),
        (
            "functrace and a DEBUG trap",
            "set -ET\ntrap ': debug' DEBUG",
        ),
    ] {
        let p = pane(
            &format!("unset PROMPT_COMMAND\nerrs=0\ntrap '((++errs))' ERR\n{options}"),
            "",
            None,
        );
        p.assert_resumed_with_a_terminal();
        let screen = p.quit_and_probe("echo probe-$((6*7))", "probe-42");
        p.assert_quiet_after(&screen);
        // Three failing commands, each alone at its prompt, and a prompt with nothing typed.
        run(&p, "errs=0", 1);
        for _ in 0..3 {
            p.keys("false\n");
        }
        p.keys("\n");
        let screen = run(&p, "echo errs-$((errs + 100))", 2);
        assert!(screen.contains("errs-103"), "{case}:\n{screen}");
    }
}

/// zsh's equivalent of `set -a`: under ALL_EXPORT nothing of ours reaches the agent's environment or a
/// shell started from the pane (arrays such as `precmd_functions` are never exported).
#[test]
fn zsh_under_all_export_exports_nothing_of_ours() {
    let agent = STAND_IN.replacen(
        "#!/bin/bash\n",
        "#!/bin/bash\necho \"STANDIN env-leaks=$(env | grep -c agterm_backup_)\"\n",
        1,
    );
    let zshrc = format!(
        "PATH=@HOME@/bin:$PATH\nPROMPT='$ '\nsetopt all_export\n{}\n",
        rc_line("zsh")
    );
    let p = Pane::start("zsh", &[(".zshrc", zshrc), ("bin/claude", agent)], false);
    p.assert_resumed_with_a_terminal();
    assert!(p.screen().contains("STANDIN env-leaks=0"), "{}", p.screen());
    let screen = p.quit_and_probe("echo probe-$((6*7))", "probe-42");
    p.assert_quiet_after(&screen);
    let screen = run(&p, "echo leaks-$(env | grep -c agterm_backup_)", 1);
    assert!(screen.contains("leaks-0"), "{screen}");
}
