//! Issue 20 with starship, the prompt most users of bash, zsh and fish share, in its own init scripts:
//! starship 1.27.0's `src/init/starship.{bash,zsh,fish}` from its crate on crates.io (unpacked into the
//! tools folder by tests/install-deps.sh; nothing of it is in this repository). A stand-in binary prints
//! them as `starship init` does (`::STARSHIP::` replaced by its path; bash and fish through the same
//! `--print-full-init` second stage) and draws a numbered prompt for `starship prompt`, since building
//! starship (some 400 crates) would take longer on two cores than the whole suite.
//!
//! Each: the conversation is resumed once with the terminal on all three descriptors; later prompts print
//! nothing of ours; starship still draws every prompt. In bash both orders: our line first (starship
//! copies `PROMPT_COMMAND` into `STARSHIP_PROMPT_COMMAND` and evals it from its own hook), starship
//! first (ours follows `starship_precmd`), and under bash-preexec (atuin's), where starship joins
//! `precmd_functions`.

use crate::shell_rig;

use shell_rig::{rc_line, Pane};

/// The stand-in: `init` as starship's `init_stub`/`init_main` (1.27.0, src/init/mod.rs), `prompt` a
/// numbered prompt (`--right` empty, `--continuation` `> `), `time` milliseconds since the epoch.
const STAND_IN: &str = r#"#!/bin/bash
init=@INIT@
case $1 in
init)
  if [[ $3 == --print-full-init || $2 == zsh ]]; then sed "s|::STARSHIP::|$0|g" "$init/starship.$2"
  elif [[ $2 == bash ]]; then printf 'eval -- "$(%s init bash --print-full-init)"\n' "$0"
  else printf 'source (%s init fish --print-full-init | psub)\n' "$0"; fi ;;
time) date +%s%3N ;;
prompt)
  status=
  for a; do case $a in --right) exit 0 ;; --continuation) printf '> '; exit 0 ;; --status=*) status=${a#*=} ;; esac; done
  n=$(( $(cat "$HOME/.starship-prompts" 2>/dev/null || echo 0) + 1 ))
  echo "$n" >"$HOME/.starship-prompts"
  printf 'starship#%s[%s]$ ' "$n" "$status" ;;
esac
"#;

/// The stand-in's text for the pane's `bin/`, or `None` (after a SKIPPED line; a failure under CI)
/// without starship's init scripts.
fn starship() -> Option<String> {
    let dir = agterm_backup_testkit::paths::starship_init_dir();
    assert!(
        dir.is_some() || std::env::var_os("CI").is_none(),
        "starship's init scripts are not in the tools folder (tests/install-deps.sh)"
    );
    let Some(dir) = dir else {
        eprintln!("SKIPPED: starship's init scripts are not installed (tests/install-deps.sh)");
        return None;
    };
    let quoted = agterm_backup_core::quote::quote(&dir.display().to_string());
    Some(STAND_IN.replace("@INIT@", &quoted))
}

/// The resume, the quit, two probes: nothing of ours after it, and starship drew the prompts after the
/// agent quit (numbered one after another, the last with the probe's status).
fn check(pane: &Pane) {
    pane.assert_resumed_with_a_terminal();
    let screen = pane.quit_and_probe("echo probe-42", "probe-42");
    pane.assert_quiet_after(&screen);
    // The prompt after the second probe may still be drawing when its output shows.
    let drawn = agterm_backup_testkit::fake_agterm::wait_until(shell_rig::WITHIN, || {
        starship_drew_every_prompt(&pane.screen())
    });
    let screen = pane.screen();
    assert!(
        drawn,
        "starship drew each prompt after the agent quit, the last with the probe's status:\n{screen}"
    );
    pane.assert_quiet_after(&screen);
}

/// At least three prompts of starship's after the agent's goodbye, numbered one after another, and the
/// last line is one of them, with status 0.
fn starship_drew_every_prompt(screen: &str) -> bool {
    let Some(at) = screen.find("STANDIN bye") else {
        return false;
    };
    let numbers: Vec<u32> = screen[at..]
        .split("starship#")
        .skip(1)
        .filter_map(|s| s.split('[').next()?.parse().ok())
        .collect();
    let last = screen.lines().rev().find(|l| !l.trim().is_empty());
    numbers.len() >= 3
        && numbers.windows(2).all(|w| w[0] < w[1])
        && last.is_some_and(|l| l.starts_with("starship#") && l.contains("[0]$"))
}

/// A bash pane whose `.bashrc` is `bashrc`, without the fake agterm's own `PROMPT_COMMAND` (it forces
/// the tests' `$ ` prompt, which would overwrite starship's under bash-preexec; a real terminal sets none).
fn bash_pane(bashrc: String, stand_in: String) -> Pane {
    Pane::start(
        "bash",
        &[
            (".bash_profile", ". ~/.bashrc\n".into()),
            (".bashrc", format!("unset PROMPT_COMMAND\n{bashrc}")),
            ("bin/starship", stand_in),
        ],
        true,
    )
}

/// Our line after starship's (ours is appended to `PROMPT_COMMAND=starship_precmd`) and before it
/// (starship copies `PROMPT_COMMAND` into `STARSHIP_PROMPT_COMMAND` and evals it from its own hook).
#[test]
fn bash_with_starship_before_and_after_our_line_keeps_both() {
    let Some(stand_in) = starship() else { return };
    let starship_init = "eval \"$(starship init bash)\"";
    for (_, lines) in shell_rig::in_both_orders(starship_init, &rc_line("bash")) {
        check(&bash_pane(
            format!("PATH=@HOME@/bin:$PATH\n{lines}"),
            stand_in.clone(),
        ));
    }
}

#[test]
fn bash_with_starship_under_atuins_bash_preexec_keeps_both() {
    let Some(stand_in) = starship() else { return };
    // atuin's init carries bash-preexec: starship then joins its `precmd_functions`.
    let atuin = std::process::Command::new("sh")
        .args(["-c", "pyenv which atuin 2>/dev/null || command -v atuin"])
        .output()
        .unwrap();
    let atuin = String::from_utf8_lossy(&atuin.stdout).trim().to_string();
    assert!(
        !atuin.is_empty() || std::env::var_os("CI").is_none(),
        "atuin is not installed (tests/install-deps.sh)"
    );
    if atuin.is_empty() {
        eprintln!("SKIPPED: atuin is not installed (tests/install-deps.sh)");
        return;
    }
    let atuin_dir = std::path::Path::new(&atuin)
        .parent()
        .unwrap()
        .display()
        .to_string();
    let bashrc = format!(
        "PATH=@HOME@/bin:{}:$PATH\n{}\neval \"$(atuin init bash)\"\neval \"$(starship init bash)\"\n",
        agterm_backup_core::quote::quote(&atuin_dir),
        rc_line("bash"),
    );
    check(&bash_pane(bashrc, stand_in));
}

#[test]
fn zsh_with_starship_keeps_both_in_either_order() {
    let Some(stand_in) = starship() else { return };
    let starship_init = "eval \"$(starship init zsh)\"";
    for (_, lines) in shell_rig::in_both_orders(starship_init, &rc_line("zsh")) {
        let zshrc = format!("PATH=@HOME@/bin:$PATH\n{lines}");
        let pane = Pane::start(
            "zsh",
            &[(".zshrc", zshrc), ("bin/starship", stand_in.clone())],
            true,
        );
        check(&pane);
    }
}

#[test]
fn fish_with_starship_keeps_both() {
    let Some(stand_in) = starship() else { return };
    let config = format!(
        "set -g fish_greeting ''\nset -gx PATH @HOME@/bin $PATH\nstarship init fish | source\n{}\n",
        rc_line("fish")
    );
    let pane = Pane::start(
        "fish",
        &[
            (".config/fish/config.fish", config),
            ("bin/starship", stand_in),
        ],
        true,
    );
    check(&pane);
}
