//! Our marked block in a file the user owns (a terminal's config or restore denylist, the shell rc
//! files): the markers, where the block sits, and how a block goes into a file that has none. Each
//! file's own rules (what is inside, how its program reads it) stay with the code that writes it.

/// First line of our block.
pub const BLOCK_START: &str = "# >>> agterm-backup >>>";
/// Last line of our block.
pub const BLOCK_END: &str = "# <<< agterm-backup <<<";

/// Where our block sits in `text`: the byte range from the start of the start-marker line to just after
/// the end-marker line (its `\n` included when there is one). `None` when there is no complete block.
/// The first end marker that follows a start marker closes the block, paired with the nearest start
/// above it: a lone marker of either kind is the user's comment and stays outside.
pub fn find_block(text: &str) -> Option<std::ops::Range<usize>> {
    let mut open = None;
    for (here, line) in lines_with_offsets(text) {
        match body(line) {
            BLOCK_START => open = Some(here),
            BLOCK_END => {
                if let Some(start) = open {
                    return Some(start..here + line.len());
                }
            }
            _ => {}
        }
    }
    None
}

/// The lines of `text` with their byte offsets, each with its `\n` (the last may have none).
pub fn lines_with_offsets(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut offset = 0;
    text.split_inclusive('\n').map(move |l| {
        let here = offset;
        offset += l.len();
        (here, l)
    })
}

/// A line without its ending (`\n` or `\r\n`).
pub fn body(line: &str) -> &str {
    line.trim_end_matches('\n').trim_end_matches('\r')
}

/// `text` with `block` appended after one blank line (a missing final newline is added first): how a
/// marked block of ours goes into a file that has none (a denylist, a terminal's config).
pub fn appended(text: &str, block: &str) -> String {
    let mut out = text.to_string();
    if !out.is_empty() && !out.ends_with('\n') {
        out.push('\n');
    }
    if !out.trim().is_empty() {
        out.push('\n');
    }
    out.push_str(block);
    out
}
