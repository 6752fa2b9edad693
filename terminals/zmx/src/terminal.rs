//! One zmx socket directory as a terminal: its sessions are the panes (`zmx list`, each with the
//! foreground of its pty), typing is `zmx send` (Return as `\r`, what a pty in raw mode reads as
//! Enter), a screen is `zmx history`, and a session that is gone is recreated with `zmx attach <name>
//! <command>`.
//!
//! **Recreating detached.** `zmx attach` creates the daemon (double fork, `setsid`) *before* it attaches
//! its client (`loop.zig ensureSession`), and a client whose stdin is at end of file detaches at once
//! (`clientLoop`: "eof stdin"). So `zmx attach <name> <command>` with stdin from `/dev/null` leaves the
//! session running, detached, with no terminal needed; it prints `session "<name>" created` only when it
//! created it. `zmx run -d` is no alternative: it types into a `bash` (not the user's shell) with a task
//! marker appended, and marks the session a task. The command is `/bin/sh -c 'set -m; <line>; exec
//! "$SHELL" -l'`: the resume line runs, and a login shell takes over when the agent exits, as in the
//! user's own session. `set -m` gives the agent its own process group and the terminal, so the pty's
//! foreground shows the agent (not `sh`) while it runs.
//!
//! **Racing a user's attach.** zmx creates a session only when its socket is missing (or refuses
//! connections); a live daemon ignores the command of every later attach. So a user's `zmx attach
//! <name>` racing ours ends with one session: ours (the user attaches to the agent), or the user's plain
//! shell, which `create` reports as [`Created::Theirs`] so that restore types the line into it as into
//! any idle shell.

use crate::command::{ZmxDir, ZmxError};
use crate::list::{parse_list, Listed};
use crate::session::{ZmxPart, ZmxSession};
use agterm_backup_core::pane::PaneRole;
use agterm_backup_core::process::foreground::{pane_foreground, tty_foreground_group};
use agterm_backup_core::process::{default_source, ProcessSource};
use agterm_backup_core::quote::quote;
use agterm_backup_core::terminal::{
    Created, PaneRef, PaneView, ScreenRange, Terminal, TerminalError, TerminalInfo,
};
use chrono::{DateTime, Utc};
use std::path::Path;
use std::time::Duration;

/// How long one zmx command may take in restore.
pub const CLI_TIMEOUT: Duration = Duration::from_secs(5);

/// Lines of `zmx history` that stand for the visible screen.
const VISIBLE_LINES: usize = 50;

/// How long typing waits for a session that has drawn nothing yet (its shell still starting).
const DRAW_WAIT: Duration = Duration::from_secs(5);

/// One socket directory as restore sees it.
#[derive(Debug, Clone)]
pub struct ZmxTerminal {
    dir: ZmxDir,
    boot: Option<DateTime<Utc>>,
}

impl ZmxTerminal {
    /// `boot`: this machine's boot time (`crate::boot::boot_time`), the cutoff for a session that is gone.
    pub fn new(dir: ZmxDir, boot: Option<DateTime<Utc>>) -> ZmxTerminal {
        ZmxTerminal { dir, boot }
    }

    fn socket_dir(&self) -> String {
        self.dir.dir().display().to_string()
    }

    /// Every session `zmx list` shows, less the stale sockets a reboot left (zmx deletes them as it
    /// lists them).
    pub fn sessions(&self) -> Result<Vec<Listed>, ZmxError> {
        let mut listed = parse_list(&self.dir.run(&["list"], None)?);
        listed.retain(|l| !l.is_stale());
        Ok(listed)
    }

    /// The shell command a recreated session runs: the line, then a login shell.
    pub fn create_command(line: &str) -> String {
        format!("set -m; {line}; exec \"${{SHELL:-/bin/sh}}\" -l")
    }
}

/// A listed session as the seam shows it (`tpgid` reads the pty's foreground group).
pub fn session_view(
    socket_dir: &str,
    listed: &Listed,
    src: &dyn ProcessSource,
    tpgid: &dyn Fn(u32) -> Option<u32>,
) -> PaneView {
    let session = ZmxSession {
        socket_dir: socket_dir.to_string(),
        name: listed.name.clone(),
        started: listed.created,
    };
    let (foreground, settling) = match (listed.pid, &listed.error) {
        (Some(pid), None) => {
            let group = tpgid(pid);
            // The foreground group's leader is gone or not readable yet (a process starting or ending
            // in front), or it is zmx's own fork that has not exec'd the session's command yet: the
            // session is not up yet, so restore waits and looks again rather than taking it for busy.
            // Its foreground is zmx's own then, not a program of the user's: none is shown, so the plan
            // says "not realized" (restore waits) rather than "busy" (restore gives up on it).
            let leader = src.argv(group.unwrap_or(pid));
            let settling = leader.is_none_or(|argv| is_zmx(&argv));
            let foreground = (!settling)
                .then(|| session_foreground(src, pid, group))
                .flatten();
            (foreground, settling)
        }
        (_, error) => {
            let why = error.as_deref().unwrap_or("no pid");
            (
                Some(vec![format!("(zmx cannot reach this session: {why})")]),
                false,
            )
        }
    };
    let mut view = PaneView {
        session_id: listed.name.clone(),
        role: PaneRole::Left,
        pane_id: Some(session.key_name()),
        window_id: None,
        session_name: Some(listed.name.clone()),
        cwd: listed.cwd.clone(),
        shell_in_front: Some(foreground.is_none() && !settling),
        foreground,
        remote: false,
        realized: Some(!settling),
        pin: None,
        live: None,
        own: Default::default(),
    };
    view.set_zmx(&session);
    view
}

/// Whether `argv` is zmx itself (`zmx attach …`, its daemon and the pty child before its exec).
fn is_zmx(argv: &[String]) -> bool {
    argv.first()
        .is_some_and(|a0| a0.rsplit('/').next() == Some("zmx"))
}

/// The session's foreground: [`pane_foreground`], except that a shell running a `-c` script (a session
/// created with a command, before its `exec` of the login shell) is that script, not an idle prompt.
pub fn session_foreground(
    src: &dyn ProcessSource,
    pid: u32,
    tpgid: Option<u32>,
) -> Option<Vec<String>> {
    let fg = pane_foreground(src, pid, tpgid);
    if fg.is_some() {
        return fg;
    }
    let argv = src.argv(pid)?;
    let runs_script = argv[1..].iter().any(|a| {
        a.strip_prefix('-')
            .is_some_and(|o| !o.starts_with('-') && o.contains('c'))
    });
    runs_script.then_some(argv)
}

impl Terminal for ZmxTerminal {
    fn info(&mut self) -> Result<TerminalInfo, TerminalError> {
        let out = self.dir.run(&["version"], None).map_err(seam_error)?;
        let version = out
            .lines()
            .find_map(|l| l.strip_prefix("zmx"))
            .map(|v| format!("zmx {}", v.trim()));
        Ok(TerminalInfo {
            version,
            restore_mode: None,
            supports_pin: false,
            supports_live: false,
            supports_restart: false,
            // The machine's boot is the socket directory's launch: restore's once-per-launch folder
            // for it is `zmx-<hash of the socket directory>-<unix boot>`.
            launched_at: self.boot,
            launch_stamp: None,
        })
    }

    fn panes(&mut self) -> Result<Vec<PaneView>, TerminalError> {
        let listed = self.sessions().map_err(seam_error)?;
        let src = default_source();
        let dir = self.socket_dir();
        Ok(listed
            .iter()
            .map(|l| session_view(&dir, l, &*src, &tty_foreground_group))
            .collect())
    }

    fn type_text(&mut self, pane: &PaneRef, text: &str) -> Result<(), TerminalError> {
        // A session created a moment ago (a user's attach that won the race with restore) may not have
        // drawn its prompt yet: a line sent before the shell reads it is echoed by the pty and then read
        // again, and the screen would show it as run before it ran.
        let deadline = std::time::Instant::now() + DRAW_WAIT;
        while self.screen(pane, ScreenRange::All)?.trim().is_empty()
            && std::time::Instant::now() < deadline
        {
            std::thread::sleep(Duration::from_millis(100));
        }
        let keys = text.replace('\n', "\r");
        let out = self
            .dir
            .run(&["send", &pane.session_id, &keys], None)
            .map_err(seam_error)?;
        // zmx says so on stdout, and exits 0, when the session is gone or does not answer.
        match undelivered(&out) {
            Some(said) => Err(TerminalError::Refused(format!("zmx: {said}"))),
            None => Ok(()),
        }
    }

    fn screen(&mut self, pane: &PaneRef, range: ScreenRange) -> Result<String, TerminalError> {
        let all = self
            .dir
            .run(&["history", &pane.session_id], None)
            .map_err(seam_error)?;
        let lines: Vec<&str> = all.trim_end().lines().collect();
        let keep = match range {
            ScreenRange::Visible => VISIBLE_LINES,
            ScreenRange::LastLines(n) => n as usize,
            ScreenRange::All => lines.len(),
        };
        Ok(lines[lines.len().saturating_sub(keep)..].join("\n"))
    }

    fn pin(&mut self, _pane: &PaneRef, _line: &str) -> Result<Option<String>, TerminalError> {
        Err(TerminalError::Unsupported(
            "zmx has no pins: restore recreates a session that a reboot took".into(),
        ))
    }

    fn create(&mut self, pane: &PaneRef, dir: &str, line: &str) -> Result<Created, TerminalError> {
        let script = ZmxTerminal::create_command(line);
        let name = pane.session_id.as_str();
        let cwd = Some(Path::new(dir)).filter(|d| d.is_dir());
        let out = match self
            .dir
            .run(&["attach", name, "/bin/sh", "-c", &script], cwd)
        {
            Ok(out) => out,
            // Two creators at once: the other one bound the socket first.
            Err(ZmxError::Refused(e)) if e.contains("AddressInUse") => return Ok(Created::Theirs),
            Err(e) => return Err(seam_error(e)),
        };
        let ours = out.contains(&format!("session \"{name}\" created"));
        Ok(if ours { Created::Ours } else { Created::Theirs })
    }
}

/// What `zmx send` prints, exiting 0, when nothing reached the session (`main.zig send`).
fn undelivered(out: &str) -> Option<&str> {
    out.lines()
        .map(str::trim)
        .find(|l| l.starts_with("cleaned up stale session") || l.contains(" is unresponsive"))
}

/// How a recreated session's command reads, for a person (`--dry-run`).
pub fn describe_create(name: &str, line: &str) -> String {
    format!(
        "zmx attach {} '/bin/sh' -c {}",
        quote(name),
        quote(&ZmxTerminal::create_command(line))
    )
}

fn seam_error(e: ZmxError) -> TerminalError {
    match e {
        ZmxError::NotRunnable(_) | ZmxError::TimedOut => TerminalError::Unreachable(e.to_string()),
        ZmxError::Refused(_) => TerminalError::Refused(e.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::list::parse_line;
    use agterm_backup_core::process::FakeProcesses;

    fn procs() -> FakeProcesses {
        FakeProcesses::default()
            .with(100, 1, "-zsh", "/w/a")
            .with(200, 1, "zsh -l", "/w/b")
            .with(
                210,
                200,
                "node /usr/lib/node_modules/@anthropic-ai/claude-code/cli.js --resume x",
                "/w/b",
            )
            .with(
                300,
                1,
                "/bin/sh -c set -m; claude --resume x; exec zsh -l",
                "/w/c",
            )
            .with(310, 300, "claude --resume x", "/w/c")
    }

    #[test]
    fn sessions_with_their_foreground_and_identity() {
        let src = procs();
        let tpgid = |pid: u32| {
            Some(match pid {
                200 => 210,
                300 => 310,
                p => p,
            })
        };
        let row = |l: &str| parse_line(l).unwrap();
        let idle = session_view(
            "/z",
            &row("name=a\tpid=100\tclients=0\tcreated=7\tcwd=/w/a"),
            &src,
            &tpgid,
        );
        assert_eq!(
            (idle.foreground.clone(), idle.shell_in_front),
            (None, Some(true))
        );
        let z = idle.zmx().unwrap();
        assert_eq!(
            (z.socket_dir.as_str(), z.name.as_str(), z.started),
            ("/z", "a", Some(7))
        );
        assert_eq!(idle.pane_id, Some(z.key_name()));
        assert_eq!(idle.cwd.as_deref(), Some("/w/a"));
        let busy = session_view(
            "/z",
            &row("name=b\tpid=200\tclients=1\tcreated=7"),
            &src,
            &tpgid,
        );
        assert_eq!(busy.foreground.unwrap()[0], "node");
        let created = session_view(
            "/z",
            &row("name=c\tpid=300\tclients=0\tcreated=7"),
            &src,
            &tpgid,
        );
        assert_eq!(created.foreground.unwrap(), ["claude", "--resume", "x"]);
        let wedged = session_view(
            "/z",
            &row("name=d\terr=Timeout\tstatus=unreachable"),
            &src,
            &tpgid,
        );
        assert!(wedged.foreground.unwrap()[0].contains("Timeout"));
        assert_eq!(wedged.shell_in_front, Some(false));
    }

    #[test]
    fn a_session_still_zmxs_own_fork_is_not_up_and_shows_no_foreground() {
        // Before its exec, the session's process is zmx itself (the fake's `zmx __exec <spec>`, zmx's
        // pty child): the plan must read "not realized" (restore waits), never "busy".
        let src = FakeProcesses::default().with(
            400,
            1,
            "/tmp/fake-zmx-0/6b9de888/zmx __exec /tmp/fake-zmx-0/6b9de888/z72.spec.json",
            "/w/e",
        );
        let tpgid = |pid: u32| Some(pid);
        let row = parse_line("name=e\tpid=400\tclients=1\tcreated=7").unwrap();
        let view = session_view("/z", &row, &src, &tpgid);
        assert_eq!(
            (view.foreground, view.shell_in_front, view.realized),
            (None, Some(false), Some(false))
        );
    }

    #[test]
    fn a_shell_still_running_its_script_is_not_idle() {
        let src = FakeProcesses::default()
            .with(300, 1, "/bin/sh -c set -m; claude; exec zsh -l", "/w")
            .with(400, 1, "bash -lic claude", "/w")
            .with(500, 1, "bash --login", "/w");
        assert!(session_foreground(&src, 300, Some(300)).is_some());
        assert!(session_foreground(&src, 400, Some(400)).is_some());
        assert_eq!(session_foreground(&src, 500, Some(500)), None);
    }

    #[test]
    fn send_answers_that_reached_nothing() {
        assert!(undelivered("cleaned up stale session api\n").is_some());
        let busy = "session api is unresponsive (Timeout)\ndaemon may be busy: try again\n";
        assert!(undelivered(busy).unwrap().contains("Timeout"));
        assert_eq!(undelivered(""), None);
    }

    #[test]
    fn the_create_command_runs_the_line_then_a_login_shell() {
        let cmd = ZmxTerminal::create_command("cd '/w/a b' && 'claude' '--resume' 'x'");
        assert_eq!(
            cmd,
            "set -m; cd '/w/a b' && 'claude' '--resume' 'x'; exec \"${SHELL:-/bin/sh}\" -l"
        );
        assert!(
            describe_create("api", "claude").starts_with("zmx attach 'api' '/bin/sh' -c "),
            "{}",
            describe_create("api", "claude")
        );
    }
}
