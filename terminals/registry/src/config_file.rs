//! A terminal's own config file that the installer edits ([`Row::config_file`](crate::Row), core's
//! [`TerminalConfigFile`]): the installer knows no terminal; it finds, applies, removes and reports each
//! row's file through it, and `installer apply` takes one `--no-<name>` flag per file.

pub use agterm_backup_core::config_file::{Denies, FindPath, TerminalConfigFile};

/// Every terminal's config file, in the rows' order.
pub fn all() -> impl DoubleEndedIterator<Item = &'static TerminalConfigFile> {
    crate::ROWS.iter().filter_map(|r| r.config_file)
}

/// Every terminal's config file in the order people see them (the installer's targets, `installer
/// status`, `status`'s warnings): the last row's first, the order they have always been listed in.
pub fn shown() -> impl Iterator<Item = &'static TerminalConfigFile> {
    all().rev()
}

/// The config file whose target is `target`.
pub fn named(target: &str) -> Option<&'static TerminalConfigFile> {
    all().find(|f| f.target == target)
}

/// The name of the terminal whose config file `file` is.
pub fn terminal_of(file: &TerminalConfigFile) -> &'static str {
    crate::ROWS
        .iter()
        .find(|r| r.config_file == Some(file))
        .map(|r| r.name.as_str())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_file_has_its_own_target_and_flag() {
        let files: Vec<_> = all().collect();
        for (i, f) in files.iter().enumerate() {
            assert_eq!(named(f.target), Some(*f));
            assert!(!terminal_of(f).is_empty(), "{f:?}");
            for g in &files[i + 1..] {
                assert_ne!(f.target, g.target);
                assert_ne!(f.flag, g.flag);
            }
        }
        assert_eq!(named("claude"), None);
    }
}
