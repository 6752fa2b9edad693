//! What runs in the foreground of a multiplexer's pane: the leader of its tty's foreground
//! process group.
//!
//! `pane_current_command` is only a name (`node` for Claude Code, the shell while a script's child runs);
//! the tty's foreground process group is what the terminal itself types into. A pane sits at an idle
//! shell when that group is the pane's own shell.

use super::ProcessSource;

/// Shells a pane's first process may be (a login shell's argv\[0] starts with `-`).
const SHELLS: &[&str] = &[
    "sh", "bash", "zsh", "fish", "dash", "ksh", "mksh", "tcsh", "csh", "nu",
];

/// The foreground of a pane whose first process is `pane_pid`: `None` at an idle shell, else the argv
/// of the foreground group's leader (`["pid N"]` when it cannot be read).
pub fn pane_foreground(
    src: &dyn ProcessSource,
    pane_pid: u32,
    tpgid: Option<u32>,
) -> Option<Vec<String>> {
    let group = tpgid.unwrap_or(pane_pid);
    let argv = src.argv(group);
    if group == pane_pid && argv.as_deref().is_some_and(is_shell) {
        return None;
    }
    Some(argv.unwrap_or_else(|| vec![format!("pid {group}")]))
}

fn is_shell(argv: &[String]) -> bool {
    argv.first().is_some_and(|a0| {
        let name = a0.rsplit('/').next().unwrap_or(a0);
        SHELLS.contains(&name.trim_start_matches('-'))
    })
}

/// The foreground process group of `pid`'s controlling tty (`tpgid`).
#[cfg(target_os = "linux")]
pub fn tty_foreground_group(pid: u32) -> Option<u32> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    parse_tpgid(&stat)
}

/// The foreground process group of `pid`'s controlling tty (`ps -o tpgid=`).
#[cfg(not(target_os = "linux"))]
pub fn tty_foreground_group(pid: u32) -> Option<u32> {
    let out = std::process::Command::new("ps")
        .args(["-o", "tpgid=", "-p", &pid.to_string()])
        .output()
        .ok()?;
    let n: i64 = String::from_utf8_lossy(&out.stdout).trim().parse().ok()?;
    (n > 0).then_some(n as u32)
}

/// Field 8 of `/proc/<pid>/stat`; the command name in parentheses may hold spaces and `)`.
pub fn parse_tpgid(stat: &str) -> Option<u32> {
    let after_comm = &stat[stat.rfind(')')? + 1..];
    let tpgid: i64 = after_comm.split_whitespace().nth(5)?.parse().ok()?;
    (tpgid > 0).then_some(tpgid as u32)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::process::FakeProcesses;

    fn procs() -> FakeProcesses {
        FakeProcesses::default()
            .with(100, 1, "-zsh", "/w")
            .with(200, 100, "node /usr/lib/claude --model x", "/w")
            .with(300, 1, "vim a", "/w")
    }

    #[test]
    fn idle_shell_busy_agent_and_a_pane_that_is_not_a_shell() {
        let p = procs();
        assert_eq!(pane_foreground(&p, 100, Some(100)), None);
        assert_eq!(
            pane_foreground(&p, 100, Some(200)).unwrap()[1],
            "/usr/lib/claude"
        );
        // A window opened with a program (`new-window 'vim a'`): the pane's own process is the program.
        assert_eq!(pane_foreground(&p, 300, Some(300)).unwrap()[0], "vim");
        assert_eq!(pane_foreground(&p, 100, Some(999)).unwrap(), ["pid 999"]);
    }

    #[test]
    fn tpgid_from_stat_with_odd_names() {
        let stat = "4242 (we) ird) S 1 4242 4242 34817 4300 4194560 0 0";
        assert_eq!(parse_tpgid(stat), Some(4300));
        assert_eq!(parse_tpgid("1 (x) S 0 1 1 0 -1 0"), None);
    }
}
