//! The pane's name (session, window index, pane index) learned from the server once and cached.
//!
//! Asking tmux costs a process start, which the hook's hot path cannot afford on every tool call. The
//! answer is kept in `<state>/tmux/<server>.<N>.json`, where `<server>` fingerprints the running server
//! (socket path hash, server pid, the socket file's inode and mtime — a new server after a reboot makes a
//! new socket file). The hook reuses it while the pane id and the server are the same, and re-learns it
//! whenever it writes a record, so a renamed session or a moved pane is caught within one write.
//!
//! Learning asks for the whole layout (`list-panes -a`, one question like `display-message` would be) and
//! keeps it ([`crate::layout`]): every write of the hook also tells restore where every other pane of the
//! server is now.

use crate::command::{TmuxError, TmuxServer};
use crate::env::TmuxEnv;
use crate::layout_file::ServerLayout;
use crate::pane::TmuxPane;
use std::fs;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

/// The unit separator: tmux prints it raw, and no name or path a person types holds it.
const SEP: char = '\u{1f}';

/// The format [`learn`] asks for: the free-form fields last.
pub const NAME_FORMAT: &str =
    "#{pid}\u{1f}#{start_time}\u{1f}#{window_index}\u{1f}#{pane_index}\u{1f}#{pane_current_path}\u{1f}#{session_name}";

/// Parses one line of [`NAME_FORMAT`] output for the pane `pane_id` of the server on `socket`.
pub fn parse_name_line(socket: &str, pane_id: &str, line: &str) -> Option<TmuxPane> {
    let line = line.strip_suffix('\n').unwrap_or(line);
    let mut f = line.splitn(6, SEP);
    let server_pid = f.next()?.parse().ok()?;
    let server_started = f.next()?.parse().ok()?;
    let window = f.next()?.parse().ok()?;
    let pane = f.next()?.parse().ok()?;
    let cwd = f.next()?.to_string();
    let session = f.next()?.to_string();
    (!session.is_empty()).then(|| TmuxPane {
        socket: socket.to_string(),
        session,
        window,
        pane,
        pane_id: Some(pane_id.to_string()),
        server_pid: Some(server_pid),
        server_started: Some(server_started),
        cwd: (!cwd.is_empty()).then_some(cwd),
    })
}

/// Asks the server for the pane's name now.
pub fn learn(server: &TmuxServer, env: &TmuxEnv) -> Result<TmuxPane, TmuxError> {
    let out = server.run(&[
        "display-message",
        "-p",
        "-t",
        &env.pane_id,
        "-F",
        NAME_FORMAT,
    ])?;
    parse_name_line(&env.socket, &env.pane_id, &out).ok_or_else(|| {
        TmuxError::Refused(format!("unexpected answer for {}: {out:?}", env.pane_id))
    })
}

/// The name of the pane in `env` in `layout` (the layout's server is the one `env` names).
pub fn name_in(layout: &ServerLayout, env: &TmuxEnv) -> Option<TmuxPane> {
    let p = layout.pane(&env.pane_id)?;
    Some(TmuxPane {
        socket: env.socket.clone(),
        session: p.session.clone(),
        window: p.window,
        pane: p.pane,
        pane_id: Some(p.pane_id.clone()),
        server_pid: Some(layout.server_pid),
        server_started: Some(layout.server_started),
        cwd: p.cwd.clone(),
    })
}

/// The cache of learned names in one state directory.
#[derive(Debug, Clone)]
pub struct NameCache {
    dir: PathBuf,
}

impl NameCache {
    /// The cache under `state_root` (`<state>/tmux`).
    pub fn new(state_root: &Path) -> NameCache {
        NameCache {
            dir: state_root.join("tmux"),
        }
    }

    /// The cached name of the pane in `env`, if the server that answered is still the one running.
    pub fn get(&self, env: &TmuxEnv) -> Option<TmuxPane> {
        let path = self.path(env)?;
        let bytes = fs::read(path).ok()?;
        let pane: TmuxPane = serde_json::from_slice(&bytes).ok()?;
        (pane.socket == env.socket && pane.pane_id.as_deref() == Some(env.pane_id.as_str()))
            .then_some(pane)
    }

    /// Stores `pane` for `env` (atomically) and drops entries of earlier servers on the same socket.
    pub fn put(&self, env: &TmuxEnv, pane: &TmuxPane) -> std::io::Result<()> {
        let path = self
            .path(env)
            .ok_or_else(|| std::io::Error::other("the tmux socket is gone"))?;
        let root = self.dir.parent().unwrap_or(&self.dir);
        agterm_backup_core::state::guard::own_dir(root, &self.dir)?;
        // Atomic, and never through a symlink planted at the path (the rename replaces a link).
        let bytes = serde_json::to_vec(pane).map_err(std::io::Error::other)?;
        agterm_backup_core::state::write_atomic(&path, &bytes, 0o600)?;
        self.prune(env);
        Ok(())
    }

    /// The cached name when there is one, else learned from the server (and cached).
    pub fn get_or_learn(&self, server: &TmuxServer, env: &TmuxEnv) -> Result<TmuxPane, TmuxError> {
        if let Some(p) = self.get(env) {
            return Ok(p);
        }
        self.refresh(server, env)
    }

    /// Learns the name now (with the whole layout, which is kept beside the cache) and caches it.
    pub fn refresh(&self, server: &TmuxServer, env: &TmuxEnv) -> Result<TmuxPane, TmuxError> {
        let state_root = self.dir.parent().unwrap_or(&self.dir);
        let pane = match crate::layout::learn_and_keep(server, state_root) {
            Ok(layout) => name_in(&layout, env).ok_or_else(|| {
                TmuxError::Refused(format!("{} is not in the server's layout", env.pane_id))
            })?,
            Err(_) => learn(server, env)?,
        };
        // A failed cache write only costs the next event a question to tmux.
        let _ = self.put(env, &pane);
        Ok(pane)
    }

    fn path(&self, env: &TmuxEnv) -> Option<PathBuf> {
        let server = server_fingerprint(env)?;
        Some(
            self.dir
                .join(format!("{server}.{}.json", env.pane_number())),
        )
    }

    fn prune(&self, env: &TmuxEnv) {
        let Some(current) = server_fingerprint(env) else {
            return;
        };
        let socket_tag = format!("{:08x}-", socket_hash(&env.socket));
        let Ok(entries) = fs::read_dir(&self.dir) else {
            return;
        };
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if name.starts_with(&socket_tag) && !name.starts_with(&format!("{current}.")) {
                let _ = fs::remove_file(e.path());
            }
        }
    }
}

/// `<socket hash>-<server pid>-<socket inode>-<socket mtime ns>`: one running server. `None` when the
/// socket is gone (no server to cache for).
pub fn server_fingerprint(env: &TmuxEnv) -> Option<String> {
    let meta = fs::metadata(&env.socket).ok()?;
    let mtime = meta.mtime() as i128 * 1_000_000_000 + meta.mtime_nsec() as i128;
    Some(format!(
        "{:08x}-{}-{}-{mtime}",
        socket_hash(&env.socket),
        env.server_pid,
        meta.ino()
    ))
}

fn socket_hash(socket: &str) -> u32 {
    socket.bytes().fold(0x811c_9dc5u32, |h, b| {
        (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_names_with_tabs_and_unicode() {
        let line = "616\u{1f}1796126424\u{1f}2\u{1f}1\u{1f}/tmp/d\tir\u{1f}Wé ird\n";
        let p = parse_name_line("/tmp/s", "%3", line).unwrap();
        assert_eq!((p.session.as_str(), p.window, p.pane), ("Wé ird", 2, 1));
        assert_eq!(p.cwd.as_deref(), Some("/tmp/d\tir"));
        assert_eq!(
            (p.server_pid, p.server_started),
            (Some(616), Some(1796126424))
        );
        assert_eq!(p.target(), "Wé ird:2.1");
        assert!(parse_name_line("/tmp/s", "%3", "junk").is_none());
        assert!(parse_name_line("/tmp/s", "%3", "1\u{1f}2\u{1f}x\u{1f}1\u{1f}/\u{1f}s").is_none());
    }

    #[test]
    fn the_cache_holds_while_the_server_is_the_same() {
        let tmp = tempfile::tempdir().unwrap();
        let socket = tmp.path().join("sock");
        fs::write(&socket, "").unwrap();
        let env = TmuxEnv {
            socket: socket.display().to_string(),
            server_pid: 10,
            pane_id: "%4".into(),
        };
        let cache = NameCache::new(tmp.path());
        assert!(cache.get(&env).is_none());
        let line = "10\u{1f}5\u{1f}1\u{1f}0\u{1f}/w\u{1f}main";
        let pane = parse_name_line(&env.socket, &env.pane_id, line).unwrap();
        cache.put(&env, &pane).unwrap();
        assert_eq!(cache.get(&env), Some(pane.clone()));
        // Another pane of the same server, and the same pane id on a later server, are misses.
        let other_pane = TmuxEnv {
            pane_id: "%5".into(),
            ..env.clone()
        };
        assert!(cache.get(&other_pane).is_none());
        let later_server = TmuxEnv {
            server_pid: 11,
            ..env.clone()
        };
        assert!(cache.get(&later_server).is_none());
        // A new socket file (a restarted server with the same pid) is a miss, and a put prunes the old.
        fs::remove_file(&socket).unwrap();
        std::thread::sleep(std::time::Duration::from_millis(10));
        fs::write(&socket, "").unwrap();
        assert!(cache.get(&env).is_none());
        cache.put(&env, &pane).unwrap();
        assert_eq!(fs::read_dir(tmp.path().join("tmux")).unwrap().count(), 1);
    }
}
