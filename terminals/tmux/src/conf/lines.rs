//! Reading a tmux config's lines outside our block: the line that loads the plugins and the value the
//! user gives an option. Below both the editor ([`super`]) and the hook checks ([`super::checks`]), which
//! read the config the same way.

use agterm_backup_core::marked_block::find_block;

/// The first line outside our block that loads the plugins: its byte offset and its text. TPM's
/// `run[-shell] [-b] '…/tpm/tpm'`, or a `run[-shell]` of tmux-resurrect's or tmux-continuum's `*.tmux`.
pub fn plugin_line(text: &str) -> Option<(usize, &str)> {
    outside_block_lines(text).find(|(_, line)| {
        let line = line.trim_start_matches('\u{feff}');
        let head = line.split_whitespace().next().unwrap_or_default();
        matches!(head, "run" | "run-shell")
            && ["tpm/tpm", "resurrect.tmux", "continuum.tmux"]
                .iter()
                .any(|p| line.contains(p))
    })
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

/// Non-comment lines outside our block, with their byte offsets.
pub fn outside_block_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
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
