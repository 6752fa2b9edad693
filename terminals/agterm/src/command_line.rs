//! agterm's part of the command line (its registry row's `command_line`): the phrases the help says
//! about it. agterm runs as one instance behind one control socket, so a bare `--socket` is its.

use agterm_backup_core::command_line::CommandLine;

pub const COMMAND_LINE: CommandLine = CommandLine {
    instances: "agterm",
    restarted_by: "agterm",
    // `installer apply` lists claude and codex in agterm's restore denylist (agterm would otherwise
    // replay their command lines itself, beside ours).
    installer_wires: Some("agterm's denylist"),
    socket: "agterm's control socket",
    // As `socket_path::resolve_socket_path` looks.
    socket_default: Some(
        "$AGTERM_SOCKET, $AGTERM_STATE_DIR/agterm.sock, then the platform's: ~/Library/Application \
         Support/agterm/agterm.sock on macOS, $XDG_DATA_HOME/agterm/agterm.sock or \
         ~/.local/share/agterm/agterm.sock on Linux",
    ),
    named_default: None,
    restore_example: None,
    pane_label_example: None,
    pane_names: None,
    place: None,
    hidden: &[],
    // Its socket is `$AGTERM_STATE_DIR/agterm.sock` when set, and its records name no socket: a
    // snapshot taken by the timer must ask the same agterm as the person who installed it.
    instance_vars: &["AGTERM_STATE_DIR"],
};
