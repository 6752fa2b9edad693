//! tmux's part of the command line (its registry row's `command_line`): the phrases the help says about
//! it, and `agterm-backup tmux-layout`, the hidden subcommand its hooks run ([`crate::layout_hook`]).

use agterm_backup_core::command_line::{CommandLine, Flag, HiddenCommand, Place, RestoreExample};

pub const COMMAND_LINE: CommandLine = CommandLine {
    instances: "every tmux server",
    restarted_by: "a tmux server rebuilt by tmux-resurrect",
    // The post-restore hook that runs `restore --terminal tmux` ([`crate::resurrect`]).
    installer_wires: Some("tmux-resurrect"),
    socket: "the tmux server's socket",
    socket_default: None,
    // As `scope::named` decides.
    named_default: Some("the server of $TMUX, else --socket, else tmux's default socket"),
    restore_example: Some(RestoreExample {
        comment: "what the tmux-resurrect hook runs",
        featured: true,
    }),
    pane_label_example: Some("tmux work:0.1"),
    pane_names: Some("its tmux place (`work:0.1`)"),
    place: Some(Place {
        what: "a tmux server's socket",
        alias: "tmux-socket",
    }),
    hidden: &[LAYOUT],
    // A record names its server's socket, and `$TMUX` is a pane's, not the session's.
    instance_vars: &[],
};

/// `agterm-backup tmux-layout [--rebuilt | --saved]`: what the hooks of the installer's block run
/// ([`crate::resurrect`]).
pub const LAYOUT: HiddenCommand = HiddenCommand {
    name: "tmux-layout",
    about:
        "Run by the tmux hooks the installer sets: keeps the tmux server's layout; prints nothing",
    flags: &[
        Flag {
            name: "rebuilt",
            help:
                "The post-restore hook: the panes there are now are the ones the layout restorer \
                   rebuilt",
            conflicts_with: Some("saved"),
        },
        Flag {
            name: "saved",
            help: "tmux-resurrect's post-save hook: the layout now is the one its save holds",
            conflicts_with: None,
        },
    ],
    run: crate::layout_hook::run,
};
