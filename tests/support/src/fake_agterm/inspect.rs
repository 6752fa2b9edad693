//! Reading a fake agterm from the test side: its state file, its logs, and its panes straight from tmux
//! and /proc (these work while the fake is stopped too, except where a pane must be running).

use super::handle::{wait_until, FakeAgterm};
use super::model::{FakeState, LaunchEntry};
use super::panes::{PaneHost, TextRange};
use super::session_cmds::TYPED_LOG;
use agterm_backup_core::pane::PaneRole;
use serde::Deserialize;
use std::collections::HashMap;
use std::time::Duration;

/// One `session.type` request the fake received.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Typed {
    pub session: String,
    pub pane: PaneRole,
    pub text: String,
}

impl FakeAgterm {
    /// The persisted state (`fake-state.json`), as of the fake's last change.
    pub fn state(&self) -> FakeState {
        FakeState::load(self.dir.path()).expect("fake state")
    }

    /// Edits the state file; only while stopped (agterm's files must not be edited while it runs).
    pub fn edit_state(&self, edit: impl FnOnce(&mut FakeState)) {
        assert!(
            self.child.is_none(),
            "stop the fake before editing its state"
        );
        let mut state = self.state();
        edit(&mut state);
        state.save(self.dir.path()).expect("save state");
    }

    /// The tmux pane (`%N`) running the pane now.
    pub fn pane_tmux_id(&self, session: &str, role: PaneRole) -> String {
        self.state()
            .session(session)
            .and_then(|s| s.pane(role).and_then(|p| p.tmux_pane.clone()))
            .unwrap_or_else(|| panic!("no running {role} pane in session {session}"))
    }

    /// The `AGTERM_PANE_ID` of the pane's current shell.
    pub fn pane_token(&self, session: &str, role: PaneRole) -> String {
        let state = self.state();
        let pane = state
            .session(session)
            .and_then(|s| s.pane(role))
            .expect("pane exists");
        pane.token.clone()
    }

    /// Every pane's pin: `(session, role, None | Some("") | Some(line))`.
    pub fn pins(&self) -> Vec<(String, PaneRole, Option<String>)> {
        let state = self.state();
        let mut out = Vec::new();
        for (_, _, s) in state.sessions() {
            out.push((s.id.clone(), PaneRole::Left, s.restore_command.clone()));
            if s.right.is_some() {
                out.push((
                    s.id.clone(),
                    PaneRole::Right,
                    s.split_restore_command.clone(),
                ));
            }
        }
        out
    }

    pub fn pin(&self, session: &str, role: PaneRole) -> Option<String> {
        self.state()
            .session(session)
            .and_then(|s| s.pin(role).clone())
    }

    /// Every `session.type` request received, across restarts.
    pub fn typed_log(&self) -> Vec<Typed> {
        std::fs::read_to_string(self.dir.path().join(TYPED_LOG))
            .unwrap_or_default()
            .lines()
            .map(|l| serde_json::from_str(l).expect("typed log line"))
            .collect()
    }

    /// What the last launch did to each pane (`pin`, `replay`, `denied`, `shell`, `reattach`).
    pub fn launch_log(&self) -> Vec<LaunchEntry> {
        self.state().last_launch
    }

    fn host(&self) -> PaneHost {
        PaneHost::new(self.tmux.socket(), &self.shell)
    }

    /// The pane's screen with its scrollback (trailing blank rows trimmed), read straight from tmux.
    pub fn screen(&self, session: &str, role: PaneRole) -> String {
        self.host()
            .capture(&self.pane_tmux_id(session, role), TextRange::All)
            .expect("capture pane")
    }

    /// The pane's foreground argv as `tree.foreground` reports it (`None` at an idle shell).
    pub fn foreground(&self, session: &str, role: PaneRole) -> Option<Vec<String>> {
        self.host().foreground(&self.pane_tmux_id(session, role))
    }

    /// The pid of the pane's foreground process group leader (the shell's own pid at a prompt): tells
    /// a process that survived a restart from a new one.
    pub fn foreground_pid(&self, session: &str, role: PaneRole) -> Option<u32> {
        self.host()
            .foreground_pid(&self.pane_tmux_id(session, role))
    }

    /// The last launch's action for each pane of `session`, in pane order.
    pub fn launch_actions(&self, session: &str) -> Vec<(PaneRole, String)> {
        self.launch_log()
            .into_iter()
            .filter(|e| e.session == session)
            .map(|e| (e.pane, e.action))
            .collect()
    }

    /// The environment of the pane's shell (from /proc), once the pane's process is the shell: tmux
    /// forks (its own environment), execs `env` (tmux's environment plus its own), and only `env`'s exec
    /// of the shell carries the pane's variables; a pane just (re)spawned can still be at either step.
    pub fn pane_env(&self, session: &str, role: PaneRole) -> HashMap<String, String> {
        let pid = self
            .host()
            .pid(&self.pane_tmux_id(session, role))
            .expect("pane runs");
        let mut comm = String::new();
        let execed = wait_until(Duration::from_secs(30), || {
            comm = std::fs::read_to_string(format!("/proc/{pid}/comm")).unwrap_or_default();
            is_past_the_spawn(comm.trim())
        });
        assert!(execed, "pane {pid} never ran its shell (still {comm:?})");
        let raw = std::fs::read(format!("/proc/{pid}/environ")).expect("read environ");
        raw.split(|b| *b == 0)
            .filter_map(|kv| {
                let kv = String::from_utf8_lossy(kv);
                kv.split_once('=')
                    .map(|(k, v)| (k.to_string(), v.to_string()))
            })
            .collect()
    }

    /// Types literally into the pane through tmux (not logged; `session.type` is the agterm way).
    pub fn send_keys(&self, session: &str, role: PaneRole, text: &str) {
        self.host()
            .type_text(&self.pane_tmux_id(session, role), text)
            .expect("send keys");
    }

    pub fn wait_for_prompt(&self, session: &str, role: PaneRole) {
        let pane = self.pane_tmux_id(session, role);
        assert!(
            self.host().wait_for_prompt(&pane, Duration::from_secs(10)),
            "no `$ ` prompt in {session} {role}:\n{}",
            self.screen(session, role)
        );
    }

    /// Waits until the pane's screen (with scrollback) contains `needle`; returns the screen.
    pub fn wait_for_screen(
        &self,
        session: &str,
        role: PaneRole,
        needle: &str,
        timeout: Duration,
    ) -> String {
        let mut last = String::new();
        let found = wait_until(timeout, || {
            last = self.screen(session, role);
            last.contains(needle)
        });
        assert!(
            found,
            "{needle:?} never appeared in {session} {role}; screen:\n{last}"
        );
        last
    }

    /// Waits until `check` accepts the pane's foreground; returns it.
    pub fn wait_for_foreground(
        &self,
        session: &str,
        role: PaneRole,
        timeout: Duration,
        check: impl Fn(&Option<Vec<String>>) -> bool,
    ) -> Option<Vec<String>> {
        let mut last = None;
        let found = wait_until(timeout, || {
            last = self.foreground(session, role);
            check(&last)
        });
        assert!(found, "foreground of {session} {role} stayed {last:?}");
        last
    }
}

/// Whether a pane process named `comm` (/proc's name of its program) is past tmux's fork and the `env`
/// that sets the pane's variables.
fn is_past_the_spawn(comm: &str) -> bool {
    !comm.is_empty() && comm != "env" && !comm.starts_with("tmux")
}

#[cfg(test)]
mod tests {
    use super::is_past_the_spawn;

    #[test]
    fn a_pane_is_its_shell_only_after_tmux_and_env() {
        for early in ["", "tmux: server", "tmux", "env"] {
            assert!(!is_past_the_spawn(early), "{early:?}");
        }
        for shell in ["bash", "zsh", "fish", "sh", "dash"] {
            assert!(is_past_the_spawn(shell), "{shell}");
        }
    }
}
