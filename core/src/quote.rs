//! POSIX single-quoting: every token of every line we type or pin goes through [`quote`].

/// Quotes `word` for a POSIX shell: `it's` → `'it'\''s'`. Always quotes, so the result is one word whatever
/// the input holds (spaces, `$`, backticks, globs, unicode). Newlines survive quoting but are refused earlier:
/// a typed newline would press Return.
pub fn quote(word: &str) -> String {
    let mut out = String::with_capacity(word.len() + 2);
    out.push('\'');
    for c in word.chars() {
        if c == '\'' {
            out.push_str("'\\''");
        } else {
            out.push(c);
        }
    }
    out.push('\'');
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
    fn quotes_apostrophes() {
        assert_eq!(quote("it's"), "'it'\\''s'");
        assert_eq!(quote(""), "''");
        assert_eq!(quote_words(&["a b", "$x"]), "'a b' '$x'");
    }
}
