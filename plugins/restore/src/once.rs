//! Once per launch: the marker that says a conversation (and a pane) was already brought back since the
//! terminal's launch, so that a shell's start-up trigger (`shell-start`), a second shell in the same
//! pane, a split, and `restore` (by hand or from a layout restorer's hook) never resume it twice.
//!
//! Layout, in the state directory:
//!
//! ```text
//! resumed/<LAUNCH>/conversation.<agent>.<id>   one per conversation brought back in this launch
//! resumed/<LAUNCH>/pane.<PANE-KEY>             one per pane that got a conversation in this launch
//! resumed/<LAUNCH>/.lock                       flock: both markers of a claim are taken together
//! ```
//!
//! `<LAUNCH>` names the terminal instance and its launch ([`LaunchId`]): `<terminal>-<unix launch>` for a
//! terminal that runs as one instance, `<terminal>-<hash of its place>-<unix launch>` for one of many
//! (its place: a server's socket, a socket directory). What a terminal's launch is (a process's start, a
//! server's, the machine's boot) its crate says where it reports it (its `Terminal::info`). A claim
//! takes both files with `O_EXCL` under the folder's lock: all or nothing, and
//! only one claimant ever wins. Each file holds one JSON line (who claimed, when). A new launch of the
//! same terminal removes the folders of its earlier launches.
//!
//! The plan reads the markers ([`Resumed`]; row 9b of [`crate::plan`]); `restore` and `shell-start`
//! take them right before typing or printing ([`Claim::take`]). `restore --dry-run` takes none.

use crate::captured::CapturedPane;
use crate::skip::SkipReason;
use agterm_backup_core::pane::PaneKey;
use agterm_backup_core::record::LiveRecord;
use agterm_backup_core::state::{guard, StateDir};
use agterm_backup_core::terminal::TerminalInfo;
use chrono::{DateTime, Utc};
use std::collections::BTreeSet;
use std::fs;
use std::io::{self, Write};
use std::os::fd::AsRawFd;
use std::path::PathBuf;
use std::time::Duration;

/// What asks for the plan: `restore` (typing into every pane), or one shell at its first prompt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Trigger {
    Restore,
    /// `shell-start`: the plan is read for the asking shell's own pane, and it stands aside whenever
    /// anyone else may bring the conversation back (a pin the terminal types, a run in this launch).
    ShellStart,
}

impl Trigger {
    pub fn word(self) -> &'static str {
        match self {
            Trigger::Restore => "restore",
            Trigger::ShellStart => "shell-start",
        }
    }
}

/// One launch of one terminal, as a folder name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LaunchId {
    /// The terminal part: `<terminal>`, or `<terminal>-<hash of its place>` (shared by every launch of
    /// the same instance).
    terminal: String,
    name: String,
}

impl LaunchId {
    /// The launch of the terminal instance `terminal` (a registry scope) that started at `launched_at`:
    /// `<terminal>-<secs>`, or `<terminal>-<hash of its place>-<secs>` for a terminal of many instances,
    /// any terminal of the registry alike. `None` without a launch time.
    pub fn new(terminal: &TerminalTag, launched_at: Option<DateTime<Utc>>) -> Option<LaunchId> {
        Self::named(terminal, launched_at?.timestamp())
    }

    /// The launch of `terminal` as its `info` names it: every process that asks gets the same name,
    /// so one launch never prunes its own markers.
    pub fn of(terminal: &TerminalTag, info: &TerminalInfo) -> Option<LaunchId> {
        Self::named(terminal, info.launch_secs()?)
    }

    fn named(terminal: &TerminalTag, at: i64) -> Option<LaunchId> {
        let terminal = match terminal.place() {
            None => terminal.kind().to_string(),
            Some(place) => format!("{}-{:016x}", terminal.kind(), fnv1a(place.as_bytes())),
        };
        Some(LaunchId {
            name: format!("{terminal}-{at}"),
            terminal,
        })
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    fn dir(&self, state: &StateDir) -> PathBuf {
        state.root().join("resumed").join(&self.name)
    }
}

/// Which terminal instance a launch belongs to: the registry's scope.
pub use agterm_backup_terminals::Scope as TerminalTag;

/// FNV-1a, 64 bits: a stable short name for a socket path (any bytes, any length).
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The markers of one launch, as read for planning.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Resumed {
    /// `(agent, conversation id)`.
    pub conversations: BTreeSet<(String, String)>,
    pub panes: BTreeSet<PaneKey>,
}

impl Resumed {
    /// Reads the markers of `launch` (none: nothing resumed yet).
    pub fn read(state: &StateDir, launch: &LaunchId) -> Resumed {
        let mut out = Resumed::default();
        for entry in fs::read_dir(launch.dir(state))
            .into_iter()
            .flatten()
            .flatten()
        {
            let name = entry.file_name().to_string_lossy().into_owned();
            if let Some(rest) = name.strip_prefix("conversation.") {
                if let Some((agent, id)) = rest.split_once('.') {
                    out.conversations
                        .insert((agent.to_string(), id.to_string()));
                }
            } else if let Some(key) = name
                .strip_prefix("pane.")
                .and_then(agterm_backup_terminals::parse_key)
            {
                out.panes.insert(key);
            }
        }
        out
    }

    /// Whether `rec`'s conversation or the pane `key` already got its resume in this launch.
    pub fn holds(&self, rec: &LiveRecord, key: &PaneKey) -> bool {
        self.conversations
            .contains(&(rec.agent.clone(), rec.session_id.clone()))
            || self.panes.contains(key)
    }
}

/// What the plan knows about this launch beyond its cutoff: who asks, and what came back already.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ThisLaunch {
    pub trigger: Trigger,
    /// `None`: the terminal's launch time is unknown, so no marker can be read or taken.
    pub id: Option<LaunchId>,
    pub resumed: Resumed,
}

impl ThisLaunch {
    /// Reads the markers of the launch `id`.
    pub fn read(state: &StateDir, trigger: Trigger, id: Option<LaunchId>) -> ThisLaunch {
        let resumed = id
            .as_ref()
            .map(|id| Resumed::read(state, id))
            .unwrap_or_default();
        ThisLaunch {
            trigger,
            id,
            resumed,
        }
    }
}

impl ThisLaunch {
    /// Row 9b of the plan: the conversation (or the pane `key`) already got its resume in this launch —
    /// a marker says so, or, for a shell start, a record naming the conversation was written since `cut`.
    pub fn resumed_reason(
        &self,
        captured: &[CapturedPane],
        cut: Option<DateTime<Utc>>,
        key: &PaneKey,
        rec: &LiveRecord,
    ) -> Option<SkipReason> {
        if self.resumed.holds(rec, key) {
            return Some(SkipReason::Resumed {
                why: "a marker of this launch says so".into(),
            });
        }
        let records = captured
            .iter()
            .flat_map(|c| c.record.iter().chain(c.journal.iter()));
        let ran = self.trigger == Trigger::ShellStart
            && cut.is_some_and(|cut| ran_since(records, rec, cut));
        ran.then(|| SkipReason::Resumed {
            why: "it ran since the launch".into(),
        })
    }
}

/// Whether a record or journal entry names `rec`'s conversation, was written after `cutoff` by a running
/// agent, and so says the conversation already ran in this launch (resumed by hand, by a pin, by restore).
/// A `SessionEnd` is no run: the agent the terminal's quit killed may report its end after the new launch.
pub fn ran_since<'a>(
    mut records: impl Iterator<Item = &'a LiveRecord>,
    rec: &LiveRecord,
    cutoff: DateTime<Utc>,
) -> bool {
    records.any(|r| {
        r.agent == rec.agent
            && r.session_id == rec.session_id
            && r.end_reason().is_none()
            && r.event != "SessionEnd"
            && r.written_at().is_some_and(|t| t > cutoff)
    })
}

/// The markers to take before a resume line is typed or run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Claim {
    pub launch: LaunchId,
    pub agent: String,
    pub session_id: String,
    pub pane: PaneKey,
}

/// Why a claim was not taken.
#[derive(Debug)]
pub enum NotTaken {
    /// Someone else holds the conversation's or the pane's marker.
    Taken(String),
    Io(io::Error),
}

impl std::fmt::Display for NotTaken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NotTaken::Taken(what) => write!(f, "already resumed in this launch ({what})"),
            NotTaken::Io(e) => write!(f, "cannot write the once-per-launch marker: {e}"),
        }
    }
}

impl Claim {
    fn files(&self, state: &StateDir) -> [PathBuf; 2] {
        let dir = self.launch.dir(state);
        [
            dir.join(format!("conversation.{}.{}", self.agent, self.session_id)),
            dir.join(format!("pane.{}", self.pane)),
        ]
    }

    /// Takes both markers under the launch folder's lock, or neither. `by` says who took them.
    pub fn take(&self, state: &StateDir, by: Trigger) -> Result<(), NotTaken> {
        self.take_for(state, by, None)
    }

    /// [`Claim::take`], the markers naming the shell (`shell_pid`) that will run the resume line, so
    /// that it can give them back ([`give_back_shell_claim`]) when its agent did not stay up.
    pub fn take_for(
        &self,
        state: &StateDir,
        by: Trigger,
        shell_pid: Option<u32>,
    ) -> Result<(), NotTaken> {
        let dir = self.launch.dir(state);
        state.ensure().map_err(NotTaken::Io)?;
        guard::own_dir(state.root(), &dir).map_err(|e| NotTaken::Io(state.logged("once", e)))?;
        let lock = guard::open_lock(&dir.join(".lock"))
            .map_err(|e| NotTaken::Io(state.logged("once", e)))?;
        // SAFETY: flock on a descriptor we own; released when `lock` is closed.
        if unsafe { libc_flock(lock.as_raw_fd()) } != 0 {
            return Err(NotTaken::Io(io::Error::last_os_error()));
        }
        let files = self.files(state);
        if let Some(held) = files.iter().find(|f| f.exists()) {
            let who = fs::read_to_string(held).unwrap_or_default();
            return Err(NotTaken::Taken(who.trim().to_string()));
        }
        let mut line = serde_json::json!({
            "by": by.word(),
            "pane": self.pane.to_string(),
            "conversation": self.session_id,
            "ts": Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true),
        });
        if let Some(pid) = shell_pid {
            line["shell_pid"] = pid.into();
        }
        let line = line.to_string();
        for (i, path) in files.iter().enumerate() {
            let made = guard::create_new(path, 0o600)
                .and_then(|mut f| f.write_all(format!("{line}\n").as_bytes()));
            if let Err(e) = made {
                files[..i].iter().for_each(|f| drop(fs::remove_file(f)));
                return Err(match e.kind() {
                    io::ErrorKind::AlreadyExists => NotTaken::Taken(path.display().to_string()),
                    _ => NotTaken::Io(e),
                });
            }
        }
        prune_earlier_launches(state, &self.launch);
        Ok(())
    }

    /// Gives the markers back (the typed agent never came up, so a later restore may try again).
    pub fn release(&self, state: &StateDir) {
        for f in self.files(state) {
            let _ = fs::remove_file(f);
        }
    }
}

/// Gives back the claim a shell's `shell-start` took for `shell_pid` (both markers carry the same line)
/// when it is younger than `settle`: the resume line ran and returned at once — the agent was not on
/// `PATH`, refused its arguments, or Ctrl-C stopped it — so, as [`Claim::release`] after `restore`
/// typed an agent that exited at once, a later shell or `restore` may try again. Returns how many
/// marker files went.
pub fn give_back_shell_claim(state: &StateDir, shell_pid: u32, settle: Duration) -> usize {
    let mut gone = 0;
    let launches = fs::read_dir(state.root().join("resumed"));
    for launch in launches.into_iter().flatten().flatten() {
        for marker in fs::read_dir(launch.path()).into_iter().flatten().flatten() {
            let Ok(text) = fs::read_to_string(marker.path()) else {
                continue;
            };
            let Ok(line) = serde_json::from_str::<serde_json::Value>(text.trim()) else {
                continue;
            };
            let mine = line["by"] == Trigger::ShellStart.word()
                && line["shell_pid"].as_u64() == Some(u64::from(shell_pid));
            let age = line["ts"]
                .as_str()
                .and_then(|t| DateTime::parse_from_rfc3339(t).ok())
                .and_then(|t| (Utc::now() - t.with_timezone(&Utc)).to_std().ok());
            if mine && age.is_some_and(|a| a < settle) && fs::remove_file(marker.path()).is_ok() {
                gone += 1;
            }
        }
    }
    gone
}

/// `flock(fd, LOCK_EX)`: waits for the other claimant of this launch (it holds the lock for two file
/// creations).
unsafe fn libc_flock(fd: i32) -> i32 {
    nix::libc::flock(fd, nix::libc::LOCK_EX)
}

/// Removes the marker folders of the same terminal's earlier launches: they can never match again.
fn prune_earlier_launches(state: &StateDir, launch: &LaunchId) {
    let root = state.root().join("resumed");
    let prefix = format!("{}-", launch.terminal);
    for entry in fs::read_dir(&root).into_iter().flatten().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let same_terminal = name
            .strip_prefix(&prefix)
            .is_some_and(|rest| rest.bytes().all(|b| b.is_ascii_digit() || b == b'-'));
        if same_terminal && name != launch.name {
            let _ = fs::remove_dir_all(entry.path());
        }
    }
}

#[cfg(test)]
#[path = "once_tests.rs"]
mod tests;
