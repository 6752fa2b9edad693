//! One pass over an rc file's tokens ([`super::lex`]): where a top-level statement may begin at the start
//! of a line (our block can go there), every `exec` that takes the shell away (not one in a function body,
//! a subshell or a pipeline's other side), and every assignment (`ZDOTDIR=…`, `export SHELL=…`).
//!
//! Compound commands are tracked by their reserved words at command position (`if`…`fi`, `case`…`esac`,
//! `do`…`done`, `{`…`}`, `(`…`)`; fish's `if`/`for`/`while`/`function`/`begin`/`switch`…`end`), so a
//! statement spanning lines is one statement and our block never lands inside it.

use super::lex::{tokens, Kind, LexError, Tok};

/// An `exec` command that replaces the shell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExecAt {
    /// The byte where `exec` stands.
    pub at: usize,
    /// The words after `exec`, redirections left out (`-l`, `zsh`, …).
    pub words: Vec<String>,
    /// Run only on a condition (`[ -x … ] && exec …`, inside an `if`): past it when the exec is not run.
    pub conditional: bool,
}

/// `NAME=value`, bare or after `export`/`typeset`/`declare`/`local`/`readonly` (fish: `set [-gx] NAME v`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Assign {
    pub at: usize,
    pub name: String,
    pub value: String,
}

#[derive(Debug, Default)]
pub struct Scan {
    /// Line starts where a new top-level statement may begin (0 included).
    pub safe: Vec<usize>,
    pub execs: Vec<ExecAt>,
    pub assigns: Vec<Assign>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Frame {
    If,
    Case,
    Do,
    Brace,
    Paren,
    /// fish's blocks, closed by `end`.
    Block,
}

struct Open {
    frame: Frame,
    /// A function body (or a subshell): an `exec` in it does not run as the file is read.
    inert: bool,
}

/// Scans `text` as sh-family or fish syntax.
pub fn scan(text: &str, fish: bool) -> Result<Scan, LexError> {
    let toks = tokens(text, fish)?;
    let mut s = Scanner {
        toks: &toks,
        fish,
        i: 0,
        out: Scan {
            safe: vec![0],
            ..Scan::default()
        },
        stack: Vec::new(),
        command: true,
        continued: false,
        chained: false,
        function_next: false,
        after_else: false,
    };
    while let Some(tok) = toks.get(s.i) {
        s.i += 1;
        match tok.kind {
            Kind::Newline => s.newline(tok),
            Kind::Op => s.op(tok)?,
            Kind::Word => s.word(tok)?,
        }
    }
    if let Some(open) = s.stack.last() {
        let frame = format!("{:?}", open.frame).to_lowercase();
        return Err((
            text.len(),
            format!("a `{frame}` block is still open at the end of the file"),
        ));
    }
    Ok(s.out)
}

/// The walk's state: the token at `i`, the open compound commands, and what the next word is.
struct Scanner<'t> {
    toks: &'t [Tok],
    fish: bool,
    i: usize,
    out: Scan,
    stack: Vec<Open>,
    /// The next word is a command's first (where reserved words count).
    command: bool,
    /// After `&&`, `||` or `|`: a line end does not end the statement.
    continued: bool,
    /// In an `&&`/`||` list (fish: after `and`/`or`): a command there runs on a condition.
    chained: bool,
    /// The next compound command is a function's body.
    function_next: bool,
    /// fish's `else` just read: an `if` after it on the line opens no block.
    after_else: bool,
}

impl Scanner<'_> {
    fn next_is(&self, ahead: usize, kind: Kind, text: &str) -> bool {
        self.toks
            .get(self.i + ahead)
            .is_some_and(|t| t.kind == kind && t.text == text)
    }

    fn top_is(&self, frame: Frame) -> bool {
        self.stack.last().is_some_and(|o| o.frame == frame)
    }

    fn open(&mut self, frame: Frame) {
        let inert = std::mem::take(&mut self.function_next);
        self.stack.push(Open { frame, inert });
    }

    fn close(&mut self, frame: Frame, tok: &Tok) -> Result<(), LexError> {
        match self.stack.pop() {
            Some(open) if open.frame == frame => Ok(()),
            _ => Err((
                tok.start,
                format!("`{}` closes no block opened before it", tok.text),
            )),
        }
    }

    fn newline(&mut self, tok: &Tok) {
        self.after_else = false;
        if !self.continued {
            if self.stack.is_empty() {
                self.out.safe.push(tok.start);
            }
            self.command = true;
            self.chained = false;
        }
    }

    fn op(&mut self, tok: &Tok) -> Result<(), LexError> {
        self.after_else = false;
        self.continued = matches!(tok.text.as_str(), "&&" | "||" | "|");
        match tok.text.as_str() {
            // A redirection's target is no command.
            "<" => {
                self.i += usize::from(self.toks.get(self.i).is_some_and(|t| t.kind == Kind::Word))
            }
            "(" | ")" if self.top_is(Frame::Case) => self.command = true,
            // zsh's anonymous function, `() { … }`: the next compound command is its body.
            "(" if self.command && self.next_is(0, Kind::Op, ")") => {
                self.i += 1;
                self.function_next = true;
            }
            "(" => {
                self.stack.push(Open {
                    frame: Frame::Paren,
                    inert: true,
                });
                self.function_next = false;
                self.command = true;
            }
            ")" => {
                self.close(Frame::Paren, tok)?;
                self.command = false;
            }
            op => {
                self.command = true;
                self.chained = matches!(op, "&&" | "||");
            }
        }
        Ok(())
    }

    fn word(&mut self, tok: &Tok) -> Result<(), LexError> {
        self.continued = false;
        if !self.fish
            && !self.command
            && !tok.quoted
            && tok.text == "}"
            && self.top_is(Frame::Brace)
        {
            // zsh ends a `{ … }` at a `}` after a word (`{ zle backward-word }`).
            self.stack.pop();
            self.command = true;
            return Ok(());
        }
        if !self.command || tok.quoted {
            self.command = false;
            return Ok(());
        }
        if self.top_is(Frame::Case) && self.next_is(0, Kind::Op, ")") {
            // A `case` pattern (`{)`, `fi)`): the arm's command follows the `)`.
            self.i += 1;
            return Ok(());
        }
        let handled = if self.fish {
            self.fish_keyword(tok)?
        } else {
            self.sh_keyword(tok)?
        };
        if !handled {
            self.command_word(tok);
        }
        Ok(())
    }

    /// A reserved word of sh, bash and zsh at command position; `false` when `tok` is none.
    fn sh_keyword(&mut self, tok: &Tok) -> Result<bool, LexError> {
        match tok.text.as_str() {
            "if" => self.open(Frame::If),
            "case" => {
                self.open(Frame::Case);
                self.command = false;
            }
            "do" => self.open(Frame::Do),
            "{" => self.open(Frame::Brace),
            "fi" => self.close(Frame::If, tok)?,
            "esac" => self.close(Frame::Case, tok)?,
            "done" => self.close(Frame::Do, tok)?,
            "}" => self.close(Frame::Brace, tok)?,
            "then" | "else" | "elif" | "while" | "until" | "!" | "time" | "always" => {}
            "for" | "select" => self.command = false,
            "function" => {
                // `function name [name…]`, `function name ()`: the body follows.
                self.function_next = true;
                while self
                    .toks
                    .get(self.i)
                    .is_some_and(|t| t.kind == Kind::Word && t.text != "{")
                {
                    self.i += 1;
                }
                if self.next_is(0, Kind::Op, "(") && self.next_is(1, Kind::Op, ")") {
                    self.i += 2;
                }
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// A fish keyword at command position; `false` when `tok` is none.
    fn fish_keyword(&mut self, tok: &Tok) -> Result<bool, LexError> {
        let word = tok.text.as_str();
        let else_if = std::mem::take(&mut self.after_else) && word == "if";
        match word {
            "if" if else_if => {}
            "else" => self.after_else = true,
            "function" => {
                self.stack.push(Open {
                    frame: Frame::Block,
                    inert: true,
                });
                self.command = false;
            }
            "if" | "for" | "while" | "begin" | "switch" => {
                self.open(Frame::Block);
                self.command = matches!(word, "if" | "begin" | "while");
            }
            "end" => self.close(Frame::Block, tok)?,
            "and" | "or" => self.chained = true,
            "not" | "command" | "builtin" => {}
            "case" => self.command = false,
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// A command's first word: `exec`, an assignment or a declaration, a function's name, any other.
    fn command_word(&mut self, tok: &Tok) {
        let word = tok.text.as_str();
        match word {
            "exec" => {
                let (words, next) = words_until_op(self.toks, self.i);
                self.i = next;
                let inert = self.stack.iter().any(|o| o.inert);
                if !inert && !words.is_empty() {
                    self.out.execs.push(ExecAt {
                        at: tok.start,
                        words,
                        conditional: self.chained || !self.stack.is_empty(),
                    });
                }
            }
            "export" | "typeset" | "declare" | "local" | "readonly" | "set" => {
                let (words, next) = words_until_op(self.toks, self.i);
                self.i = next;
                let fish_set = self.fish && word == "set";
                assignments(&mut self.out, tok.start, &words, fish_set);
            }
            _ if !self.fish && assignment(word).is_some() => {
                assignments(&mut self.out, tok.start, &[word.to_string()], false);
                return;
            }
            // `name () {…}`: the next compound command is a function body.
            _ if self.next_is(0, Kind::Op, "(") && self.next_is(1, Kind::Op, ")") => {
                self.function_next = true;
                self.i += 2;
                return;
            }
            _ => {}
        }
        self.command = false;
    }
}

/// The words from `i` to the next operator or line end, redirections and their targets left out; and
/// the index after them.
fn words_until_op(toks: &[Tok], mut i: usize) -> (Vec<String>, usize) {
    let mut words = Vec::new();
    while let Some(t) = toks.get(i) {
        match (t.kind, t.text.as_str()) {
            (Kind::Op, "<") => {
                i += usize::from(toks.get(i + 1).is_some_and(|t| t.kind == Kind::Word))
            }
            // zsh ends a `{ … }` at a bare `}` after words.
            (Kind::Word, "}") if !t.quoted => break,
            (Kind::Word, _) => words.push(t.text.clone()),
            _ => break,
        }
        i += 1;
    }
    (words, i)
}

fn assignment(word: &str) -> Option<(&str, &str)> {
    let (name, value) = word.split_once('=')?;
    let valid = !name.is_empty()
        && !name.starts_with(|c: char| c.is_ascii_digit())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    valid.then_some((name, value))
}

fn assignments(out: &mut Scan, at: usize, words: &[String], fish_set: bool) {
    if fish_set {
        let mut rest = words.iter().skip_while(|w| w.starts_with('-'));
        if let (Some(name), Some(value)) = (rest.next(), rest.next()) {
            out.assigns.push(Assign {
                at,
                name: name.clone(),
                value: value.clone(),
            });
        }
        return;
    }
    for (name, value) in words.iter().filter_map(|w| assignment(w)) {
        out.assigns.push(Assign {
            at,
            name: name.into(),
            value: value.into(),
        });
    }
}
