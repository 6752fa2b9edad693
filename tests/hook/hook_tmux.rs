//! The hook in a real tmux pane: the record names the pane the way layout restorers rebuild it (server
//! socket, session name, window and pane index, the pane's directory, the server's start time), tmux wins
//! over an agterm pane around it, a renamed session is learned again at the next write, and a tmux job
//! that is no pane (`run-shell`) records nothing. Every run keeps the hook's promises (silent, exit 0).

use crate::hook_common::*;
use agterm_backup_testkit::tmux::Tmux;
use agterm_backup_tmux::pane::TmuxPart;

fn tmux_records(w: &World) -> Vec<agterm_backup_core::record::LiveRecord> {
    let state = w.state();
    agterm_backup_terminals::pane_keys(&state)
        .into_iter()
        .filter(|k| k.terminal() == agterm_backup_tmux::pane::NAME)
        .filter_map(|k| state.read_record(&k))
        .collect()
}

#[test]
fn a_tmux_pane_inside_agterm_is_recorded_as_the_tmux_pane_by_name() {
    let mut w = World::new();
    let tmux = Tmux::new(w.path().join("t.sock"));
    let dir = w.path().join("proj");
    std::fs::create_dir_all(&dir).unwrap();
    let dir = dir.canonicalize().unwrap();
    tmux.spawn("work", &dir, &[], &["sleep", "600"]);
    tmux.ok(&[
        "new-window",
        "-d",
        "-t",
        "work:3",
        "-c",
        &dir.display().to_string(),
        "sleep 600",
    ]);
    let pane = tmux.ok(&["display-message", "-p", "-t", "work:3", "#{pane_id}"]);
    let pid = tmux.ok(&["display-message", "-p", "#{pid}"]);
    let started: i64 = tmux
        .ok(&["display-message", "-p", "#{start_time}"])
        .parse()
        .unwrap();
    w.set("TMUX", &format!("{},{pid},0", tmux.socket().display()));
    w.set("TMUX_PANE", &pane);
    let d = dir.display().to_string();

    w.hook("claude", &claude_payload("SessionStart", ID_A, &d, &d))
        .assert_silent();
    assert!(w.record().is_none(), "not the agterm pane around it");
    let recs = tmux_records(&w);
    assert_eq!(recs.len(), 1, "{}", log_text(&w));
    let t = recs[0].tmux().expect("the tmux pane");
    assert_eq!(recs[0].terminal, "tmux");
    assert_eq!((t.session.as_str(), t.window, t.pane), ("work", 3, 0));
    assert_eq!(t.socket, tmux.socket().display().to_string());
    assert_eq!(t.cwd.as_deref(), Some(d.as_str()));
    assert_eq!(t.server_started, Some(started));
    assert_eq!(t.pane_id.as_deref(), Some(pane.as_str()));

    // The user renames the session; the next write learns the new name.
    tmux.ok(&["rename-session", "-t", "work", "Wörk 2"]);
    w.hook("claude", &claude_payload("SessionStart", ID_B, &d, &d))
        .assert_silent();
    let renamed: Vec<_> = tmux_records(&w)
        .into_iter()
        .filter(|r| r.session_id == ID_B)
        .collect();
    assert_eq!(renamed.len(), 1, "{}", log_text(&w));
    assert_eq!(renamed[0].tmux().unwrap().session, "Wörk 2");
}

#[test]
fn a_tmux_job_that_is_no_pane_records_nothing_even_inside_agterm() {
    let mut w = World::new();
    w.set("TMUX", "/tmp/nowhere.sock,1,0");
    let d = w.path().display().to_string();
    w.hook("claude", &claude_payload("SessionStart", ID_A, &d, &d))
        .assert_silent();
    assert!(w.record().is_none());
    assert!(tmux_records(&w).is_empty());
}
