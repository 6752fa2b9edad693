//! Planning and committing: for each target, the new text (or nothing to do), shown as a diff in a dry
//! run, written through [`fsio`] otherwise.
//!
//! `remove` gives back the exact original bytes when nothing but our edit happened since: if the backup
//! holds none of ours and applying to it gives today's text, the backup *is* the original. When the file
//! changed since, our edit is undone exactly ([`unapply`]: the user's changes stay byte for byte, our
//! bytes go), unless the user's changes touch ours. A file we created (today's text is what we write into
//! an absent file) is deleted. Otherwise our entries are cut out structurally, and what that cut loses of
//! the original (an empty container it had, a missing final newline) is put back. A refresh of our entries
//! keeps the backup of the original, so all this still works after `apply` ran again.

use crate::agent_hooks;
use crate::fsio::{self, CommitError, FileState};
use crate::refusal::{decode_utf8, FileRefusal, Refusal};
use crate::shell_rc;
pub use crate::target::{Target, TargetKind};
use crate::{codex_toml, json_hooks, kimi_toml, opencode_plugin, unapply};
use std::path::Path;

impl Target {
    /// The text with our entries in place (`None` = the file does not exist).
    pub fn apply_text(&self, original: Option<&str>) -> Result<String, Refusal> {
        match self.kind {
            TargetKind::ClaudeSettings => json_hooks::apply(original, "claude", &self.command),
            TargetKind::CodexHooksJson => json_hooks::apply(original, "codex", &self.command),
            TargetKind::CodexConfig => codex_toml::apply(original, &self.command),
            TargetKind::ConfigFile(file) => (file.apply)(original, &self.command),
            TargetKind::AgentHooks(row) => agent_hooks::apply(row, original, &self.command),
            TargetKind::OpencodePlugin => opencode_plugin::apply(original, &self.command),
            TargetKind::KimiConfig => kimi_toml::apply(original, &self.command),
            TargetKind::ShellRc(rc) => shell_rc::apply(rc, original, &self.command),
        }
    }

    /// The text without our entries.
    pub fn remove_text(&self, current: &str) -> Result<String, Refusal> {
        match self.kind {
            TargetKind::ClaudeSettings => json_hooks::remove(current, "claude"),
            TargetKind::CodexHooksJson => json_hooks::remove(current, "codex"),
            TargetKind::CodexConfig => {
                codex_toml::remove(current, &codex_toml::trust_sources(&self.path))
            }
            TargetKind::ConfigFile(file) => Ok((file.remove)(current)),
            TargetKind::AgentHooks(row) => agent_hooks::remove(row, current),
            TargetKind::OpencodePlugin => opencode_plugin::remove(current),
            TargetKind::KimiConfig => kimi_toml::remove(current),
            TargetKind::ShellRc(rc) => shell_rc::remove(rc, current),
        }
    }

    /// What `apply` keeps of the user's that looks like ours (a lone marker, a table between our markers).
    pub fn notes(&self, text: &str) -> Vec<String> {
        match self.kind {
            TargetKind::CodexConfig => codex_toml::notes(text),
            TargetKind::ConfigFile(file) => (file.notes)(text),
            TargetKind::ClaudeSettings
            | TargetKind::CodexHooksJson
            | TargetKind::AgentHooks(_)
            | TargetKind::OpencodePlugin
            | TargetKind::KimiConfig
            | TargetKind::ShellRc(_) => Vec::new(),
        }
    }

    /// `undone` without the trust records Codex filed, since our edit, for our hooks in `current` (they
    /// look like the user's additions to a three-way merge).
    fn without_trust_of_ours_in(&self, current: &str, undone: String) -> String {
        if self.kind != TargetKind::CodexConfig {
            return undone;
        }
        let positions = codex_toml::our_positions(current);
        let sources = codex_toml::trust_sources(&self.path);
        codex_toml::remove_trust_of(&undone, &sources, &positions).unwrap_or(undone)
    }

    /// The structural `cut` of a file whose user's changes touch our bytes, with what cutting loses of the
    /// `original` put back where the user left it alone: an empty `"hooks": {}` or `"Stop": []` it had, the
    /// missing final newline, the one-line layout. What the cut alone makes of the file as we left it
    /// (`applied`) differs from `original` in exactly those bytes; that difference is undone in `cut`.
    fn cut_as_original(&self, original: &str, applied: &str, cut: &str) -> Option<String> {
        let cut_applied = self.remove_text(applied).ok()?;
        unapply::unapply(original, &cut_applied, cut).filter(|r| self.is_clean(r))
    }

    /// Whether `text` is a file we could have left: it parses and holds nothing of ours.
    pub fn is_clean(&self, text: &str) -> bool {
        !self.has_ours(text) && self.remove_text(text).is_ok_and(|cut| cut == text)
    }

    /// Whether `text` holds any entry of ours (whatever binary path it names).
    pub fn has_ours(&self, text: &str) -> bool {
        match self.kind {
            TargetKind::ClaudeSettings => inspect_json(text, "claude"),
            TargetKind::CodexHooksJson => inspect_json(text, "codex"),
            TargetKind::CodexConfig => codex_toml::has_ours(text),
            TargetKind::ConfigFile(file) => (file.has_ours)(text),
            TargetKind::AgentHooks(row) => agent_hooks::has_ours(row, text),
            TargetKind::OpencodePlugin => opencode_plugin::is_ours(text),
            TargetKind::KimiConfig => kimi_toml::has_ours(text),
            TargetKind::ShellRc(_) => shell_rc::has_ours(text),
        }
    }
}

fn inspect_json(text: &str, agent: &str) -> bool {
    json_hooks::our_positions(text, agent).is_ok_and(|p| !p.is_empty())
}

/// A planned change of one file: `after` is `None` when the file is to be deleted.
#[derive(Debug, Clone)]
pub struct Change {
    pub target: Target,
    pub file: FileState,
    pub before: Option<String>,
    pub after: Option<String>,
    /// Leave the backup as it is: it holds the file before our first edit, which a refresh of our entries
    /// must not replace with a file holding ours (`remove` needs the original to give it back exactly).
    pub keep_backup: bool,
}

impl Change {
    /// Nothing to write.
    pub fn is_noop(&self) -> bool {
        self.before == self.after
    }

    /// A unified diff of the change (empty for a no-op).
    pub fn diff(&self) -> String {
        if self.is_noop() {
            return String::new();
        }
        let old = self.before.as_deref().unwrap_or("");
        let new = self.after.as_deref().unwrap_or("");
        let path = self.target.path.display().to_string();
        let old_name = if self.before.is_some() {
            format!("a{path}")
        } else {
            "/dev/null".into()
        };
        let new_name = if self.after.is_some() {
            format!("b{path}")
        } else {
            "/dev/null".into()
        };
        similar::TextDiff::from_lines(old, new)
            .unified_diff()
            .context_radius(3)
            .header(&old_name, &new_name)
            .to_string()
    }

    /// Whether the change adds our hooks or takes them out.
    fn edit(&self) -> Edit {
        match &self.after {
            Some(after) if self.target.has_ours(after) => Edit::Apply,
            _ => Edit::Remove,
        }
    }

    /// Writes the change (nothing for a no-op, so not even the mtime moves).
    pub fn commit(&self) -> Result<(), Problem> {
        if self.is_noop() {
            return Ok(());
        }
        if self.file.is_read_only() {
            return Err(read_only(&self.file, self.edit(), self.target.kind));
        }
        let after = self.after.as_deref().map(str::as_bytes);
        fsio::commit(&self.file, after, self.target.kind.new_file_mode(), self.keep_backup)
            .map_err(|e| match e {
                CommitError::Changed => Problem::Failed(format!(
                    "{}: changed by something else while we were editing it; nothing written, run the command again",
                    self.file.addressed.display()
                )),
                CommitError::Io(e) => Problem::Failed(format!(
                    "{}: cannot write: {e}",
                    self.file.real.display()
                )),
            })
    }
}

/// Why a plan or commit stopped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Problem {
    /// A file we will not touch (exit 2).
    Refused(FileRefusal),
    /// An operation that failed (exit 1).
    Failed(String),
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Problem::Refused(r) => r.fmt(f),
            Problem::Failed(m) => f.write_str(m),
        }
    }
}

/// What to do by hand instead of a write to a frozen file, for each way we change it.
#[derive(Clone, Copy)]
enum Edit {
    Apply,
    Remove,
}

fn read_only(file: &FileState, edit: Edit, kind: TargetKind) -> Problem {
    let by_hand = match (edit, kind) {
        (Edit::Apply, TargetKind::ShellRc(_)) => {
            "add our block by hand (`agterm-backup installer apply --shell --dry-run` shows it)"
        }
        (Edit::Remove, TargetKind::ShellRc(_)) => {
            "delete our block (from `# >>> agterm-backup >>>` to `# <<< agterm-backup <<<`) by hand"
        }
        (Edit::Apply, _) => "add our hooks by hand",
        (Edit::Remove, _) => {
            "take our hooks out by hand (`agterm-backup installer status` lists them)"
        }
    };
    Problem::Failed(format!(
        "{}: is read-only (mode {:o}); make it writable or {by_hand}, nothing written",
        file.real.display(),
        file.mode.unwrap_or(0)
    ))
}

fn read_text(path: &Path) -> Result<(FileState, Option<String>), Problem> {
    let file = fsio::read(path)
        .map_err(|e| Problem::Failed(format!("{}: cannot read: {e}", path.display())))?;
    let text = match &file.bytes {
        Some(bytes) => Some(
            decode_utf8(bytes)
                .map_err(|r| Problem::Refused(r.in_file(path)))?
                .to_string(),
        ),
        None => None,
    };
    Ok((file, text))
}

/// Plans adding our entries to `target`.
pub fn plan_apply(target: &Target) -> Result<Change, Problem> {
    let (file, before) = read_text(&target.path)?;
    let after = target
        .apply_text(before.as_deref())
        .map_err(|r| Problem::Refused(r.in_file(&target.path)))?;
    let keep_backup =
        before.as_deref().is_some_and(|b| target.has_ours(b)) && backup_of(&file, target).is_some();
    let change = Change {
        target: target.clone(),
        file,
        before,
        after: Some(after),
        keep_backup,
    };
    if !change.is_noop() && change.file.is_read_only() {
        return Err(read_only(&change.file, Edit::Apply, target.kind));
    }
    Ok(change)
}

/// Plans taking our entries out of `target` (see the module docs for when the original comes back).
pub fn plan_remove(target: &Target) -> Result<Change, Problem> {
    let (file, before) = read_text(&target.path)?;
    let refuse = |r: Refusal| Problem::Refused(r.in_file(&target.path));
    let after = match before.as_deref() {
        None => None,
        Some(current) => {
            // Parse first: a file we cannot read is refused here too, even when it holds nothing of ours.
            let cut = target.remove_text(current).map_err(refuse)?;
            match backup_of(&file, target) {
                Some(original) => match target.apply_text(Some(&original)) {
                    Ok(applied) if applied == current => Some(original),
                    // Changed since: undo exactly our edit where the user's changes leave it whole.
                    Ok(applied) => Some(
                        unapply::unapply(&original, &applied, current)
                            .map(|r| target.without_trust_of_ours_in(current, r))
                            .filter(|r| target.is_clean(r))
                            .or_else(|| target.cut_as_original(&original, &applied, &cut))
                            .unwrap_or(cut),
                    ),
                    Err(_) => Some(cut),
                },
                None if target.has_ours(current)
                    && target.apply_text(None).ok().as_deref() == Some(current) =>
                {
                    None
                }
                // A whole file of ours (opencode's plugin), or an rc file holding nothing but our block
                // and no backup of an earlier text (we created it), goes whatever binary it names.
                None if cut.is_empty()
                    && matches!(
                        target.kind,
                        TargetKind::OpencodePlugin | TargetKind::ShellRc(_)
                    ) =>
                {
                    None
                }
                None => Some(cut),
            }
        }
    };
    let change = Change {
        target: target.clone(),
        file,
        before,
        after,
        keep_backup: false,
    };
    if !change.is_noop() && change.file.is_read_only() {
        return Err(read_only(&change.file, Edit::Remove, target.kind));
    }
    Ok(change)
}

/// The backup beside `file` when it holds the file before our edit: text with none of ours.
fn backup_of(file: &FileState, target: &Target) -> Option<String> {
    std::fs::read(file.backup_path())
        .ok()
        .and_then(|b| String::from_utf8(b).ok())
        .filter(|b| !target.has_ours(b))
}

/// For a Codex `hooks.json` target: taking out of `config.toml` the trust records Codex filed there for our
/// hooks in `hooks.json` (keyed by that file's path and our hooks' positions). A `config.toml` left with
/// nothing but blank lines goes: Codex created it only to hold those records. `None` when there is
/// nothing to do.
pub fn plan_remove_hooks_json_trust(target: &Target) -> Option<Result<Change, Problem>> {
    if target.kind != TargetKind::CodexHooksJson {
        return None;
    }
    let hooks_json = std::fs::read_to_string(&target.path).ok()?;
    let positions = json_hooks::our_positions(&hooks_json, "codex").ok()?;
    let config = Target {
        kind: TargetKind::CodexConfig,
        path: target.path.with_file_name("config.toml"),
        command: target.command.clone(),
    };
    let plan = || {
        let (file, before) = read_text(&config.path)?;
        let Some(current) = before.clone() else {
            return Ok(None);
        };
        let sources = codex_toml::trust_sources(&target.path);
        let cut = codex_toml::remove_trust_of(&current, &sources, &positions)
            .map_err(|r| Problem::Refused(r.in_file(&config.path)))?;
        if cut == current {
            return Ok(None);
        }
        let after = (!cut.trim().is_empty()).then_some(cut);
        Ok(Some(Change {
            target: config.clone(),
            file,
            before,
            after,
            keep_backup: false,
        }))
    };
    plan().transpose()
}
