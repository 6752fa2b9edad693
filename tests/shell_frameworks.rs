//! Issue 20: the shell integration in the rc files users really have, on a real pty (the fake agterm's
//! panes are login shells in a private tmux server), with a stand-in `claude` that reports whether its
//! stdin, stdout and stderr are terminals, stays up until it reads a line, and then exits.
//!
//! Each case: the pane's conversation is resumed once, by the shell, with the terminal on all three
//! descriptors; after the agent quits, later prompts print nothing of ours and the framework still works.
//! The frameworks that exist only in their repositories are test doubles written from their source
//! (`framework_doubles`), naming the commit they follow.

mod framework_doubles;
mod restore_support;

use agterm_backup_core::pane::PaneRole;
use agterm_backup_core::quote::quote;
use agterm_backup_core::terminal::RestoreMode;
use agterm_backup_testkit::fake_agterm::{wait_until, FakeAgterm, FakeConfig, RestartKind};
use restore_support::{uuid, Env, DENYLIST};
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::time::Duration;

const WITHIN: Duration = Duration::from_secs(30);
/// What the stand-in prints when the resume got the terminal on stdin, stdout and stderr.
const WITH_A_TERMINAL: &str = "STANDIN tty 0=yes 1=yes 2=yes";
/// Restore's settle time in the panes: a claim younger than this when the agent exits goes back.
const SETTLE_SECS: f64 = 0.3;

/// The stand-in: reports its descriptors, stays up until a line is read, says goodbye.
const STAND_IN: &str = "#!/bin/bash\n\
a=no; [ -t 0 ] && a=yes; b=no; [ -t 1 ] && b=yes; c=no; [ -t 2 ] && c=yes\n\
echo \"STANDIN argv: $*\"\n\
echo \"STANDIN tty 0=$a 1=$b 2=$c\"\n\
IFS= read -r line\n\
echo \"STANDIN bye\"\n";

/// One agterm session whose left pane runs `shell` with the given rc files, and held a Claude
/// conversation before agterm quit.
struct Pane {
    env: Env,
    session: String,
    id: String,
}

impl Pane {
    /// `rc`: (path under HOME, text); `@BIN@` is the binary (quoted), `@HOME@` the home folder.
    /// `stand_in`: whether `claude` is on the pane's PATH.
    fn start(shell: &str, rc: &[(&str, String)], stand_in: bool) -> Pane {
        let home = tempfile::tempdir().unwrap();
        let home_dir = home.path().to_path_buf();
        let h = home_dir.as_path();
        let bin = h.join("bin");
        std::fs::create_dir_all(&bin).unwrap();
        if stand_in {
            let path = bin.join("claude");
            std::fs::write(&path, STAND_IN).unwrap();
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
        for (rel, text) in rc {
            let path = h.join(rel);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, fill(text, h)).unwrap();
        }
        let path = format!(
            "{}:{}",
            bin.display(),
            std::env::var("PATH").unwrap_or_default()
        );
        let mut cfg = FakeConfig::new("0.34", RestoreMode::None)
            .env("HOME", h.to_str().unwrap())
            .env("PATH", &path)
            .env("AGTERM_BACKUP_HOME", h.join("state").to_str().unwrap())
            .env("AGTERM_BACKUP_SETTLE_SECS", SETTLE_SECS.to_string())
            .denylist(DENYLIST);
        cfg.shell = Some(shell.to_string());
        let fake = FakeAgterm::start(cfg);
        let env = Env { home, fake };
        let session = env.fake.add_session(None, None, h, false).id;
        let id = uuid();
        let (dir, transcript) = env.project("api", &id);
        env.record(&session, PaneRole::Left, &id, &dir, &transcript, 30);
        let mut pane = Pane { env, session, id };
        pane.env.fake.restart(RestartKind::CleanQuit);
        pane
    }

    fn home(&self) -> &Path {
        self.env.home.path()
    }

    fn screen(&self) -> String {
        self.env.fake.screen(&self.session, PaneRole::Left)
    }

    fn wait_screen(&self, needle: &str) -> String {
        self.env
            .fake
            .wait_for_screen(&self.session, PaneRole::Left, needle, WITHIN)
    }

    fn keys(&self, text: &str) {
        self.env.fake.send_keys(&self.session, PaneRole::Left, text);
    }

    /// The once-per-launch marker of the conversation, if taken.
    fn marker(&self) -> Option<serde_json::Value> {
        let root = self.home().join("state/resumed");
        std::fs::read_dir(root)
            .into_iter()
            .flatten()
            .flatten()
            .map(|launch| {
                launch
                    .path()
                    .join(format!("conversation.claude.{}", self.id))
            })
            .find_map(|p| std::fs::read_to_string(p).ok())
            .and_then(|t| serde_json::from_str(t.trim()).ok())
    }

    /// The resume ran with the terminal: the stand-in says so and the shell took the marker; the
    /// stand-in is still up (its goodbye not printed).
    fn assert_resumed_with_a_terminal(&self) {
        let screen = self.wait_screen(WITH_A_TERMINAL);
        assert!(
            screen.contains(&format!("--resume {}", self.id)),
            "{screen}"
        );
        assert_eq!(
            self.marker().map(|m| m["by"].clone()),
            Some("shell-start".into()),
            "the shell took the marker"
        );
        assert!(
            !self.screen().contains("STANDIN bye"),
            "the agent stayed up"
        );
    }

    /// Quits the stand-in once its claim is older than the settle time (so it counts as having run),
    /// then runs `probe` at two later prompts; returns the screen with the probe's output twice.
    fn quit_and_probe(&self, probe: &str, output: &str) -> String {
        let settled = wait_until(WITHIN, || {
            self.marker()
                .and_then(|m| m["ts"].as_str().map(str::to_string))
                .and_then(|ts| chrono::DateTime::parse_from_rfc3339(&ts).ok())
                .is_some_and(|t| {
                    (chrono::Utc::now() - t.with_timezone(&chrono::Utc)).num_milliseconds()
                        > (SETTLE_SECS * 1000.0) as i64 + 200
                })
        });
        assert!(settled, "the marker never aged");
        self.keys("q\n");
        self.wait_screen("STANDIN bye");
        self.keys(&format!("{probe}\n"));
        self.keys(&format!("{probe}\n"));
        let twice = wait_until(WITHIN, || self.screen().matches(output).count() >= 2);
        let screen = self.screen();
        assert!(twice, "the probe did not run twice:\n{screen}");
        screen
    }

    /// After the agent quit: exactly one resume, nothing of ours at later prompts, no shell error.
    fn assert_quiet_after(&self, screen: &str) {
        assert_eq!(
            screen.matches("agterm-backup: resuming").count(),
            1,
            "one resume:\n{screen}"
        );
        assert_eq!(
            screen.matches("STANDIN argv").count(),
            1,
            "one run:\n{screen}"
        );
        for bad in [
            "command not found",
            "syntax error",
            "readonly",
            "No such file",
            "__agterm_backup",
        ] {
            assert!(!screen.contains(bad), "`{bad}` on the screen:\n{screen}");
        }
        assert!(self.marker().is_some(), "the claim of a run that ran stays");
    }
}

/// `@BIN@` and `@HOME@` filled in.
fn fill(text: &str, home: &Path) -> String {
    text.replace("@BIN@", &quote(env!("CARGO_BIN_EXE_agterm-backup")))
        .replace("@HOME@", &quote(&home.display().to_string()))
}

/// The line users put in their rc file by hand (`installer apply` writes the same, guarded).
fn rc_line(shell: &str) -> String {
    match shell {
        "fish" => "@BIN@ init fish | source".to_string(),
        sh => format!("eval \"$(@BIN@ init {sh})\""),
    }
}

#[test]
fn zsh_with_powerlevel10k_instant_prompt_resumes_with_the_terminal_once() {
    for verbose in [true, false] {
        let zshrc = format!(
            "{}\nPATH=@HOME@/bin:$PATH\necho 'said while the rc file is read'\n{}\nPROMPT='$ '\n{}\n",
            framework_doubles::p10k_instant_prompt(verbose),
            framework_doubles::p10k_theme(),
            rc_line("zsh")
        );
        let pane = Pane::start("zsh", &[(".zshrc", zshrc)], true);
        pane.assert_resumed_with_a_terminal();
        let screen = pane.quit_and_probe("echo p9k-precmds=$__p9k_precmds", "p9k-precmds=");
        pane.assert_quiet_after(&screen);
        // The theme's precmd ran at every prompt, and the instant prompt gave its output back.
        let counts: Vec<u32> = screen
            .lines()
            .filter_map(|l| l.trim().strip_prefix("p9k-precmds="))
            .filter_map(|n| n.trim().parse().ok())
            .collect();
        assert!(
            counts.len() >= 2 && counts.windows(2).all(|w| w[1] > w[0]),
            "{counts:?}\n{screen}"
        );
        assert_eq!(
            screen.contains("said while the rc file is read"),
            verbose,
            "{screen}"
        );
    }
}

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
fn bash_with_a_readonly_prompt_command_says_nothing() {
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
    pane.keys("echo ready-$((6*7))\n");
    pane.wait_screen("ready-42");
    let screen = pane.screen();
    assert!(!screen.contains("readonly"), "{screen}");
    assert!(!screen.contains("STANDIN"), "{screen}");
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
    let dir = tempfile::tempdir().unwrap();
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
