//! tmux-continuum's restore at tmux start reaches our post-restore hook: a user's TPM-style config (and
//! one with the plugins' manual `run-shell` lines), the block written by `installer apply`, a server
//! started after a "reboot", and the conversation typed back into its pane, with restore's outcome in
//! `<state>/tmux/restore.log`.
//!
//! The plugins are stand-ins written from their sources (none is packaged for Debian), each doing what
//! the original does at tmux start, in the same order and with the same waits:
//! - TPM 99469c4a9b1ccf77fade25842dc7bafbc8ce9946 (`tpm`, `scripts/source_plugins.sh`): runs each
//!   `@plugin`'s `*.tmux` in the config's order, as an executable, output to /dev/null.
//! - tmux-resurrect cff343cf9e81983d3da0c8562b01616f12e8d548 (`resurrect.tmux`, `scripts/restore.sh`,
//!   `helpers.sh` `execute_hook`): publishes `@resurrect-restore-script-path`; the restore rebuilds the
//!   saved panes (`new-session` through `TMUX="" tmux -S <socket>`, `new-window -t`, `split-window`), then
//!   `eval`s `@resurrect-hook-post-restore-all` read at that moment.
//! - tmux-continuum 0698e8f4b17d6454c71bf5212895ec055c578da0 (`continuum.tmux`,
//!   `scripts/continuum_restore.sh`): when the server started less than `@continuum-restore-max-delay`
//!   (10) seconds ago, starts `continuum_restore.sh &`, which — `@continuum-restore` 'on' and no
//!   `~/tmux_no_auto_restore` — sleeps one second and runs the published restore script. (Its check for
//!   another tmux server of the user is left out: the tests' own servers run beside this one.)
//!
//! A plugin after continuum that takes three seconds to load (the TPM case) is what keeps a block below
//! TPM's line from being set within continuum's second; with `run-shell` lines, tmux waits for
//! continuum's background restore (it holds the job's output open) before reading on.

use agterm_backup_testkit::tmux::Tmux;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

const ID: &str = "4f1c2d3e-5a6b-4c7d-8e9f-0a1b2c3d4e5f";

const TPM: &str = r##"#!/usr/bin/env bash
# TPM's `tpm` → `source_plugins.sh`: every @plugin's *.tmux, in order, silently.
plugins_dir="${TMUX_PLUGIN_MANAGER_PATH:-$HOME/.tmux/plugins/}"
for plugin in $(grep -E "^[[:space:]]*set(-option)? +-g +@plugin" "$HOME/.tmux.conf" | sed -E "s/.*@plugin +['\"]?([^'\" ]+)['\"]?.*/\1/"); do
	for tmux_file in "$plugins_dir${plugin##*/}/"*.tmux; do
		[ -f "$tmux_file" ] || continue
		"$tmux_file" >/dev/null 2>&1
	done
done
"##;

const RESURRECT_TMUX: &str = r##"#!/usr/bin/env bash
CURRENT_DIR="$( cd "$( dirname "${BASH_SOURCE[0]}" )" && pwd )"
tmux set-option -gq "@resurrect-restore-script-path" "$CURRENT_DIR/scripts/restore.sh"
"##;

/// The save file holds `session<TAB>window<TAB>pane<TAB>dir` lines (resurrect's pane lines, cut to the
/// fields its restore uses).
const RESURRECT_RESTORE: &str = r##"#!/usr/bin/env bash
last="$HOME/.local/share/tmux/resurrect/last"
[ -f "$last" ] || exit 0
socket="$(echo "$TMUX" | cut -d',' -f1)"
while IFS=$'\t' read -r session window pane dir; do
	if tmux list-windows -t "$session" -F "#{window_index}" 2>/dev/null | grep -q "^$window$"; then
		tmux split-window -t "$session:$window" -c "$dir"
		tmux resize-pane -t "$session:$window" -U 999
	elif tmux has-session -t "$session" 2>/dev/null; then
		tmux new-window -d -t "$session:$window" -c "$dir"
	else
		TMUX="" tmux -S "$socket" new-session -d -s "$session" -c "$dir"
		first="$(tmux show -gv base-index)"
		[ "$first" -ne "$window" ] && tmux move-window -s "$session:$first" -t "$session:$window"
	fi
done < "$last"
hook=$(tmux show-option -gqv "@resurrect-hook-post-restore-all")
if [ -n "$hook" ]; then
	eval "$hook "
fi
"##;

const CONTINUUM_TMUX: &str = r##"#!/usr/bin/env bash
CURRENT_DIR="$( cd "$( dirname "${BASH_SOURCE[0]}" )" && pwd )"
max_delay="$(tmux show-option -gqv @continuum-restore-max-delay)"
start="$(tmux display-message -p -F '#{start_time}')"
if [ "$start" -gt "$(( $(date +%s) - ${max_delay:-10} ))" ]; then
	"$CURRENT_DIR/scripts/continuum_restore.sh" &
fi
"##;

const CONTINUUM_RESTORE: &str = r##"#!/usr/bin/env bash
if [ "$(tmux show-option -gqv @continuum-restore)" == "on" ] && [ ! -f "$HOME/tmux_no_auto_restore" ]; then
	sleep 1
	script="$(tmux show-option -gqv @resurrect-restore-script-path)"
	[ -n "$script" ] && "$script"
fi
"##;

struct Rig {
    _dir: agterm_backup_testkit::scratch::ScratchDir,
    home: PathBuf,
    state: PathBuf,
    work: PathBuf,
    bin: PathBuf,
    tmux: Tmux,
    env: Vec<(String, String)>,
}

fn script(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

impl Rig {
    fn new(conf: &str) -> Rig {
        let dir = agterm_backup_testkit::scratch::tempdir();
        let root = dir.path().canonicalize().unwrap();
        let (home, state, work) = (root.join("h"), root.join("state"), root.join("work"));
        std::fs::create_dir_all(&work).unwrap();
        let plugins = home.join(".tmux/plugins");
        script(&plugins.join("tpm/tpm"), TPM);
        script(
            &plugins.join("tmux-resurrect/resurrect.tmux"),
            RESURRECT_TMUX,
        );
        script(
            &plugins.join("tmux-resurrect/scripts/restore.sh"),
            RESURRECT_RESTORE,
        );
        script(
            &plugins.join("tmux-continuum/continuum.tmux"),
            CONTINUUM_TMUX,
        );
        script(
            &plugins.join("tmux-continuum/scripts/continuum_restore.sh"),
            CONTINUUM_RESTORE,
        );
        script(&plugins.join("tmux-slow/slow.tmux"), "#!/bin/sh\nsleep 3\n");
        std::fs::write(home.join(".tmux.conf"), conf).unwrap();
        let env = vec![
            ("HOME".to_string(), home.display().to_string()),
            ("AGTERM_BACKUP_HOME".into(), state.display().to_string()),
            (
                "AGTERM_BACKUP_SYSTEM_ROOT".into(),
                state.join("system-root").display().to_string(),
            ),
            ("PATH".into(), std::env::var("PATH").unwrap_or_default()),
            ("LANG".into(), "C.UTF-8".into()),
            ("SHELL".into(), "/bin/bash".into()),
        ];
        let tmux = Tmux::as_user(root.join("s.sock"), &env);
        let bin = PathBuf::from(agterm_backup_testkit::agterm_backup_bin!());
        Rig {
            _dir: dir,
            home,
            state,
            work,
            bin,
            tmux,
            env,
        }
    }

    fn run(&self, args: &[&str]) -> std::process::Output {
        Command::new(&self.bin)
            .args(args)
            .env_clear()
            .envs(agterm_backup_testkit::hermetic::places())
            .envs(self.env.iter().map(|(k, v)| (k, v)))
            .output()
            .unwrap()
    }

    /// `new-session`, retried while a server killed just before is still exiting.
    fn new_session(&self, args: &[&str]) {
        Tmux::wait_for(Duration::from_secs(10), "a new server", || {
            let out = self.tmux.cmd(args);
            let err = String::from_utf8_lossy(&out.stderr).into_owned();
            assert!(
                out.status.success() || err.contains("server exited unexpectedly"),
                "{args:?}: {err}"
            );
            out.status.success().then_some(())
        });
    }

    /// The earlier server life: Claude's conversation `ID` in `work:0.0` (the real hook, from that
    /// pane's environment), the layout saved the way resurrect saves it, then the "reboot".
    fn earlier_life(&self) {
        let d = self.work.display().to_string();
        self.new_session(&["new-session", "-d", "-s", "work", "-c", &d]);
        let pane = self
            .tmux
            .ok(&["display-message", "-p", "-t", "work:0.0", "#{pane_id}"]);
        let pid = self.tmux.ok(&["display-message", "-p", "#{pid}"]);
        let slug = agterm_backup_core::slug::claude_project_slug(&d);
        let transcript = self
            .home
            .join(format!(".claude/projects/{slug}/{ID}.jsonl"));
        std::fs::create_dir_all(transcript.parent().unwrap()).unwrap();
        std::fs::write(&transcript, "{}\n").unwrap();
        let payload = serde_json::json!({
            "session_id": ID, "transcript_path": transcript, "cwd": d,
            "hook_event_name": "SessionStart", "source": "startup",
        });
        let mut child = Command::new(&self.bin)
            .args(["hook", "claude"])
            .current_dir(&self.work)
            .env_clear()
            .envs(agterm_backup_testkit::hermetic::places())
            .envs(self.env.iter().map(|(k, v)| (k, v)))
            .env("TMUX", format!("{},{pid},0", self.tmux.socket().display()))
            .env("TMUX_PANE", &pane)
            .stdin(Stdio::piped())
            .spawn()
            .unwrap();
        use std::io::Write;
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(payload.to_string().as_bytes()).unwrap();
        drop(stdin);
        assert!(child.wait().unwrap().success());
        let saved = agterm_backup_testkit::layout::save(&self.tmux);
        let lines: String = saved
            .iter()
            .map(|p| format!("{}\t{}\t{}\t{}\n", p.session, p.window, p.pane, p.dir))
            .collect();
        let last = self.home.join(".local/share/tmux/resurrect/last");
        std::fs::create_dir_all(last.parent().unwrap()).unwrap();
        std::fs::write(last, lines).unwrap();
        self.tmux.kill_server();
        // The next server starts in a later second than the record (tmux's start time is in seconds).
        let killed = now_secs();
        Tmux::wait_for(Duration::from_secs(3), "the next second", || {
            (now_secs() > killed).then_some(())
        });
    }

    /// The user starts tmux; continuum restores; the conversation comes back in `work:0.0`.
    fn start_and_expect_the_conversation_back(&self) {
        self.new_session(&["new-session", "-d", "-s", "boot"]);
        let log = self.state.join("tmux/restore.log");
        let start = std::time::Instant::now();
        // The log names the conversation by its short id, and the line restore typed.
        let done = |t: &str| t.contains(&ID[..8]) && t.contains("tmux work:0.0: typed claude");
        while !std::fs::read_to_string(&log).is_ok_and(|t| done(&t)) {
            assert!(
                start.elapsed() < Duration::from_secs(30),
                "no outcome in {}: {:?}\nsessions: {}\nhook option: {:?}\nconfig:\n{}",
                log.display(),
                std::fs::read_to_string(&log),
                self.tmux.ok(&[
                    "list-panes",
                    "-a",
                    "-F",
                    "#{session_name}:#{window_index}.#{pane_index} #{pane_current_path}"
                ]),
                self.tmux
                    .ok(&["show-option", "-gqv", "@resurrect-hook-post-restore-all"]),
                std::fs::read_to_string(self.home.join(".tmux.conf")).unwrap_or_default()
            );
            std::thread::sleep(Duration::from_millis(100));
        }
        Tmux::wait_for(
            Duration::from_secs(15),
            "the resume line in work:0.0",
            || {
                self.tmux
                    .capture("work:0.0", true)
                    .contains(ID)
                    .then_some(())
            },
        );
    }
}

fn now_secs() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs()
}

// `PS1=… exec bash`, not `env PS1=… bash`: the pane is a shell at every step, never an `env` that
// restore, looking at a new pane at once, would read as a busy program.
const USER_LINES: &str =
    "set -g default-command \"PS1='pane$ ' exec /bin/bash --noprofile --norc -i\"\n\
                          set -g @continuum-restore 'on'\n";

#[test]
fn continuum_restores_at_tmux_start_with_tpm_and_the_hook_fires() {
    let conf = format!(
        "{USER_LINES}set -g @plugin 'tmux-plugins/tpm'\n\
         set -g @plugin 'tmux-plugins/tmux-resurrect'\n\
         set -g @plugin 'tmux-plugins/tmux-continuum'\n\
         set -g @plugin 'someone/tmux-slow'\n\n\
         run '~/.tmux/plugins/tpm/tpm'\n"
    );
    let r = Rig::new(&conf);
    let out = r.run(&["installer", "apply", "--agents", "claude", "--no-denylist"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let applied = std::fs::read_to_string(r.home.join(".tmux.conf")).unwrap();
    for option in [
        "@resurrect-hook-post-restore-all",
        "@resurrect-hook-post-save-all",
    ] {
        assert!(
            applied.find(option) < applied.find("run '~/.tmux/plugins/tpm"),
            "{applied}"
        );
    }
    let status = String::from_utf8_lossy(&r.run(&["installer", "status"]).stdout).into_owned();
    assert!(!status.contains("comes after"), "{status}");
    r.earlier_life();
    r.start_and_expect_the_conversation_back();
}

#[test]
fn continuum_restores_with_the_plugins_manual_run_shell_lines_and_the_hook_fires() {
    let conf = format!(
        "{USER_LINES}run-shell ~/.tmux/plugins/tmux-resurrect/resurrect.tmux\n\
         run-shell ~/.tmux/plugins/tmux-continuum/continuum.tmux\n\
         set -g status-right '%H:%M'\n"
    );
    let r = Rig::new(&conf);
    let out = r.run(&["installer", "apply", "--agents", "claude", "--no-denylist"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    r.earlier_life();
    r.start_and_expect_the_conversation_back();
}

#[test]
fn status_warns_when_the_hook_cannot_fire() {
    // An older release's block below TPM's line, continuum's restore off, its halt file present.
    let bin = PathBuf::from(agterm_backup_testkit::agterm_backup_bin!());
    let conf = format!(
        "set -g @plugin 'tmux-plugins/tmux-resurrect'\nrun '~/.tmux/plugins/tpm/tpm'\n\n{}",
        agterm_backup_tmux::conf::our_block(&bin.display().to_string())
    );
    let r = Rig::new(&conf);
    std::fs::write(r.home.join("tmux_no_auto_restore"), "").unwrap();
    let out = r.run(&["installer", "status"]);
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    for warning in [
        "comes after `run '~/.tmux/plugins/tpm/tpm'`",
        "@continuum-restore is not 'on'",
        "tmux_no_auto_restore exists",
    ] {
        assert!(text.contains(warning), "{warning}: {text}");
    }
    assert!(!text.contains("tmux-resurrect is not installed"), "{text}");
    // `status` says it too, beside the panes.
    let out = r.run(&["status"]);
    let shown = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        shown.contains("@continuum-restore is not 'on'"),
        "{shown}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::remove_dir_all(r.home.join(".tmux/plugins/tmux-resurrect")).unwrap();
    let text = String::from_utf8_lossy(&r.run(&["installer", "status"]).stdout).into_owned();
    assert!(text.contains("tmux-resurrect is not installed"), "{text}");
}
