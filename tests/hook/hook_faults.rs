//! The fault corpus: whatever arrives on stdin, whatever state the state directory is in, the hook exits
//! 0 within its budget, prints nothing and never writes a bad record.

use crate::hook_common::*;
use std::os::unix::fs::PermissionsExt;
use std::time::Duration;

#[test]
fn junk_payloads_write_nothing_and_are_logged() {
    let w = World::new();
    let huge = vec![b'{'; 5 * 1024 * 1024];
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("empty", Vec::new()),
        ("whitespace", b"  \n".to_vec()),
        ("non-JSON", b"hello there".to_vec()),
        ("array", b"[1,2,3]".to_vec()),
        ("no session id", br#"{"hook_event_name":"Stop"}"#.to_vec()),
        ("binary", vec![0, 159, 146, 150, 255]),
        ("5 MiB", huge),
    ];
    for (name, payload) in &cases {
        let out = w.hook("claude", payload);
        assert!(
            out.elapsed < Duration::from_secs(3),
            "{name} took {:?}",
            out.elapsed
        );
        assert!(w.record().is_none(), "{name} wrote a record");
    }
    let log = log_text(&w);
    assert!(log.contains("empty payload"), "{log}");
    assert!(log.contains("not JSON"), "{log}");
    assert!(
        log.contains("stdin cut"),
        "the 5 MiB payload is cut at the cap: {log}"
    );
}

#[test]
fn a_huge_valid_payload_beyond_the_cap_is_refused_not_half_read() {
    let w = World::new();
    let mut v: serde_json::Value =
        serde_json::from_slice(&claude_payload("PreToolUse", ID_A, "/w", "/w")).unwrap();
    v["tool_input"] = "x".repeat(2 * 1024 * 1024).into();
    w.hook("claude", v.to_string().as_bytes());
    assert!(w.record().is_none());
}

#[test]
fn a_stdin_that_never_closes_is_abandoned_within_the_budget() {
    let w = World::new();
    // Half a payload and no end of file: abandoned at the 2 s budget, nothing written.
    let out = w.hook_with("claude", &Stdin::NeverCloses(b"{\"session_id\":"));
    assert!(
        out.elapsed >= Duration::from_millis(1900),
        "waited {:?}",
        out.elapsed
    );
    assert!(
        out.elapsed < Duration::from_secs(4),
        "took {:?}",
        out.elapsed
    );
    assert!(w.record().is_none());
    assert!(log_text(&w).contains("stdin cut"));
    // A whole payload whose writer never closes: still bounded, and what arrived is used.
    let payload = claude_payload("SessionStart", ID_A, "/w/p", "/w/p");
    let out = w.hook_with("claude", &Stdin::NeverCloses(&payload));
    assert!(
        out.elapsed < Duration::from_secs(4),
        "took {:?}",
        out.elapsed
    );
    assert_eq!(w.record().map(|r| r.session_id), Some(ID_A.to_string()));
}

#[test]
fn hostile_session_ids_are_refused() {
    let w = World::new();
    let long = "a".repeat(10 * 1024);
    for id in ["../x", "a'b", "-rf", "$(reboot)", "a b", long.as_str()] {
        w.hook(
            "claude",
            &claude_payload("SessionStart", id, "/w/p", "/w/p"),
        );
        assert!(w.record().is_none(), "{id:.20} accepted");
        assert!(w.journal().is_empty());
    }
    let log = log_text(&w);
    assert!(log.contains("is not a valid session id"), "{log}");
    assert!(log.len() < 10 * 1024, "a 10 kB id is clipped in the log");
    // Nothing escaped the live folder.
    let names: Vec<_> = std::fs::read_dir(w.state().live_dir())
        .map(|d| d.flatten().map(|e| e.file_name()).collect())
        .unwrap_or_default();
    assert!(
        names.iter().all(|n| n
            .to_string_lossy()
            .starts_with(&PANE_SESSION.to_ascii_uppercase())),
        "{names:?}"
    );
}

#[test]
fn hostile_pane_ids_are_refused() {
    let mut w = World::new();
    w.set("AGTERM_SESSION_ID", "../../etc");
    w.hook(
        "claude",
        &claude_payload("SessionStart", ID_A, "/w/p", "/w/p"),
    );
    assert!(!w.path().join("etc").exists());
    assert!(log_text(&w).contains("not an agterm session id"));
}

#[test]
fn an_unwritable_state_dir_still_exits_0_silently() {
    let mut w = World::new();
    // A regular file where the state directory should be: nothing can be created under it.
    let file = w.path().join("not-a-dir");
    std::fs::write(&file, "x").unwrap();
    w.set(
        "AGTERM_BACKUP_HOME",
        &file.join("state").display().to_string(),
    );
    w.hook(
        "claude",
        &claude_payload("SessionStart", ID_A, "/w/p", "/w/p"),
    );
    w.hook("vim", b"{}");
    assert_eq!(std::fs::read(&file).unwrap(), b"x");
}

#[test]
fn a_read_only_state_dir_keeps_its_record_and_exits_0_silently() {
    let w = World::new();
    w.hook(
        "claude",
        &claude_payload("SessionStart", ID_A, "/w/p", "/w/p"),
    );
    let before = std::fs::read(w.state().record_path(&w.key())).unwrap();
    let live = w.state().live_dir();
    std::fs::set_permissions(&live, std::fs::Permissions::from_mode(0o500)).unwrap();
    std::fs::set_permissions(w.state().root(), std::fs::Permissions::from_mode(0o500)).unwrap();
    // Root ignores permission bits: run the hook as `nobody` then (setpriv, util-linux).
    let as_root = unsafe { libc::geteuid() } == 0;
    let payload = claude_payload("SessionStart", ID_B, "/w/p", "/w/p");
    let argv: Vec<String> = if as_root {
        [
            "setpriv",
            "--reuid=65534",
            "--regid=65534",
            "--clear-groups",
        ]
        .iter()
        .map(|s| s.to_string())
        .chain([
            hook_bin().display().to_string(),
            "hook".into(),
            "claude".into(),
        ])
        .collect()
    } else {
        vec![
            hook_bin().display().to_string(),
            "hook".into(),
            "claude".into(),
        ]
    };
    let out = w
        .start(&argv, std::path::Path::new("/"), &Stdin::Bytes(&payload))
        .wait();
    std::fs::set_permissions(w.state().root(), std::fs::Permissions::from_mode(0o700)).unwrap();
    std::fs::set_permissions(&live, std::fs::Permissions::from_mode(0o700)).unwrap();
    if as_root && String::from_utf8_lossy(&out.stderr).contains("setpriv") {
        eprintln!(
            "SKIPPED: setpriv refused here: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        return;
    }
    out.assert_silent();
    assert_eq!(
        std::fs::read(w.state().record_path(&w.key())).unwrap(),
        before
    );
    assert_eq!(w.journal().len(), 1);
}

/// A small tmpfs mounted for one test, unmounted when dropped.
struct SmallFs(std::path::PathBuf);

impl SmallFs {
    fn mount(at: std::path::PathBuf, size: &str) -> Option<SmallFs> {
        std::fs::create_dir_all(&at).unwrap();
        let ok = std::process::Command::new("mount")
            .args([
                "-t",
                "tmpfs",
                "-o",
                &format!("size={size},mode=0700"),
                "tmpfs",
            ])
            .arg(&at)
            .stderr(std::process::Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        ok.then_some(SmallFs(at))
    }
}

impl Drop for SmallFs {
    fn drop(&mut self) {
        let _ = std::process::Command::new("umount").arg(&self.0).status();
    }
}

#[test]
fn a_full_state_dir_keeps_the_old_record_and_exits_0_silently() {
    let mut w = World::new();
    let Some(fs) = SmallFs::mount(w.path().join("small"), "64k") else {
        eprintln!("SKIPPED: cannot mount a tmpfs here (needs root)");
        return;
    };
    w.set(
        "AGTERM_BACKUP_HOME",
        &fs.0.join("state").display().to_string(),
    );
    w.hook(
        "claude",
        &claude_payload("SessionStart", ID_A, "/w/p", "/w/p"),
    );
    let before = std::fs::read(w.state().record_path(&w.key())).expect("first record");
    // Fill the file system.
    let mut filler = std::fs::File::create(fs.0.join("filler")).unwrap();
    let block = vec![0u8; 4096];
    while std::io::Write::write_all(&mut filler, &block).is_ok() {}
    drop(filler);
    w.hook(
        "claude",
        &claude_payload("SessionStart", ID_B, "/w/p", "/w/p"),
    );
    w.hook(
        "claude",
        &claude_payload("PreToolUse", ID_B, "/w/p", "/w/p"),
    );
    assert_eq!(
        std::fs::read(w.state().record_path(&w.key())).unwrap(),
        before
    );
    // Whatever reached the journal is whole lines (a record that could not be written may be journalled
    // again by the next event, never torn).
    let text = w.journal_text();
    assert!(text.ends_with('\n'));
    for line in text.lines() {
        let r: agterm_backup_core::record::LiveRecord = serde_json::from_str(line).unwrap();
        assert!(r.session_id == ID_A || r.session_id == ID_B);
    }
    assert_no_temp_files(&w.state().live_dir());
}

fn assert_no_temp_files(dir: &std::path::Path) {
    let leftovers: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

/// A Codex hook reads its payload before its pane is known (a daemon's hook takes the TUI's pane): an
/// unreadable one is logged where the environment names a pane of any terminal, and not from outside
/// every pane (a Codex run in no terminal of ours).
#[test]
fn an_unreadable_codex_payload_is_logged_from_any_terminals_pane_only() {
    let agterm = World::new();
    let [mut tmux, mut zmx, mut nowhere] = [World::new(), World::new(), World::new()];
    for w in [&mut tmux, &mut zmx, &mut nowhere] {
        for var in [
            "AGTERM_SESSION_ID",
            "AGTERM_PANE",
            "AGTERM_PANE_ID",
            "AGTERM_WINDOW_ID",
        ] {
            w.unset(var);
        }
    }
    tmux.set("TMUX", "/tmp/tmux-1000/default,4242,0");
    tmux.set("TMUX_PANE", "%7");
    zmx.set("ZMX_SESSION", "api");
    for (pane, w, logged) in [
        ("agterm", &agterm, true),
        ("tmux", &tmux, true),
        ("zmx", &zmx, true),
        ("none", &nowhere, false),
    ] {
        w.hook("codex", b"not json");
        assert!(w.record().is_none(), "{pane}");
        let log = log_text(w);
        assert_eq!(
            log.contains("codex: unreadable hook payload; nothing recorded"),
            logged,
            "{pane}: {log}"
        );
    }
}
