//! Issue 20: the shell integration in the rc files users really have, on a real pty (the fake agterm's
//! panes are login shells in a private tmux server), with a stand-in `claude` that reports whether its
//! stdin, stdout and stderr are terminals, stays up until it reads a line, and then exits.
//!
//! Each case: the pane's conversation is resumed once, by the shell, with the terminal on all three
//! descriptors; after the agent quits, later prompts print nothing of ours and the framework still works.
//! The frameworks that exist only in their repositories are test doubles written from their source
//! (`framework_doubles`), naming the commit they follow.

use crate::framework_doubles;
use crate::shell_rig;

use shell_rig::{rc_line, Pane};

#[test]
fn bash_prompt_command_appended_later_keeps_working() {
    let bashrc = format!(
        "PATH=@HOME@/bin:$PATH\nPS1='$ '\nPROMPT_COMMAND=\nHISTFILE=@HOME@/history\n{}\n\
         PROMPT_COMMAND=\"${{PROMPT_COMMAND:+$PROMPT_COMMAND; }}history -a\"\n",
        rc_line("bash")
    );
    let pane = Pane::start(
        "bash",
        &[
            (".bash_profile", ". ~/.bashrc\n".into()),
            (".bashrc", bashrc),
        ],
        true,
    );
    pane.assert_resumed_with_a_terminal();
    let screen = pane.quit_and_probe("echo history-$((6*7))", "history-42");
    pane.assert_quiet_after(&screen);
    let history = std::fs::read_to_string(pane.home().join("history")).unwrap_or_default();
    assert!(
        history.contains("echo history-"),
        "history -a ran: {history:?}"
    );
}

#[test]
fn bash_with_bash_preexec_and_a_prompt_command_array_keeps_every_hook() {
    for array in [false, true] {
        let made_array = if array {
            "PROMPT_COMMAND=(\"$PROMPT_COMMAND\")\n"
        } else {
            ""
        };
        let bashrc = format!(
            "PATH=@HOME@/bin:$PATH\nPS1='$ '\n{}\n{made_array}{}\n\
             my_precmd() {{ __my_precmds=$(( ${{__my_precmds:-0}} + 1 )); }}\nprecmd_functions+=(my_precmd)\n",
            rc_line("bash"),
            framework_doubles::bash_preexec(),
        );
        let pane = Pane::start(
            "bash",
            &[
                (".bash_profile", ". ~/.bashrc\n".into()),
                (".bashrc", bashrc),
            ],
            true,
        );
        pane.assert_resumed_with_a_terminal();
        let screen = pane.quit_and_probe("echo precmds=$__my_precmds", "precmds=");
        pane.assert_quiet_after(&screen);
        let counts: Vec<u32> = screen
            .lines()
            .filter_map(|l| l.trim().strip_prefix("precmds="))
            .filter_map(|n| n.trim().parse().ok())
            .collect();
        assert!(
            counts.len() >= 2 && counts.windows(2).all(|w| w[1] > w[0]),
            "bash-preexec's precmd_functions ran at every prompt: {counts:?}\n{screen}"
        );
    }
}

#[test]
fn bash_with_ghosttys_integration_appended_after_it_keeps_its_prompt_marks() {
    let bashrc = format!(
        "PATH=@HOME@/bin:$PATH\nPS1='$ '\nPROMPT_COMMAND=\n{}\n{}",
        rc_line("bash"),
        framework_doubles::ghostty_bash()
    );
    let pane = Pane::start(
        "bash",
        &[
            (".bash_profile", ". ~/.bashrc\n".into()),
            (".bashrc", bashrc),
        ],
        true,
    );
    pane.assert_resumed_with_a_terminal();
    let screen = pane.quit_and_probe("echo marks=$__ghostty_marks", "marks=");
    pane.assert_quiet_after(&screen);
    let counts: Vec<u32> = screen
        .lines()
        .filter_map(|l| l.trim().strip_prefix("marks="))
        .filter_map(|n| n.trim().parse().ok())
        .collect();
    assert!(
        counts.len() >= 2 && counts.windows(2).all(|w| w[1] > w[0]),
        "Ghostty's hook ran at every prompt: {counts:?}\n{screen}"
    );
}

/// A readonly PROMPT_COMMAND takes no hook: one line says why the pane does not resume by itself and
/// what resumes it; the claim is given back, nothing runs, no error.
#[test]
fn bash_with_a_readonly_prompt_command_says_in_one_line_why_not() {
    let bashrc = format!(
        "PATH=@HOME@/bin:$PATH\nPS1='$ '\nreadonly PROMPT_COMMAND\n{}\n",
        rc_line("bash")
    );
    let pane = Pane::start(
        "bash",
        &[
            (".bash_profile", ". ~/.bashrc\n".into()),
            (".bashrc", bashrc),
        ],
        true,
    );
    pane.wait_screen("PROMPT_COMMAND is readonly");
    pane.keys("echo ready-$((6*7))\n");
    let screen = pane.wait_screen("ready-42");
    let said: Vec<&str> = screen
        .lines()
        .filter(|l| l.starts_with("agterm-backup:"))
        .collect();
    assert_eq!(said.len(), 1, "{screen}");
    assert!(said[0].contains("PROMPT_COMMAND is readonly"), "{screen}");
    assert!(said[0].contains(&pane.id), "{screen}");
    assert!(!screen.contains("readonly variable"), "{screen}");
    assert!(!screen.contains("STANDIN"), "{screen}");
    assert!(pane.marker().is_none(), "the claim was given back");
}

#[test]
fn an_agent_that_is_not_on_path_gives_its_claim_back() {
    for shell in ["zsh", "bash"] {
        let rc = match shell {
            "zsh" => vec![(".zshrc", format!("PROMPT='$ '\n{}\n", rc_line("zsh")))],
            _ => vec![
                (".bash_profile", ". ~/.bashrc\n".to_string()),
                (".bashrc", format!("PS1='$ '\n{}\n", rc_line("bash"))),
            ],
        };
        let pane = Pane::start(shell, &rc, false);
        let screen = pane.wait_screen("agterm-backup: resuming");
        pane.keys("echo after-$((6*7))\n");
        pane.wait_screen("after-42");
        assert!(
            pane.marker().is_none(),
            "{shell}: the claim was given back\n{screen}"
        );
        // A later `restore` may try again: its plan types the line.
        let out = pane.env.run(&["restore", "--dry-run", "--json"]);
        let plan: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
        let typed = plan["rows"]
            .as_array()
            .into_iter()
            .flatten()
            .any(|r| r["action"] == "type");
        assert!(typed, "{shell}: restore would try again: {plan:#}");
    }
}

/// The rc line `installer apply` writes, with its binary deleted without `installer remove`, in a pane:
/// nothing printed at shell start.
#[test]
fn the_rc_line_of_a_removed_binary_says_nothing() {
    let dir = agterm_backup_testkit::scratch::tempdir();
    let gone = dir.path().join("gone/agterm-backup");
    let home = dir.path().display().to_string();
    for shell in ["zsh", "bash", "fish"] {
        let line = match shell {
            "fish" => agterm_backup_installer::shell_rc::files::FISH_CONFIG,
            "zsh" => agterm_backup_installer::shell_rc::files::ZSHRC,
            _ => agterm_backup_installer::shell_rc::files::BASHRC,
        }
        .line(&gone.display().to_string());
        let out = std::process::Command::new(shell)
            .args(["-c", &line])
            .env("HOME", &home)
            .env("AGTERM_SESSION_ID", "6B1E0C2A-AAAA-BBBB-CCCC-0123456789AB")
            .env("AGTERM_PANE", "left")
            .env("TMUX_PANE", "%1")
            .output()
            .unwrap();
        let said = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(said.is_empty(), "{shell}: {line}\n{said}");
        assert!(out.status.success(), "{shell}: {line}: {:?}", out.status);
    }
}

/// oh-my-zsh (termsupport's title hooks, the async prompt's `zle -F` handler, a theme showing its
/// output), our line after it as the installer appends it, and before it: resumed once with the
/// terminal, and oh-my-zsh's async prompt still repaints every later prompt.
#[test]
fn zsh_with_oh_my_zsh_and_its_async_prompt_keeps_both() {
    for (ours_first, lines) in
        shell_rig::in_both_orders(framework_doubles::oh_my_zsh(), &rc_line("zsh"))
    {
        let zshrc = format!("PATH=@HOME@/bin:$PATH\n{lines}");
        let pane = Pane::start("zsh", &[(".zshrc", zshrc)], true);
        pane.assert_resumed_with_a_terminal();
        let screen = pane.quit_and_probe("echo probe-42", "probe-42");
        pane.assert_quiet_after(&screen);
        // The prompts after the agent quit asked again: two of them (a prompt the probe was typed into
        // before its answer came shows none) show outputs of later requests, counting up.
        let repainted = agterm_backup_testkit::fake_agterm::wait_until(shell_rig::WITHIN, || {
            async_requests_after_quit(&pane.screen()).is_some_and(|n| n.len() >= 2)
        });
        let screen = pane.screen();
        assert!(
            repainted,
            "oh-my-zsh's async prompt repainted each prompt after the agent quit (ours first: {ours_first}):\n{screen}"
        );
        pane.assert_quiet_after(&screen);
    }
}

/// The async outputs the prompts after the agent's goodbye show, when they count up and the last line
/// is such a prompt.
fn async_requests_after_quit(screen: &str) -> Option<Vec<u32>> {
    let after = &screen[screen.find("STANDIN bye")?..];
    let numbers: Vec<u32> = after
        .split("omz[async-")
        .skip(1)
        .filter_map(|s| s.split(']').next()?.parse().ok())
        .collect();
    let last = screen.lines().rev().find(|l| !l.trim().is_empty())?;
    (last.starts_with("omz[async-") && numbers.windows(2).all(|w| w[0] < w[1])).then_some(numbers)
}

/// iTerm2's shell integration (its precmd and preexec hooks, `PS1` wrapped in prompt marks), our line
/// after it and before it: resumed once with the terminal, and iTerm2's precmd still runs at every
/// later prompt.
#[test]
fn zsh_with_iterm2s_shell_integration_keeps_both() {
    for (ours_first, lines) in
        shell_rig::in_both_orders(framework_doubles::iterm2_zsh(), &rc_line("zsh"))
    {
        let zshrc = format!("PATH=@HOME@/bin:$PATH\nPROMPT='$ '\n{lines}");
        let pane = Pane::start("zsh", &[(".zshrc", zshrc)], true);
        pane.assert_resumed_with_a_terminal();
        let screen =
            pane.quit_and_probe("echo iterm2-precmds=$__iterm2_precmds", "iterm2-precmds=");
        pane.assert_quiet_after(&screen);
        let counts = probed_counts(&screen, "iterm2-precmds=");
        assert!(
            counts_up(&counts),
            "iTerm2's precmd ran at every prompt (ours first: {ours_first}): {counts:?}\n{screen}"
        );
    }
}

/// The numbers the probe printed on lines of their own as `<prefix>N`, in order.
pub(crate) fn probed_counts(screen: &str, prefix: &str) -> Vec<u32> {
    screen
        .lines()
        .filter_map(|l| l.trim().strip_prefix(prefix))
        .filter_map(|n| n.trim().parse().ok())
        .collect()
}

/// At least two counts, each above the one before: the counted hook ran at every prompt between.
pub(crate) fn counts_up(counts: &[u32]) -> bool {
    counts.len() >= 2 && counts.windows(2).all(|w| w[1] > w[0])
}
