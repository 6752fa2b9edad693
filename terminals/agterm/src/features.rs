//! What the running agterm can do, found by asking it — never by a version string alone:
//!
//! - `version` answers from 0.25 on (older builds: `invalid request: …`);
//! - `restore.mode` answers from 0.26 on and gives the mode this process actually runs;
//! - `session.restore` with mode `probe` answers `invalid restore mode: …` from 0.16 on (the mode is
//!   checked before anything else, so nothing changes) and `invalid request: …` before;
//! - `zmx.list` answers from 0.26 on, or says `zmx is unavailable in this instance`;
//! - `session.restart` for the nil session answers `no such session: …` (any refusal but
//!   `invalid request`) on builds that have it (after 0.34), `invalid request: …` before.
//!
//! The result is cached in memory for one agterm launch (pid + start time of the socket's peer). The hook,
//! the only caller that runs often, needs no probe at all — the answer to its `session.restore set` says
//! whether pins exist — so a cache file would only add a way to be stale (pid reuse, an update in place)
//! for commands that run once and probe in four ~1 ms round trips.

use super::client::{AgtermError, Client, Reply};
use super::peer::Launch;
use super::wire::{Request, RestoreStatus};
use agterm_backup_core::terminal::{RestoreMode, TerminalInfo};

/// The probe answers, before they are turned into [`TerminalInfo`].
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Features {
    pub version: Option<String>,
    pub restore: Option<RestoreStatus>,
    pub supports_pin: bool,
    pub supports_live: bool,
    /// `session.restart` exists (probed only where Live runs: it restarts Live panes only).
    pub supports_restart: bool,
    pub launch: Option<Launch>,
}

impl Features {
    pub fn to_info(&self) -> TerminalInfo {
        TerminalInfo {
            version: self.version.clone(),
            restore_mode: self
                .restore
                .as_ref()
                .and_then(|r| r.active.as_deref())
                .and_then(parse_mode),
            supports_pin: self.supports_pin,
            supports_live: self.supports_live,
            supports_restart: self.supports_restart,
            launched_at: self.launch.map(|l| l.started_at),
            launch_stamp: self.launch.map(|l| l.stamp),
        }
    }
}

/// `none|rerun|live`; anything else is unknown.
pub fn parse_mode(s: &str) -> Option<RestoreMode> {
    match s {
        "none" => Some(RestoreMode::None),
        "rerun" => Some(RestoreMode::Rerun),
        "live" => Some(RestoreMode::Live),
        _ => None,
    }
}

/// A command that older builds do not know: `Ok(None)`; any other refusal or failure is an error.
pub fn optional(answer: Result<Reply, AgtermError>) -> Result<Option<Reply>, AgtermError> {
    match answer {
        Ok(r) => Ok(Some(r)),
        Err(e) if e.is_unknown_request() => Ok(None),
        Err(e) => Err(e),
    }
}

/// Reads the `session.restore` mode probe: `true` = pins exist (0.16+), `false` = older.
pub fn pin_support_from_probe(answer: Result<Reply, AgtermError>) -> Result<bool, AgtermError> {
    match answer {
        Err(AgtermError::Refused(e)) if e.starts_with("invalid restore mode") => Ok(true),
        Err(e) if e.is_unknown_request() => Ok(false),
        Err(e) => Err(e),
        Ok(_) => Err(AgtermError::Refused(
            "agterm accepted the restore mode `probe`, which no known build does; refusing to guess \
             whether pins work"
                .into(),
        )),
    }
}

/// Reads the `zmx.list` answer: `true` when Live sessions are available in this instance.
pub fn live_support_from_zmx(answer: Result<Reply, AgtermError>) -> Result<bool, AgtermError> {
    match answer {
        Ok(_) => Ok(true),
        Err(AgtermError::Refused(e))
            if e.starts_with("invalid request") || e.starts_with("zmx is unavailable") =>
        {
            Ok(false)
        }
        Err(e) => Err(e),
    }
}

/// Reads the `session.restart` probe (the nil session): any refusal but an unknown request means the
/// command exists; an answer that restarted something cannot happen for the nil session, and is not
/// trusted either way.
pub fn restart_support_from_probe(answer: Result<Reply, AgtermError>) -> Result<bool, AgtermError> {
    match answer {
        Err(e) if e.is_unknown_request() => Ok(false),
        Err(AgtermError::Refused(_)) => Ok(true),
        Err(e) => Err(e),
        Ok(_) => Ok(false),
    }
}

/// Asks `version`, then the rest unless `cached` is for the same launch.
pub fn probe(client: &Client, cached: Option<&Features>) -> Result<Features, AgtermError> {
    let version = optional(client.call(&Request::version()))?;
    let peer = client.last_peer_pid();
    let version_text = version
        .as_ref()
        .and_then(|r| r.result.app.as_ref())
        .and_then(|a| a.version.clone());
    let launch = peer.and_then(Launch::of_pid);
    if let (Some(now), Some(c)) = (launch, cached) {
        if c.launch == Some(now) {
            return Ok(Features {
                version: version_text,
                ..c.clone()
            });
        }
    }
    let supports_pin = pin_support_from_probe(client.call(&Request::restore_probe()))?;
    let restore = optional(client.call(&Request::restore_mode()))?.and_then(|r| r.result.restore);
    let supports_live = if restore.is_some() {
        live_support_from_zmx(client.call(&Request::zmx_list()))?
    } else {
        false
    };
    let supports_restart =
        supports_live && restart_support_from_probe(client.call(&Request::restart_probe()))?;
    Ok(Features {
        version: version_text,
        restore,
        supports_pin,
        supports_live,
        supports_restart,
        launch,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(s: &str) -> Result<Reply, AgtermError> {
        Err(AgtermError::Refused(s.into()))
    }

    #[test]
    fn the_probe_reads_agterms_error_text() {
        assert!(
            pin_support_from_probe(refused("invalid restore mode: probe (set|none|clear)"))
                .unwrap()
        );
        assert!(
            !pin_support_from_probe(refused("invalid request: The data couldn’t be read")).unwrap()
        );
        assert!(pin_support_from_probe(refused("no open window")).is_err());
        assert!(pin_support_from_probe(Ok(Reply::default())).is_err());
    }

    #[test]
    fn unknown_commands_are_absent_features() {
        assert!(optional(refused("invalid request: x")).unwrap().is_none());
        assert!(optional(refused("no such session: 6B")).is_err());
        assert!(!live_support_from_zmx(refused("zmx is unavailable in this instance")).unwrap());
        assert!(live_support_from_zmx(Ok(Reply::default())).unwrap());
        assert!(!restart_support_from_probe(refused("invalid request: unknown cmd")).unwrap());
        assert!(restart_support_from_probe(refused("no such session: 00000000")).unwrap());
    }

    #[test]
    fn modes_parse_strictly() {
        assert_eq!(parse_mode("live"), Some(RestoreMode::Live));
        assert_eq!(parse_mode("Live"), None);
    }
}
