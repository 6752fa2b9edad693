//! The installer: wires `agterm-backup hook <agent>` into Claude Code's `settings.json`, Codex's
//! `config.toml` (or `hooks.json`) and agterm's `restore-denylist.conf`, and takes it out again, without
//! losing a byte of the user's files.
