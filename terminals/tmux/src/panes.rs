//! Every pane of a server, as `list-panes -a` reports it, joined with its tty's foreground.

use crate::foreground::pane_foreground;
use crate::pane::TmuxPane;
use agterm_backup_core::process::ProcessSource;

/// The `list-panes -a -F` format [`parse_pane_line`] reads: the free-form fields last, split by the
/// unit separator (tmux prints it raw; no name a person types holds it).
pub const PANES_FORMAT: &str = "#{pane_id}\u{1f}#{pane_pid}\u{1f}#{pane_dead}\u{1f}#{window_index}\u{1f}#{pane_index}\u{1f}#{pane_current_path}\u{1f}#{session_name}";

/// The `display-message -p` format of [`parse_server_line`].
pub const SERVER_FORMAT: &str = "#{pid}\u{1f}#{start_time}\u{1f}#{version}";

/// One pane as the server shows it now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PaneNow {
    /// Its name (with `%N`, the server's pid and start time, and the pane's current path).
    pub name: TmuxPane,
    /// The pane's first process (the shell a layout restorer started).
    pub pane_pid: u32,
    /// The live foreground argv; `None` at an idle shell.
    pub foreground: Option<Vec<String>>,
    /// The pane's first process is still the server's fork, before it runs the pane's command: a pane
    /// a layout restorer has just made, whose foreground says nothing yet (it reads as the server).
    pub starting: bool,
}

/// The server as `display-message -p` reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerNow {
    pub pid: u32,
    /// Unix seconds.
    pub started: i64,
    pub version: String,
}

/// A pane line without its foreground: `(name, pane_pid, dead)`.
pub fn parse_pane_line(
    socket: &str,
    server: &ServerNow,
    line: &str,
) -> Option<(TmuxPane, u32, bool)> {
    let mut f = line.splitn(7, '\u{1f}');
    let pane_id = f.next()?.to_string();
    let pane_pid = f.next()?.parse().ok()?;
    let dead = f.next()? == "1";
    let window = f.next()?.parse().ok()?;
    let pane = f.next()?.parse().ok()?;
    let cwd = f.next()?.to_string();
    let session = f.next()?.to_string();
    let name = TmuxPane {
        socket: socket.to_string(),
        session,
        window,
        pane,
        pane_id: Some(pane_id),
        server_pid: Some(server.pid),
        server_started: Some(server.started),
        cwd: (!cwd.is_empty()).then_some(cwd),
    };
    Some((name, pane_pid, dead))
}

pub fn parse_server_line(line: &str) -> Option<ServerNow> {
    let mut f = line.trim_end_matches('\n').splitn(3, '\u{1f}');
    Some(ServerNow {
        pid: f.next()?.parse().ok()?,
        started: f.next()?.parse().ok()?,
        version: f.next()?.to_string(),
    })
}

/// Every live pane of `list_output`, each with its foreground (`tpgid` reads the tty's group).
pub fn panes_now(
    socket: &str,
    server: &ServerNow,
    list_output: &str,
    src: &dyn ProcessSource,
    tpgid: &dyn Fn(u32) -> Option<u32>,
) -> Vec<PaneNow> {
    list_output
        .lines()
        .filter_map(|l| parse_pane_line(socket, server, l))
        .filter(|(_, _, dead)| !dead)
        .map(|(name, pane_pid, _)| PaneNow {
            foreground: pane_foreground(src, pane_pid, tpgid(pane_pid)),
            starting: is_the_servers_fork(src, server.pid, pane_pid),
            name,
            pane_pid,
        })
        .collect()
}

/// Whether `pane_pid` is still the server's fork (its child with the server's own argv), not yet
/// the program it was forked to run.
fn is_the_servers_fork(src: &dyn ProcessSource, server_pid: u32, pane_pid: u32) -> bool {
    src.parent(pane_pid) == Some(server_pid)
        && src
            .argv(pane_pid)
            .is_some_and(|argv| Some(argv) == src.argv(server_pid))
}

#[cfg(test)]
mod tests {
    use super::*;
    use agterm_backup_core::process::FakeProcesses;

    #[test]
    fn lists_live_panes_with_their_foreground() {
        let server = parse_server_line("77\u{1f}1796126424\u{1f}3.3a\n").unwrap();
        assert_eq!((server.pid, server.version.as_str()), (77, "3.3a"));
        let out = "%0\u{1f}100\u{1f}0\u{1f}0\u{1f}0\u{1f}/w/a\u{1f}work\n\
                   %1\u{1f}200\u{1f}0\u{1f}0\u{1f}1\u{1f}/w/b\u{1f}work\n\
                   %2\u{1f}300\u{1f}1\u{1f}1\u{1f}0\u{1f}/w/c\u{1f}work\n\
                   garbage\n";
        let src = FakeProcesses::default()
            .with(100, 1, "-bash", "/w/a")
            .with(200, 1, "zsh", "/w/b")
            .with(210, 200, "codex resume x", "/w/b");
        let tpgid = |pid: u32| Some(if pid == 200 { 210 } else { pid });
        let panes = panes_now("/tmp/s", &server, out, &src, &tpgid);
        assert_eq!(
            panes.len(),
            2,
            "the dead pane and the junk line are left out"
        );
        assert_eq!(panes[0].foreground, None);
        assert_eq!(panes[0].name.target(), "work:0.0");
        assert_eq!(panes[1].foreground.as_ref().unwrap()[0], "codex");
        assert_eq!(panes[1].name.server_started, Some(1796126424));
        assert_eq!(panes[1].name.cwd.as_deref(), Some("/w/b"));
        assert!(panes.iter().all(|p| !p.starting));
    }

    #[test]
    fn a_pane_still_the_servers_fork_is_starting() {
        let server = parse_server_line("77\u{1f}1796126424\u{1f}3.3a\n").unwrap();
        let out = "%0\u{1f}100\u{1f}0\u{1f}0\u{1f}0\u{1f}/w/a\u{1f}work\n\
                   %1\u{1f}200\u{1f}0\u{1f}0\u{1f}1\u{1f}/w/b\u{1f}work\n\
                   %2\u{1f}300\u{1f}0\u{1f}0\u{1f}2\u{1f}/w/c\u{1f}work\n";
        let server_argv = "tmux -S /tmp/s new-session -d";
        let src = FakeProcesses::default()
            .with(77, 1, server_argv, "/")
            // Forked, not yet exec'd: the server's argv.
            .with(100, 77, server_argv, "/w/a")
            // Exec'd: the shell, or a wrapper such as `env … bash` (the pane's own command).
            .with(200, 77, "-bash", "/w/b")
            .with(300, 77, "/usr/bin/env PS1=x bash", "/w/c");
        let tpgid = |pid: u32| Some(pid);
        let panes = panes_now("/tmp/s", &server, out, &src, &tpgid);
        let starting: Vec<bool> = panes.iter().map(|p| p.starting).collect();
        assert_eq!(starting, [true, false, false]);
    }
}
