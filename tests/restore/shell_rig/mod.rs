//! The rig of the shell-integration tests on a real pty (issue 20): an agterm session (the fake agterm's
//! panes are login shells in a private tmux server) whose left pane runs a given shell with given rc
//! files, and held a Claude conversation before agterm quit; the stand-in `claude` reports whether its
//! stdin, stdout and stderr are terminals, stays up until it reads a line, and then exits.

#![allow(dead_code)]

use crate::restore_support::{uuid, Env, DENYLIST};
use agterm_backup_core::pane::PaneRole;
use agterm_backup_core::quote::quote;
use agterm_backup_core::terminal::RestoreMode;
use agterm_backup_testkit::fake_agterm::{wait_until, FakeAgterm, FakeConfig, RestartKind};
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::time::Duration;

pub const WITHIN: Duration = Duration::from_secs(30);
/// What the stand-in prints when the resume got the terminal on stdin, stdout and stderr.
pub const WITH_A_TERMINAL: &str = "STANDIN tty 0=yes 1=yes 2=yes";
/// Restore's settle time in the panes: a claim younger than this when the agent exits goes back.
pub const SETTLE_SECS: f64 = 0.3;

/// The stand-in: reports its descriptors, stays up until a line is read, says goodbye.
pub const STAND_IN: &str = "#!/bin/bash\n\
a=no; [ -t 0 ] && a=yes; b=no; [ -t 1 ] && b=yes; c=no; [ -t 2 ] && c=yes\n\
echo \"STANDIN argv: $*\"\n\
echo \"STANDIN tty 0=$a 1=$b 2=$c\"\n\
IFS= read -r line\n\
echo \"STANDIN bye\"\n";

/// One agterm session whose left pane runs `shell` with the given rc files, and held a Claude
/// conversation before agterm quit.
pub struct Pane {
    pub env: Env,
    pub session: String,
    pub id: String,
}

impl Pane {
    /// `rc`: (path under HOME, text); `@BIN@` is the binary (quoted), `@HOME@` the home folder; a file
    /// under `bin/` is made executable (it is on the pane's PATH), so is one under a deeper `…/bin/`.
    /// `stand_in`: whether `claude` is on the pane's PATH.
    pub fn start(shell: &str, rc: &[(&str, String)], stand_in: bool) -> Pane {
        Self::start_primed(shell, rc, stand_in, |_| true)
    }

    /// [`Pane::start`], the restart held until `primed(home)` holds after the pane's first shell came up
    /// (a framework's cache that the first run writes: powerlevel10k's instant prompt).
    pub fn start_primed(
        shell: &str,
        rc: &[(&str, String)],
        stand_in: bool,
        primed: impl Fn(&Path) -> bool,
    ) -> Pane {
        let home = agterm_backup_testkit::scratch::tempdir();
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
            std::fs::write(&path, fill(text, h)).unwrap();
            // A program on the pane's PATH (a framework's stand-in binary), or in a `bin/` the rc
            // files put on it.
            if rel.starts_with("bin/") || rel.contains("/bin/") {
                std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
            }
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
            // `shell-start`'s own 2 s budget is tested in tests/cli/shell_start*.rs; here a machine
            // loaded by a parallel test run must not turn a slow start into a silent give-up (as the
            // e2e rigs do).
            .env("AGTERM_BACKUP_SHELL_START_BUDGET_MS", "8000")
            .denylist(DENYLIST);
        cfg.shell = Some(shell.to_string());
        let fake = FakeAgterm::start(cfg);
        let env = Env { home, fake };
        let session = env.fake.add_session(None, None, h, false).id;
        let id = uuid();
        let (dir, transcript) = env.project("api", &id);
        env.record(&session, PaneRole::Left, &id, &dir, &transcript, 30);
        let mut pane = Pane { env, session, id };
        assert!(wait_until(WITHIN, || primed(pane.home())), "never primed");
        pane.env.fake.restart(RestartKind::CleanQuit);
        pane
    }

    pub fn home(&self) -> &Path {
        self.env.home.path()
    }

    pub fn screen(&self) -> String {
        self.env.fake.screen(&self.session, PaneRole::Left)
    }

    pub fn wait_screen(&self, needle: &str) -> String {
        self.env
            .fake
            .wait_for_screen(&self.session, PaneRole::Left, needle, WITHIN)
    }

    pub fn keys(&self, text: &str) {
        self.env.fake.send_keys(&self.session, PaneRole::Left, text);
    }

    /// The once-per-launch marker of the conversation, if taken.
    pub fn marker(&self) -> Option<serde_json::Value> {
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
    pub fn assert_resumed_with_a_terminal(&self) {
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
    /// then runs `probe` at two later prompts; returns the screen with two lines starting with `output`.
    pub fn quit_and_probe(&self, probe: &str, output: &str) -> String {
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
        // Lines the probe printed (its typed text is on a line of its own, after the prompt).
        let printed = |screen: &str| {
            screen
                .lines()
                .filter(|l| l.trim_start().starts_with(output))
                .count()
        };
        // One at a time: a probe typed ahead is echoed into the first one's output line.
        assert!(
            self.probe_until(probe, || printed(&self.screen()) >= 1),
            "the probe did not run:\n{}",
            self.screen()
        );
        assert!(
            self.probe_until(probe, || printed(&self.screen()) >= 2),
            "the probe did not run twice:\n{}",
            self.screen()
        );
        self.screen()
    }

    /// Types `probe` at the prompt until `ran` holds. Keys typed while the shell's line editor starts
    /// can be split or swallowed (ble.sh reads the terminal's replies at its prompt; once, in CI, half a
    /// probe ran as a line of its own, `echo probe-$((`, and the rest sat at bash's `>` prompt): a probe
    /// that does not run is cancelled with Ctrl-C and typed again, three times at most.
    fn probe_until(&self, probe: &str, ran: impl Fn() -> bool) -> bool {
        for _ in 0..3 {
            self.keys(&format!("{probe}\n"));
            if wait_until(WITHIN / 3, &ran) {
                return true;
            }
            self.keys("\x03");
        }
        false
    }

    /// After the agent quit: exactly one resume, nothing of ours at later prompts, no shell error.
    pub fn assert_quiet_after(&self, screen: &str) {
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
            "Unknown command",
        ] {
            assert!(!screen.contains(bad), "`{bad}` on the screen:\n{screen}");
        }
        assert!(self.marker().is_some(), "the claim of a run that ran stays");
    }
}

/// `@BIN@` and `@HOME@` filled in.
pub fn fill(text: &str, home: &Path) -> String {
    text.replace("@BIN@", &quote(agterm_backup_testkit::agterm_backup_bin!()))
        .replace("@HOME@", &quote(&home.display().to_string()))
}

/// The line users put in their rc file by hand (`installer apply` writes the same, guarded).
pub fn rc_line(shell: &str) -> String {
    match shell {
        "fish" => "@BIN@ init fish | source".to_string(),
        sh => format!("eval \"$(@BIN@ init {sh})\""),
    }
}

/// `theirs` (a framework's lines) and `ours` (the integration's line) in both orders, each with whether
/// ours comes first: ours last first, as `installer apply` appends its block.
pub fn in_both_orders(theirs: &str, ours: &str) -> [(bool, String); 2] {
    [
        (false, format!("{theirs}\n{ours}\n")),
        (true, format!("{ours}\n{theirs}\n")),
    ]
}
