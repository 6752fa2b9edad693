//! Whether an agterm runs, from the kernel's process names: what tells `shell-start` that an agterm
//! whose socket does not answer yet is still coming up (it brings its panes back before it binds its
//! socket), or that it quit and left its variables in a shell's environment elsewhere.

use std::path::Path;

/// Whether the agterm of `socket` runs: a process named `agterm`, or one named like it (the tests'
/// `fake-agterm`, never `agterm-backup`) whose command line names the socket's folder. The names come
/// from the kernel (`/proc`, macOS `proc_listallpids`); where they cannot be listed, agterm is taken to
/// run (the caller's retries stay bounded by its budget).
pub fn agterm_runs(socket: &Path) -> bool {
    let Some(procs) = agterm_backup_core::process::names::all() else {
        return true;
    };
    let src = agterm_backup_core::process::default_source();
    let folder = socket.parent().map(|d| d.display().to_string());
    procs.iter().any(|(pid, name)| {
        is_agterm_of(name, folder.as_deref(), || {
            src.argv(*pid).unwrap_or_default()
        })
    })
}

/// Pure part of [`agterm_runs`]: agterm itself, or a program named like it whose argv names `folder`.
fn is_agterm_of(name: &str, folder: Option<&str>, argv: impl FnOnce() -> Vec<String>) -> bool {
    match name {
        "agterm" => true,
        n if n.ends_with("agterm") => {
            folder.is_some_and(|f| argv().iter().any(|word| word.contains(f)))
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::is_agterm_of;

    #[test]
    fn agterm_is_told_by_its_name_and_a_look_alike_by_its_socket_folder() {
        let none = || -> Vec<String> { panic!("argv is read only for a look-alike") };
        assert!(is_agterm_of("agterm", None, none));
        assert!(!is_agterm_of("agterm-backup", Some("/s"), none));
        assert!(!is_agterm_of("zsh", Some("/s"), none));
        let fake = || {
            vec![
                "fake-agterm".to_string(),
                "--state-dir".into(),
                "/tmp/a1".into(),
            ]
        };
        assert!(is_agterm_of("fake-agterm", Some("/tmp/a1"), fake));
        assert!(!is_agterm_of("fake-agterm", Some("/tmp/other"), fake));
        assert!(!is_agterm_of("fake-agterm", None, fake));
    }
}
