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
    let mut out = Scan {
        safe: vec![0],
        ..Scan::default()
    };
    let mut stack: Vec<Open> = Vec::new();
    let (mut command, mut continued, mut chained) = (true, false, false);
    let (mut function_next, mut after_else) = (false, false);
    let mut i = 0;
    while let Some(tok) = toks.get(i) {
        i += 1;
        match tok.kind {
            Kind::Newline => {
                after_else = false;
                if !continued {
                    if stack.is_empty() {
                        out.safe.push(tok.start);
                    }
                    command = true;
                    chained = false;
                }
            }
            Kind::Op => {
                after_else = false;
                continued = matches!(tok.text.as_str(), "&&" | "||" | "|");
                match tok.text.as_str() {
                    "<" => i += usize::from(toks.get(i).is_some_and(|t| t.kind == Kind::Word)),
                    "(" | ")" if stack.last().is_some_and(|o| o.frame == Frame::Case) => {
                        command = true;
                    }
                    // zsh's anonymous function, `() { … }`: the next compound command is its body.
                    "(" if command && toks.get(i).is_some_and(|t| t.text == ")") => {
                        i += 1;
                        function_next = true;
                    }
                    "(" => {
                        stack.push(Open {
                            frame: Frame::Paren,
                            inert: true,
                        });
                        function_next = false;
                        command = true;
                    }
                    ")" => {
                        close(&mut stack, &[Frame::Paren], tok)?;
                        command = false;
                    }
                    op => {
                        command = true;
                        chained = matches!(op, "&&" | "||");
                    }
                }
            }
            Kind::Word => {
                continued = false;
                let brace_open = stack.last().is_some_and(|o| o.frame == Frame::Brace);
                if !fish && !command && !tok.quoted && tok.text == "}" && brace_open {
                    // zsh ends a `{ … }` at a `}` after a word (`{ zle backward-word }`).
                    stack.pop();
                    command = true;
                    continue;
                }
                if !command || tok.quoted {
                    command = false;
                    continue;
                }
                let in_case = stack.last().is_some_and(|o| o.frame == Frame::Case);
                if in_case
                    && toks
                        .get(i)
                        .is_some_and(|t| t.kind == Kind::Op && t.text == ")")
                {
                    // A `case` pattern (`{)`, `fi)`): the arm's command follows the `)`.
                    i += 1;
                    continue;
                }
                let inert = stack.iter().any(|o| o.inert);
                let word = tok.text.as_str();
                let else_if = std::mem::take(&mut after_else) && word == "if";
                match (word, fish) {
                    ("if", false) => open(&mut stack, Frame::If, &mut function_next),
                    ("case", false) => {
                        open(&mut stack, Frame::Case, &mut function_next);
                        command = false;
                    }
                    ("do", false) => open(&mut stack, Frame::Do, &mut function_next),
                    ("{", false) => open(&mut stack, Frame::Brace, &mut function_next),
                    ("fi", false) => close(&mut stack, &[Frame::If], tok)?,
                    ("esac", false) => close(&mut stack, &[Frame::Case], tok)?,
                    ("done", false) => close(&mut stack, &[Frame::Do], tok)?,
                    ("}", false) => close(&mut stack, &[Frame::Brace], tok)?,
                    (
                        "then" | "else" | "elif" | "while" | "until" | "!" | "time" | "always",
                        false,
                    ) => {}
                    ("for" | "select", false) => command = false,
                    ("function", _) => {
                        if fish {
                            stack.push(Open {
                                frame: Frame::Block,
                                inert: true,
                            });
                        } else {
                            // `function name [name…]`, `function name ()`: the body follows.
                            function_next = true;
                            while toks
                                .get(i)
                                .is_some_and(|t| t.kind == Kind::Word && t.text != "{")
                            {
                                i += 1;
                            }
                            if toks.get(i).is_some_and(|t| t.text == "(")
                                && toks.get(i + 1).is_some_and(|t| t.text == ")")
                            {
                                i += 2;
                            }
                        }
                        command = !fish;
                    }
                    ("if", true) if else_if => {}
                    ("else", true) => after_else = true,
                    ("if" | "for" | "while" | "begin" | "switch", true) => {
                        open(&mut stack, Frame::Block, &mut function_next);
                        command = word == "if" || word == "begin" || word == "while";
                    }
                    ("end", true) => close(&mut stack, &[Frame::Block], tok)?,
                    ("and" | "or", true) => chained = true,
                    ("not" | "command" | "builtin", true) => {}
                    ("case", true) => command = false,
                    ("exec", _) => {
                        let (words, next) = words_until_op(&toks, i);
                        i = next;
                        let conditional = chained || !stack.is_empty();
                        if !inert && !words.is_empty() {
                            out.execs.push(ExecAt {
                                at: tok.start,
                                words,
                                conditional,
                            });
                        }
                        command = false;
                    }
                    ("export" | "typeset" | "declare" | "local" | "readonly" | "set", _) => {
                        let (words, next) = words_until_op(&toks, i);
                        i = next;
                        assignments(&mut out, tok.start, &words, fish && word == "set");
                        command = false;
                    }
                    _ if assignment(word).is_some() && !fish => {
                        assignments(&mut out, tok.start, &[word.to_string()], false);
                    }
                    _ => {
                        // `name () {…}`: the next compound command is a function body.
                        if toks.get(i).is_some_and(|t| t.text == "(")
                            && toks.get(i + 1).is_some_and(|t| t.text == ")")
                        {
                            function_next = true;
                            i += 2;
                            continue;
                        }
                        command = false;
                    }
                }
            }
        }
    }
    if let Some(open) = stack.last() {
        return Err((
            text.len(),
            format!(
                "a `{:?}` block is still open at the end of the file",
                open.frame
            )
            .to_lowercase(),
        ));
    }
    Ok(out)
}

fn open(stack: &mut Vec<Open>, frame: Frame, function_next: &mut bool) {
    stack.push(Open {
        frame,
        inert: std::mem::take(function_next),
    });
}

fn close(stack: &mut Vec<Open>, frames: &[Frame], tok: &Tok) -> Result<(), LexError> {
    match stack.pop() {
        Some(open) if frames.contains(&open.frame) => Ok(()),
        _ => Err((
            tok.start,
            format!("`{}` closes no block opened before it", tok.text),
        )),
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
