//! tmux-resurrect's side: the post-restore hook line we install, and whether its `@resurrect-processes`
//! would start an agent anew after a reboot (the tmux twin of agterm's restore denylist).
//!
//! Read from tmux-resurrect's scripts (`process_restore_helpers.sh`, `variables.sh`): the list is the
//! default list plus the user's, split as the shell splits words (`eval set`); `false` restores nothing,
//! `:all:` everything; an entry is matched up to `->` (its restore strategy); a `~entry` matches anywhere
//! in the pane's full command, a plain one only as its first word. resurrect `eval`s the hook option's
//! value in bash, from `run-shell`, so `$TMUX` names the restored server.

use agterm_backup_core::agent::AGENTS;
use agterm_backup_core::quote::quote;

/// The option resurrect runs after the whole restore.
pub const POST_RESTORE_OPTION: &str = "@resurrect-hook-post-restore-all";
/// The option resurrect runs at the end of every save (`save_all`'s last step, before the spinner stops):
/// continuum's timed saves and the user's `prefix + C-s` alike.
pub const POST_SAVE_OPTION: &str = "@resurrect-hook-post-save-all";
/// The option listing the programs resurrect re-runs.
pub const PROCESSES_OPTION: &str = "@resurrect-processes";

/// The shell line our hook runs: restore against this tmux server, in the background so that resurrect
/// (and its spinner) finish at once, with nothing written into the pane resurrect's `run-shell` shows.
/// Its outcome goes to `<state>/tmux/restore.log` (the last restore's; `$AGTERM_BACKUP_HOME`, else
/// `~/.agterm-backup`, as restore itself resolves the state directory), in a subshell: resurrect `eval`s
/// the line in its own script, whose variables (`d` among them) must stay as they are. First it notes
/// which panes the restorer rebuilt (`tmux-layout --rebuilt`): a pane opened later is a new pane.
pub fn hook_line(binary: &str) -> String {
    format!(
        "(d=\"${{AGTERM_BACKUP_HOME:-$HOME/.agterm-backup}}/tmux\"; umask 077; mkdir -p \"$d\" && \
         {b} tmux-layout --rebuilt; exec {b} restore --terminal tmux --yes >\"$d/restore.log\" 2>&1) \
         >/dev/null 2>&1 &",
        b = quote(binary)
    )
}

/// The shell line our post-save hook runs: it notes the layout resurrect just saved
/// (`tmux-layout --saved`), so a restore from this save puts each conversation in the pane rebuilt for
/// its own pane (a pane closed, moved or opened after the save moved nothing in the save). In the
/// foreground (it takes one `list-panes`, at most two seconds), printing nothing into the pane resurrect's
/// `run-shell` shows; resurrect `eval`s it with `$TMUX` set, like the restore hook.
pub fn save_hook_line(binary: &str) -> String {
    format!("{} tmux-layout --saved >/dev/null 2>&1", quote(binary))
}

/// Where [`hook_line`] keeps restore's outcome, under the state directory.
pub const RESTORE_LOG: &str = "tmux/restore.log";

/// The tmux hooks (tmux 3.x) that fire when a pane is closed, moved or renumbered: measured on tmux 3.3a,
/// `kill-pane` and `swap-pane` fire `window-layout-changed`, `break-pane` and `join-pane` that and
/// `window-linked` / `window-unlinked`, `move-window` (and `kill-window` under `renumber-windows`)
/// `window-linked` / `window-unlinked`, `rotate-window` `window-pane-changed`. (tmux has no `after-` hook
/// for those commands; `swap-window` and `move-window -r` fire nothing, and are caught at the hook's next
/// write.) Each runs `agterm-backup tmux-layout` in the background.
pub const LAYOUT_HOOKS: [&str; 10] = [
    "after-split-window",
    "after-new-window",
    "after-kill-pane",
    "pane-exited",
    "window-layout-changed",
    "window-pane-changed",
    "window-linked",
    "window-unlinked",
    "session-renamed",
    "session-closed",
];

/// The index in each hook's array we set: a fixed one, so sourcing the config again replaces ours, and the
/// user's own hooks (index 0 unless they chose) stay.
pub const LAYOUT_HOOK_INDEX: u32 = 47;

/// `(hook[index], tmux command)` for each of [`LAYOUT_HOOKS`].
pub fn layout_hooks(binary: &str) -> Vec<(String, String)> {
    let shell = format!("{} tmux-layout", quote(binary));
    LAYOUT_HOOKS
        .iter()
        .map(|h| {
            (
                format!("{h}[{LAYOUT_HOOK_INDEX}]"),
                format!("run-shell -b \"{}\"", tmux_escaped(&shell)),
            )
        })
        .collect()
}

/// Escapes for a tmux double-quoted string: `\`, `"` and `$` (tmux expands `$VAR` inside `"…"`), and `#`
/// doubled (`run-shell` expands formats in its command).
fn tmux_escaped(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\\' | '"' | '$' => {
                out.push('\\');
                out.push(c);
            }
            '#' => out.push_str("##"),
            c => out.push(c),
        }
    }
    out
}

/// The agents `@resurrect-processes = value` would re-run after a reboot, each with the entry that
/// matches it. Empty when resurrect would leave them alone.
pub fn replayed_agents(value: &str) -> Vec<(&'static str, String)> {
    let value = value.trim();
    if value == "false" {
        return Vec::new();
    }
    let entries = shell_words(value);
    AGENTS
        .iter()
        .filter_map(|spec| {
            let cmd = spec.name;
            let commands = [
                cmd.to_string(),
                format!("{cmd} --model sonnet"),
                format!("node /usr/local/bin/{cmd}"),
            ];
            if value == ":all:" {
                return Some((cmd, ":all:".to_string()));
            }
            entries
                .iter()
                .find(|e| commands.iter().any(|c| entry_matches(e, c)))
                .map(|e| (cmd, e.clone()))
        })
        .collect()
}

/// The warning `installer status` shows for `value`, if any.
pub fn processes_warning(value: &str) -> Option<String> {
    let hits = replayed_agents(value);
    if hits.is_empty() {
        return None;
    }
    let list: Vec<String> = hits
        .iter()
        .map(|(agent, entry)| format!("{agent} (entry {entry:?})"))
        .collect();
    Some(format!(
        "{PROCESSES_OPTION} re-runs {} after a restore: that starts a new conversation (or `--continue` \
         joins the wrong one) before agterm-backup resumes the right one; take them out of {PROCESSES_OPTION}",
        list.join(", ")
    ))
}

/// resurrect's `_proc_matches_full_command` (bash `=~`, an extended regex), with `->strategy` cut off
/// first. An entry that is no valid regex is compared as plain text.
fn entry_matches(entry: &str, full_command: &str) -> bool {
    let matcher = entry.split("->").next().unwrap_or(entry);
    let (anywhere, pattern) = match matcher.strip_prefix('~') {
        Some(rest) => (true, rest),
        None => (false, matcher),
    };
    if pattern.is_empty() {
        return false;
    }
    let regex = if anywhere {
        format!("({pattern})")
    } else {
        format!("^({pattern})( |$)")
    };
    match regex::Regex::new(&regex) {
        Ok(re) => re.is_match(full_command),
        Err(_) if anywhere => full_command.contains(pattern),
        Err(_) => {
            full_command == pattern
                || full_command
                    .strip_prefix(pattern)
                    .is_some_and(|rest| rest.starts_with(' '))
        }
    }
}

/// Splits like the shell's `eval set`: blanks separate words, quotes group, `\` escapes.
fn shell_words(text: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' | '\n' => {
                if let Some(w) = word.take() {
                    words.push(w);
                }
            }
            '\'' => {
                let w = word.get_or_insert_with(String::new);
                w.extend(chars.by_ref().take_while(|&c| c != '\''));
            }
            '"' => {
                let w = word.get_or_insert_with(String::new);
                while let Some(c) = chars.next() {
                    match c {
                        '"' => break,
                        '\\' => w.extend(chars.next()),
                        c => w.push(c),
                    }
                }
            }
            '\\' => word.get_or_insert_with(String::new).extend(chars.next()),
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    words.extend(word);
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replaying_entries_are_found() {
        for value in [
            "claude",
            "ssh claude",
            "'~claude->claude --continue'",
            "\"~claude->claude --continue\" psql",
            "~codex",
            ":all:",
            "vim \"claude *\"",
        ] {
            assert!(processes_warning(value).is_some(), "{value}");
        }
        let hit = replayed_agents("ssh '~codex->codex resume --last'");
        assert_eq!(
            hit,
            vec![("codex", "~codex->codex resume --last".to_string())]
        );
    }

    #[test]
    fn harmless_lists_give_no_warning() {
        for value in [
            "",
            "false",
            "ssh psql",
            "vim \"git log\"",
            "claudex",
            "~",
            "'tail -f'",
        ] {
            assert_eq!(processes_warning(value), None, "{value}");
        }
    }

    #[test]
    fn the_hook_line_quotes_the_binary_and_backgrounds() {
        let line = hook_line("/opt/my tools/agterm-backup");
        assert!(
            line.contains("exec '/opt/my tools/agterm-backup' restore --terminal tmux --yes >"),
            "{line}"
        );
        assert!(line.starts_with("(d=") && line.ends_with(" &"), "{line}");
        assert!(line.contains("AGTERM_BACKUP_HOME") && line.contains("restore.log"));
        let hooks = layout_hooks("/opt/a#b/agterm-backup");
        assert_eq!(hooks.len(), LAYOUT_HOOKS.len());
        assert_eq!(hooks[2].0, "after-kill-pane[47]");
        assert_eq!(
            hooks[2].1,
            "run-shell -b \"'/opt/a##b/agterm-backup' tmux-layout\""
        );
    }

    #[test]
    fn words_split_like_the_shell() {
        assert_eq!(
            shell_words(r#"a 'b c' "d \"e\"" f\ g"#),
            ["a", "b c", "d \"e\"", "f g"]
        );
    }
}
