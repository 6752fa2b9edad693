//! The run's last test: nothing the suite started is still running, and nothing it wrote is left.
//!
//! cargo runs test binaries package by package (by name), and in a package the library's, the binaries'
//! then the integration tests' (by name); `agterm-backup-testkit`'s `zz_leftovers` is therefore the last
//! binary that can see the others' leftovers (only the tmux and zmx crates' unit tests, which start no
//! process, and the doc tests come after it). Every rig makes its folders under
//! [`scratch::suite_root`] and names them in what it starts (a tmux socket, an agent's `HOME`), so a
//! leftover of any binary, failed or passed, shows up here.

use agterm_backup_testkit::scratch;

agterm_backup_testkit::hermetic_test_binary!();

#[test]
fn no_process_or_folder_of_the_suite_is_left() {
    let left = scratch::leftovers();
    // Kill what is left, so one failing run does not fail the next one too; the assertion still reports it.
    for (pid, _) in &left.processes {
        // SAFETY: kill(2) on a pid just read from /proc; ESRCH when it ended since is fine.
        unsafe { libc::kill(*pid as libc::pid_t, libc::SIGKILL) };
    }
    for entry in &left.entries {
        let _ = std::fs::remove_dir_all(entry).or_else(|_| std::fs::remove_file(entry));
    }
    assert!(
        left.is_empty(),
        "the suite left behind, under {}:\nprocesses: {:#?}\nfolders: {:#?}",
        scratch::suite_root().display(),
        left.processes,
        left.entries
    );
}
