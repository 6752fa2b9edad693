//! The user's tmux config: a marked block that sets tmux-resurrect's post-restore hook to run
//! `agterm-backup restore --terminal tmux --yes`, so a restored layout gets its conversations back, its
//! post-save hook to note the layout each save holds (`agterm-backup tmux-layout --saved`: the restore
//! rebuilds that one, not the last), and tmux hooks that keep the server's layout known to restore (`agterm-backup tmux-layout`) whenever a pane
//! is closed, moved or renumbered.
//!
//! tmux (3.x) reads, in this order and every one that exists, `~/.tmux.conf`,
//! `$XDG_CONFIG_HOME/tmux/tmux.conf` and `~/.config/tmux/tmux.conf`: our block goes into the first that
//! exists (else a new `~/.tmux.conf`). The block uses the markers of all our blocks, so finding it is
//! [`agterm_backup_core::marked_block::find_block`]. A hook the user set themselves is theirs: we refuse
//! rather than override it (a tmux option holds one value).
//!
//! **Where the block goes.** Above the first line that loads the plugins: TPM's `run '…/tpm/tpm'`, or a
//! manual `run-shell …/resurrect.tmux` / `…/continuum.tmux`. Read from their sources
//! (tmux-continuum 0698e8f, tmux-resurrect cff343c): TPM's `run` sources each plugin's `*.tmux`;
//! continuum's starts `continuum_restore.sh` in the background when the server started less than
//! `@continuum-restore-max-delay` (10) seconds ago, which sleeps one second and runs resurrect's
//! `restore.sh`; that reads `@resurrect-hook-post-restore-all` when it is done. A block below the plugin
//! line is set only once the rest of the config is read — later than that second on a slow config, and
//! never in time when `run-shell` (without `-b`) runs the plugins, and so the restore, while tmux is still
//! reading the file. Without such a line the block is appended (after one blank line), as before. The
//! block written above a line says so in its note, which is how `remove` knows to take out exactly its
//! bytes (an appended block also takes the blank line before it).
//!
//! The installer edits this file through the registry row's `config_file`, [`CONFIG_FILE`].

pub mod checks;
pub mod lines;

use crate::resurrect::{
    hook_line, layout_hooks, processes_warning, save_hook_line, POST_RESTORE_OPTION,
    POST_SAVE_OPTION, PROCESSES_OPTION,
};
use agterm_backup_core::config_file::TerminalConfigFile;
use agterm_backup_core::marked_block::{appended, find_block, BLOCK_END, BLOCK_START};
use agterm_backup_core::refusal::Refusal;
use lines::outside_block_lines;
pub use lines::{option_value, plugin_line};
use std::path::{Path, PathBuf};

/// The tmux config as the installer edits it: a target where tmux is installed or our block is
/// ([`installer_target`]; `--no-tmux` leaves it alone), our block naming the binary.
pub static CONFIG_FILE: TerminalConfigFile = TerminalConfigFile {
    target: "tmux",
    file: "tmux.conf",
    what: "tmux config",
    flag: "no-tmux",
    flag_help: "Leave the tmux config alone (no tmux-resurrect post-restore hook)",
    apply_help: "restore to tmux-resurrect's post-restore hook",
    remove_help: None,
    names_binary: true,
    mode: 0o644,
    path: installer_target,
    apply,
    remove,
    has_ours,
    notes: |_| Vec::new(),
    state,
    warnings,
    denies: None,
};

const BLOCK_NOTE: &str = "# agterm-backup resumes agent conversations after tmux-resurrect restores the panes; `agterm-backup installer remove` takes this block out.";
/// The note of a block written above the plugin lines (and so removed without a blank line).
const BLOCK_NOTE_ABOVE: &str = "# agterm-backup resumes agent conversations after tmux-resurrect restores the panes (keep this block above the plugin lines: tmux-continuum restores while they load); `agterm-backup installer remove` takes this block out.";

/// The config files tmux reads, in its order.
pub fn read_order(env: impl Fn(&str) -> Option<String>) -> Option<Vec<PathBuf>> {
    let home = PathBuf::from(env("HOME").filter(|h| !h.is_empty())?);
    let mut files = vec![home.join(".tmux.conf")];
    if let Some(xdg) = env("XDG_CONFIG_HOME").filter(|x| !x.is_empty()) {
        files.push(Path::new(&xdg).join("tmux/tmux.conf"));
    }
    files.push(home.join(".config/tmux/tmux.conf"));
    files.dedup();
    Some(files)
}

/// The file our block belongs in: the first of [`read_order`] that exists, else `~/.tmux.conf`.
pub fn target_path(
    env: impl Fn(&str) -> Option<String>,
    exists: impl Fn(&Path) -> bool,
) -> Option<PathBuf> {
    let files = read_order(env)?;
    Some(
        files
            .iter()
            .find(|p| exists(p))
            .unwrap_or(&files[0])
            .clone(),
    )
}

/// The config `installer apply` writes to: [`target_path`], when tmux is installed (`tmux` in a `$PATH`
/// folder) or the file already holds our block; `Ok(None)` otherwise, or without a `HOME`.
pub fn installer_target(
    env: &dyn Fn(&str) -> Option<String>,
    read: &dyn Fn(&Path) -> Option<String>,
    exists: &dyn Fn(&Path) -> bool,
) -> Result<Option<PathBuf>, String> {
    let Some(path) = target_path(env, exists) else {
        return Ok(None);
    };
    let on_path = env("PATH")
        .unwrap_or_default()
        .split(':')
        .filter(|d| !d.is_empty())
        .any(|d| exists(&Path::new(d).join("tmux")));
    let ours = read(&path).is_some_and(|t| has_ours(&t));
    Ok((on_path || ours).then_some(path))
}

/// Our block for `binary` as appended at the end of a config, exactly as written (LF, ending with a
/// newline).
pub fn our_block(binary: &str) -> String {
    block(binary, BLOCK_NOTE, true)
}

/// Our block for `binary` as written above the plugin lines.
pub fn our_block_above(binary: &str) -> String {
    block(binary, BLOCK_NOTE_ABOVE, true)
}

/// The resurrect hook options we set, each with the line it runs for `binary`.
fn resurrect_hooks(binary: &str) -> [(&'static str, String); 2] {
    [
        (POST_RESTORE_OPTION, hook_line(binary)),
        (POST_SAVE_OPTION, save_hook_line(binary)),
    ]
}

/// `with_save`: the post-save hook too (left out where the user sets their own: joins then follow the
/// last layout, and `status` says so).
fn block(binary: &str, note: &str, with_save: bool) -> String {
    let mut out = format!("{BLOCK_START}\n{note}\n");
    let hooks = resurrect_hooks(binary);
    for (option, line) in hooks
        .iter()
        .filter(|(o, _)| with_save || *o != POST_SAVE_OPTION)
    {
        out.push_str(&format!(
            "set -g {option} \"{}\"\n",
            tmux_double_quoted(line)
        ));
    }
    for (hook, command) in layout_hooks(binary) {
        out.push_str(&format!(
            "set-hook -g {hook} \"{}\"\n",
            tmux_double_quoted(&command)
        ));
    }
    out.push_str(BLOCK_END);
    out.push('\n');
    out
}

/// `text` with our block for `binary` in place: above the first plugin line (TPM's `run`, a `run-shell`
/// of resurrect or continuum), else appended after a blank line. A block already there is taken out
/// first ([`remove`] is byte-exact), so an old block below the plugin lines moves up. Refuses when the
/// user sets the post-restore hook themselves (the block's reason to be); a post-save hook of theirs
/// stays theirs and the block goes without ours.
pub fn apply(original: Option<&str>, binary: &str) -> Result<String, Refusal> {
    let Some(text) = original else {
        return Ok(our_block(binary));
    };
    let with_save = user_setting(text, POST_SAVE_OPTION).is_none();
    let (appended_form, above_form) = (
        block(binary, BLOCK_NOTE, with_save),
        block(binary, BLOCK_NOTE_ABOVE, with_save),
    );
    for (option, line) in resurrect_hooks(binary) {
        if option == POST_SAVE_OPTION {
            continue;
        }
        if let Some(offset) = user_setting(text, option) {
            return Err(Refusal::at_offset(
                text,
                offset,
                format!(
                    "{option} is already set here; tmux keeps one value, so add `; {line}` to your \
                     hook yourself, or remove yours and run again"
                ),
            ));
        }
    }
    let base = remove(text);
    let plugins_at = plugin_line(&base).map(|(at, _)| at);
    if let Some(range) = find_block(text) {
        // Where it is, unless it is below the plugin line: then it moves.
        if plugins_at.is_none_or(|at| range.start <= at) {
            let form = match text[range.clone()].contains(BLOCK_NOTE_ABOVE) {
                true => &above_form,
                false => &appended_form,
            };
            return Ok(format!(
                "{}{form}{}",
                &text[..range.start],
                &text[range.end..]
            ));
        }
    }
    // A byte order mark stays with the line it starts (before it, our start marker would not be ours).
    Ok(match plugins_at {
        Some(at) => format!("{}{above_form}{}", &base[..at], &base[at..]),
        None => appended(&base, &appended_form),
    })
}

/// `text` without our block: exactly its bytes when it was written above a line, else also the one
/// blank line we put before it. Everything else stays.
pub fn remove(text: &str) -> String {
    let Some(range) = find_block(text) else {
        return text.to_string();
    };
    let mut start = range.start;
    let above = text[range.clone()].contains(BLOCK_NOTE_ABOVE);
    if !above && text[..start].ends_with("\n\n") {
        start -= 1;
    }
    format!("{}{}", &text[..start], &text[range.end..])
}

/// Whether `text` holds a block of ours (any binary).
pub fn has_ours(text: &str) -> bool {
    find_block(text).is_some()
}

/// Where a line outside our block sets `option` (its byte offset), if one does.
fn user_setting(text: &str, option: &str) -> Option<usize> {
    outside_block_lines(text)
        .find(|(_, line)| line.split_whitespace().any(|w| w == option))
        .map(|(offset, _)| offset)
}

/// `installer status`'s word for the tmux config `text` and `binary`: `present` (our block, this
/// binary), `outdated` (our block, another binary), `absent`.
pub fn state(text: &str, binary: &str) -> &'static str {
    let with_save = user_setting(text, POST_SAVE_OPTION).is_none();
    let ours = [
        block(binary, BLOCK_NOTE, with_save),
        block(binary, BLOCK_NOTE_ABOVE, with_save),
    ];
    match find_block(text) {
        Some(range)
            if ours
                .iter()
                .any(|b| text[range.clone()].trim_end() == b.trim_end()) =>
        {
            "present"
        }
        Some(_) => "outdated",
        None => "absent",
    }
}

/// `installer status`'s warnings about the tmux config `text` for `binary`: the hook cannot fire
/// ([`checks`], asked of this process's `HOME`, environment and disk) when our block is there,
/// `@resurrect-processes` would re-run an agent, or the user's own hook keeps ours out.
pub fn warnings(text: &str, binary: &str) -> Vec<String> {
    let mut out = Vec::new();
    if state(text, binary) != "absent" {
        let home = std::env::var_os("HOME")
            .map(PathBuf::from)
            .unwrap_or_default();
        let facts = checks::facts(text, &home, |k| std::env::var(k).ok(), |p| p.exists());
        out.extend(checks::hook_warnings(text, &facts));
    }
    if let Some(warning) = option_value(text, PROCESSES_OPTION).and_then(|v| processes_warning(&v))
    {
        out.push(warning);
    }
    for (option, line) in resurrect_hooks(binary) {
        if user_setting(text, option).is_none() {
            continue;
        }
        out.push(if option == POST_SAVE_OPTION {
            format!(
                "{option} is set by you, so our block goes without it and a restore follows the last \
                 layout instead of the one resurrect saved: add `; {line}` to your hook"
            )
        } else {
            format!(
                "{option} is set by you, so `installer apply` leaves this file alone: add `; {line}` to \
                 your hook"
            )
        });
    }
    out
}

/// Escapes for a tmux double-quoted string: `\`, `"` and `$` (tmux expands `$VAR` inside `"…"`).
fn tmux_double_quoted(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(c, '\\' | '"' | '$') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests;
