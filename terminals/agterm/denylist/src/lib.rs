//! agterm's `restore-denylist.conf`: parsed exactly as agterm parses it, and edited inside our own marker
//! comments so that `claude` and `codex` are not re-run bare by agterm after a restart.
//!
//! agterm's rules (`parseDenylist`, see `research/agterm.md` §4.3): the text is split on `"\n"`; each line
//! is trimmed of Swift's `.whitespaces` (tab and the Unicode space separators, **not** `\r`); empty lines
//! and lines starting with `#` are skipped; every other line is one entry, verbatim, matched exactly and
//! case-sensitively against the basename of `argv[0]`. There are no inline comments. Swift treats `"\r\n"`
//! as one character, so a CRLF line ending does not end a line: we model that, and only ever write LF.
//!
//! If the file is absent at launch agterm seeds it with [`STARTER`]; a file we create stops that seeding, so
//! we always start from the same text.

mod location;

pub use agterm_backup_core::marked_block::{
    appended, body, find_block, lines_with_offsets, BLOCK_END, BLOCK_START,
};

pub use location::{
    config_dir, config_dir_on, default_state_dir, denylist_path, AgtermPlatform,
    AGTERM_STATE_DIR_ENV, FILE_NAME,
};

/// agterm's own starter file (`ensureStarterRestoreDenylist`, unchanged since v0.3.1), written verbatim
/// when the file does not exist yet, so that `tmux`, `screen` and `zellij` stay denylisted.
pub const STARTER: &str = "# restore-denylist.conf \u{2014} programs NOT to re-run when \"Restore running commands on restart\"
# is on. One command name per line, matched on the command's basename. Blank lines and lines
# starting with # are ignored. Read at launch; edits take effect on the next launch.
#
# Terminal multiplexers just start a fresh, empty session when re-run (your old session is gone),
# so they are listed by default \u{2014} delete a line to let it restore:
tmux
screen
zellij
#
# Add anything else you would rather start fresh, e.g. an editor or pager:
# vim
# less
";

/// Why the block is there, for the person who opens the file.
const BLOCK_NOTE: &str =
    "# agterm-backup resumes these agents itself; `agterm-backup installer remove` takes this block out.";

/// The entries we add: agterm must not re-run a bare `claude`/`codex` (that would start a new
/// conversation); agterm-backup types the resume line instead. `kimi-code` is the name Kimi Code gives
/// its process (node's `process.title` overwrites its argv on Linux), which agterm's Linux ports capture
/// and would replay as a command no install has ("command not found").
pub const OUR_ENTRIES: [&str; 3] = ["claude", "codex", "kimi-code"];

/// Swift's `CharacterSet.whitespaces`: tab plus Unicode general category Zs.
fn is_swift_whitespace(c: char) -> bool {
    matches!(
        c,
        '\t' | ' ' | '\u{00A0}' | '\u{1680}' | '\u{2000}'
            ..='\u{200A}' | '\u{202F}' | '\u{205F}' | '\u{3000}'
    )
}

/// The lines agterm sees: split on `\n`, except where the `\n` follows a `\r` (Swift's `"\r\n"` is one
/// character, so it is not a `"\n"` separator).
fn agterm_lines(text: &str) -> Vec<&str> {
    let mut lines = Vec::new();
    let bytes = text.as_bytes();
    let mut start = 0;
    for (i, &b) in bytes.iter().enumerate() {
        if b == b'\n' && !(i > 0 && bytes[i - 1] == b'\r') {
            lines.push(&text[start..i]);
            start = i + 1;
        }
    }
    lines.push(&text[start..]);
    lines
}

/// The entries agterm reads from `text`, in order (duplicates kept).
pub fn parse(text: &str) -> Vec<&str> {
    agterm_lines(text)
        .into_iter()
        .map(|line| line.trim_matches(is_swift_whitespace))
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .collect()
}

/// Whether agterm would refuse to re-run a command whose `argv[0]` has this basename.
pub fn denies(text: &str, basename: &str) -> bool {
    parse(text).contains(&basename)
}

/// Our block, exactly as we write it (LF only, ending with a newline).
pub fn our_block() -> String {
    let mut block = format!("{BLOCK_START}\n{BLOCK_NOTE}\n");
    for entry in OUR_ENTRIES {
        block.push_str(entry);
        block.push('\n');
    }
    block.push_str(BLOCK_END);
    block.push('\n');
    block
}

/// The lines between our markers that are not ours (an entry the user added there), verbatim, with
/// their offsets.
fn foreign_in(text: &str, block: &std::ops::Range<usize>) -> Vec<(usize, String)> {
    let block_text = &text[block.clone()];
    let mut lines: Vec<(usize, &str)> = lines_with_offsets(block_text).collect();
    lines.pop();
    lines
        .into_iter()
        .skip(1)
        .filter(|(_, l)| {
            let b = body(l);
            b != BLOCK_NOTE && !OUR_ENTRIES.contains(&b)
        })
        .map(|(o, l)| {
            let mut l = l.to_string();
            if !l.ends_with('\n') {
                l.push('\n');
            }
            (block.start + o, l)
        })
        .collect()
}

/// `existing` with our block in place: refreshed where it is (lines the user put between our markers
/// stay, after our entries), else appended after one blank line (a missing final newline is added
/// first). An absent file becomes [`STARTER`], a blank line and our block.
pub fn with_our_block(existing: Option<&str>) -> String {
    let block = our_block();
    let Some(text) = existing else {
        return format!("{STARTER}\n{block}");
    };
    if let Some(range) = find_block(text) {
        let foreign: String = foreign_in(text, &range)
            .into_iter()
            .map(|(_, l)| l)
            .collect();
        let mut out = String::with_capacity(text.len());
        out.push_str(&text[..range.start]);
        out.push_str(&block.replacen(
            &format!("{BLOCK_END}\n"),
            &format!("{foreign}{BLOCK_END}\n"),
            1,
        ));
        out.push_str(&text[range.end..]);
        return out;
    }
    appended(text, &block)
}

/// `text` without our block (and without the one blank line we put before it). Everything else stays,
/// lines the user put between our markers included.
pub fn without_our_block(text: &str) -> String {
    let Some(range) = find_block(text) else {
        return text.to_string();
    };
    let foreign: String = foreign_in(text, &range)
        .into_iter()
        .map(|(_, l)| l)
        .collect();
    let mut start = range.start;
    if text[..start].ends_with("\n\n") {
        start -= 1;
    }
    format!("{}{foreign}{}", &text[..start], &text[range.end..])
}

/// Whether `text` holds our block with our entries (and `apply` would change nothing).
pub fn has_our_block(text: &str) -> bool {
    find_block(text).is_some() && with_our_block(Some(text)) == text
}

/// What `apply` keeps of the user's that looks like ours, for the user to hear about.
pub fn notes(text: &str) -> Vec<String> {
    let block = find_block(text);
    let line_of = |offset: usize| text[..offset].matches('\n').count() + 1;
    let mut out: Vec<String> = lines_with_offsets(text)
        .filter(|(here, l)| {
            matches!(body(l), BLOCK_START | BLOCK_END)
                && !block
                    .as_ref()
                    .is_some_and(|b| *here == b.start || here + l.len() == b.end)
        })
        .map(|(here, _)| {
            format!(
                "line {}: a marker line without its pair is kept as your comment; our block is repaired",
                line_of(here)
            )
        })
        .collect();
    if let Some(b) = &block {
        out.extend(foreign_in(text, b).into_iter().map(|(o, l)| {
            format!(
                "line {}: `{}` between our markers is kept as yours",
                line_of(o),
                body(&l).escape_debug()
            )
        }));
    }
    out
}

#[cfg(test)]
mod tests;
