//! Quoting that every login shell reads the same: every token of every line we type or pin goes through
//! [`quote`].
//!
//! The pane's shell may be sh, bash, zsh or fish. Plain POSIX single-quoting (`'it'\''s'`) is not enough:
//! inside single quotes fish still treats `\\` and `\'` as escapes, so `'a\\b'` is `a\b` in fish and
//! `a\\b` in sh, and `'ends in \'` never closes in fish. So a backslash and an apostrophe are always
//! written *outside* the quotes, backslash-escaped (`\\`, `\'`), which all four shells read as the bare
//! character; everything else sits inside single quotes, where none of the four expands anything. No
//! two quoted runs touch (zsh's `RC_QUOTES` would read `''` inside quotes as an apostrophe).

/// Quotes `word` so that sh, bash, zsh and fish all read it as exactly one word holding exactly `word`:
/// `it's` → `'it'\''s'`, `a\b` → `'a'\\'b'`, `` → `''`. Newlines survive quoting but are refused
/// earlier: a typed newline would press Return.
pub fn quote(word: &str) -> String {
    if word.is_empty() {
        return "''".to_string();
    }
    let mut out = String::with_capacity(word.len() + 2);
    let mut open = false;
    for c in word.chars() {
        if c == '\'' || c == '\\' {
            if open {
                out.push('\'');
                open = false;
            }
            out.push('\\');
            out.push(c);
        } else {
            if !open {
                out.push('\'');
                open = true;
            }
            out.push(c);
        }
    }
    if open {
        out.push('\'');
    }
    out
}

/// Quotes each word and joins them with single spaces.
pub fn quote_words<S: AsRef<str>>(words: &[S]) -> String {
    words
        .iter()
        .map(|w| quote(w.as_ref()))
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn apostrophes_and_backslashes_sit_outside_the_quotes() {
        assert_eq!(quote("it's"), r"'it'\''s'");
        assert_eq!(quote(""), "''");
        assert_eq!(quote_words(&["a b", "$x"]), "'a b' '$x'");
        assert_eq!(quote(r"a\b"), r"'a'\\'b'");
        assert_eq!(quote(r"ends\"), r"'ends'\\");
        assert_eq!(quote(r"\'"), r"\\\'");
        assert_eq!(quote("''"), r"\'\'");
    }
}
