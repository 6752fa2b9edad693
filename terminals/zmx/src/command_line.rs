//! zmx's part of the command line (its registry row's `command_line`): the phrases the help says about
//! it. zmx runs as one instance per socket directory; a session lost to a reboot is recreated by restore.

use agterm_backup_core::command_line::{CommandLine, Place, RestoreExample};

pub const COMMAND_LINE: CommandLine = CommandLine {
    instances: "zmx socket directory",
    restarted_by: "zmx sessions after a reboot",
    installer_wires: None,
    socket: "the zmx socket directory",
    socket_default: None,
    // As `session::socket_dir` decides.
    named_default: Some(
        "the socket directory --socket names, else zmx's own (ZMX_DIR, else $XDG_RUNTIME_DIR/zmx, \
         else $TMPDIR/zmx-<uid>)",
    ),
    restore_example: Some(RestoreExample {
        comment: "zmx sessions after a reboot",
        featured: false,
    }),
    pane_label_example: Some("zmx api"),
    pane_names: Some("zmx session name"),
    place: Some(Place {
        what: "a zmx socket directory",
        alias: "zmx-dir",
    }),
    hidden: &[],
    // A record names its socket directory.
    instance_vars: &[],
};
