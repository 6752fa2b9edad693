//! Text made safe for a person's terminal: every human-readable output passes what it did not write itself
//! (directory names, terminal session names, argv words, screen titles, error texts) through here.
//!
//! A directory called `$'\e]0;pwned\a'` or a session name holding `\e[2J` would otherwise retitle or wipe
//! the user's terminal when `status` or `restore` prints it. So every control character — C0 (`\0`–`\x1f`),
//! DEL, and C1 (U+0080–U+009F, where a single `\u{9b}` is CSI on some terminals) — is written as a visible
//! escape instead, which also breaks every escape sequence (they all start with ESC or a C1 character).
//! The bidirectional overrides and isolates (U+202A–U+202E, U+2066–U+2069) are escaped too: they do not
//! move the cursor, but they make a line display in another order than it reads.
//!
//! The escapes are `\x1b` for C0 and DEL and `\u{9b}` for the rest, as Rust writes them; a backslash is
//! left alone, so ordinary paths read as they are (a name that really holds the four characters `\x1b`
//! looks the same as an escaped ESC: the output is for reading, JSON stays exact).

use std::borrow::Cow;
use std::fmt::Write as _;
use std::path::Path;

/// Characters that must not reach a terminal raw.
fn is_unsafe(c: char) -> bool {
    c.is_control() || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

fn escape_char(c: char, out: &mut String) {
    let code = u32::from(c);
    if code < 0x80 {
        let _ = write!(out, "\\x{code:02x}");
    } else {
        let _ = write!(out, "\\u{{{code:x}}}");
    }
}

fn escape_where(text: &str, unsafe_here: impl Fn(char) -> bool) -> Cow<'_, str> {
    if !text.chars().any(&unsafe_here) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if unsafe_here(c) {
            escape_char(c, &mut out);
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// `text` with every control character escaped, newlines included: for one value, one table cell, one
/// line.
pub fn printable(text: &str) -> Cow<'_, str> {
    escape_where(text, is_unsafe)
}

/// `text` with every control character escaped except `\n` and `\t` (which only move to the next line
/// or column): for a whole block of lines we composed (a report, a diff, a message of several lines)
/// that holds values from outside.
pub fn printable_lines(text: &str) -> Cow<'_, str> {
    escape_where(text, |c| !matches!(c, '\n' | '\t') && is_unsafe(c))
}

/// Raw bytes for a person: valid UTF-8 runs as [`printable`], every byte that is not UTF-8 as `\xNN`.
pub fn printable_bytes(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    for chunk in bytes.utf8_chunks() {
        out.push_str(&printable(chunk.valid()));
        for b in chunk.invalid() {
            let _ = write!(out, "\\x{b:02x}");
        }
    }
    out
}

/// A path for a person: its bytes as [`printable_bytes`] (never lossy, never raw).
pub fn printable_path(path: &Path) -> String {
    use std::os::unix::ffi::OsStrExt;
    printable_bytes(path.as_os_str().as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn escape_sequences_are_shown_not_run() {
        assert_eq!(
            printable("/w/\u{1b}]0;pwned\u{7}x"),
            r"/w/\x1b]0;pwned\x07x"
        );
        assert_eq!(printable("a\u{1b}[2Jb"), r"a\x1b[2Jb");
        assert_eq!(printable("del\u{7f}"), r"del\x7f");
        assert_eq!(printable("csi\u{9b}31m"), r"csi\u{9b}31m");
        assert_eq!(printable("nel\u{85}"), r"nel\u{85}");
        assert_eq!(printable("two\nlines\r"), r"two\x0alines\x0d");
        assert_eq!(printable("rtl\u{202e}txt"), r"rtl\u{202e}txt");
        assert_eq!(printable_lines("a\n\tb\u{1b}\r"), "a\n\tb\\x1b\\x0d");
    }

    #[test]
    fn clean_text_is_borrowed_unchanged() {
        for clean in ["/home/me/My Projects", "é中😀", "back\\slash", ""] {
            assert!(matches!(printable(clean), Cow::Borrowed(s) if s == clean));
        }
    }

    #[test]
    fn non_utf8_bytes_are_shown_as_hex() {
        use std::ffi::OsStr;
        use std::os::unix::ffi::OsStrExt;
        let p = Path::new(OsStr::from_bytes(b"/w/caf\xe9/\x1b[0m"));
        assert_eq!(printable_path(p), r"/w/caf\xe9/\x1b[0m");
        assert_eq!(printable_bytes(b"ok\xff\xfe"), r"ok\xff\xfe");
    }

    proptest! {
        /// Whatever goes in, nothing a terminal would act on comes out.
        #[test]
        fn output_never_holds_a_control_character(text in "\\PC*|[\\x00-\\x{9f}\\x{202a}-\\x{202e}]*") {
            let out = printable(&text);
            prop_assert!(!out.chars().any(is_unsafe), "{:?}", out);
            let lines = printable_lines(&text);
            prop_assert!(!lines.chars().any(|c| !matches!(c, '\n' | '\t') && is_unsafe(c)));
        }

        #[test]
        fn bytes_never_hold_a_control_character(bytes in proptest::collection::vec(any::<u8>(), 0..64)) {
            let out = printable_bytes(&bytes);
            prop_assert!(!out.chars().any(is_unsafe), "{:?}", out);
        }
    }
}
