//! Shared setup for the restore end-to-end tests: a throwaway HOME whose login shells find a stand-in
//! `claude` first, a state dir, a fake agterm whose panes use both, and records written with StateDir.
//!
//! The stand-in prints its argv and cwd, optionally shows Claude's resume dialog, reads one key and clears the screen (as the TUI redraws), then
//! stays in the foreground as a process whose argv[0] is `claude` (so agterm's capture, the denylist and
//! `tree.foreground` all see `claude`, as with the real native binary).

#![allow(dead_code)]

use agterm_backup_core::pane::PaneRole;
use agterm_backup_core::record::{LiveRecord, RECORD_VERSION};
use agterm_backup_core::state::StateDir;
use agterm_backup_core::terminal::RestoreMode;
use agterm_backup_testkit::fake_agterm::{FakeAgterm, FakeConfig};
use chrono::{Duration as Age, SecondsFormat, Utc};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Duration;

pub const DIALOG: &str = "This session is 2h 5m old and 143.2k tokens.\nResuming the full session uses a lot of your usage limits. Resuming from a summary uses less.\n> 1. Resume from summary (instant, recommended)\n  2. Resume full session as-is\n  3. Don't ask again\n";

/// The stand-in refuses the value `exit-now` (`--model exit-now`, a kept flag) the way a CLI refuses a bad
/// argument: it is up for a moment, prints an error and exits 1.
const EXIT_NOW: &str = "case \" $* \" in *' exit-now '*) sleep 0.6; echo \"error: option '--model <model>' argument 'exit-now' is invalid\"; exit 1;; esac\n";

pub struct Env {
    pub home: agterm_backup_testkit::scratch::ScratchDir,
    pub fake: FakeAgterm,
}

/// The denylist our installer leaves: agterm's starter entries plus claude and codex.
pub const DENYLIST: &str = "tmux\nscreen\nzellij\nclaude\ncodex\n";

pub fn stand_in(home: &Path, dialog: bool) {
    let bin = home.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let dialog_part = if dialog {
        format!(
            "if [ \"$1\" = --resume ]; then printf '%s' '{}'; IFS= read -rsn1 key; printf '\\033[H\\033[2J'; echo \"STANDIN answered: $key\"; fi\n",
            DIALOG.replace('\'', "'\\''")
        )
    } else {
        String::new()
    };
    let script = format!(
        "#!/bin/bash\necho \"STANDIN argv: $*\"\necho \"STANDIN cwd: $(pwd)\"\n{EXIT_NOW}{dialog_part}echo '? for shortcuts'\nexec -a claude /bin/sh -c 'sleep 100000; :' \"$@\"\n"
    );
    let path = bin.join("claude");
    std::fs::write(&path, script).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::write(
        home.join(".bash_profile"),
        format!("export PATH='{}':\"$PATH\"\n", bin.display()),
    )
    .unwrap();
}

impl Env {
    pub fn new(version: &str, mode: RestoreMode, denylist: Option<&str>, dialog: bool) -> Env {
        let home = agterm_backup_testkit::scratch::tempdir();
        stand_in(home.path(), dialog);
        let mut cfg = FakeConfig::new(version, mode).env("HOME", home.path().to_str().unwrap());
        if let Some(d) = denylist {
            cfg = cfg.denylist(d);
        }
        let fake = FakeAgterm::start(cfg);
        Env { home, fake }
    }

    pub fn state(&self) -> StateDir {
        StateDir::at(self.home.path().join("state"))
    }

    /// A project directory with a Claude transcript for `id`; returns (dir, transcript).
    pub fn project(&self, name: &str, id: &str) -> (PathBuf, PathBuf) {
        let dir = self.home.path().join("work").join(name);
        std::fs::create_dir_all(&dir).unwrap();
        let tdir = self
            .home
            .path()
            .join(".claude/projects")
            .join(format!("-work-{name}"));
        std::fs::create_dir_all(&tdir).unwrap();
        let t = tdir.join(format!("{id}.jsonl"));
        std::fs::write(
            &t,
            format!("{{\"cwd\":\"{}\",\"sessionId\":\"{id}\"}}\n", dir.display()),
        )
        .unwrap();
        (dir, t)
    }

    /// Writes the pane's record (and a journal line) as the hook would, `age_secs` ago.
    pub fn record(
        &self,
        session: &str,
        role: PaneRole,
        id: &str,
        cwd: &Path,
        transcript: &Path,
        age_secs: i64,
    ) -> LiveRecord {
        let state = self.state();
        state.ensure().unwrap();
        let pane_id = self.fake.pane_token(session, role);
        let r = LiveRecord {
            v: RECORD_VERSION,
            agent: "claude".into(),
            session_id: id.into(),
            agterm_session: session.into(),
            role,
            pane_id: Some(pane_id),
            transcript_path: Some(transcript.display().to_string()),
            agent_cwd: cwd.display().to_string(),
            hook_cwd: cwd.display().to_string(),
            flags: vec!["--model".into(), "sonnet".into()],
            agent_pid: None,
            event: "SessionStart".into(),
            ts: (Utc::now() - Age::seconds(age_secs)).to_rfc3339_opts(SecondsFormat::Millis, true),
            terminal: "agterm".into(),
            source: Some("startup".into()),
            window_id: None,
            workspace_id: None,
            pin: None,
            pinned_line: None,
            extra: Default::default(),
        };
        agterm_backup_terminals::write_record(&state, &r).unwrap();
        agterm_backup_terminals::append_journal(&state, &r).unwrap();
        r
    }

    /// Runs `agterm-backup <args>` against the fake, outside any pane.
    pub fn run(&self, args: &[&str]) -> Output {
        Command::new(agterm_backup_testkit::agterm_backup_bin!())
            .args(args)
            .env_clear()
            .envs(agterm_backup_testkit::hermetic::places())
            .env("PATH", std::env::var("PATH").unwrap_or_default())
            .env("HOME", self.home.path())
            .envs(agterm_backup_testkit::hermetic::home_places(
                self.home.path(),
            ))
            .env("AGTERM_SOCKET", self.fake.socket())
            .env("AGTERM_BACKUP_HOME", self.state().root())
            .env("CODEX_HOME", self.home.path().join(".codex"))
            // Managed policy files (`/etc/claude-code`, …) below the test's HOME, never the machine's.
            .env(
                "AGTERM_BACKUP_SYSTEM_ROOT",
                self.home.path().join("system-root"),
            )
            .env("AGTERM_BACKUP_CONFIRM_TIMEOUT_SECS", "15")
            .env("AGTERM_BACKUP_DIALOG_TIMEOUT_SECS", "20")
            .env("AGTERM_BACKUP_REALIZE_TIMEOUT_SECS", "2")
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap()
    }

    pub fn restore_json(&self, extra: &[&str]) -> (Output, serde_json::Value) {
        let mut args = vec!["restore", "--json"];
        args.extend_from_slice(extra);
        let out = self.run(&args);
        let v = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
            panic!(
                "restore --json printed no JSON ({e}): {}\n{}",
                text(&out.stdout),
                text(&out.stderr)
            )
        });
        (out, v)
    }

    /// Starts the stand-in in a pane through the shell, like a person typing `claude …`.
    pub fn start_agent(&self, session: &str, role: PaneRole, cmdline: &str) {
        self.fake.send_keys(session, role, &format!("{cmdline}\n"));
        self.wait_agent(session, role);
    }

    /// Waits until the pane's foreground is the stand-in; returns its argv.
    pub fn wait_agent(&self, session: &str, role: PaneRole) -> Vec<String> {
        self.fake
            .wait_for_foreground(session, role, Duration::from_secs(10), |fg| {
                fg.as_ref()
                    .is_some_and(|a| a.first().is_some_and(|a0| a0 == "claude"))
            })
            .unwrap()
    }

    /// Asserts the pane runs `claude --resume <id>` in `dir` (the stand-in printed both).
    pub fn assert_resumed(&self, session: &str, role: PaneRole, id: &str, dir: &Path) {
        let argv = self.wait_agent(session, role);
        assert!(
            argv.windows(2).any(|w| w[0] == "--resume" && w[1] == id),
            "foreground {argv:?}"
        );
        let screen = self.fake.wait_for_screen(
            session,
            role,
            &format!("STANDIN argv: --resume {id}"),
            Duration::from_secs(10),
        );
        assert!(
            screen.contains(&format!("STANDIN cwd: {}", dir.display())),
            "{screen}"
        );
    }
}

pub fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// A fresh UUID-shaped id (v4 layout) without a uuid dependency.
pub fn uuid() -> String {
    use std::sync::atomic::{AtomicU32, Ordering};
    static N: AtomicU32 = AtomicU32::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos() as u64;
    let n = N.fetch_add(1, Ordering::Relaxed);
    format!(
        "{:08x}-{:04x}-4{:03x}-8{:03x}-{:012x}",
        std::process::id(),
        n & 0xffff,
        (nanos >> 12) & 0xfff,
        nanos & 0xfff,
        nanos & 0xffff_ffff_ffff
    )
}
