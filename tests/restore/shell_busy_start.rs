//! Issue 30: the pane resumes at the first prompt the user sees, before any input, whatever the framework
//! does at start — powerlevel10k's instant prompt (its descriptors held until the first prompt is
//! expanded) and ble.sh (the terminal's replies to its start-up queries waiting unread at the prompt) —
//! and input really typed ahead is never run into: no resume, one line saying so and how to resume.
//!
//! Both frameworks exist only in their repositories: the doubles in `framework_doubles` by default, the
//! real ones with `AGTERM_BACKUP_REAL_P10K=<powerlevel10k checkout>` and
//! `AGTERM_BACKUP_REAL_BLESH=<ble.sh's built out/ble.sh>` (each run side by side with its double).

use crate::framework_doubles;
use crate::shell_frameworks::{counts_up, probed_counts};
use crate::shell_rig::{self, rc_line, Pane};
use std::path::{Path, PathBuf};

/// The real framework named by `var`, if set.
fn real(var: &str) -> Option<PathBuf> {
    std::env::var_os(var).map(PathBuf::from)
}

/// `~/.zshrc` with powerlevel10k's instant prompt and theme (lean config for the real one), oh-my-zsh
/// under it or not, and our line last (as the installer appends it); `gate`: lines run right after the
/// instant prompt's preamble. With the real theme, the pane's first shell writes the instant prompt the
/// restarted one sources.
fn p10k_zshrc(verbose: bool, omz: bool, gate: &str) -> String {
    let omz = if omz {
        framework_doubles::oh_my_zsh()
    } else {
        ""
    };
    let said = "PATH=@HOME@/bin:$PATH\necho 'said while the rc file is read'\n";
    match real("AGTERM_BACKUP_REAL_P10K") {
        Some(p10k) => {
            let p10k = agterm_backup_core::quote::quote(&p10k.display().to_string());
            let mode = if verbose { "verbose" } else { "quiet" };
            format!(
                "export XDG_CACHE_HOME=@HOME@/.cache\n\
                 if [[ -r \"$XDG_CACHE_HOME/p10k-instant-prompt-${{(%):-%n}}.zsh\" ]]; then\n\
                   source \"$XDG_CACHE_HOME/p10k-instant-prompt-${{(%):-%n}}.zsh\"\nfi\n\
                 {gate}{said}{omz}\
                 source {p10k}/powerlevel10k.zsh-theme\nsource {p10k}/config/p10k-lean.zsh\n\
                 typeset -g POWERLEVEL9K_DISABLE_GITSTATUS=true POWERLEVEL9K_INSTANT_PROMPT={mode}\n\
                 typeset -g POWERLEVEL9K_PROMPT_CHAR_{{OK,ERROR}}_VI{{INS,CMD,VIS,OWR}}_CONTENT_EXPANSION='$'\n\
                 {}\n",
                rc_line("zsh")
            )
        }
        None => format!(
            "{}{gate}{said}{omz}{}{}\n",
            framework_doubles::p10k_instant_prompt(),
            framework_doubles::p10k_theme(verbose),
            rc_line("zsh")
        ),
    }
}

/// The real theme's first shell wrote the instant prompt (the double needs none): its state dump's
/// compiled file, the last of what `_p9k_do_dump` writes (the preamble, the prompt of the folder, then
/// the state).
fn instant_prompt_written(home: &Path) -> bool {
    real("AGTERM_BACKUP_REAL_P10K").is_none()
        || std::fs::read_dir(home.join(".cache"))
            .into_iter()
            .flatten()
            .flatten()
            .any(|e| {
                let name = e.file_name().to_string_lossy().into_owned();
                name.starts_with("p10k-dump-") && name.ends_with(".zsh.zwc")
            })
}

#[test]
fn zsh_with_powerlevel10k_instant_prompt_resumes_at_the_first_prompt() {
    for (verbose, omz) in [(true, false), (false, false), (true, true)] {
        let zshrc = p10k_zshrc(verbose, omz, "");
        let pane = Pane::start_primed("zsh", &[(".zshrc", zshrc)], true, instant_prompt_written);
        // Nothing typed: the first prompt resumes.
        pane.assert_resumed_with_a_terminal();
        let screen = pane.quit_and_probe("echo p9k-precmds=$__p9k_precmds", "p9k-precmds=");
        pane.assert_quiet_after(&screen);
        assert!(
            screen.contains("said while the rc file is read"),
            "the instant prompt gave the rc file's output back:\n{screen}"
        );
        assert_eq!(
            screen.contains("Console output during zsh initialization detected"),
            verbose,
            "(verbose: {verbose}):\n{screen}"
        );
        if real("AGTERM_BACKUP_REAL_P10K").is_none() {
            let counts = probed_counts(&screen, "p9k-precmds=");
            assert!(
                counts_up(&counts),
                "the theme's precmd ran at every prompt: {counts:?}"
            );
        }
    }
}

/// Lines for an rc file: the restarted shell (the pane's second) waits at this point until the test has
/// typed ahead, after saying so in `at-gate`.
const GATE: &str = "if [[ -e @HOME@/.ran-once ]]; then : >@HOME@/at-gate; \
                    while [[ ! -e @HOME@/go ]]; do sleep 0.05; done; fi; : >@HOME@/.ran-once\n";

/// Types `echo typed-42` while the restarted shell still reads its rc file, then lets it go on: the
/// typed command runs at the first prompt, nothing is resumed, one line says so with the command that
/// resumes it, the log says why, and no later prompt resumes.
fn typed_ahead_is_run_not_resumed(pane: &Pane, what: &str) {
    let gated = agterm_backup_testkit::fake_agterm::wait_until(shell_rig::WITHIN, || {
        pane.home().join("at-gate").exists()
    });
    assert!(gated, "{what}: the shell never reached the gate");
    pane.keys("echo typed-$((6*7))\n");
    // tmux's send-keys returns before the pty has the keys: the shell may go on only once they wait
    // there, which the terminal's echo of the line (canonical mode at the gate) shows.
    pane.wait_screen("echo typed-$((6*7))");
    std::fs::write(pane.home().join("go"), "").unwrap();
    pane.wait_screen("typed-42");
    pane.keys("echo later-$((6*7))\n");
    let screen = pane.wait_screen("later-42");
    assert_eq!(
        screen.matches("input was typed at this prompt").count(),
        1,
        "{what}: said once:\n{screen}"
    );
    assert!(
        screen.contains("restore --terminal agterm"),
        "{what}:\n{screen}"
    );
    assert!(
        !screen.contains("STANDIN"),
        "{what}: nothing resumed:\n{screen}"
    );
    assert!(
        !screen.contains("\\x1b"),
        "{what}: nothing raw shown:\n{screen}"
    );
    assert!(pane.marker().is_none(), "{what}: no claim taken");
    let log = std::fs::read_to_string(pane.home().join("state/hook.log")).unwrap_or_default();
    assert!(
        log.contains("input is waiting at the prompt"),
        "{what}: logged:\n{log}"
    );
}

#[test]
fn input_typed_ahead_runs_and_nothing_is_resumed() {
    // zsh and bash at their first prompt with the terminal in canonical mode (a whole line waits), and
    // zsh under powerlevel10k's instant prompt (raw mode at the line editor's start: the keys are read
    // to be told from replies, and put back).
    let zsh = format!(
        "PROMPT='$ '\n{GATE}PATH=@HOME@/bin:$PATH\n{}\n",
        rc_line("zsh")
    );
    let bash = format!(
        "PS1='$ '\n{GATE}PATH=@HOME@/bin:$PATH\n{}\n",
        rc_line("bash")
    );
    let cases = [
        ("zsh", vec![(".zshrc", zsh)], false),
        (
            "bash",
            vec![(".bash_profile", ". ~/.bashrc\n".into()), (".bashrc", bash)],
            false,
        ),
        (
            "zsh",
            vec![(".zshrc", p10k_zshrc(false, false, GATE))],
            true,
        ),
    ];
    for (i, (shell, rc, p10k)) in cases.into_iter().enumerate() {
        // The first shell passed the gate's line (the restarted one stops there): restarted sooner, it
        // could be ended before it got there, and the restarted one would run through it.
        let primed = |home: &Path| {
            home.join(".ran-once").exists() && (!p10k || instant_prompt_written(home))
        };
        let pane = Pane::start_primed(shell, &rc, true, primed);
        typed_ahead_is_run_not_resumed(&pane, &format!("case {i} ({shell})"));
    }
}

/// `~/.bashrc` with ble.sh: `attach_at_prompt` its README's one-liner (`source ble.sh`, attaching at the
/// first prompt), else its recommended `source ble.sh --noattach` first and `ble-attach` last; ours
/// before or after its last line.
fn blesh_bashrc(attach_at_prompt: bool, ours_first: bool) -> String {
    // ble.sh checks USER as it is sourced.
    let user = "export USER=${USER:-$(id -un)}\n";
    let head = "PATH=@HOME@/bin:$PATH\nPS1='$ '\n";
    let (top, last) = match real("AGTERM_BACKUP_REAL_BLESH") {
        Some(ble) => {
            let ble = agterm_backup_core::quote::quote(&ble.display().to_string());
            if attach_at_prompt {
                (String::new(), format!("source -- {ble}\n"))
            } else {
                (
                    format!("[[ $- == *i* ]] && source -- {ble} --noattach\n"),
                    "[[ ! ${BLE_VERSION-} ]] || ble-attach\n".to_string(),
                )
            }
        }
        None => {
            let double = framework_doubles::ble_sh(attach_at_prompt);
            if attach_at_prompt {
                (String::new(), double)
            } else {
                (
                    double,
                    "[[ ! ${BLE_VERSION-} ]] || ble-attach\n".to_string(),
                )
            }
        }
    };
    let ours = rc_line("bash");
    let tail = if ours_first {
        format!("{ours}\n{last}")
    } else {
        format!("{last}{ours}\n")
    };
    format!("{user}{top}{head}{tail}")
}

/// Each way of loading ble.sh, ours before and after its last line; every failing one is named.
#[test]
fn bash_with_ble_sh_resumes_at_the_first_prompt() {
    let mut failed = Vec::new();
    for attach_at_prompt in [false, true] {
        for ours_first in [false, true] {
            let bashrc = blesh_bashrc(attach_at_prompt, ours_first);
            let run = std::panic::catch_unwind(|| {
                let pane = Pane::start(
                    "bash",
                    &[
                        (".bash_profile", ". ~/.bashrc\n".into()),
                        (".bashrc", bashrc),
                    ],
                    true,
                );
                pane.assert_resumed_with_a_terminal();
                let screen = pane.quit_and_probe("echo probe-$((6*7))", "probe-42");
                pane.assert_quiet_after(&screen);
            });
            if run.is_err() {
                failed.push(format!(
                    "attach at the prompt: {attach_at_prompt}, ours first: {ours_first}"
                ));
            }
        }
    }
    assert!(failed.is_empty(), "failed: {failed:#?}");
}

/// Under powerlevel10k's instant prompt the line runs as the first prompt's command (from the line
/// editor's start): an agent not on `PATH` still gives its claim back (at the next prompt), and the line
/// is not in the history.
#[test]
fn zsh_under_the_instant_prompt_gives_the_claim_of_an_agent_not_on_path_back() {
    let zshrc = format!(
        "HISTFILE=@HOME@/history\nSAVEHIST=100\nHISTSIZE=100\n{}",
        p10k_zshrc(false, false, "")
    );
    let pane = Pane::start_primed("zsh", &[(".zshrc", zshrc)], false, instant_prompt_written);
    let screen = pane.wait_screen("agterm-backup: resuming");
    pane.keys("echo after-$((6*7))\n");
    pane.wait_screen("after-42");
    pane.keys("fc -ln 1 | grep -c -- --resume; echo history-$((6*7))\n");
    let screen2 = pane.wait_screen("history-42");
    assert!(
        pane.marker().is_none(),
        "the claim was given back\n{screen}"
    );
    assert!(
        screen2.lines().any(|l| l.trim() == "0"),
        "the resume line is not in the history:\n{screen2}"
    );
}
