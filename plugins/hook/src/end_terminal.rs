//! At `SessionEnd` only: does the agent still have its controlling terminal? An agent exiting because
//! its pty hung up (the pane closed, the terminal quit, a reboot took the daemon) has lost it — the
//! kernel's hangup detaches the terminal from the agent's session before the agent's exit handlers run
//! its hooks — while one the user quit still sits in its pane. The agent's own process is asked (its
//! hooks may run detached from any terminal, as Claude Code's do): on Linux one read of
//! `/proc/<pid>/stat` (`tty_nr`), elsewhere one `ps -o tty=` (the hook's budget is about a process start,
//! and this runs on SessionEnd only).

use agterm_backup_core::record::{EndTerminal, LiveRecord};

/// A second `SessionEnd` of a conversation the user already quit in this pane keeps that quit: an agent
/// still exiting when its pane hangs up moments later may report its end again (Gemini CLI from its
/// signal handler), now without a terminal, and that cannot turn a quit conversation into one that died
/// under its user. Returns whether `record` took the earlier end (reason and terminal).
pub fn keep_the_users_quit(previous: Option<&LiveRecord>, record: &mut LiveRecord) -> bool {
    let Some(p) = previous.filter(|p| {
        p.agent == record.agent
            && p.session_id == record.session_id
            && p.end_reason().is_some()
            && p.end_terminal() == Some(EndTerminal::Present)
    }) else {
        return false;
    };
    record.set_end_reason(p.end_reason());
    record.set_end_terminal(Some(EndTerminal::Present));
    true
}

/// Whether this `SessionEnd` is `agterm-backup restart` quitting the agent to resume it: the pane's
/// restart marker names this very conversation and is fresh (`core::restarting::restart_holds`).
pub fn restart_quit(
    state: &agterm_backup_core::state::StateDir,
    key: &agterm_backup_core::pane::PaneKey,
    record: &LiveRecord,
    previous: Option<&LiveRecord>,
) -> bool {
    use agterm_backup_core::restarting::{read, restart_holds};
    let marker = read(state, key);
    restart_holds(
        marker.as_ref(),
        &record.agent,
        &record.session_id,
        chrono::Utc::now(),
        previous.and_then(LiveRecord::written_at),
    )
}

/// The terminal of process `pid` (the agent), `None` when it cannot be read (the process is gone).
#[cfg(target_os = "linux")]
pub fn probe(pid: u32) -> Option<EndTerminal> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    from_stat(&stat)
}

/// The terminal of process `pid` (the agent), `None` when it cannot be read (the process is gone).
#[cfg(not(target_os = "linux"))]
pub fn probe(pid: u32) -> Option<EndTerminal> {
    let out = std::process::Command::new("ps")
        .args(["-o", "tty=", "-p", &pid.to_string()])
        .output()
        .ok()?;
    from_ps_tty(&String::from_utf8_lossy(&out.stdout))
}

/// Field 7 of `/proc/<pid>/stat` (`tty_nr`): 0 when the process has no controlling terminal.
pub fn from_stat(stat: &str) -> Option<EndTerminal> {
    Some(match agterm_backup_core::pane::tty::raw_tty_nr(stat)? {
        0 => EndTerminal::Gone,
        _ => EndTerminal::Present,
    })
}

/// `ps -o tty=`: `??` (or `-`) when the process has no controlling terminal; empty when it is gone.
pub fn from_ps_tty(out: &str) -> Option<EndTerminal> {
    match out.trim() {
        "" => None,
        "??" | "?" | "-" => Some(EndTerminal::Gone),
        _ => Some(EndTerminal::Present),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ended(id: &str, reason: &str, terminal: Option<EndTerminal>) -> LiveRecord {
        let mut r: LiveRecord = serde_json::from_value(serde_json::json!({
            "v": 1, "agent": "gemini", "session_id": id, "agterm_session": "S", "role": "left",
            "agent_cwd": "/w", "hook_cwd": "/w", "flags": [], "event": "SessionEnd",
            "ts": "2026-12-02T10:00:00Z", "terminal": "agterm"
        }))
        .unwrap();
        r.set_end_reason(Some(reason));
        r.set_end_terminal(terminal);
        r
    }

    #[test]
    fn a_second_end_of_a_quit_conversation_keeps_the_quit() {
        let quit = ended("a", "exit", Some(EndTerminal::Present));
        let mut again = ended("a", "other", None);
        assert!(keep_the_users_quit(Some(&quit), &mut again));
        assert_eq!(again.end_terminal(), Some(EndTerminal::Present));
        assert_eq!(again.end_reason(), Some("exit"));
        // Another conversation, a first end, or an earlier end that was no quit: the probe decides.
        for previous in [
            ended("b", "exit", Some(EndTerminal::Present)),
            ended("a", "exit", Some(EndTerminal::Gone)),
        ] {
            let mut end = ended("a", "exit", None);
            assert!(!keep_the_users_quit(Some(&previous), &mut end));
        }
        assert!(!keep_the_users_quit(None, &mut ended("a", "exit", None)));
    }

    #[test]
    fn a_zero_tty_nr_is_a_terminal_gone() {
        let with = "4242 (node (claude)) S 4200 4242 4200 34817 4242 4194560 1 0";
        let without = "4242 (node (claude)) S 4200 4242 4200 0 -1 4194560 1 0";
        assert_eq!(from_stat(with), Some(EndTerminal::Present));
        assert_eq!(from_stat(without), Some(EndTerminal::Gone));
        assert_eq!(from_stat("garbage"), None);
        assert_eq!(from_ps_tty("ttys003\n"), Some(EndTerminal::Present));
        assert_eq!(from_ps_tty("??\n"), Some(EndTerminal::Gone));
        assert_eq!(from_ps_tty(""), None);
    }

    /// This test process: a controlling terminal or none, as `/dev/tty` says.
    #[cfg(target_os = "linux")]
    #[test]
    fn the_probe_agrees_with_dev_tty_for_this_process() {
        let has_tty = std::fs::OpenOptions::new()
            .read(true)
            .open("/dev/tty")
            .is_ok();
        let want = if has_tty {
            EndTerminal::Present
        } else {
            EndTerminal::Gone
        };
        assert_eq!(probe(std::process::id()), Some(want));
    }
}
