//! Upgrades keep working for tmux: the tmux folder exactly as the previous release wrote it
//! (`tests/corpus/state-today/tmux/`, see its README: one `layout.lock` and one `layout.dirty` for every
//! server, and the layouts) still restores with this one — each conversation follows its pane through the
//! old layout — and this release's layout hooks carry on over it, even while a job of the old release
//! still holds the old lock. The rig of `tmux_join_members` (a real tmux server whose config is the
//! installer's block, records written by the real hook, resurrect's save and restore done command for
//! command).

use crate::tmux_join_members::{Rig, A, B};
use agterm_backup_testkit::layout::save;
use std::path::Path;

/// Replaces what this release keeps in `<state>/tmux/` with the previous release's files: its lock and
/// mark, and the layout of the server `socket` + `pid` + `started` with `pane_a` and `pane_b` swapped.
fn install_today_tmux(r: &Rig, server: (&str, u32, i64), pane_a: &str, pane_b: &str) {
    let (socket, pid, started) = server;
    let tmux = r.state.join("tmux");
    for e in std::fs::read_dir(&tmux).unwrap().flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        if name.ends_with(".lock") || name.ends_with(".dirty") || name.ends_with(".json") {
            std::fs::remove_file(e.path()).unwrap();
        }
    }
    let corpus =
        agterm_backup_testkit::paths::workspace_root().join("tests/corpus/state-today/tmux");
    for name in ["layout.lock", "layout.dirty"] {
        std::fs::copy(corpus.join(name), tmux.join(name)).unwrap();
    }
    let body = std::fs::read_to_string(corpus.join("layout-SERVER.json"))
        .unwrap()
        .replace("@SOCKET@", socket)
        .replace("@PID@", &pid.to_string())
        .replace("@STARTED@", &started.to_string())
        .replace("@LISTED_AT@", &chrono::Utc::now().to_rfc3339())
        .replace("@PANE_A@", pane_a)
        .replace("@PANE_B@", pane_b)
        .replace("@DIR@", &r.dir());
    let path = agterm_backup_tmux::layout_file::layout_path(&r.state, socket, pid, started);
    std::fs::write(path, body).unwrap();
}

/// Holds an exclusive `flock` on `path` until dropped (a job of the old release, mid-write).
struct Held {
    _file: std::fs::File,
}

fn hold(path: &Path) -> Held {
    use std::os::unix::io::AsRawFd;
    let f = std::fs::File::open(path).unwrap();
    // SAFETY: a valid open descriptor; flock has no other precondition.
    assert_eq!(unsafe { libc::flock(f.as_raw_fd(), libc::LOCK_EX) }, 0);
    Held { _file: f }
}

#[test]
fn the_previous_releases_tmux_folder_restores_and_the_new_layout_hooks_carry_on_over_it() {
    let r = Rig::new("");
    // A at work:0.0 and B at work:0.1, in one directory; the previous release saw their panes swapped.
    r.session("work", 2);
    let a = r.record("work:0.0", A);
    let b = r.record("work:0.1", B);
    let ask = |f: &str| r.tmux.ok(&["display-message", "-p", f]);
    let socket = r.tmux.socket().display().to_string();
    let server = (
        socket.as_str(),
        ask("#{pid}").parse().unwrap(),
        ask("#{start_time}").parse().unwrap(),
    );
    let saved = save(&r.tmux);
    r.reboot_and_rebuild_saved(saved, &[]);
    agterm_backup_testkit::settle::wait_settled(&r.home, std::time::Duration::from_secs(15));
    install_today_tmux(&r, server, &a, &b);
    // Each conversation goes to the pane its own moved to in the old layout.
    r.expect(&[(A, "type work:0.1"), (B, "type work:0.0")]);
    // An old release's layout job still holds the old lock, its mark left behind: this release's hooks
    // keep the new server's moves all the same.
    let _old_job = hold(&r.state.join("tmux/layout.lock"));
    let moved = r
        .tmux
        .ok(&["display-message", "-p", "-t", "work:0.0", "#{pane_id}"]);
    r.tmux
        .ok(&["swap-pane", "-s", "work:0.0", "-t", "work:0.1"]);
    r.wait_layout("the swap on the new server", |l| {
        Rig::laid_out(l, &moved).as_deref() == Some("work:0.1")
    });
}
