//! Gemini CLI, Copilot CLI and Qwen Code in a throwaway home: the settings that skip their auth and trust
//! dialogs, the environment that points them at the [stub model](crate::stub_model), and where each keeps
//! its conversations. The facts are in `research/agents-offline-more.md`.

use super::{read_dir, write_json, AgentHome};
use crate::stub_model::StubModel;
use serde_json::json;
use std::path::{Path, PathBuf};

impl AgentHome {
    /// Seeds each agent's settings so it starts without a dialog, with `trusted_dirs` trusted (Gemini
    /// drops every hook in an untrusted folder; Copilot asks first). The user's own settings, before
    /// `installer apply` adds the hooks: any other hook here is the test's payload logger.
    pub fn seed_more_agents(&self, trusted_dirs: &[&Path], logger: Option<&str>) {
        let dirs: Vec<String> = trusted_dirs
            .iter()
            .map(|d| {
                d.canonicalize()
                    .unwrap_or_else(|_| d.to_path_buf())
                    .display()
                    .to_string()
            })
            .collect();
        let gemini = self.home.join(".gemini");
        let copilot = self.home.join(".copilot");
        let qwen = self.home.join(".qwen");
        for d in [&gemini, &copilot.join("hooks"), &qwen] {
            std::fs::create_dir_all(d).expect("create agent config folder");
        }
        let grouped =
            |events: &[&str]| -> serde_json::Value {
                logger
                .map(|c| {
                    let group = json!([{"matcher": "*", "hooks": [{"type": "command", "name": "log",
                                         "command": c, "timeout": 10000}]}]);
                    events.iter().map(|e| (e.to_string(), group.clone())).collect()
                })
                .unwrap_or_else(|| json!({}))
            };
        // Gemini and Qwen strip comments before parsing their settings: a user's comment must survive
        // the installer, and the agent must still read the file the installer wrote.
        write_commented(
            &gemini.join("settings.json"),
            &json!({
                "security": {"auth": {"selectedType": "gemini-api-key"}, "folderTrust": {"enabled": true}},
                "general": {"enableAutoUpdate": false, "enableAutoUpdateNotification": false},
                "privacy": {"usageStatisticsEnabled": false}, "telemetry": {"enabled": false},
                "ui": {"theme": "Default"}, "model": {"name": "gemini-2.5-flash"},
                "hooks": grouped(&["SessionStart", "BeforeAgent", "BeforeTool", "AfterAgent"]),
            }),
        );
        let trusted: serde_json::Map<String, serde_json::Value> = dirs
            .iter()
            .map(|d| (d.clone(), json!("TRUST_FOLDER")))
            .collect();
        write_json(&gemini.join("trustedFolders.json"), &trusted.into());
        write_json(
            &copilot.join("settings.json"),
            &json!({"banner": "never", "autoUpdate": false, "theme": "default"}),
        );
        write_json(
            &copilot.join("config.json"),
            &json!({"trustedFolders": dirs}),
        );
        if let Some(c) = logger {
            let handler = json!([{"type": "command", "bash": c, "timeoutSec": 10}]);
            let hooks: serde_json::Map<String, serde_json::Value> = super::HOOK_EVENTS
                .iter()
                .map(|e| (e.to_string(), handler.clone()))
                .collect();
            write_json(
                &copilot.join("hooks/log.json"),
                &json!({"version": 1, "hooks": hooks}),
            );
        }
        write_commented(
            &qwen.join("settings.json"),
            &json!({
                "security": {"auth": {"selectedType": "openai"}}, "model": {"name": "stub-model"},
                "general": {"enableAutoUpdate": false}, "privacy": {"usageStatisticsEnabled": false},
                "telemetry": {"enabled": false},
                "hooks": grouped(&super::HOOK_EVENTS),
            }),
        );
    }

    /// Seeds opencode's config folder: a provider pointing at `stub` (opencode has the openai-compatible
    /// SDK built in), and the `node_modules` + lockfile that stop it from running an npm install of its
    /// plugin package at every start (73 s offline).
    pub fn seed_opencode(&self, stub: &StubModel) {
        let dir = self.home.join(".config/opencode");
        std::fs::create_dir_all(dir.join("node_modules")).expect("create opencode config");
        write_json(
            &dir.join("opencode.json"),
            &json!({
                "provider": {"stub": {"npm": "@ai-sdk/openai-compatible", "name": "Stub",
                    "options": {"baseURL": format!("{}/v1", stub.base_url()), "apiKey": "stub"},
                    "models": {"stub-model": {"name": "Stub Model", "tool_call": true}}}},
                "model": "stub/stub-model", "small_model": "stub/stub-model",
                "autoupdate": false, "share": "disabled",
            }),
        );
        write_json(&dir.join("package.json"), &json!({"dependencies": {}}));
        write_json(
            &dir.join("package-lock.json"),
            &json!({"name": "opencode", "lockfileVersion": 3, "requires": true,
                    "packages": {"": {"dependencies": {"@opencode-ai/plugin": "*"}}}}),
        );
    }

    /// The variables that point Gemini, Copilot and Qwen at `stub`, offline.
    pub fn more_agents_env(&self, stub: &StubModel) -> Vec<(String, String)> {
        let v1 = format!("{}/v1", stub.base_url());
        [
            ("GOOGLE_GEMINI_BASE_URL", stub.base_url()),
            ("GEMINI_API_KEY", "stub-gemini-key".to_string()),
            ("NO_BROWSER", "true".to_string()),
            ("COPILOT_OFFLINE", "true".to_string()),
            ("COPILOT_AUTO_UPDATE", "false".to_string()),
            ("COPILOT_PROVIDER_BASE_URL", v1.clone()),
            ("COPILOT_PROVIDER_API_KEY", "stub".to_string()),
            ("COPILOT_MODEL", "gpt-4.1".to_string()),
            // Copilot unpacks ~235 MB on its first run: once per machine, not per throwaway HOME.
            ("COPILOT_CACHE_HOME", copilot_cache().display().to_string()),
            ("OPENAI_BASE_URL", v1),
            ("OPENAI_API_KEY", "stub".to_string()),
            ("OPENAI_MODEL", "stub-model".to_string()),
            ("OPENCODE_DISABLE_MODELS_FETCH", "1".to_string()),
            ("OPENCODE_DISABLE_AUTOUPDATE", "1".to_string()),
            ("OPENCODE_DISABLE_DEFAULT_PLUGINS", "1".to_string()),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect()
    }

    /// Whether `agent` keeps a conversation `id` on disk: Gemini
    /// `~/.gemini/tmp/<project>/chats/session-<time>-<id8>.jsonl`, Copilot
    /// `~/.copilot/session-state/<id>/events.jsonl`, Qwen `~/.qwen/projects/<slug>/chats/<id>.jsonl`.
    pub fn has_conversation(&self, agent: &str, id: &str) -> bool {
        self.conversation_files(agent, id)
            .iter()
            .any(|f| f.is_file())
    }

    /// The files of conversation `id` of `agent` (see [`AgentHome::has_conversation`]).
    pub fn conversation_files(&self, agent: &str, id: &str) -> Vec<PathBuf> {
        let chats = |root: PathBuf| -> Vec<PathBuf> {
            read_dir(&root)
                .into_iter()
                .flat_map(|p| read_dir(&p.join("chats")))
                .collect()
        };
        match agent {
            "gemini" => {
                let tail = format!("-{}.jsonl", id.get(..8).unwrap_or(id));
                chats(self.home.join(".gemini/tmp"))
                    .into_iter()
                    .filter(|f| f.display().to_string().ends_with(&tail))
                    .collect()
            }
            "copilot" => vec![self
                .home
                .join(".copilot/session-state")
                .join(id)
                .join("events.jsonl")],
            "qwen" => chats(self.home.join(".qwen/projects"))
                .into_iter()
                .filter(|f| {
                    f.file_name()
                        .is_some_and(|n| n == format!("{id}.jsonl").as_str())
                })
                .collect(),
            // SQLite: the id is stored as text in the database (or its write-ahead log).
            "opencode" => ["opencode.db", "opencode.db-wal"]
                .iter()
                .map(|f| self.home.join(".local/share/opencode").join(f))
                .filter(|f| {
                    std::fs::read(f).is_ok_and(|b| b.windows(id.len()).any(|w| w == id.as_bytes()))
                })
                .collect(),
            _ => Vec::new(),
        }
    }
}

/// `value` as pretty JSON after a `//` comment line.
fn write_commented(path: &Path, value: &serde_json::Value) {
    let text = format!(
        "// seeded by agterm-backup's test kit\n{}\n",
        serde_json::to_string_pretty(value).expect("serialize")
    );
    std::fs::write(path, text).unwrap_or_else(|e| panic!("write {}: {e}", path.display()));
}

/// Where Copilot's loader unpacks its platform binary: `copilot-cache` beside the agent CLIs (in the tools
/// folder, so once per machine and kept by `cargo clean`).
pub fn copilot_cache() -> PathBuf {
    crate::paths::agent_clis_home()
        .unwrap_or_else(|| crate::paths::workspace_root().join("target/agent-clis"))
        .join("copilot-cache")
}
