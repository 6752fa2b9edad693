//! What runs in the foreground of a pane: the leader of its tty's foreground process group. The logic is
//! shared with zmx's sessions and lives in `agterm_backup_core::process::foreground`.

pub use agterm_backup_core::process::foreground::{
    pane_foreground, parse_tpgid, tty_foreground_group,
};
