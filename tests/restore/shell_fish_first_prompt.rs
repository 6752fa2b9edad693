//! Issue 30: fish resumes at its first prompt, after every config file has run, on a real pty with the
//! real binary. What the agent needs may come after our line: a PATH entry, a function wrapping the
//! agent, an exported variable, in config.fish or in a later conf.d file (our line in conf.d); an
//! `AGTERM_BACKUP_AUTO=0` set there turns it off. Before, the line ran as config.fish was read:
//! `fish: Unknown command: claude`, and the claim was given back.
//!
//! fish 4 queries its terminal after the config files and before the first prompt, and reads the
//! answers until the one to its last query (Primary Device Attributes): the answers are no typed-ahead
//! input by the time `shell-start` looks. Where fish is older than 4 (Debian's 3.6), [`FISH4_QUERIES`]
//! stands in for it; on a fish 4 first on PATH the same test runs without it.

use crate::shell_rig;

use agterm_backup_testkit::fake_agterm::wait_until;
use shell_rig::{rc_line, Pane, STAND_IN};

const PROMPT: &str = "set -g fish_greeting ''\nfunction fish_prompt; printf '$ '; end\n";

/// A double of fish 4's queries at start (fish-shell 4.7.1, efb0223da10367031b7c887a3e40eccdf9bf7b06,
/// `src/reader/reader.rs` `terminal_init`, `src/terminal.rs`): after the config files, before the
/// first prompt, it writes the kitty keyboard flags query, XTVERSION, OSC 11 (background color),
/// XTGETTCAP `indn` and `query-os-name` inside an alternate-screen set/reset (not under `screen`:
/// `$STY`, `TERM=screen*`), and Primary Device Attributes last, then reads the terminal's answers
/// until the one to that (10 s at most). Loaded only on a fish older than 4, as the first `fish_prompt`
/// handler (conf.d is read before config.fish; handlers fire in the order they were defined).
const FISH4_QUERIES: &str = r#"if test (string split . -- $version)[1] -lt 4
    function __fish4_start_queries --on-event fish_prompt
        functions -e __fish4_start_queries
        set -l dcs '\eP+q696e646e\e\\\\\eP+q71756572792d6f732d6e616d65\e\\\\'
        if set -q STY; or string match -q 'screen' -- $TERM; or string match -q 'screen-256color' -- $TERM
            set dcs ''
        end
        status job-control none
        perl -e '
            my $saved = `stty -g`; system "stty raw -echo"; $| = 1;
            print "\e[?u\e[>0q\e]11;?\e\\\\" . ($ARGV[0] ? "\e[?1049h$ARGV[0]\e[?1049l" : "") . "\e[0c";
            my ($got, $c) = ("", ""); local $SIG{ALRM} = sub { die }; alarm 10;
            eval { while (sysread(STDIN, $c, 1)) { $got .= $c; last if $got =~ /\e\[\?[\d;]*c/ } };
            system "stty $saved";' (printf $dcs)
        status job-control interactive
    end
end
"#;

/// Where the double sits: the first conf.d file.
const DOUBLE_AT: &str = ".config/fish/conf.d/00-fish4-queries.fish";

/// The resume ran with the terminal, the agent saw what the config set after our line, and later
/// prompts are quiet (no `Unknown command`).
fn check(pane: &Pane, saw: &str) {
    pane.assert_resumed_with_a_terminal();
    let screen = pane.wait_screen(saw);
    assert!(!screen.contains("Unknown command"), "{screen}");
    let screen = pane.quit_and_probe("echo probe-(math 40 + 2)", "probe-42");
    pane.assert_quiet_after(&screen);
    // Nothing of ours is universal (every fish would see it) or exported.
    pane.keys(
        "echo ours-(begin; set -Un; set -xn; end | string match -e agterm_backup | count)-left; \
         echo done-(math 40 + 2)\n",
    );
    let screen = pane.wait_screen("done-42");
    assert!(screen.contains("ours-0-left"), "{screen}");
}

/// The stand-in agent, saying what the config set after our line.
fn agent(name: &str) -> (String, String) {
    let body = STAND_IN.replacen(
        "#!/bin/bash\n",
        "#!/bin/bash\necho \"STANDIN later=${AGENT_LATER-unset}\"\n",
        1,
    );
    (format!("later/bin/{name}"), body)
}

#[test]
fn what_the_config_sets_after_our_line_is_there_when_the_agent_resumes() {
    let ours = rc_line("fish");
    let (claude, stand_in) = agent("claude");
    let (wrapped, stand_in_wrapped) = agent("claude-real");
    // config.fish: a PATH entry and an exported variable after our line.
    let path_after =
        format!("{PROMPT}{ours}\nset -gx PATH @HOME@/later/bin $PATH\nset -gx AGENT_LATER path\n");
    let pane = Pane::start(
        "fish",
        &[
            (DOUBLE_AT, FISH4_QUERIES.into()),
            (".config/fish/config.fish", path_after),
            (claude.as_str(), stand_in.clone()),
        ],
        false,
    );
    check(&pane, "STANDIN later=path");
    drop(pane);
    // config.fish: a function after our line wraps the agent.
    let function_after = format!(
        "{PROMPT}{ours}\nfunction claude\n    AGENT_LATER=function @HOME@/later/bin/claude-real $argv\nend\n"
    );
    let pane = Pane::start(
        "fish",
        &[
            (DOUBLE_AT, FISH4_QUERIES.into()),
            (".config/fish/config.fish", function_after),
            (wrapped.as_str(), stand_in_wrapped),
        ],
        false,
    );
    check(&pane, "STANDIN later=function");
    drop(pane);
    // Our line in conf.d: a later conf.d file sets PATH, config.fish the variable.
    let pane = Pane::start(
        "fish",
        &[
            (DOUBLE_AT, FISH4_QUERIES.into()),
            (
                ".config/fish/conf.d/10-agterm-backup.fish",
                format!("{ours}\n"),
            ),
            (
                ".config/fish/conf.d/20-path.fish",
                "set -gx PATH @HOME@/later/bin $PATH\n".into(),
            ),
            (
                ".config/fish/config.fish",
                format!("{PROMPT}set -gx AGENT_LATER config\n"),
            ),
            (claude.as_str(), stand_in),
        ],
        false,
    );
    check(&pane, "STANDIN later=config");
}

/// `AGTERM_BACKUP_AUTO=0` set after our line (a fish global, which `shell-start` does not see) turns
/// the resume off: nothing runs or prints, the conversation stays for `restore`.
#[test]
fn turned_off_after_our_line_resumes_nothing() {
    let config = format!("{PROMPT}{}\nset -g AGTERM_BACKUP_AUTO 0\n", rc_line("fish"));
    let pane = Pane::start("fish", &[(".config/fish/config.fish", config)], true);
    // The first prompt (or the resume it should not run), before anything is typed.
    let shown = wait_until(shell_rig::WITHIN, || {
        let screen = pane.screen();
        screen.contains("STANDIN") || screen.lines().any(|l| l.trim_end() == "$")
    });
    assert!(shown, "{}", pane.screen());
    pane.keys("echo ready-(math 40 + 2)\n");
    let screen = pane.wait_screen("ready-42");
    assert!(!screen.contains("agterm-backup"), "{screen}");
    assert!(!screen.contains("STANDIN"), "{screen}");
    assert!(pane.marker().is_none(), "no claim taken");
}
