//! The quoted and bracketed parts of a word: `'…'`, `"…"`, `$'…'`, backquotes, `$(…)`/`${…}`/fish's
//! `(…)`, and `[[ … ]]`, read to their end as the shell reads them.

use super::{Kind, LexError, Lexer, Tok};

impl Lexer<'_> {
    pub(super) fn unterminated(&self, start: usize, what: &str) -> LexError {
        (start, format!("{what} that is never closed"))
    }

    pub(super) fn single_quoted(&mut self) -> Result<Vec<u8>, LexError> {
        let start = self.i;
        self.i += 1;
        let mut out = Vec::new();
        loop {
            match self.peek(0) {
                None => return Err(self.unterminated(start, "a `'` quote")),
                Some(b'\'') => {
                    self.i += 1;
                    return Ok(out);
                }
                Some(b'\\') if self.fish && matches!(self.peek(1), Some(b'\'' | b'\\')) => {
                    out.push(self.s[self.i + 1]);
                    self.i += 2;
                }
                Some(c) => {
                    out.push(c);
                    self.i += 1;
                }
            }
        }
    }

    pub(super) fn ansi_c_quoted(&mut self) -> Result<Vec<u8>, LexError> {
        self.raw_until(b'\'', "a `$'` quote")
    }

    /// From the opening byte at `self.i` through the first unescaped `close`, as written (a backslash
    /// escapes the next byte); `what` names the quote in the error when it never closes.
    fn raw_until(&mut self, close: u8, what: &str) -> Result<Vec<u8>, LexError> {
        let start = self.i;
        self.i += 1;
        while let Some(c) = self.peek(0) {
            self.i += if c == b'\\' { 2 } else { 1 };
            if c == close {
                return Ok(self.s[start..self.i].to_vec());
            }
        }
        Err(self.unterminated(start, what))
    }

    /// `[[ … ]]` as one word: its `(`, `)`, `<`, `>` and `#` are a test's, not the shell's.
    pub(super) fn test(&mut self) -> Result<(), LexError> {
        let start = self.i;
        let word_end = |s: &[u8], at: usize| {
            s.get(at).is_none_or(|c| {
                matches!(c, b' ' | b'\t' | b'\r' | b'\n' | b';' | b'&' | b'|' | b')')
            })
        };
        if !word_end(self.s, self.i + 2) {
            return self.word();
        }
        self.i += 2;
        while let Some(c) = self.peek(0) {
            match c {
                b'\\' => self.i += 2,
                b'\'' => {
                    self.single_quoted()?;
                }
                b'"' => {
                    self.double_quoted()?;
                }
                b'$' if self.peek(1) == Some(b'(') => {
                    self.i += 1;
                    self.balanced(b'(', b')')?;
                }
                b']' if self.s[self.i..].starts_with(b"]]")
                    && word_end(self.s, self.i + 2)
                    && self.s.get(self.i + 2) != Some(&b')') =>
                {
                    self.i += 2;
                    self.out.push(Tok {
                        kind: Kind::Word,
                        text: "[[ ]]".into(),
                        start,
                        quoted: true,
                    });
                    return Ok(());
                }
                _ => self.i += 1,
            }
        }
        Err(self.unterminated(start, "a `[[`"))
    }

    pub(super) fn double_quoted(&mut self) -> Result<Vec<u8>, LexError> {
        let start = self.i;
        self.i += 1;
        let mut out = Vec::new();
        loop {
            match self.peek(0) {
                None => return Err(self.unterminated(start, "a `\"` quote")),
                Some(b'"') => {
                    self.i += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    if let Some(next) = self.peek(1) {
                        if !matches!(next, b'"' | b'\\' | b'$' | b'`' | b'\n') {
                            out.push(b'\\');
                        }
                        if next != b'\n' {
                            out.push(next);
                        }
                    }
                    self.i += 2;
                }
                Some(b'$') if self.peek(1) == Some(b'(') => {
                    out.push(b'$');
                    self.i += 1;
                    out.extend_from_slice(&self.balanced(b'(', b')')?);
                }
                Some(b'$') if !self.fish && self.peek(1) == Some(b'{') => {
                    out.push(b'$');
                    self.i += 1;
                    out.extend_from_slice(&self.balanced(b'{', b'}')?);
                }
                Some(b'`') if !self.fish => out.extend_from_slice(&self.backquoted()?),
                Some(c) => {
                    out.push(c);
                    self.i += 1;
                }
            }
        }
    }

    pub(super) fn backquoted(&mut self) -> Result<Vec<u8>, LexError> {
        self.raw_until(b'`', "a backquote")
    }

    /// From an `open` at the cursor to its matching `close`, quotes inside read as quotes; as written.
    pub(super) fn balanced(&mut self, open: u8, close: u8) -> Result<Vec<u8>, LexError> {
        let start = self.i;
        let mut depth = 0usize;
        while let Some(c) = self.peek(0) {
            match c {
                b'\\' => self.i += 2,
                b'\'' => {
                    self.single_quoted()?;
                }
                b'"' => {
                    self.double_quoted()?;
                }
                _ if c == open => {
                    depth += 1;
                    self.i += 1;
                }
                _ if c == close => {
                    depth -= 1;
                    self.i += 1;
                    if depth == 0 {
                        return Ok(self.s[start..self.i].to_vec());
                    }
                }
                _ => self.i += 1,
            }
        }
        Err(self.unterminated(start, &format!("a `{}`", open as char)))
    }
}
