//! The fake's panes: real login shells in a private tmux server. Typing, screen reads, the foreground
//! process group's argv (as agterm reads it) and the shell's cwd.

use super::plan::foreground_argv;
use crate::tmux::Tmux;
use std::path::Path;
use std::time::{Duration, Instant};

/// Forces the `$ ` prompt, and restores a test-given PATH (`AGB_PANE_PATH`) once after the profiles ran.
const PROMPT_COMMAND: &str =
    "PS1='$ '; if [ -n \"${AGB_PANE_PATH-}\" ]; then PATH=$AGB_PANE_PATH; unset AGB_PANE_PATH; fi";

/// How much of a pane's screen `session.text` reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TextRange {
    Visible,
    Lines(usize),
    All,
}

/// The tmux server holding every pane of one fake agterm (it outlives the fake process, so Live panes
/// survive a clean quit).
pub struct PaneHost {
    tmux: Tmux,
    shell: String,
    /// Every pane's shell pid from one `list-panes`, while a [`PidSnapshot`] is held (one `tree`
    /// answer): a tree of 200 panes costs one tmux run instead of several per pane.
    pids: std::cell::RefCell<Option<std::collections::HashMap<String, u32>>>,
}

/// While held, [`PaneHost::pid`] answers from one `list-panes` (see [`PaneHost::snapshot`]).
pub struct PidSnapshot<'a>(&'a PaneHost);

impl Drop for PidSnapshot<'_> {
    fn drop(&mut self) {
        *self.0.pids.borrow_mut() = None;
    }
}

impl PaneHost {
    pub fn new(tmux_socket: &Path, shell: &str) -> PaneHost {
        PaneHost {
            tmux: Tmux::new(tmux_socket).keep_on_drop(),
            shell: shell.to_string(),
            pids: Default::default(),
        }
    }

    pub fn shell(&self) -> &str {
        &self.shell
    }

    /// Starts a login shell in `cwd` with `env`; returns its tmux pane id (`%N`).
    ///
    /// The shell runs under `env -u TMUX -u TMUX_PANE …` so nothing in the pane looks like tmux, and with
    /// `PROMPT_COMMAND` forcing the prompt to `$ ` so tests can wait for it.
    pub fn spawn(&self, cwd: &str, env: &[(String, String)]) -> Result<String, String> {
        let mut args: Vec<String> = [
            "new-session",
            "-d",
            "-P",
            "-F",
            "#{pane_id}",
            "-x",
            "200",
            "-y",
            "50",
            "-c",
            cwd,
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        args.extend(
            ["env", "-u", "TMUX", "-u", "TMUX_PANE"]
                .iter()
                .map(|s| s.to_string()),
        );
        args.extend(crate::tmux::unset_ci_args());
        // Login profiles (Debian's /etc/profile) reset PATH; a PATH the test asked for is put back once,
        // before the first prompt, so typed lines see it.
        args.push(format!("PROMPT_COMMAND={PROMPT_COMMAND}"));
        args.push("HISTFILE=/dev/null".into());
        args.push(format!("SHELL={}", self.shell_path()));
        for (k, v) in env {
            args.push(format!("{k}={v}"));
            if k == "PATH" {
                args.push(format!("AGB_PANE_PATH={v}"));
            }
        }
        args.push(self.shell_path());
        args.push("-l".into());
        let refs: Vec<&str> = args.iter().map(String::as_str).collect();
        // The previous instance's server may still be shutting down (its last pane just closed), so a
        // fresh `new-session` can meet a dying server once; retry briefly.
        let mut last_error = String::new();
        for _ in 0..20 {
            match self.tmux_ok(&refs) {
                Ok(out) => return Ok(out.trim().to_string()),
                Err(e) => last_error = e,
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        Err(last_error)
    }

    fn shell_path(&self) -> String {
        if self.shell.contains('/') {
            return self.shell.clone();
        }
        let found = std::env::var_os("PATH").and_then(|paths| {
            std::env::split_paths(&paths)
                .map(|d| d.join(&self.shell))
                .find(|p| p.exists())
        });
        found.map_or_else(|| self.shell.clone(), |p| p.display().to_string())
    }

    /// Reads every pane's shell pid at once and answers [`PaneHost::pid`] from that until the snapshot
    /// is dropped.
    pub fn snapshot(&self) -> PidSnapshot<'_> {
        let listed = self
            .tmux_ok(&[
                "list-panes",
                "-a",
                "-F",
                "#{pane_id} #{pane_pid} #{pane_dead}",
            ])
            .unwrap_or_default();
        let pids = listed
            .lines()
            .filter_map(|l| {
                let mut w = l.split_whitespace();
                let (id, pid, dead) = (w.next()?, w.next()?.parse().ok()?, w.next());
                (dead != Some("1")).then(|| (id.to_string(), pid))
            })
            .collect();
        *self.pids.borrow_mut() = Some(pids);
        PidSnapshot(self)
    }

    /// The pid of the pane's shell, or `None` when the pane is gone.
    pub fn pid(&self, pane: &str) -> Option<u32> {
        if let Some(pids) = self.pids.borrow().as_ref() {
            return pids.get(pane).copied();
        }
        let text = self
            .tmux_ok(&[
                "display-message",
                "-p",
                "-t",
                pane,
                "#{pane_id} #{pane_pid} #{pane_dead}",
            ])
            .ok()?;
        let mut words = text.split_whitespace();
        // `-t %N` can fall back to another pane when %N is gone; insist on the exact id.
        if words.next() != Some(pane) {
            return None;
        }
        let pid = words.next()?.parse().ok()?;
        (words.next() != Some("1")).then_some(pid)
    }

    pub fn alive(&self, pane: &str) -> bool {
        self.pid(pane).is_some()
    }

    pub fn kill(&self, pane: &str) {
        let _ = self.tmux_ok(&["kill-pane", "-t", pane]);
    }

    /// Types `text`: each `\n`, `\r` or `\r\n` is one Enter key; the rest goes as literal key text.
    pub fn type_text(&self, pane: &str, text: &str) -> Result<(), String> {
        // A NUL cannot travel as a key through tmux; agterm before 0.25 would type it, a no-op at a shell.
        let text = text.replace('\0', "");
        for (segment, enter) in keystroke_segments(&text) {
            if !segment.is_empty() {
                self.tmux_ok(&["send-keys", "-t", pane, "-l", "--", segment])?;
            }
            if enter {
                self.tmux_ok(&["send-keys", "-t", pane, "Enter"])?;
            }
        }
        Ok(())
    }

    /// Runs tmux on this server; never panics (a failing tmux must not take the fake down).
    fn tmux_ok(&self, args: &[&str]) -> Result<String, String> {
        let out = std::process::Command::new("tmux")
            .arg("-S")
            .arg(self.tmux.socket())
            .arg("-f")
            .arg("/dev/null")
            .args(args)
            .env_remove("TMUX")
            .output()
            .map_err(|e| format!("cannot run tmux: {e}"))?;
        if out.status.success() {
            Ok(String::from_utf8_lossy(&out.stdout).to_string())
        } else {
            Err(format!(
                "tmux {}: {}",
                args[0],
                String::from_utf8_lossy(&out.stderr).trim()
            ))
        }
    }

    /// The pane's text, trailing blank rows trimmed.
    pub fn capture(&self, pane: &str, range: TextRange) -> Result<String, String> {
        let raw = match range {
            TextRange::Visible => self.tmux_ok(&["capture-pane", "-p", "-J", "-t", pane])?,
            _ => self.tmux_ok(&["capture-pane", "-p", "-J", "-S", "-", "-t", pane])?,
        };
        let mut lines: Vec<&str> = raw.lines().map(str::trim_end).collect();
        while lines.last().is_some_and(|l| l.is_empty()) {
            lines.pop();
        }
        if let TextRange::Lines(n) = range {
            let skip = lines.len().saturating_sub(n);
            lines.drain(..skip);
        }
        Ok(lines.join("\n"))
    }

    /// The live argv of the pane's foreground process group leader (agterm's `tree.foreground`):
    /// `None` at an idle shell, when the pane is gone, or when /proc cannot be read.
    /// `None` at the shell's prompt, and for a program agterm may not read: one running as another
    /// user (a setuid `sudo`, or anything started with `setpriv --reuid`), as `KERN_PROCARGS2` refuses.
    pub fn foreground(&self, pane: &str) -> Option<Vec<String>> {
        let pid = self.pid(pane)?;
        let tpgid = tty_foreground_group(pid)?;
        if !readable(tpgid) {
            return None;
        }
        let argv = read_cmdline(tpgid)?;
        foreground_argv(argv, Some(&self.shell))
    }

    /// The shell itself holds the pane's foreground (what `foregroundShell` reports).
    pub fn shell_in_front(&self, pane: &str) -> bool {
        let Some(tpgid) = self.pid(pane).and_then(tty_foreground_group) else {
            return false;
        };
        readable(tpgid)
            && read_cmdline(tpgid)
                .is_some_and(|argv| foreground_argv(argv, Some(&self.shell)).is_none())
    }

    /// The pid of the pane's foreground process group leader (the shell itself at a prompt).
    pub fn foreground_pid(&self, pane: &str) -> Option<u32> {
        tty_foreground_group(self.pid(pane)?)
    }

    /// The shell's cwd (what OSC 7 would report).
    pub fn cwd(&self, pane: &str) -> Option<String> {
        let pid = self.pid(pane)?;
        std::fs::read_link(format!("/proc/{pid}/cwd"))
            .ok()
            .map(|p| p.display().to_string())
    }

    /// Waits (up to `timeout`) until the pane shows the `$ ` prompt on its last line.
    pub fn wait_for_prompt(&self, pane: &str, timeout: Duration) -> bool {
        let start = Instant::now();
        while start.elapsed() < timeout {
            if let Ok(text) = self.capture(pane, TextRange::Visible) {
                if text
                    .lines()
                    .last()
                    .is_some_and(|l| l.trim_end().ends_with('$'))
                {
                    return true;
                }
            }
            std::thread::sleep(Duration::from_millis(30));
        }
        false
    }
}

/// `/proc/<pid>/stat` field 8 (`tpgid`), the tty's foreground process group.
fn tty_foreground_group(pid: u32) -> Option<u32> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let after_comm = &stat[stat.rfind(')')? + 1..];
    let tpgid: i64 = after_comm.split_whitespace().nth(5)?.parse().ok()?;
    (tpgid > 0).then_some(tpgid as u32)
}

/// The effective uid in `/proc/<pid>/status`.
fn effective_uid(pid: &str) -> Option<u32> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("Uid:"))?;
    line.split_whitespace().nth(2)?.parse().ok()
}

/// agterm reads the argv of its own user's processes only.
fn readable(pid: u32) -> bool {
    effective_uid(&pid.to_string()) == effective_uid("self")
}

fn read_cmdline(pid: u32) -> Option<Vec<String>> {
    let raw = std::fs::read(format!("/proc/{pid}/cmdline")).ok()?;
    let argv: Vec<String> = raw
        .split(|b| *b == 0)
        .filter(|w| !w.is_empty())
        .map(|w| String::from_utf8_lossy(w).into_owned())
        .collect();
    (!argv.is_empty()).then_some(argv)
}

/// agterm's `KeystrokeSegments.split`: text runs, each followed by whether a Return key follows it.
pub fn keystroke_segments(text: &str) -> Vec<(&str, bool)> {
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    let (mut start, mut i) = (0, 0);
    while i < bytes.len() {
        match bytes[i] {
            b'\r' | b'\n' => {
                out.push((&text[start..i], true));
                i += if bytes[i] == b'\r' && bytes.get(i + 1) == Some(&b'\n') {
                    2
                } else {
                    1
                };
                start = i;
            }
            _ => i += 1,
        }
    }
    if start < bytes.len() {
        out.push((&text[start..], false));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::keystroke_segments;
    use proptest::prelude::*;

    proptest! {
        /// Segments carry every non-line-break character in order, and one Return per `\n`, `\r` or
        /// `\r\n`: rebuilding with `\n` gives the text with its line breaks normalised.
        #[test]
        fn segments_rebuild_the_text(text in "[a-z \r\n'$é]{0,40}") {
            let rebuilt: String = keystroke_segments(&text)
                .into_iter()
                .map(|(seg, enter)| format!("{seg}{}", if enter { "\n" } else { "" }))
                .collect();
            prop_assert_eq!(rebuilt, text.replace("\r\n", "\n").replace('\r', "\n"));
            for (seg, _) in keystroke_segments(&text) {
                prop_assert!(!seg.contains(['\r', '\n']));
            }
        }
    }

    #[test]
    fn each_line_break_is_one_return() {
        assert_eq!(keystroke_segments("ls\n"), vec![("ls", true)]);
        assert_eq!(
            keystroke_segments("a\r\nb\rc\n\nd"),
            vec![
                ("a", true),
                ("b", true),
                ("c", true),
                ("", true),
                ("d", false)
            ]
        );
        assert_eq!(keystroke_segments(""), vec![]);
    }
}
