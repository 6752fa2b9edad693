//! The fake's persisted model: windows → workspaces → sessions → panes, settings, and what agterm
//! captured at quit. Serialized as one JSON file (`<state-dir>/fake-state.json`) so tests can read it,
//! or edit it while the fake is stopped.

use agterm_backup_core::pane::PaneRole;
use agterm_backup_core::terminal::RestoreMode;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The state file's name inside the state dir.
pub const STATE_FILE: &str = "fake-state.json";

/// An agterm version as `major.minor.patch`; presets are `0.15`, `0.16`, `0.24`, `0.26`, `0.34`, `0.44`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Version(pub u32, pub u32, pub u32);

impl Version {
    /// Parses `0.26`, `0.26.0` or `v0.26.0`.
    pub fn parse(text: &str) -> Result<Version, String> {
        let parts: Vec<&str> = text.trim_start_matches('v').split('.').collect();
        let num = |i: usize| -> Result<u32, String> {
            match parts.get(i) {
                None => Ok(0),
                Some(p) => p
                    .parse()
                    .map_err(|_| format!("bad agterm version {text:?} (want e.g. 0.26.0)")),
            }
        };
        if parts.is_empty() || parts.len() > 3 {
            return Err(format!("bad agterm version {text:?} (want e.g. 0.26.0)"));
        }
        Ok(Version(num(0)?, num(1)?, num(2)?))
    }

    pub fn at_least(self, major: u32, minor: u32, patch: u32) -> bool {
        self >= Version(major, minor, patch)
    }

    /// `session.restore` exists (v0.16.0).
    pub fn has_pins(self) -> bool {
        self.at_least(0, 16, 0)
    }
    /// `version` command and `tree.app` (v0.25.0); also NUL refusal in `session.type`.
    pub fn has_version_cmd(self) -> bool {
        self.at_least(0, 25, 0)
    }
    /// Live mode, `restore.mode`, `zmx.list`, persistent pane ids, `result.pane` (v0.26.0).
    pub fn has_live(self) -> bool {
        self.at_least(0, 26, 0)
    }
    /// `session.restart` (post-0.34 source only).
    pub fn has_restart(self) -> bool {
        self > Version(0, 34, 0)
    }
    /// `tree.realized` (v0.23.0).
    pub fn has_realized(self) -> bool {
        self.at_least(0, 23, 0)
    }
    /// `splitCwd` in `tree` (v0.28.0).
    pub fn has_split_cwd(self) -> bool {
        self.at_least(0, 28, 0)
    }
    /// Pane aliases (`primary`, `split`, …) parsed by the server (v0.26.2).
    pub fn has_pane_aliases(self) -> bool {
        self.at_least(0, 26, 2)
    }
    /// `surfaces[].paneID` (post-0.34 source only).
    pub fn has_surface_pane_ids(self) -> bool {
        self > Version(0, 34, 0)
    }
    /// `remote: true` on a remote session's node beside `remoteHost` (0.38 says it of remote pages;
    /// unverified for sessions, so the client reads either).
    pub fn has_remote_flag(self) -> bool {
        self.at_least(0, 38, 0)
    }
    /// `scratchCwd` in `tree` (v0.42.1).
    pub fn has_scratch_cwd(self) -> bool {
        self.at_least(0, 42, 1)
    }
    /// Companion sessions (`parentID` on the companion's node; 0.43 names them in its notes).
    pub fn has_companions(self) -> bool {
        self.at_least(0, 43, 0)
    }
    /// Top-level sessions outside any workspace: a `root: true` workspace node (v0.44.0).
    pub fn has_root_sessions(self) -> bool {
        self.at_least(0, 44, 0)
    }
}

/// How `tree` lays out shapes the notes could not verify (a test picks one; the client reads both).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shapes {
    /// Top-level sessions as `tree.sessions` beside the workspaces, not as a `root: true` node.
    #[serde(default)]
    pub root_top_level: bool,
    /// Companions nested in their lead's node as `companions: […]`, not flat with `parentID`.
    #[serde(default)]
    pub companions_nested: bool,
}

impl std::fmt::Display for Version {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}.{}", self.0, self.1, self.2)
    }
}

/// The whole persisted state of one fake agterm.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct FakeState {
    /// `settings.json` `restoreMode`: the mode configured for the next launch.
    pub restore_mode: Option<RestoreMode>,
    /// Frontmost window id.
    pub frontmost: Option<String>,
    pub windows: Vec<Window>,
    /// Extra environment put on every pane (e.g. HOME, PATH, AGTERM_BACKUP_HOME).
    #[serde(default)]
    pub pane_env: Vec<(String, String)>,
    /// The shell every pane runs (`bash` by default), started as a login shell.
    #[serde(default)]
    pub shell: Option<String>,
    /// What the last launch did to each pane (for tests to assert on).
    #[serde(default)]
    pub last_launch: Vec<LaunchEntry>,
    /// How many times this state dir has been launched.
    #[serde(default)]
    pub launches: u32,
    /// The layout of the unverified 0.44 shapes.
    #[serde(default)]
    pub shapes: Shapes,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Window {
    pub id: String,
    pub name: String,
    pub open: bool,
    pub workspaces: Vec<Workspace>,
    /// The window's selected session (target `active`).
    pub selected: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Workspace {
    pub id: String,
    pub name: String,
    pub sessions: Vec<Session>,
    /// The group of top-level sessions outside any workspace (0.44).
    #[serde(default)]
    pub root: bool,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Session {
    /// Upper-case UUID, equal to `AGTERM_SESSION_ID`.
    pub id: String,
    pub name: String,
    pub flagged: bool,
    pub left: Pane,
    /// The split pane, when one exists (`hasSplit`).
    pub right: Option<Pane>,
    /// The split is shown (`split`); hidden splits are neither captured nor rebuilt.
    pub split_visible: bool,
    /// Pins: `None` = no pin, `Some("")` = plain shell, `Some(line)`.
    pub restore_command: Option<String>,
    pub split_restore_command: Option<String>,
    /// argv captured at the last clean quit (consumed by the next launch).
    pub foreground_command: Option<Vec<String>>,
    pub split_foreground_command: Option<Vec<String>>,
    /// A remote session: the host its panes live on (`remoteHost`; its shells run locally here).
    #[serde(default)]
    pub remote_host: Option<String>,
    /// A companion's lead session (`parentID`).
    #[serde(default)]
    pub parent: Option<String>,
    /// The scratch shell's directory (`scratchCwd`, 0.42.1+); scratch itself is not modelled.
    #[serde(default)]
    pub scratch_cwd: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Pane {
    /// Persistent pane identity (`Session.paneIdentity`), upper-case UUID; `AGTERM_PANE_ID` from 0.26.
    pub identity: String,
    /// The `AGTERM_PANE_ID` the running shell got (the identity from 0.26, a fresh UUID per spawn before).
    pub token: String,
    /// The pane's initial cwd (the shell's live cwd is read from /proc while it runs).
    pub cwd: String,
    /// The tmux pane (`%N`) backing this pane, while it runs.
    pub tmux_pane: Option<String>,
    /// Spawned under Live mode (a zmx daemon in real agterm; survives a clean quit).
    #[serde(default)]
    pub live: bool,
    /// Test knob: report the pane as not realized.
    #[serde(default)]
    pub unrealized: bool,
}

/// What a launch did to one pane.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LaunchEntry {
    pub session: String,
    pub pane: PaneRole,
    /// `pin`, `replay`, `denied` (capture refused by the denylist), `shell`, `reattach`.
    pub action: String,
    /// The line typed into the fresh shell, if any (without the final newline).
    pub typed: Option<String>,
}

impl FakeState {
    pub fn load(dir: &Path) -> Result<FakeState, String> {
        let path = dir.join(STATE_FILE);
        match std::fs::read_to_string(&path) {
            Ok(text) => serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display())),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(FakeState::default()),
            Err(e) => Err(format!("{}: {e}", path.display())),
        }
    }

    /// Writes the state atomically (temp file + rename), pretty-printed like agterm's own files.
    pub fn save(&self, dir: &Path) -> Result<(), String> {
        let path = dir.join(STATE_FILE);
        let tmp = dir.join(format!("{STATE_FILE}.tmp"));
        let text = serde_json::to_string_pretty(self).expect("state serializes");
        std::fs::write(&tmp, text).map_err(|e| format!("{}: {e}", tmp.display()))?;
        std::fs::rename(&tmp, &path).map_err(|e| format!("{}: {e}", path.display()))
    }

    pub fn sessions(&self) -> impl Iterator<Item = (&Window, &Workspace, &Session)> {
        self.windows.iter().flat_map(|w| {
            w.workspaces
                .iter()
                .flat_map(move |ws| ws.sessions.iter().map(move |s| (w, ws, s)))
        })
    }

    pub fn session_mut(&mut self, id: &str) -> Option<&mut Session> {
        self.windows
            .iter_mut()
            .flat_map(|w| w.workspaces.iter_mut())
            .flat_map(|ws| ws.sessions.iter_mut())
            .find(|s| s.id == id)
    }

    pub fn session(&self, id: &str) -> Option<&Session> {
        self.sessions().map(|(_, _, s)| s).find(|s| s.id == id)
    }
}

impl Session {
    pub fn pane(&self, role: PaneRole) -> Option<&Pane> {
        match role {
            PaneRole::Left => Some(&self.left),
            PaneRole::Right => self.right.as_ref(),
        }
    }

    pub fn pane_mut(&mut self, role: PaneRole) -> Option<&mut Pane> {
        match role {
            PaneRole::Left => Some(&mut self.left),
            PaneRole::Right => self.right.as_mut(),
        }
    }

    pub fn pin(&self, role: PaneRole) -> &Option<String> {
        match role {
            PaneRole::Left => &self.restore_command,
            PaneRole::Right => &self.split_restore_command,
        }
    }

    pub fn pin_mut(&mut self, role: PaneRole) -> &mut Option<String> {
        match role {
            PaneRole::Left => &mut self.restore_command,
            PaneRole::Right => &mut self.split_restore_command,
        }
    }

    pub fn capture_mut(&mut self, role: PaneRole) -> &mut Option<Vec<String>> {
        match role {
            PaneRole::Left => &mut self.foreground_command,
            PaneRole::Right => &mut self.split_foreground_command,
        }
    }

    /// The panes that exist and are shown (a hidden split is neither captured nor rebuilt).
    pub fn shown_roles(&self) -> Vec<PaneRole> {
        let mut roles = vec![PaneRole::Left];
        if self.right.is_some() && self.split_visible {
            roles.push(PaneRole::Right);
        }
        roles
    }
}

/// A new upper-case UUID, as agterm's `UUID().uuidString`.
pub fn new_uuid() -> String {
    uuid::Uuid::new_v4().to_string().to_uppercase()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_parse_and_gate() {
        assert_eq!(Version::parse("0.26").unwrap(), Version(0, 26, 0));
        assert_eq!(Version::parse("v0.34.1").unwrap(), Version(0, 34, 1));
        assert!(Version::parse("x.1").is_err());
        assert!(!Version::parse("0.15").unwrap().has_pins());
        assert!(Version::parse("0.16").unwrap().has_pins());
        assert!(!Version::parse("0.24").unwrap().has_version_cmd());
        assert!(Version::parse("0.25").unwrap().has_version_cmd());
        assert!(!Version::parse("0.34").unwrap().has_surface_pane_ids());
        assert!(Version::parse("0.35").unwrap().has_surface_pane_ids());
        assert!(!Version::parse("0.43").unwrap().has_root_sessions());
        assert!(Version::parse("0.44").unwrap().has_root_sessions());
        assert!(Version::parse("0.42.1").unwrap().has_scratch_cwd());
        assert!(!Version::parse("0.42").unwrap().has_scratch_cwd());
        assert_eq!(Version::parse("0.26").unwrap().to_string(), "0.26.0");
    }
}
