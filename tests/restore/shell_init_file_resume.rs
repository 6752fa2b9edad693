//! Issue 20: a pane whose rc file (zsh, bash, fish) has the line `installer apply --shell` writes
//! resumes its conversation through the init file the line sources (no `init` process), and the first
//! `shell-start` brings an init file of an older release up to this binary's snippet.

use crate::shell_rig;

use agterm_backup_installer::shell_rc::files::{BASHRC, FISH_CONFIG, ZSHRC};
use shell_rig::Pane;

#[test]
fn the_sourced_init_file_resumes_and_is_refreshed_for_the_next_shell() {
    let bin = agterm_backup_testkit::agterm_backup_bin!();
    let fish_prompt = "set -g fish_greeting ''\nfunction fish_prompt; printf '$ '; end";
    for (shell, rc, file, prompt) in [
        ("zsh", ZSHRC, ".zshrc", "PROMPT='$ '"),
        ("bash", BASHRC, ".bashrc", "PS1='$ '"),
        ("fish", FISH_CONFIG, ".config/fish/config.fish", fish_prompt),
    ] {
        let init = std::process::Command::new(bin)
            .args(["init", shell])
            .output()
            .unwrap()
            .stdout;
        let today = String::from_utf8(init).unwrap();
        // The file an older release wrote: today's snippet and one more line. The pane's first shell
        // (before the restart) sources it and its `shell-start` refreshes it; the shell after the restart
        // resumes through the refreshed file.
        let older = format!("{today}echo 'an older init file'\n");
        let path = match shell {
            "fish" => "set -gx PATH @HOME@/bin $PATH",
            _ => "PATH=@HOME@/bin:$PATH",
        };
        let rc_text = format!("{path}\n{prompt}\n{}\n", rc.line(bin));
        // The panes are login shells: a login bash reads `~/.bashrc` through its profile.
        let profile = (".bash_profile", ". ~/.bashrc\n".to_string());
        let mut files = vec![(file, rc_text), (profile.0, profile.1)];
        let init_file = format!("state/init.{shell}");
        files.push((&init_file, older));
        let pane = Pane::start(shell, &files, true);
        pane.assert_resumed_with_a_terminal();
        let refreshed = pane.home().join(format!("state/init.{shell}"));
        assert_eq!(
            std::fs::read_to_string(&refreshed).unwrap(),
            today,
            "{shell}: shell-start refreshes the init file"
        );
    }
}
