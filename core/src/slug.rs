//! Claude Code's project slug (the folder name under `~/.claude/projects`), ported exactly.
