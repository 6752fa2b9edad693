//! A directory whose name is not UTF-8 is never turned into a resume line that names another one: the
//! hook reads the agent's real cwd (raw bytes), the record can only hold text, and the line for it is
//! refused with `ResumeError::NotUtf8` (restore shows its own reason for it) instead of a `cd` into a
//! directory that does not exist.

use crate::hook_common::*;
use agterm_backup_core::agent::CLAUDE;
use agterm_backup_core::resume::{ResumeError, ResumeLine};
use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;

#[test]
fn a_non_utf8_agent_directory_is_refused_not_guessed() {
    let w = World::new();
    let root = std::fs::canonicalize(w.path()).unwrap();
    let proj = root.join(OsStr::from_bytes(b"caf\xe9"));
    std::fs::create_dir_all(&proj).unwrap();
    let claude = w.fake_agent("claude");
    let script = w.script(&format!(
        "'{}' hook claude\nexit $?\n",
        hook_bin().display()
    ));
    // What Claude itself would report: the path decoded lossily (it cannot carry the raw byte in JSON).
    let lossy = proj.to_string_lossy().into_owned();
    let payload = claude_payload("SessionStart", ID_A, &lossy, &lossy);
    let argv = [claude.display().to_string(), script.display().to_string()];
    w.start(&argv, &proj, &Stdin::Bytes(&payload)).wait_silent();
    let r = w.record().expect("the hook still records the pane");
    assert!(r.agent_cwd.contains('\u{fffd}'), "{:?}", r.agent_cwd);
    let e = ResumeLine::build(&CLAUDE, &r.session_id, &r.flags, &r.agent_cwd, None).unwrap_err();
    assert!(
        matches!(
            e,
            ResumeError::NotUtf8 {
                what: "directory",
                ..
            }
        ),
        "{e:?}"
    );
    assert_eq!(e.code(), "not-utf8");
    assert!(e.to_string().contains("not UTF-8"), "{e}");
}
