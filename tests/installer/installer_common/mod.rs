//! Shared helpers of the installer's integration tests: a throwaway HOME with every config location
//! pointed inside it, and a runner for the real binary.

#![allow(dead_code)]

pub mod shell;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub struct Sandbox {
    pub dir: agterm_backup_testkit::scratch::ScratchDir,
}

impl Sandbox {
    pub fn new() -> Sandbox {
        let s = Sandbox {
            dir: agterm_backup_testkit::scratch::tempdir(),
        };
        std::fs::create_dir_all(s.home()).unwrap();
        s
    }
    pub fn home(&self) -> PathBuf {
        self.dir.path().join("home")
    }
    pub fn claude_dir(&self) -> PathBuf {
        self.dir.path().join("claude")
    }
    pub fn codex_home(&self) -> PathBuf {
        self.dir.path().join("codex")
    }
    pub fn agterm_state(&self) -> PathBuf {
        self.dir.path().join("agterm-state")
    }
    pub fn backup_home(&self) -> PathBuf {
        self.dir.path().join("agterm-backup-state")
    }
    pub fn claude_settings(&self) -> PathBuf {
        self.claude_dir().join("settings.json")
    }
    pub fn codex_config(&self) -> PathBuf {
        self.codex_home().join("config.toml")
    }
    pub fn codex_hooks_json(&self) -> PathBuf {
        self.codex_home().join("hooks.json")
    }
    pub fn denylist(&self) -> PathBuf {
        self.agterm_state().join("config/restore-denylist.conf")
    }
    /// The machine's root for managed policy files (`/etc/claude-code`, …): never the real one.
    pub fn system_root(&self) -> PathBuf {
        self.dir.path().join("system-root")
    }
    /// The tmux config `apply` writes when tmux is on `PATH` (it is in `/usr/bin` on the test machines).
    pub fn tmux_conf(&self) -> PathBuf {
        self.home().join(".tmux.conf")
    }

    /// The environment every run gets (and nothing of the caller's HOME).
    pub fn command(&self, path_var: &str) -> Command {
        let mut cmd = Command::new(binary());
        cmd.env_clear()
            .envs(agterm_backup_testkit::hermetic::places())
            .env("HOME", self.home())
            .env("PATH", path_var)
            .env("CLAUDE_CONFIG_DIR", self.claude_dir())
            .env("CODEX_HOME", self.codex_home())
            .env("AGTERM_STATE_DIR", self.agterm_state())
            .env("AGTERM_BACKUP_HOME", self.backup_home())
            .env("AGTERM_BACKUP_SYSTEM_ROOT", self.system_root())
            .current_dir(self.dir.path());
        cmd
    }

    /// Runs `agterm-backup <args>` with a PATH that has no `codex` on it.
    pub fn run(&self, args: &[&str]) -> Output {
        self.command("/usr/bin:/bin")
            .args(args)
            .output()
            .expect("agterm-backup runs")
    }
}

/// `installer apply --shell` with the login shell's rc files as the only files written (Gemini, the one
/// agent asked for, is not installed in a sandbox).
pub fn apply_shell_only() -> Vec<&'static str> {
    vec![
        "installer",
        "apply",
        "--agents",
        "gemini",
        "--no-denylist",
        "--no-tmux",
        "--shell",
    ]
}

pub fn binary() -> PathBuf {
    PathBuf::from(agterm_backup_testkit::agterm_backup_bin!())
}

/// The binary path as the installer writes it into hook commands.
pub fn canonical_binary() -> PathBuf {
    binary().canonicalize().expect("binary exists")
}

pub fn text(out: &[u8]) -> String {
    String::from_utf8_lossy(out).into_owned()
}

pub fn read_opt(path: &Path) -> Option<Vec<u8>> {
    std::fs::read(path).ok()
}

pub fn mtime(path: &Path) -> Option<std::time::SystemTime> {
    std::fs::metadata(path).and_then(|m| m.modified()).ok()
}

pub fn mode(path: &Path) -> Option<u32> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path)
        .map(|m| m.permissions().mode() & 0o7777)
        .ok()
}

pub fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/installer")
}

/// A PATH with `codex`'s folder first.
pub fn codex_dir_path(codex: &Path) -> String {
    format!("{}:/usr/bin:/bin", codex.parent().unwrap().display())
}

/// Our hooks among those `codex app-server` lists.
pub fn our_listed_hooks(listed: &serde_json::Value) -> Vec<serde_json::Value> {
    listed["data"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|entry| entry["hooks"].as_array().cloned().unwrap_or_default())
        .filter(|h| {
            h["command"]
                .as_str()
                .is_some_and(|c| agterm_backup_installer::command::is_ours(c, "codex"))
        })
        .collect()
}

/// `claude -p hi` in the sandbox, offline against the stub model at `base_url`, from a fresh `work` folder.
pub fn claude_print(claude: &Path, s: &Sandbox, base_url: &str) -> Output {
    claude_command(claude, s, base_url).output().unwrap()
}

/// The command [`claude_print`] runs, for a caller that adds arguments.
pub fn claude_command(claude: &Path, s: &Sandbox, base_url: &str) -> Command {
    let work = s.dir.path().join("work");
    std::fs::create_dir_all(&work).unwrap();
    let mut cmd = Command::new(claude);
    cmd.env_clear()
        .envs(agterm_backup_testkit::hermetic::places())
        .env("HOME", s.home())
        .env("CLAUDE_CONFIG_DIR", s.claude_dir())
        .env("AGTERM_BACKUP_HOME", s.backup_home())
        .env("PATH", "/usr/bin:/bin")
        .env("ANTHROPIC_BASE_URL", base_url)
        .env("ANTHROPIC_API_KEY", "sk-ant-test-0123456789abcdefghij")
        .env("DISABLE_AUTOUPDATER", "1")
        .env("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1")
        .current_dir(&work)
        .args(["-p", "hi"]);
    cmd
}

/// `agterm-backup installer apply --agents codex --no-denylist --trust` with the real `codex` on PATH.
pub fn apply_codex_trust(s: &Sandbox, codex: &Path) -> Output {
    s.command(&codex_dir_path(codex))
        .args([
            "installer",
            "apply",
            "--agents",
            "codex",
            "--no-denylist",
            "--trust",
        ])
        .output()
        .unwrap()
}
