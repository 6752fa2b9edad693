//! Claude Code's project slug (the folder name under `~/.claude/projects`), ported exactly.
//!
//! Claude keeps a session's transcript in `<config dir>/projects/<slug of the session's start
//! directory>/<session id>.jsonl`. The hook finds the directory to resume from by comparing candidate
//! directories' slugs with the transcript's parent folder name, so this must match Claude's JavaScript
//! bit for bit (`research/agents.md` §2.1):
//!
//! - every UTF-16 code unit outside `[A-Za-z0-9]` becomes `-` (so an astral character such as an emoji,
//!   two code units in JavaScript, becomes `--`);
//! - a result of at most 200 code units is the slug; a longer one is cut to its first 200, then `-`, then
//!   the absolute value of the Java-style 32-bit hash of the *full original path* in lowercase base 36.

/// Slugs longer than this are cut and suffixed with the hash.
pub const MAX_SLUG_LEN: usize = 200;

/// Claude Code's project slug of `path` (the session's start directory, symlinks already resolved).
pub fn claude_project_slug(path: &str) -> String {
    // After the replacement every unit is ASCII, so units and bytes of the result coincide.
    let slug: String = path
        .encode_utf16()
        .map(|u| match u {
            0x30..=0x39 | 0x41..=0x5A | 0x61..=0x7A => u as u8 as char,
            _ => '-',
        })
        .collect();
    if slug.len() <= MAX_SLUG_LEN {
        return slug;
    }
    format!(
        "{}-{}",
        &slug[..MAX_SLUG_LEN],
        base36(java_string_hash(path).unsigned_abs())
    )
}

/// Java's `String.hashCode` over UTF-16 code units: `h = 31 * h + unit`, wrapping at 32 bits.
pub fn java_string_hash(s: &str) -> i32 {
    s.encode_utf16()
        .fold(0i32, |h, u| h.wrapping_mul(31).wrapping_add(i32::from(u)))
}

/// Lowercase base 36, as JavaScript's `Number.prototype.toString(36)` writes a non-negative integer.
/// (`unsigned_abs` of an `i32` is JavaScript's `Math.abs`, including `i32::MIN` → 2147483648.)
fn base36(mut n: u32) -> String {
    const DIGITS: &[u8; 36] = b"0123456789abcdefghijklmnopqrstuvwxyz";
    if n == 0 {
        return "0".into();
    }
    let mut out = Vec::new();
    while n > 0 {
        out.push(DIGITS[(n % 36) as usize]);
        n /= 36;
    }
    out.reverse();
    String::from_utf8(out).expect("base-36 digits are ASCII")
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn documented_examples() {
        assert_eq!(claude_project_slug("/tmp/p"), "-tmp-p");
        assert_eq!(
            claude_project_slug("/Users/me/my_project.v2"),
            "-Users-me-my-project-v2"
        );
        assert_eq!(claude_project_slug(""), "");
    }

    #[test]
    fn non_ascii_letters_and_emoji_are_replaced_per_utf16_unit() {
        // `é` is one UTF-16 unit, an emoji is two (a surrogate pair).
        assert_eq!(claude_project_slug("/tmp/café"), "-tmp-caf-");
        assert_eq!(claude_project_slug("/tmp/a🚀b"), "-tmp-a--b");
        assert_eq!(claude_project_slug("/数据"), "---");
    }

    #[test]
    fn java_hash_matches_known_values() {
        // Values of Java's "…".hashCode().
        assert_eq!(java_string_hash(""), 0);
        assert_eq!(java_string_hash("a"), 97);
        assert_eq!(java_string_hash("hello"), 99_162_322);
        assert_eq!(java_string_hash("polygenelubricants"), i32::MIN);
    }

    #[test]
    fn base36_matches_javascript() {
        assert_eq!(base36(0), "0");
        assert_eq!(base36(35), "z");
        assert_eq!(base36(36), "10");
        // (2147483648).toString(36) in JavaScript.
        assert_eq!(base36(i32::MIN.unsigned_abs()), "zik0zk");
        assert_eq!(base36(u32::MAX), "1z141z3");
    }

    #[test]
    fn long_paths_are_cut_and_hashed() {
        let path = format!("/{}", "a".repeat(249));
        assert_eq!(path.len(), 250);
        let slug = claude_project_slug(&path);
        let hash = java_string_hash(&path);
        assert_eq!(
            slug,
            format!("-{}-{}", "a".repeat(199), base36(hash.unsigned_abs()))
        );
        assert_eq!(slug.len(), 201 + base36(hash.unsigned_abs()).len());
        // Exactly 200 characters is not cut.
        let at_limit = format!("/{}", "b".repeat(199));
        assert_eq!(
            claude_project_slug(&at_limit),
            format!("-{}", "b".repeat(199))
        );
    }

    #[test]
    fn the_i32_min_hash_is_written_as_its_absolute_value() {
        // A long path whose hash is i32::MIN: Math.abs(-2147483648) is 2147483648 in JavaScript.
        let tail = "polygenelubricants";
        // hash(prefix + tail) = hash(prefix) * 31^len(tail) + hash(tail); pick a prefix hashing to 0.
        // "\0" units hash to 0 at any length, so a prefix of NULs keeps the hash of `tail`.
        let path = format!("{}{tail}", "\0".repeat(220));
        assert_eq!(java_string_hash(&path), i32::MIN);
        let slug = claude_project_slug(&path);
        assert!(slug.ends_with("-zik0zk"), "{slug}");
        assert_eq!(&slug[..200], "-".repeat(200));
    }

    proptest! {
        #[test]
        fn slug_is_ascii_alnum_or_dash_and_bounded(path in "\\PC{0,300}") {
            let slug = claude_project_slug(&path);
            prop_assert!(slug.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-'));
            prop_assert!(slug.len() <= MAX_SLUG_LEN + 1 + 7);
            let units = path.encode_utf16().count();
            if units <= MAX_SLUG_LEN {
                prop_assert_eq!(slug.len(), units);
            }
        }
    }
}
