//! The words and operators of an rc file, as far as [`super::scan`] needs them to find an `exec` and the
//! places where a top-level statement begins: quotes, escapes, `$(…)`, `${…}`, backquotes, comments and
//! here-documents are read as the shell reads them (their insides never count as commands); fish's
//! `(…)` command substitutions likewise. What the shells do with the words is not modelled.

mod quotes;

/// What a token is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A word, unquoted (substitutions kept as written).
    Word,
    /// `;`, `;;`, `&`, `&&`, `|`, `||`, `(`, `)`, or `<`/`>` for any redirection.
    Op,
    /// The end of a line; `start` is where the next line begins (after any here-document bodies).
    Newline,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tok {
    pub kind: Kind,
    pub text: String,
    pub start: usize,
    /// A word with any quoting or escape in it (`"if"` is no reserved word).
    pub quoted: bool,
}

/// Why the file could not be read, at which byte.
pub type LexError = (usize, String);

struct Lexer<'a> {
    s: &'a [u8],
    i: usize,
    fish: bool,
    /// Here-documents opened on this line: their delimiter, and whether leading tabs are stripped.
    heredocs: Vec<(String, bool)>,
    out: Vec<Tok>,
}

/// The tokens of `text`, read as sh-family (`fish: false`) or fish syntax.
pub fn tokens(text: &str, fish: bool) -> Result<Vec<Tok>, LexError> {
    let mut lx = Lexer {
        s: text.as_bytes(),
        i: 0,
        fish,
        heredocs: Vec::new(),
        out: Vec::new(),
    };
    lx.run()?;
    Ok(lx.out)
}

impl Lexer<'_> {
    fn peek(&self, ahead: usize) -> Option<u8> {
        self.s.get(self.i + ahead).copied()
    }

    fn op(&mut self, text: &str, len: usize) {
        self.out.push(Tok {
            kind: Kind::Op,
            text: text.into(),
            start: self.i,
            quoted: false,
        });
        self.i += len;
    }

    fn run(&mut self) -> Result<(), LexError> {
        while let Some(c) = self.peek(0) {
            match c {
                b' ' | b'\t' | b'\r' => self.i += 1,
                b'\\' if self.peek(1) == Some(b'\n') => self.i += 2,
                b'\n' => self.newline()?,
                b'#' => {
                    while self.peek(0).is_some_and(|c| c != b'\n') {
                        self.i += 1;
                    }
                }
                b';' if matches!(self.peek(1), Some(b';' | b'&')) => self.op(";;", 2),
                b';' => self.op(";", 1),
                b'&' if self.peek(1) == Some(b'&') => self.op("&&", 2),
                b'&' if self.peek(1) == Some(b'>') => self.redirect(),
                b'&' => self.op("&", 1),
                b'|' if self.peek(1) == Some(b'|') => self.op("||", 2),
                b'|' => self.op("|", 1 + usize::from(self.peek(1) == Some(b'&'))),
                b'(' if !self.fish && self.peek(1) == Some(b'(') => self.word()?,
                b'[' if !self.fish && self.s[self.i..].starts_with(b"[[") => self.test()?,
                b'(' if !self.fish => self.op("(", 1),
                b')' => self.op(")", 1),
                b'<' | b'>' if !self.fish && self.peek(1) == Some(b'(') => {
                    // A process substitution, `<(…)`: a word whose inside runs elsewhere.
                    let start = self.i;
                    self.i += 1;
                    self.balanced(b'(', b')')?;
                    self.out.push(Tok {
                        kind: Kind::Word,
                        text: String::from_utf8_lossy(&self.s[start..self.i]).into_owned(),
                        start,
                        quoted: true,
                    });
                }
                b'<' | b'>' => self.redirect(),
                _ => self.word()?,
            }
        }
        match self.heredocs.first() {
            Some((delimiter, _)) => Err((
                self.s.len(),
                format!("a here-document ends without its `{delimiter}` line"),
            )),
            None => Ok(()),
        }
    }

    /// A line ends: the bodies of the here-documents opened on it are skipped.
    fn newline(&mut self) -> Result<(), LexError> {
        let at = self.i;
        self.i += 1;
        for (delimiter, strip_tabs) in std::mem::take(&mut self.heredocs) {
            loop {
                if self.i >= self.s.len() {
                    return Err((
                        at,
                        format!("a here-document ends without its `{delimiter}` line"),
                    ));
                }
                let end = self.s[self.i..]
                    .iter()
                    .position(|&c| c == b'\n')
                    .map_or(self.s.len(), |p| self.i + p);
                let line = String::from_utf8_lossy(&self.s[self.i..end]);
                let line = line.trim_end_matches('\r');
                let line = if strip_tabs {
                    line.trim_start_matches('\t')
                } else {
                    line
                };
                self.i = (end + 1).min(self.s.len());
                if line == delimiter {
                    break;
                }
            }
        }
        self.out.push(Tok {
            kind: Kind::Newline,
            text: String::new(),
            start: self.i,
            quoted: false,
        });
        Ok(())
    }

    /// A redirection operator; `<<` and `<<-` open a here-document whose delimiter is the next word.
    fn redirect(&mut self) {
        let rest = &self.s[self.i..];
        let heredoc = !self.fish && rest.starts_with(b"<<") && !rest.starts_with(b"<<<");
        let strip_tabs = rest.starts_with(b"<<-");
        let len = rest
            .iter()
            .take_while(|c| matches!(c, b'<' | b'>' | b'&' | b'|' | b'-'))
            .count()
            .max(1);
        self.op("<", len);
        if heredoc {
            while matches!(self.peek(0), Some(b' ' | b'\t')) {
                self.i += 1;
            }
            let start = self.i;
            if let Ok(()) = self.word() {
                if self.out.len() > 1 && self.out.last().is_some_and(|t| t.start == start) {
                    let delimiter = self.out.last().map(|t| t.text.clone()).unwrap_or_default();
                    self.heredocs.push((delimiter, strip_tabs));
                }
            }
        }
    }

    /// A word up to the next blank or operator; an fd number before a redirection is dropped.
    fn word(&mut self) -> Result<(), LexError> {
        let start = self.i;
        let mut text = Vec::new();
        let mut quoted = false;
        while let Some(c) = self.peek(0) {
            match c {
                b' ' | b'\t' | b'\r' | b'\n' | b';' | b'&' | b'|' | b'<' | b'>' => break,
                b')' => break,
                // An array assignment, `a=(x y)`: its words are no commands.
                b'(' if !self.fish && text.ends_with(b"=") => {
                    text.extend_from_slice(&self.balanced(b'(', b')')?)
                }
                b'(' if !self.fish && !text.is_empty() => break,
                b'\\' => {
                    quoted = true;
                    match self.peek(1) {
                        Some(b'\n') => self.i += 2,
                        Some(next) => {
                            text.push(next);
                            self.i += 2;
                        }
                        None => self.i += 1,
                    }
                }
                b'$' if !self.fish && self.peek(1) == Some(b'\'') => {
                    // `$'…'`: backslash escapes, `\'` among them.
                    quoted = true;
                    self.i += 1;
                    let inner = self.ansi_c_quoted()?;
                    text.extend_from_slice(&inner);
                }
                b'\'' => {
                    quoted = true;
                    let inner = self.single_quoted()?;
                    text.extend_from_slice(&inner);
                }
                b'"' => {
                    quoted = true;
                    let inner = self.double_quoted()?;
                    text.extend_from_slice(&inner);
                }
                b'$' if matches!(self.peek(1), Some(b'(')) => {
                    text.push(b'$');
                    self.i += 1;
                    text.extend_from_slice(&self.balanced(b'(', b')')?);
                }
                b'$' if !self.fish && self.peek(1) == Some(b'{') => {
                    text.push(b'$');
                    self.i += 1;
                    text.extend_from_slice(&self.balanced(b'{', b'}')?);
                }
                b'(' => text.extend_from_slice(&self.balanced(b'(', b')')?),
                b'`' if !self.fish => text.extend_from_slice(&self.backquoted()?),
                _ => {
                    text.push(c);
                    self.i += 1;
                }
            }
        }
        let fd_number = !text.is_empty()
            && text.iter().all(u8::is_ascii_digit)
            && matches!(self.peek(0), Some(b'<' | b'>'));
        if !fd_number && self.i > start {
            self.out.push(Tok {
                kind: Kind::Word,
                text: String::from_utf8_lossy(&text).into_owned(),
                start,
                quoted,
            });
        }
        Ok(())
    }
}
