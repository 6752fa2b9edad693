
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
    pane.keys("fc -ln 1 | grep -c -- --resume; echo history-checked\n");
    let screen2 = pane.wait_screen("history-checked");
    assert!(pane.marker().is_none(), "the claim was given back\n{screen}");
    assert!(
        screen2.lines().any(|l| l.trim() == "0"),
        "the resume line is not in the history:\n{screen2}"
    );
}
