//! tmux-resurrect rebuilds the layout of its last save, not the last one: a pane closed, swapped or
//! opened between that save and the reboot must not hand its neighbour's conversation to the pane
//! rebuilt at its place. The rig of `tmux_join_members` (a real tmux server whose config is the installer's
//! block, records written by the real hook, resurrect's save and restore done command for command); here
//! resurrect's post-save hook runs after the save, as `save.sh`'s `save_all` ends with
//! `execute_hook "post-save-all"` (tmux-resurrect cff343c).

use crate::tmux_join_members::{Rig, A, B};
use agterm_backup_testkit::layout::{run_post_save_hook, save};
use agterm_backup_testkit::tmux::Tmux;

const C: &str = "c0c0c0c0-5f3e-4b2a-8c1d-9e8f7a6b5c4d";
const D: &str = "d0d0d0d0-5f3e-4b2a-8c1d-9e8f7a6b5c4d";

#[test]
fn each_pane_rebuilt_from_resurrects_save_gets_its_own_conversation_or_none() {
    let r = Rig::new("");
    // A, B, C and a plain shell in work:0.0–0.3, all in one directory; resurrect saves.
    r.session("work", 4);
    r.record("work:0.0", A);
    let b = r.record("work:0.1", B);
    let c = r.record("work:0.2", C);
    let saved = save(&r.tmux);
    run_post_save_hook(&r.tmux, &r.home);
    r.wait_layout("the save noted", |l| l["saved"]["panes"].is_array());
    // After the save: A's pane closed (B and C renumber), B's and C's swapped, D's opened after the shell.
    r.tmux.ok(&["kill-pane", "-t", "work:0.0"]);
    r.tmux
        .ok(&["swap-pane", "-s", "work:0.0", "-t", "work:0.1"]);
    r.tmux
        .ok(&["split-window", "-t", "work:0.2", "-c", &r.dir()]);
    let d = r.record("work:0.3", D);
    r.wait_layout("C at 0.0, B at 0.1, D at 0.3", |l| {
        [(&c, "work:0.0"), (&b, "work:0.1"), (&d, "work:0.3")]
            .iter()
            .all(|(pane, at)| Rig::laid_out(l, pane).as_deref() == Some(*at))
    });
    // The reboot; resurrect rebuilds its save (four panes), then its post-restore hook notes them.
    r.reboot_and_rebuild_saved(saved, &[]);
    let mark = format!("'{}' tmux-layout --rebuilt", r.bin.display());
    r.tmux.ok(&["run-shell", &mark]);
    r.wait_layout("the rebuilt panes noted", |l| l["rebuilt"].is_array());
    // A's pane was rebuilt, but A ended when its pane closed; D's pane did not exist at the save; the
    // shell's rebuilt pane (D's last place) is not D's.
    r.expect(&[
        (A, "skip pane-gone"),
        (B, "type work:0.1"),
        (C, "type work:0.2"),
        (D, "skip pane-gone"),
    ]);
}

/// tmux-resurrect keeps one last save for all of a user's tmux servers: when another server (another
/// socket, its own panes in the same directory and at the same places) saved last, the rebuild on this
/// socket is that server's layout, and no conversation of this socket's earlier server joins a pane of
/// it by its old place.
#[test]
fn a_rebuild_from_another_servers_save_gives_this_sockets_conversations_no_pane() {
    let r = Rig::new("");
    r.session("work", 2);
    r.record("work:0.0", A);
    r.record("work:0.1", B);
    run_post_save_hook(&r.tmux, &r.home);
    r.wait_layout("this server's save noted", |l| {
        l["saved"]["panes"].is_array()
    });
    // Another server of the same user, its session `work` in the same directory, saves later.
    let env = r.tmux.user_env().unwrap().to_vec();
    let other = Tmux::as_user(r.home.join("other.sock"), &env);
    let d = r.dir();
    other.ok(&[
        "new-session",
        "-d",
        "-s",
        "work",
        "-x",
        "200",
        "-y",
        "50",
        "-c",
        &d,
    ]);
    other.ok(&["split-window", "-t", "work:", "-c", &d]);
    agterm_backup_testkit::clock::wait_past_second(std::time::SystemTime::now());
    let saved = save(&other);
    run_post_save_hook(&other, &r.home);
    // The reboot of this socket's server; resurrect rebuilds its last save: the other server's.
    r.reboot_and_rebuild_saved(saved, &[]);
    let mark = format!("'{}' tmux-layout --rebuilt", r.bin.display());
    r.tmux.ok(&["run-shell", &mark]);
    r.wait_layout("the rebuilt panes noted", |l| l["rebuilt"].is_array());
    r.expect(&[(A, "skip other-save"), (B, "skip other-save")]);
}
