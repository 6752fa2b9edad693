//! The machine's own places never reach a test: its `HOME`, XDG folders, tmux's default socket folder,
//! zmx's default socket folder, agterm's socket and `TMPDIR` are the user's (their tmux server with
//! agents in it, their `~/.claude`, their `/tmp/zmx-$UID`), and a test that reads or writes them fails on
//! a busy machine or damages it.
//!
//! Two layers, both by construction:
//! - [`hermetic_test_binary!`]: every test binary (each area's `main.rs`) moves its own process, before
//!   `main` and before any thread, into a sandbox of its own ([`sandbox`]): `HOME`, `TMUX_TMPDIR`,
//!   `TMPDIR` there; the XDG folders (which then follow `HOME`, the rig's or the sandbox's) and the
//!   variables naming a terminal, an agterm or an agent's home unset.
//!   A child spawned with the test's environment (a `tmux` without `-S`, a shell, the binary) inherits
//!   the sandbox, never the machine.
//! - [`places`]: a spawn that clears its environment (`env_clear()`) starts from these (tmux's and zmx's
//!   default folders, `TMPDIR`), then sets its own `HOME` and what else it needs; a cleared environment
//!   would otherwise fall back to tmux's `/tmp/tmux-$UID/default` and zmx's `/tmp/zmx-$UID`.
//!
//! What keeps pointing at the machine, on purpose: `PATH`, the toolchains (`CARGO_HOME`, `RUSTUP_HOME`,
//! `PYENV_ROOT`, set from the real `HOME` when unset and there, so `cargo` and pyenv's shims still find
//! their versions) and the tools folder of
//! `tests/install-deps.sh` (`AGTERM_BACKUP_AGENT_CLIS`, set from the real cache when unset): read-only
//! tools, never state.

pub use crate::scratch::orphaned_sandboxes;
use crate::scratch::sandbox_of;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

static MACHINE_HOME: OnceLock<Option<OsString>> = OnceLock::new();

/// Puts the test binary's process into its [`sandbox`] before `main` runs. Place once in each test
/// binary's `main.rs`.
#[macro_export]
macro_rules! hermetic_test_binary {
    () => {
        #[used]
        #[cfg_attr(
            any(target_os = "linux", target_os = "freebsd"),
            link_section = ".init_array"
        )]
        #[cfg_attr(target_os = "macos", link_section = "__DATA,__mod_init_func")]
        static AGTERM_BACKUP_HERMETIC: extern "C" fn() = {
            extern "C" fn enter() {
                $crate::hermetic::enter();
            }
            enter
        };
    };
}

/// Variables that name a place of the machine's terminals, agterm or agents: unset in the sandbox.
fn names_a_machine_place(name: &str) -> bool {
    const EXACT: &[&str] = &[
        "TMUX",
        "TMUX_PANE",
        "TMUX_TMPDIR",
        "TMUX_PLUGIN_MANAGER_PATH",
        "STY",
        "TERM_PROGRAM",
        "TERM_PROGRAM_VERSION",
        "CODEX_HOME",
        "CLAUDE_CONFIG_DIR",
        "CLAUDE_PROJECT_DIR",
        "CLAUDECODE",
        "COPILOT_HOME",
        "GEMINI_CLI_HOME",
        "QWEN_HOME",
        "KIMI_CODE_HOME",
        "ZDOTDIR",
    ];
    EXACT.contains(&name)
        || name.starts_with("XDG_")
        || name.starts_with("ZMX_")
        || (name.starts_with("AGTERM_") && !KEPT.contains(&name))
}

/// The suite's own settings, which name no place of the machine: the tools folder and the binary under
/// test (`$AGTERM_BACKUP_TEST_BINARY`: CI's musl and release builds; unset here, every test would run
/// the debug build instead, silently).
const KEPT: &[&str] = &["AGTERM_BACKUP_AGENT_CLIS", "AGTERM_BACKUP_TEST_BINARY"];

/// The sandbox of this test process: `/tmp/agb-<hash>-env-<pid>` beside [`crate::scratch::suite_root`]
/// (the run's last test finds leftovers there too).
pub fn sandbox() -> PathBuf {
    sandbox_of(std::process::id())
}

/// The `HOME` the machine gave this process before the sandbox replaced it (`None`: none was set, or
/// the binary has no sandbox). For the checks that prove nothing reaches it.
pub fn machine_home() -> Option<PathBuf> {
    MACHINE_HOME.get().cloned().flatten().map(PathBuf::from)
}

/// The folders of `root` a sandbox names: `(variable, path)`, `HOME` first. The XDG folders are unset
/// rather than named: they then follow whichever `HOME` a process has (a rig that gives its shell a
/// `HOME` of its own gets its fish config, direnv's allow list and zmx's folder there, not the
/// sandbox's).
pub fn layout(root: &Path) -> Vec<(&'static str, PathBuf)> {
    vec![
        ("HOME", root.join("home")),
        ("TMUX_TMPDIR", root.join("tmux")),
        ("TMPDIR", root.join("tmp")),
    ]
}

/// The machine-default places for a spawn that cleared its environment: tmux's default socket folder
/// (`TMUX_TMPDIR`) and `TMPDIR` (zmx's default socket folder `$TMPDIR/zmx-$UID`, scratch files), as this
/// process has them: in a test binary its sandbox's, in a helper a test started (the fake agterm, the
/// fake zmx) the ones it was given. Only a process that has none gets its own sandbox's. The caller sets
/// its own `HOME` after these.
pub fn places() -> Vec<(String, String)> {
    layout(&sandbox())
        .into_iter()
        .filter(|(k, _)| matches!(*k, "TMUX_TMPDIR" | "TMPDIR"))
        .map(|(k, own)| {
            let dir = std::env::var_os(k)
                .filter(|v| !v.is_empty())
                .map(PathBuf::from)
                .unwrap_or_else(|| {
                    create_private_dir(&own);
                    own
                });
            (k.to_string(), dir.display().to_string())
        })
        .collect()
}

/// The places of one test's `HOME` (a rig's own): its XDG folders (where they default to), `TMPDIR` and
/// tmux's default socket folder (`TMUX_TMPDIR`) inside it, the folders made. For a rig's spawns beside
/// their `HOME`.
pub fn home_places(home: &Path) -> Vec<(String, String)> {
    [
        ("TMPDIR", home.join("tmp")),
        ("TMUX_TMPDIR", home.join("tmux")),
        ("XDG_CONFIG_HOME", home.join(".config")),
        ("XDG_DATA_HOME", home.join(".local/share")),
        ("XDG_STATE_HOME", home.join(".local/state")),
        ("XDG_CACHE_HOME", home.join(".cache")),
    ]
    .into_iter()
    .map(|(k, p)| {
        if matches!(k, "TMPDIR" | "TMUX_TMPDIR") {
            create_private_dir(&p);
        }
        (k.to_string(), p.display().to_string())
    })
    .collect()
}

fn create_private_dir(dir: &Path) {
    use std::os::unix::fs::DirBuilderExt;
    let _ = std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir);
}

/// Moves this process into its sandbox (run before `main` by [`hermetic_test_binary!`], while no other
/// thread exists, so changing the environment is sound).
pub fn enter() {
    let set = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
    let machine_home = set("HOME");
    // The read-only tools keep pointing at the machine: computed from the real places first.
    if set("AGTERM_BACKUP_AGENT_CLIS").is_none() {
        if let Some(tools) = crate::paths::agent_clis_home() {
            std::env::set_var("AGTERM_BACKUP_AGENT_CLIS", tools);
        }
    }
    if let Some(home) = &machine_home {
        let tools = [
            ("CARGO_HOME", ".cargo"),
            ("RUSTUP_HOME", ".rustup"),
            // pyenv's shims (a pip-installed atuin) find their versions through it.
            ("PYENV_ROOT", ".pyenv"),
        ];
        for (var, dir) in tools {
            let path = Path::new(home).join(dir);
            if set(var).is_none() && path.is_dir() {
                std::env::set_var(var, path);
            }
        }
    }
    let _ = MACHINE_HOME.set(machine_home);
    let names: Vec<OsString> = std::env::vars_os()
        .map(|(k, _)| k)
        .filter(|k| k.to_str().is_some_and(names_a_machine_place))
        .collect();
    for name in names {
        std::env::remove_var(name);
    }
    let root = sandbox();
    for (var, dir) in layout(&root) {
        create_private_dir(&dir);
        std::env::set_var(var, dir);
    }
    // SAFETY: atexit with a plain `extern "C" fn` that does not unwind.
    unsafe { libc::atexit(leave) };
}

/// At exit: ends what still names the sandbox (a tmux server a test started on the sandbox's default
/// socket) and removes it.
extern "C" fn leave() {
    let root = sandbox();
    let _ = std::panic::catch_unwind(|| {
        // With its slash: the sandbox of pid 123 is no prefix of pid 1234's.
        crate::scratch::kill_processes_naming(&root.join(""));
        let _ = std::fs::remove_dir_all(&root);
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_places_of_terminals_agents_and_agterm_are_unset_and_the_tools_kept() {
        for name in [
            "TMUX",
            "TMUX_TMPDIR",
            "ZMX_DIR",
            "ZMX_SESSION",
            "XDG_RUNTIME_DIR",
            "AGTERM_SOCKET",
            "AGTERM_STATE_DIR",
            "AGTERM_BACKUP_HOME",
            "CODEX_HOME",
            "CLAUDE_CONFIG_DIR",
        ] {
            assert!(names_a_machine_place(name), "{name}");
        }
        for name in [
            "PATH",
            "AGTERM_BACKUP_AGENT_CLIS",
            "AGTERM_BACKUP_TEST_BINARY",
            "CARGO_HOME",
            "LANG",
            "CI",
        ] {
            assert!(!names_a_machine_place(name), "{name}");
        }
    }

    #[test]
    fn every_place_of_a_sandbox_lies_inside_it() {
        let root = Path::new("/x/sandbox");
        let l = layout(root);
        assert_eq!(l[0], ("HOME", root.join("home")));
        assert!(l.iter().all(|(_, p)| p.starts_with(root)));
    }
}
