//! The user's tmux config: a marked block that sets tmux-resurrect's post-restore hook to run
//! `agterm-backup restore --terminal tmux --yes`, so a restored layout gets its conversations back.
//!
//! tmux (3.x) reads, in this order and every one that exists, `~/.tmux.conf`,
//! `$XDG_CONFIG_HOME/tmux/tmux.conf` and `~/.config/tmux/tmux.conf`: our block goes into the first that
//! exists (else a new `~/.tmux.conf`). The block uses the same markers as the denylist's, so finding it
//! is [`agterm_backup_denylist::find_block`]. A hook the user set
//! themselves is theirs: we refuse rather than override it (a tmux option holds one value).

use crate::refusal::Refusal;
use crate::status::TargetReport;
use agterm_backup_denylist::{appended, find_block, BLOCK_END, BLOCK_START};
use agterm_backup_tmux::resurrect::{
    hook_line, processes_warning, POST_RESTORE_OPTION, PROCESSES_OPTION,
};
use std::path::{Path, PathBuf};

const BLOCK_NOTE: &str = "# agterm-backup resumes agent conversations after tmux-resurrect restores the panes; `agterm-backup installer remove` takes this block out.";

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

/// Our block for `binary`, exactly as written (LF, ending with a newline).
pub fn our_block(binary: &str) -> String {
    format!(
        "{BLOCK_START}\n{BLOCK_NOTE}\nset -g {POST_RESTORE_OPTION} \"{}\"\n{BLOCK_END}\n",
        tmux_double_quoted(&hook_line(binary))
    )
}

/// `text` with our block for `binary` in place (refreshed where it is, else appended after a blank line).
/// Refuses when the user sets the post-restore hook themselves.
pub fn apply(original: Option<&str>, binary: &str) -> Result<String, Refusal> {
    let block = our_block(binary);
    let Some(text) = original else {
        return Ok(block);
    };
    if let Some(offset) = user_setting(text, POST_RESTORE_OPTION) {
        return Err(Refusal::at_offset(
            text,
            offset,
            format!(
                "{POST_RESTORE_OPTION} is already set here; tmux keeps one value, so add \
                 `; {}` to your hook yourself, or remove yours and run again",
                hook_line(binary)
            ),
        ));
    }
    if let Some(range) = find_block(text) {
        return Ok(format!(
            "{}{block}{}",
            &text[..range.start],
            &text[range.end..]
        ));
    }
    Ok(appended(text, &block))
}

/// `text` without our block (and the one blank line we put before it). Everything else stays.
pub fn remove(text: &str) -> String {
    let Some(range) = find_block(text) else {
        return text.to_string();
    };
    let mut start = range.start;
    if text[..start].ends_with("\n\n") {
        start -= 1;
    }
    format!("{}{}", &text[..start], &text[range.end..])
}

/// Whether `text` holds a block of ours (any binary).
pub fn has_ours(text: &str) -> bool {
    find_block(text).is_some()
}

/// The value the config gives `option` outside our block (the last `set … <option> <value>` wins), with
/// tmux's quotes taken off. `None` when it is not set there.
pub fn option_value(text: &str, option: &str) -> Option<String> {
    outside_block_lines(text)
        .filter_map(|(_, line)| {
            let words: Vec<&str> = line.splitn(2, option).collect();
            let head = words[0].split_whitespace().next()?;
            let is_set = matches!(head, "set" | "set-option" | "setw" | "set-window-option");
            (is_set && words.len() == 2).then(|| unquote(words[1].trim()))
        })
        .last()
}

/// Where a line outside our block sets `option` (its byte offset), if one does.
fn user_setting(text: &str, option: &str) -> Option<usize> {
    outside_block_lines(text)
        .find(|(_, line)| line.split_whitespace().any(|w| w == option))
        .map(|(offset, _)| offset)
}

/// Non-comment lines outside our block, with their byte offsets.
fn outside_block_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let block = find_block(text).unwrap_or(0..0);
    let mut offset = 0;
    text.split_inclusive('\n').filter_map(move |l| {
        let here = offset;
        offset += l.len();
        let body = l.trim();
        (!block.contains(&here) && !body.is_empty() && !body.starts_with('#'))
            .then_some((here, body))
    })
}

/// Fills `installer status`'s report of the tmux config `text` for `binary`: `present` (our block, this
/// binary), `outdated` (our block, another binary), `absent`; warnings when `@resurrect-processes` would
/// re-run an agent, or the user's own post-restore hook keeps ours out.
pub fn report(report: &mut TargetReport, text: Option<&str>, binary: &str) {
    let text = text.unwrap_or("");
    report.state = match find_block(text) {
        Some(range) if text[range.clone()].trim_end() == our_block(binary).trim_end() => "present",
        Some(_) => "outdated",
        None => "absent",
    };
    if let Some(warning) = option_value(text, PROCESSES_OPTION).and_then(|v| processes_warning(&v))
    {
        report.warnings.push(warning);
    }
    if user_setting(text, POST_RESTORE_OPTION).is_some() {
        report.warnings.push(format!(
            "{POST_RESTORE_OPTION} is set by you, so `installer apply` leaves this file alone: add              `; {}` to your hook",
            hook_line(binary)
        ));
    }
}

/// Takes tmux's quotes off a value: `'…'` verbatim, `"…"` with `\` escapes, else the first word.
fn unquote(value: &str) -> String {
    if let Some(rest) = value.strip_prefix('\'') {
        return rest.split('\'').next().unwrap_or_default().to_string();
    }
    if let Some(rest) = value.strip_prefix('"') {
        let mut out = String::new();
        let mut chars = rest.chars();
        while let Some(c) = chars.next() {
            match c {
                '"' => break,
                '\\' => out.extend(chars.next()),
                c => out.push(c),
            }
        }
        return out;
    }
    value
        .split_whitespace()
        .next()
        .unwrap_or_default()
        .to_string()
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
mod tests {
    use super::*;

    const BIN: &str = "/opt/agterm backup/bin/agterm-backup";

    #[test]
    fn apply_appends_and_remove_gives_back_every_byte() {
        for original in [
            "set -g mouse on\nrun '~/.tmux/plugins/tpm/tpm'\n",
            "set -g mouse on",
            "",
            "\r\n# only a comment\r\n",
        ] {
            let applied = apply(Some(original), BIN).unwrap();
            assert!(applied.starts_with(original), "{applied:?}");
            assert!(has_ours(&applied));
            assert_eq!(apply(Some(&applied), BIN).unwrap(), applied, "idempotent");
            let removed = remove(&applied);
            let expected = if original.ends_with('\n') || original.is_empty() {
                original.to_string()
            } else {
                format!("{original}\n")
            };
            assert_eq!(removed, expected);
        }
        assert_eq!(apply(None, BIN).unwrap(), our_block(BIN));
    }

    #[test]
    fn a_moved_binary_refreshes_the_block_in_place() {
        let old = apply(Some("a\n"), "/old/agterm-backup").unwrap();
        let with_tail = format!("{old}set -g b on\n");
        let new = apply(Some(&with_tail), BIN).unwrap();
        assert!(new.contains(&tmux_double_quoted(&hook_line(BIN))));
        assert!(!new.contains("/old/"));
        assert!(new.ends_with("set -g b on\n"));
    }

    #[test]
    fn a_users_own_hook_is_refused_with_its_place() {
        let text = "set -g mouse on\nset -g @resurrect-hook-post-restore-all 'my-script'\n";
        let e = apply(Some(text), BIN).unwrap_err();
        assert_eq!((e.line, e.column), (2, 1));
        assert!(e.reason.contains("already set"), "{}", e.reason);
    }

    #[test]
    fn option_values_as_tmux_reads_them() {
        let text = "set -g @resurrect-processes 'ssh psql'\n\
                    # set -g @resurrect-processes 'claude'\n\
                    set-option -g @resurrect-processes \"vim \\\"~claude->claude --continue\\\"\"\n";
        assert_eq!(
            option_value(text, "@resurrect-processes").as_deref(),
            Some("vim \"~claude->claude --continue\"")
        );
        assert_eq!(
            option_value("set -g mouse on\n", "@resurrect-processes"),
            None
        );
    }

    #[test]
    fn the_file_tmux_reads_first_that_exists() {
        let env = |k: &str| match k {
            "HOME" => Some("/h".to_string()),
            "XDG_CONFIG_HOME" => Some("/x".to_string()),
            _ => None,
        };
        assert_eq!(target_path(env, |_| false), Some("/h/.tmux.conf".into()));
        let xdg = |p: &Path| p == Path::new("/x/tmux/tmux.conf");
        assert_eq!(target_path(env, xdg), Some("/x/tmux/tmux.conf".into()));
        let both = |p: &Path| p != Path::new("/x/tmux/tmux.conf");
        assert_eq!(target_path(env, both), Some("/h/.tmux.conf".into()));
        assert_eq!(target_path(|_| None, |_| true), None);
    }
}
