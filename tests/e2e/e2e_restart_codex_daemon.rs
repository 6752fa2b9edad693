//! Issue 6's restart flavours with Codex in its default mode: two TUIs in the two panes of one agterm
//! session, in two directories, sharing one `codex app-server` daemon that runs every hook with the
//! environment of the TUI that started it. The hook must still record (and pin) each pane's own thread,
//! and after each restart flavour every pane must come back in its own thread: the resumed TUI's argv,
//! the thread id of the prompt typed into that pane, and the resumed SessionStart (see
//! `e2e_restart_common::checks`). After a clean quit the daemon outlives agterm (as it does for real);
//! a reboot ends it too. Skipped with a SKIPPED line when the CLIs are absent.

use crate::e2e_restart_common::flavours;
use crate::e2e_restart_common::lineup::CODEX_DAEMON;

#[test]
fn codex_daemon_agterm_0_15_restart_then_restore() {
    flavours::agterm_0_15_restore(&CODEX_DAEMON);
}

#[test]
fn codex_daemon_agterm_0_34_rerun_pins() {
    flavours::agterm_0_34_rerun_pins(&CODEX_DAEMON);
}

#[test]
fn codex_daemon_agterm_0_34_live_reboot_then_restore() {
    flavours::agterm_0_34_live_reboot(&CODEX_DAEMON);
}
