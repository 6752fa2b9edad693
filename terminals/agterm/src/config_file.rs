//! agterm's `restore-denylist.conf` as the installer edits it: its row's `config_file` (target
//! `denylist`, `--no-denylist`). agterm re-runs each pane's last command after its restart unless the
//! program is on this list, which would start `claude`, `codex` and `kimi-code` anew, bare, before
//! restore resumes their conversations: our block lists them (`agterm_backup_denylist` reads and edits
//! the file exactly as agterm parses it, and says where agterm keeps it).

use agterm_backup_core::config_file::TerminalConfigFile;
use agterm_backup_core::refusal::Refusal;
use agterm_backup_denylist as denylist;
use std::path::{Path, PathBuf};

/// `text` without our block; what `apply` keeps of the user's that looks like ours.
pub use denylist::{notes, without_our_block as remove};

/// The restore denylist as the installer edits it: always a target (`--no-denylist` leaves it alone),
/// our block names no binary.
pub static RESTORE_DENYLIST: TerminalConfigFile = TerminalConfigFile {
    target: "denylist",
    file: denylist::FILE_NAME,
    what: "restore denylist",
    flag: "no-denylist",
    flag_help: "Leave agterm's restore-denylist.conf alone",
    apply_help: "claude/codex to agterm's restore denylist",
    remove_help: Some("agterm's denylist block goes too"),
    names_binary: false,
    mode: 0o644,
    path: installer_target,
    apply,
    remove,
    has_ours,
    notes,
    state,
    warnings: |_, _| Vec::new(),
    denies: Some(denies),
};

/// Where the denylist is (`agterm_backup_denylist::denylist_path`): always a target, its file made when
/// absent. The error says what to set.
pub fn installer_target(
    env: &dyn Fn(&str) -> Option<String>,
    read: &dyn Fn(&Path) -> Option<String>,
    _exists: &dyn Fn(&Path) -> bool,
) -> Result<Option<PathBuf>, String> {
    denylist::denylist_path(env, read)
        .map(Some)
        .ok_or_else(|| "HOME is not set; set HOME or AGTERM_STATE_DIR".into())
}

/// `original` with our block in place (it names no binary: agterm matches a program's name).
pub fn apply(original: Option<&str>, _binary: &str) -> Result<String, Refusal> {
    Ok(denylist::with_our_block(original))
}

/// Whether `text` holds our block (whatever its entries).
pub fn has_ours(text: &str) -> bool {
    denylist::find_block(text).is_some()
}

/// `installer status`'s word: `present` when our block holds our entries as `apply` writes them, else
/// `absent`.
pub fn state(text: &str, _binary: &str) -> &'static str {
    if denylist::has_our_block(text) {
        "present"
    } else {
        "absent"
    }
}

/// Whether agterm, reading `text`, denies each of our entries.
pub fn denies(text: &str) -> Vec<(&'static str, bool)> {
    denylist::OUR_ENTRIES
        .iter()
        .map(|e| (*e, denylist::denies(text, e)))
        .collect()
}
