//! The end-to-end proof of issue 6, with the real Claude Code and Codex CLIs: three Claude panes (a
//! `--model` launch with a prompt argument holding an apostrophe, a split pane in a second directory, a
//! session whose Bash tool `cd`s into a subdirectory) and two `codex --no-daemon` panes in the fake
//! agterm, after `agterm-backup installer apply --trust`; then one restart flavour per test:
//!
//! - **0.15** (no `session.restore`, "restore running commands" on): a clean quit; the denylist the
//!   installer edited keeps agterm from replaying the bare agents; `restore --yes` types one resume line
//!   per pane.
//! - **0.34 rerun with pins**: the hook pinned each pane's resume line; after a clean quit agterm itself
//!   types the pins; a `restore --yes` afterwards types nothing.
//! - **0.34 Live after a reboot**: every process dies, agterm would replay the captured agents but the
//!   denylist refuses them; `restore --yes` brings them back.
//!
//! Each asserts, from the resumed agents' own SessionStart payloads, that every pane is back in its own
//! conversation (`source: "resume"`, the original `session_id`), in its directory (payload cwd and
//! process cwd), with its flags and without its old prompt (argv from /proc), and that no new
//! conversation was created (see `e2e_restart_common::checks`). The tests are independent (each its
//! own HOME, stub and fake agterm) and run in parallel. Skipped with a SKIPPED line when the CLIs are
//! absent.

use crate::e2e_restart_common::flavours;
use crate::e2e_restart_common::lineup::MIXED;

#[test]
fn agterm_0_15_restart_then_restore_resumes_every_pane() {
    flavours::agterm_0_15_restore(&MIXED);
}

#[test]
fn agterm_0_34_rerun_types_the_pins_and_restore_types_nothing_more() {
    flavours::agterm_0_34_rerun_pins(&MIXED);
}

#[test]
fn agterm_0_34_live_reboot_denylist_then_restore_resumes_every_pane() {
    flavours::agterm_0_34_live_reboot(&MIXED);
}
