//! Nothing in the state folder is followed: every kind of file the tool writes there (record, journal,
//! lock, error log, claims' lock and markers, tmux layouts, lock and mark, tmux name cache, init files,
//! snapshots, resume scripts, unattributed Codex notes) meets a symlink planted at its path to a file the
//! user can write, and that file is left byte for byte as it was; a link in place of a folder of ours
//! (`tmux/`, `snapshots/`, `resumed/`, `scripts/`) is refused, nothing written where it points. A second test scans the sources: a new
//! raw open for writing outside the guard (`core::state::guard`) fails it until it is listed here.

use crate::hook_common::*;
use agterm_backup_core::record::LiveRecord;
use agterm_backup_core::state::StateDir;
use agterm_backup_restore::once::{Claim, LaunchId, Trigger};
use agterm_backup_tmux::env::TmuxEnv;
use agterm_backup_tmux::layout_file::{write_layout, ServerLayout};
use std::fs;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};

const VICTIM: &[u8] = b"the user's own file\n";

fn record_in(state: &StateDir) -> LiveRecord {
    let _ = state;
    serde_json::from_slice(&claude_record_json()).unwrap()
}

fn claude_record_json() -> Vec<u8> {
    serde_json::to_vec(&serde_json::json!({
        "v": 1, "agent": "claude", "session_id": ID_A,
        "agterm_session": PANE_SESSION, "role": "left",
        "pane_id": null, "transcript_path": null, "agent_cwd": "/w", "hook_cwd": "/w",
        "flags": [], "agent_pid": null, "event": "SessionStart", "ts": "2026-12-01T00:00:00Z",
        "terminal": "agterm"
    }))
    .unwrap()
}

fn launch() -> LaunchId {
    LaunchId::new(
        &agterm_backup_agterm::scope::the_instance(),
        Some("2026-12-01T00:00:00Z".parse().unwrap()),
    )
    .unwrap()
}

fn claim(state: &StateDir) -> Claim {
    Claim {
        launch: launch(),
        agent: "claude".into(),
        session_id: ID_A.into(),
        pane: agterm_backup_terminals::record_key(&record_in(state)).unwrap(),
    }
}

fn layout() -> ServerLayout {
    serde_json::from_value(serde_json::json!({
        "socket": "/tmp/tmux-1000/default", "server_pid": 4242, "server_started": 1_700_000_000,
        "listed_at": "2026-12-01T00:00:00Z", "panes": []
    }))
    .unwrap()
}

/// A tmux env whose socket exists (the name cache keys its file by the socket's identity).
fn tmux_env(state: &StateDir) -> TmuxEnv {
    let socket = state.root().join("tmux-socket");
    if !socket.exists() {
        fs::write(&socket, "").unwrap();
    }
    TmuxEnv {
        socket: socket.display().to_string(),
        server_pid: 4242,
        pane_id: "%3".into(),
    }
}

/// One kind of file the tool writes in its state folder: where it lives, and its writer.
struct Writer {
    kind: &'static str,
    path: fn(&StateDir) -> PathBuf,
    write: fn(&StateDir),
}

fn writers() -> Vec<Writer> {
    vec![
        Writer {
            kind: "record",
            path: |s| s.record_path(&agterm_backup_terminals::record_key(&record_in(s)).unwrap()),
            write: |s| drop(agterm_backup_terminals::write_record(s, &record_in(s))),
        },
        Writer {
            kind: "journal",
            path: |s| s.journal_path(&agterm_backup_terminals::record_key(&record_in(s)).unwrap()),
            write: |s| drop(agterm_backup_terminals::append_journal(s, &record_in(s))),
        },
        Writer {
            kind: "error log",
            path: |s| s.log_path(),
            write: |s| s.log("a line"),
        },
        Writer {
            kind: "claims' lock",
            path: |s| s.root().join("resumed").join(launch().name()).join(".lock"),
            write: |s| drop(claim(s).take(s, Trigger::Restore)),
        },
        Writer {
            kind: "claim marker (conversation)",
            path: |s| {
                let c = claim(s);
                let dir = s.root().join("resumed").join(c.launch.name());
                dir.join(format!("conversation.{}.{}", c.agent, c.session_id))
            },
            write: |s| drop(claim(s).take(s, Trigger::Restore)),
        },
        Writer {
            kind: "tmux layout",
            path: |s| {
                let l = layout();
                agterm_backup_tmux::layout_file::layout_path(
                    s.root(),
                    &l.socket,
                    l.server_pid,
                    l.server_started,
                )
            },
            write: |s| drop(write_layout(s.root(), &layout())),
        },
        Writer {
            kind: "tmux layout lock (per socket)",
            path: |s| {
                agterm_backup_tmux::layout_file::lock_path(s.root(), "/nonexistent/tmux-socket")
            },
            write: |s| {
                let server = agterm_backup_tmux::command::TmuxServer::new(
                    "/nonexistent/tmux-socket",
                    std::time::Duration::from_millis(200),
                );
                agterm_backup_tmux::layout::keep_coalesced(&server, s.root(), 1);
            },
        },
        Writer {
            kind: "tmux layout mark (per socket)",
            path: |s| {
                agterm_backup_tmux::layout_file::dirty_path(s.root(), "/nonexistent/tmux-socket")
            },
            write: |s| {
                let server = agterm_backup_tmux::command::TmuxServer::new(
                    "/nonexistent/tmux-socket",
                    std::time::Duration::from_millis(200),
                );
                agterm_backup_tmux::layout::keep_coalesced(&server, s.root(), 1);
            },
        },
        Writer {
            kind: "init file",
            path: |s| {
                agterm_backup::shell_init::init_file(s, agterm_backup::shell_init::Shell::Zsh)
            },
            write: |s| {
                let _ = agterm_backup::shell_init::write_init_file(
                    s,
                    agterm_backup::shell_init::Shell::Zsh,
                    "/usr/bin/agterm-backup",
                );
            },
        },
        Writer {
            kind: "latest snapshot",
            path: |s| s.latest_snapshot(),
            write: |s| {
                let snap = serde_json::from_value(serde_json::json!({
                    "v": 1, "taken_at": "2026-12-01T00:00:00Z", "terminal": null, "error": null,
                    "panes": [], "records": [], "harvested": []
                }))
                .unwrap();
                let _ = agterm_backup_restore::snapshot::write(s, &snap, chrono::Utc::now(), 5);
            },
        },
        Writer {
            kind: "unattributed Codex notes",
            path: |s| s.live_dir().join("unattributed-codex.jsonl"),
            write: |s| {
                let entry = agterm_backup_hook::codex_daemon::unattributed::Unattributed {
                    ts: "2026-12-01T00:00:00Z".into(),
                    session_id: ID_A.into(),
                    cwd: "/w".into(),
                    event: "Stop".into(),
                    reason: "test".into(),
                };
                let _ = agterm_backup_hook::codex_daemon::unattributed::append(s, &entry);
            },
        },
        Writer {
            kind: "resume script",
            path: |s| agterm_backup_core::resume::script_path(s, "pane"),
            write: |s| drop(long_line().into_typable(s, "pane")),
        },
        Writer {
            kind: "tmux name cache",
            path: |s| {
                let dir = s.root().join("tmux");
                // The cache names its file by the server's fingerprint: find it by a first write.
                agterm_backup_tmux::name::NameCache::new(s.root())
                    .put(&tmux_env(s), &tmux_pane(s))
                    .ok();
                let found = fs::read_dir(&dir)
                    .unwrap()
                    .flatten()
                    .map(|e| e.path())
                    .find(|p| p.extension().is_some_and(|e| e == "json"))
                    .expect("the cache wrote its file");
                fs::remove_file(&found).unwrap();
                found
            },
            write: |s| {
                let _ = agterm_backup_tmux::name::NameCache::new(s.root())
                    .put(&tmux_env(s), &tmux_pane(s));
            },
        },
    ]
}

/// A resume line too long to type, so it goes into a script.
fn long_line() -> agterm_backup_core::resume::ResumeLine {
    let spec = agterm_backup_core::agent::agent("claude").unwrap();
    let cwd = format!("/w/{}", "x".repeat(1100));
    agterm_backup_core::resume::ResumeLine::build(spec, ID_A, &[], &cwd, None).unwrap()
}

fn tmux_pane(s: &StateDir) -> agterm_backup_tmux::pane::TmuxPane {
    serde_json::from_value(serde_json::json!({
        "socket": tmux_env(s).socket, "server_pid": 4242, "session": "s",
        "window": 0, "pane": 0, "pane_id": "%3"
    }))
    .unwrap()
}

fn plant(at: &Path, victim: &Path) {
    fs::create_dir_all(at.parent().unwrap()).unwrap();
    let _ = fs::remove_file(at);
    symlink(victim, at).unwrap();
}

#[test]
fn no_writer_of_the_state_folder_writes_through_a_planted_symlink() {
    for w in writers() {
        let dir = agterm_backup_testkit::scratch::tempdir();
        let state = StateDir::at(dir.path().join("state"));
        state.ensure().unwrap();
        let victim = dir.path().join("victim");
        fs::write(&victim, VICTIM).unwrap();
        let at = (w.path)(&state);
        plant(&at, &victim);
        (w.write)(&state);
        assert_eq!(
            fs::read(&victim).unwrap(),
            VICTIM,
            "{}: the link's target was written through",
            w.kind
        );
        let meta = fs::symlink_metadata(&victim).unwrap();
        assert!(meta.is_file(), "{}: the target is still a file", w.kind);
    }
}

/// The folders the tool makes in its state folder, each with the writers of its files: a link planted
/// in a folder's place is refused, and nothing lands in the folder it points to.
#[test]
fn no_writer_writes_into_a_linked_folder() {
    type Folder = (&'static str, fn(&StateDir));
    let folders: [Folder; 4] = [
        ("tmux", |s| {
            drop(write_layout(s.root(), &layout()));
            let _ =
                agterm_backup_tmux::name::NameCache::new(s.root()).put(&tmux_env(s), &tmux_pane(s));
            let server = agterm_backup_tmux::command::TmuxServer::new(
                "/nonexistent/tmux-socket",
                std::time::Duration::from_millis(200),
            );
            agterm_backup_tmux::layout::keep_coalesced(&server, s.root(), 1);
        }),
        ("snapshots", |s| {
            let snap = serde_json::from_value(serde_json::json!({
                "v": 1, "taken_at": "2026-12-01T00:00:00Z", "terminal": null, "error": null,
                "panes": [], "records": [], "harvested": []
            }))
            .unwrap();
            let _ = agterm_backup_restore::snapshot::write(s, &snap, chrono::Utc::now(), 5);
        }),
        ("resumed", |s| drop(claim(s).take(s, Trigger::Restore))),
        ("scripts", |s| drop(long_line().into_typable(s, "pane"))),
    ];
    for (folder, write) in folders {
        let dir = agterm_backup_testkit::scratch::tempdir();
        let state = StateDir::at(dir.path().join("state"));
        state.ensure().unwrap();
        let elsewhere = dir.path().join("elsewhere");
        fs::create_dir(&elsewhere).unwrap();
        symlink(&elsewhere, state.root().join(folder)).unwrap();
        write(&state);
        let landed: Vec<_> = fs::read_dir(&elsewhere).unwrap().flatten().collect();
        assert!(
            landed.is_empty(),
            "{folder}: wrote {landed:?} through the link"
        );
    }
}

#[test]
fn the_hook_never_follows_a_link_and_repairs_its_own_files() {
    for kind in ["record", "journal", "lock", "hook.log"] {
        let w = World::new();
        let state = w.state();
        state.ensure().unwrap();
        let victim = w.path().join("victim");
        fs::write(&victim, VICTIM).unwrap();
        let at = match kind {
            "record" => state.record_path(&w.key()),
            "journal" => state.journal_path(&w.key()),
            "lock" => state.lock_path(&w.key()),
            _ => state.log_path(),
        };
        plant(&at, &victim);
        w.hook("claude", &claude_payload("SessionStart", ID_A, "/w", "/w"));
        w.hook("claude", b"not json");
        assert_eq!(fs::read(&victim).unwrap(), VICTIM, "{kind}: followed");
        // Repaired: the hook's own file is there now, the event recorded, the repair logged.
        let meta = fs::symlink_metadata(&at).unwrap();
        assert!(!meta.file_type().is_symlink(), "{kind}: the link stays");
        assert_eq!(
            w.record().map(|r| r.session_id),
            Some(ID_A.into()),
            "{kind}"
        );
        assert!(
            log_text(&w).contains(&at.display().to_string()),
            "{kind}: not logged"
        );
    }
}

#[test]
fn the_hook_repairs_a_broken_record_and_a_torn_journal_silently() {
    for broken in ["empty folder", "garbage", "truncated", "empty"] {
        let w = World::new();
        let state = w.state();
        state.ensure().unwrap();
        let (record, journal) = (state.record_path(&w.key()), state.journal_path(&w.key()));
        match broken {
            "empty folder" => fs::create_dir(&record).unwrap(),
            "garbage" => fs::write(&record, b"\x00\xffgarbage").unwrap(),
            "truncated" => fs::write(&record, br#"{"v":1,"agent":"cla"#).unwrap(),
            _ => fs::write(&record, b"").unwrap(),
        }
        // A journal whose last line was torn (no newline).
        fs::write(&journal, br#"{"v":1,"agent":"claude","sess"#).unwrap();
        w.hook("claude", &claude_payload("SessionStart", ID_A, "/w", "/w"));
        assert_eq!(
            w.record().map(|r| r.session_id),
            Some(ID_A.into()),
            "{broken}: the record is whole again"
        );
        assert_eq!(w.journal().len(), 1, "{broken}: the new line stands alone");
        assert!(
            state
                .check_journal(&w.key())
                .is_some_and(|why| why.contains("1 of 2")),
            "{broken}: the torn line is still named, never silently dropped"
        );
    }
}
