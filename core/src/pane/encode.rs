//! File-name-safe encoding for the terminals' pane keys: lower-case letters, digits, `_` and `-` kept,
//! everything else escaped, long names cut with a hash of the whole, so a key is one safe file name that
//! case-insensitive disks keep apart from every other.

/// Keeps `a-z 0-9 _ -`, writes every other byte as `%XX` (upper-case letters too: `Work` and `work` are
/// two sessions, and two files on a case-insensitive disk only when spelled apart). Beyond `max` bytes
/// the text is cut at a whole escape and `~<hash of the whole name>` appended.
pub fn encode(text: &str, max: usize) -> String {
    let mut out = String::with_capacity(text.len());
    for b in text.bytes() {
        if b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_' || b == b'-' {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}").to_ascii_lowercase());
        }
    }
    if out.is_empty() {
        out.push_str("%00");
    }
    if out.len() > max {
        let mut cut = max - 9;
        // Never split an escape: `%` and its two digits stay together.
        while out.as_bytes()[..cut]
            .iter()
            .rev()
            .take(2)
            .any(|&b| b == b'%')
        {
            cut -= 1;
        }
        out = format!("{}~{:08x}", &out[..cut], fnv1a(text));
    }
    out
}

/// Whether `text` could be one [`encode`]d component: not empty, only what `encode` writes (`a-z 0-9 _ -`,
/// `%` escapes, the `~` before a hash).
pub fn is_encoded(text: &str) -> bool {
    !text.is_empty()
        && text
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b"%_-~".contains(&b))
}

/// 32-bit FNV-1a: stable across releases and platforms (unlike `std`'s hasher).
pub fn fnv1a(text: &str) -> u32 {
    text.bytes().fold(0x811c_9dc5u32, |h, b| {
        (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_cuts_and_hashes_stably() {
        assert_eq!(encode("Work/1", 40), "%57ork%2f1");
        assert_eq!(encode("", 40), "%00");
        let long = encode(&"é".repeat(100), 40);
        assert!(long.len() <= 40 && long.contains('~'), "{long}");
        // FNV-1a's published test vector: the hash is the same in every release and on every platform.
        assert_eq!(fnv1a("a"), 0xe40c_292c);
        assert!(is_encoded(&encode("Work/1 ☕", 40)) && is_encoded(&long));
        assert!(!is_encoded("") && !is_encoded("a.b") && !is_encoded("A"));
    }
}
