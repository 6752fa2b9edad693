//! A tmux pane gets its own conversation or none, however tmux moved the panes since the agents' last
//! event. Each test: a real tmux server on a private socket, whose config is the installer's tmux block
//! (its layout hooks run `agterm-backup tmux-layout`); two conversations recorded by the real hook from
//! two panes in the same directory (so the directory cannot tell them apart); a layout change the agents
//! never hear of; a "reboot" (`kill-server`); the layout rebuilt the way tmux-resurrect's `save.sh` and
//! `restore.sh` do it (tmux-resurrect cff343cf9e81983d3da0c8562b01616f12e8d548, as in
//! `agterm_backup_testkit::layout`: panes saved by index, each window rebuilt by splitting once per saved
//! pane in order, the first window moved to its saved index); then `restore --terminal tmux --dry-run
//! --json` says which pane each conversation goes to, or why none.

use agterm_backup_testkit::layout::{rebuild, save};
use agterm_backup_testkit::tmux::Tmux;
use serde_json::Value;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::Duration;

pub(crate) const A: &str = "77e8ca85-2b1c-4a8e-9d0b-0c1d2e3f4a5b";
pub(crate) const B: &str = "0c9d6a41-5f3e-4b2a-8c1d-9e8f7a6b5c4d";

pub(crate) struct Rig {
    _dir: agterm_backup_testkit::scratch::ScratchDir,
    pub(crate) home: PathBuf,
    pub(crate) state: PathBuf,
    work: PathBuf,
    pub(crate) bin: PathBuf,
    pub(crate) tmux: Tmux,
}

impl Rig {
    /// A user with the installer's tmux block in `~/.tmux.conf` (plus `extra` lines) and a project dir.
    pub(crate) fn new(extra: &str) -> Rig {
        let dir = agterm_backup_testkit::scratch::tempdir();
        let root = dir.path().canonicalize().unwrap();
        let (home, state, work) = (root.join("h"), root.join("state"), root.join("work"));
        for d in [&home, &work] {
            std::fs::create_dir_all(d).unwrap();
        }
        let bin = PathBuf::from(agterm_backup_testkit::agterm_backup_bin!());
        // `PS1=… exec bash`, not `env PS1=… bash`: a new pane is a shell at every step, never an `env`
        // that restore, looking at once, would read as a busy program.
        let conf = format!(
            "set -g default-command \"PS1='pane$ ' exec /bin/bash --noprofile --norc -i\"\n{extra}{}",
            agterm_backup_tmux::conf::our_block(&bin.display().to_string())
        );
        std::fs::write(home.join(".tmux.conf"), conf).unwrap();
        let env = vec![
            ("HOME".to_string(), home.display().to_string()),
            ("AGTERM_BACKUP_HOME".into(), state.display().to_string()),
            ("PATH".into(), std::env::var("PATH").unwrap_or_default()),
            ("LANG".into(), "C.UTF-8".into()),
            // tmux runs `default-command` with `$SHELL -c`, which bash replaces by the command (dash does not).
            ("SHELL".into(), "/bin/bash".into()),
        ];
        let tmux = Tmux::as_user(root.join("s.sock"), &env);
        Rig {
            _dir: dir,
            home,
            state,
            work,
            bin,
            tmux,
        }
    }

    pub(crate) fn dir(&self) -> String {
        self.work.display().to_string()
    }

    /// A session `name` of `panes` panes (one window), every pane in the project dir.
    pub(crate) fn session(&self, name: &str, panes: usize) {
        let d = self.dir();
        self.new_session(&[
            "new-session",
            "-d",
            "-s",
            name,
            "-x",
            "200",
            "-y",
            "50",
            "-c",
            &d,
        ]);
        for _ in 1..panes {
            self.tmux
                .ok(&["split-window", "-t", &format!("{name}:"), "-c", &d]);
        }
    }

    /// The real hook, as Claude Code runs it from the pane `target`: a `SessionStart` of conversation
    /// `id`, its transcript on disk. Returns the pane's `%N`.
    pub(crate) fn record(&self, target: &str, id: &str) -> String {
        let pane = self
            .tmux
            .ok(&["display-message", "-p", "-t", target, "#{pane_id}"]);
        let pid = self.tmux.ok(&["display-message", "-p", "#{pid}"]);
        let slug = agterm_backup_core::slug::claude_project_slug(&self.dir());
        let transcript = self
            .home
            .join(format!(".claude/projects/{slug}/{id}.jsonl"));
        std::fs::create_dir_all(transcript.parent().unwrap()).unwrap();
        std::fs::write(&transcript, "{}\n").unwrap();
        let payload = serde_json::json!({
            "session_id": id, "transcript_path": transcript, "cwd": self.dir(),
            "hook_event_name": "SessionStart", "source": "startup",
        });
        let mut child = Command::new(&self.bin)
            .args(["hook", "claude"])
            .current_dir(&self.work)
            .env_clear()
            .envs(agterm_backup_testkit::hermetic::places())
            .env("HOME", &self.home)
            .env("AGTERM_BACKUP_HOME", &self.state)
            .env("PATH", std::env::var("PATH").unwrap_or_default())
            .env("TMUX", format!("{},{pid},0", self.tmux.socket().display()))
            .env("TMUX_PANE", &pane)
            .stdin(Stdio::piped())
            .spawn()
            .unwrap();
        use std::io::Write;
        child
            .stdin
            .take()
            .unwrap()
            .write_all(payload.to_string().as_bytes())
            .unwrap();
        assert!(child.wait().unwrap().success());
        pane
    }

    /// Waits until the server's kept layout (written by the tmux hooks) satisfies `ok`.
    pub(crate) fn wait_layout(&self, what: &str, ok: impl Fn(&Value) -> bool) {
        let pid: u32 = self
            .tmux
            .ok(&["display-message", "-p", "#{pid}"])
            .parse()
            .unwrap();
        Tmux::wait_for(Duration::from_secs(15), what, || {
            let dir = self.state.join("tmux");
            std::fs::read_dir(&dir)
                .ok()?
                .flatten()
                .filter(|e| e.file_name().to_string_lossy().starts_with("layout-"))
                .filter_map(|e| {
                    serde_json::from_slice::<Value>(&std::fs::read(e.path()).ok()?).ok()
                })
                .find(|l| l["server_pid"] == pid && ok(l))
                .map(|_| ())
        });
    }

    /// Where `%N` sits in the kept layout: `session:window.pane`.
    pub(crate) fn laid_out(l: &Value, pane: &str) -> Option<String> {
        l["panes"]
            .as_array()?
            .iter()
            .find(|p| p["pane_id"] == pane)
            .map(|p| {
                format!(
                    "{}:{}.{}",
                    p["session"].as_str().unwrap(),
                    p["window"],
                    p["pane"]
                )
            })
    }

    /// "Reboot" and tmux-resurrect's restore of what it saved just before, with `before_restore` run on
    /// the new (empty) server's options first.
    fn reboot_and_rebuild(&self, before_restore: &[&[&str]]) {
        self.reboot_and_rebuild_saved(save(&self.tmux), before_restore);
    }

    /// The same, from a save taken earlier.
    pub(crate) fn reboot_and_rebuild_saved(
        &self,
        saved: Vec<agterm_backup_testkit::layout::SavedPane>,
        before_restore: &[&[&str]],
    ) {
        self.tmux.kill_server();
        // The new server starts in a later second than every record (tmux's start time is in seconds,
        // and restore's journal rule sets aside what was written at or after it).
        let killed = now_secs();
        Tmux::wait_for(Duration::from_secs(3), "the next second", || {
            (now_secs() > killed).then_some(())
        });
        // The new server, started the way resurrect's `new_session` would find it: by its first session.
        let first = &saved[0];
        self.new_session(&["new-session", "-d", "-s", "boot", "-c", &first.dir]);
        for args in before_restore {
            self.tmux.ok(args);
        }
        rebuild(&self.tmux, &saved);
        self.tmux.ok(&["kill-session", "-t", "boot"]);
        // Every shell at its prompt (its foreground is then itself: an idle pane).
        let targets = self.tmux.ok(&[
            "list-panes",
            "-a",
            "-F",
            "#{session_name}:#{window_index}.#{pane_index}",
        ]);
        for target in targets.lines() {
            Tmux::wait_for(Duration::from_secs(15), "a shell prompt", || {
                self.tmux
                    .capture(target, false)
                    .contains("pane$")
                    .then_some(())
            });
        }
    }

    /// `restore --terminal tmux --dry-run --json`: for conversation `id`, `type <pane>` or `skip <code>`.
    pub(crate) fn plan(&self) -> Value {
        let out = Command::new(&self.bin)
            .args([
                "restore",
                "--terminal",
                "tmux",
                "--dry-run",
                "--json",
                "--socket",
            ])
            .arg(self.tmux.socket())
            .env("HOME", &self.home)
            .env("AGTERM_BACKUP_HOME", &self.state)
            .env_remove("TMUX")
            .output()
            .unwrap();
        serde_json::from_slice(&out.stdout).unwrap_or_else(|_| {
            panic!(
                "no plan: {}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            )
        })
    }

    fn outcome(plan: &Value, id: &str) -> String {
        let row = plan["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["session_id"] == id)
            .unwrap_or_else(|| panic!("no row for {id}: {plan:#}"));
        match row["action"].as_str() {
            Some("type") => format!("type {}", row["name"].as_str().unwrap_or("?")),
            _ => format!("skip {}", row["reason"].as_str().unwrap_or("?")),
        }
    }

    pub(crate) fn expect(&self, want: &[(&str, &str)]) {
        let plan = self.plan();
        for (id, outcome) in want {
            assert_eq!(Rig::outcome(&plan, id), *outcome, "{id}: {plan:#}");
        }
    }

    /// `new-session`, retried while the server killed just before is still exiting.
    fn new_session(&self, args: &[&str]) {
        for _ in 0..50 {
            let out = self.tmux.cmd(args);
            if out.status.success() {
                return;
            }
            let err = String::from_utf8_lossy(&out.stderr).into_owned();
            assert!(
                err.contains("server exited unexpectedly"),
                "{args:?}: {err}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
        self.tmux.ok(args);
    }
}

fn now_secs() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs()
}

#[test]
fn a_closed_pane_renumbers_the_next_one_and_each_conversation_keeps_its_pane() {
    let r = Rig::new("");
    r.session("work", 2);
    r.record("work:0.0", A);
    let b = r.record("work:0.1", B);
    r.tmux.ok(&["kill-pane", "-t", "work:0.0"]);
    r.wait_layout("B's pane renumbered to 0.0", |l| {
        Rig::laid_out(l, &b).as_deref() == Some("work:0.0")
    });
    r.reboot_and_rebuild(&[]);
    r.expect(&[(A, "skip pane-gone"), (B, "type work:0.0")]);
}

#[test]
fn renumber_windows_moves_the_next_window_into_the_closed_ones_index() {
    let r = Rig::new("set -g renumber-windows on\n");
    r.session("work", 1);
    r.tmux
        .ok(&["new-window", "-d", "-t", "work:1", "-c", &r.dir()]);
    r.record("work:0.0", A);
    let b = r.record("work:1.0", B);
    r.tmux.ok(&["kill-window", "-t", "work:0"]);
    r.wait_layout("B's window renumbered to 0", |l| {
        Rig::laid_out(l, &b).as_deref() == Some("work:0.0")
    });
    r.reboot_and_rebuild(&[]);
    r.expect(&[(A, "skip pane-gone"), (B, "type work:0.0")]);
}

#[test]
fn swapped_panes_get_each_their_own_conversation() {
    let r = Rig::new("");
    r.session("work", 2);
    let a = r.record("work:0.0", A);
    r.record("work:0.1", B);
    r.tmux
        .ok(&["swap-pane", "-s", "work:0.0", "-t", "work:0.1"]);
    r.wait_layout("A's pane swapped to 0.1", |l| {
        Rig::laid_out(l, &a).as_deref() == Some("work:0.1")
    });
    r.reboot_and_rebuild(&[]);
    r.expect(&[(A, "type work:0.1"), (B, "type work:0.0")]);
}

#[test]
fn moved_windows_take_their_conversations_along() {
    let r = Rig::new("");
    r.session("work", 1);
    r.tmux
        .ok(&["new-window", "-d", "-t", "work:1", "-c", &r.dir()]);
    let a = r.record("work:0.0", A);
    r.record("work:1.0", B);
    r.tmux.ok(&["move-window", "-s", "work:1", "-t", "work:2"]);
    r.tmux.ok(&["move-window", "-s", "work:0", "-t", "work:1"]);
    r.wait_layout("A's window moved to 1", |l| {
        Rig::laid_out(l, &a).as_deref() == Some("work:1.0")
    });
    r.reboot_and_rebuild(&[]);
    r.expect(&[(A, "type work:1.0"), (B, "type work:2.0")]);
}

#[test]
fn a_pane_broken_out_and_joined_back_keeps_its_conversation() {
    let r = Rig::new("");
    r.session("work", 2);
    let a = r.record("work:0.0", A);
    r.record("work:0.1", B);
    r.tmux
        .ok(&["break-pane", "-d", "-s", "work:0.0", "-t", "work:5"]);
    r.tmux
        .ok(&["join-pane", "-d", "-s", "work:5.0", "-t", "work:0.0"]);
    r.wait_layout("A's pane joined back after B's", |l| {
        Rig::laid_out(l, &a).as_deref() == Some("work:0.1")
    });
    r.reboot_and_rebuild(&[]);
    r.expect(&[(A, "type work:0.1"), (B, "type work:0.0")]);
}

#[test]
fn base_indexes_changed_between_save_and_restore_keep_each_pane_in_its_rank() {
    let r = Rig::new("");
    r.session("work", 2);
    r.record("work:0.0", A);
    r.record("work:0.1", B);
    // The user's new config: windows and panes count from 1 now. resurrect keeps the saved window index
    // (it moves the first window there) but splits the panes anew: 1 and 2.
    r.reboot_and_rebuild(&[
        &["set", "-g", "base-index", "1"],
        &["set", "-g", "pane-base-index", "1"],
    ]);
    r.expect(&[(A, "type work:0.1"), (B, "type work:0.2")]);
}

#[test]
fn two_records_claiming_one_pane_are_both_uncertain() {
    let r = Rig::new("");
    // An earlier server life: A in work:0.0, never restored.
    r.session("work", 1);
    r.record("work:0.0", A);
    r.tmux.kill_server();
    // This life: B in work:0.1, and the pane before it closed, so B's pane is work:0.0 now.
    r.session("work", 2);
    let b = r.record("work:0.1", B);
    r.tmux.ok(&["kill-pane", "-t", "work:0.0"]);
    r.wait_layout("B's pane renumbered to 0.0", |l| {
        Rig::laid_out(l, &b).as_deref() == Some("work:0.0")
    });
    r.reboot_and_rebuild(&[]);
    r.expect(&[(A, "skip join-uncertain"), (B, "skip join-uncertain")]);
    let plan = r.plan();
    assert!(
        plan.to_string().contains("two records claim work:0.0"),
        "the reason says why: {plan:#}"
    );
}

#[test]
fn a_pane_opened_long_after_the_rebuild_is_a_new_pane() {
    let r = Rig::new("");
    r.session("work", 1);
    r.record("work:0.0", A);
    // resurrect's last save holds one pane; B's pane came after it.
    let saved = save(&r.tmux);
    r.tmux.ok(&["split-window", "-t", "work:", "-c", &r.dir()]);
    r.record("work:0.1", B);
    r.reboot_and_rebuild_saved(saved, &[]);
    // resurrect's post-restore hook: the installer's line (restore, in the background, after noting the
    // rebuilt panes).
    agterm_backup_testkit::layout::run_post_restore_hook(&r.tmux, r.home.as_path());
    r.wait_layout("the rebuilt panes noted", |l| l["rebuilt"].is_array());
    // Much later the user splits the window: a pane in the same directory, where B's was.
    r.tmux.ok(&["split-window", "-t", "work:", "-c", &r.dir()]);
    Tmux::wait_for(Duration::from_secs(15), "a shell prompt", || {
        r.tmux
            .capture("work:0.1", false)
            .contains("pane$")
            .then_some(())
    });
    r.expect(&[(B, "skip pane-gone")]);
}
