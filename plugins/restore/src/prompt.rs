//! Is the pane's prompt line empty? A shell at its prompt may still hold a half-typed command (the user
//! started typing after the restart); a resume line typed then would be appended to it and run as one
//! garbled command. A terminal exposes no line-editor state, so this reads the screen's cursor line.
//!
//! The last non-blank line of the visible screen is the prompt line. It is *empty* when it ends where
//! prompts end:
//! - a prompt character: `$ % # > ❯ ➜ » λ › ➤` (bash, zsh, fish, starship, powerlevel10k, …);
//! - the directory, for prompts that end with it (oh-my-zsh's default `➜  api`): the basename of the
//!   pane's cwd, or `~`;
//! - a git segment `git:(main)` / `(main) ✗` / `✔` (oh-my-zsh themes);
//! - or it repeats the start of an earlier line on the screen that went on with a command (the same
//!   prompt, before a command the user ran).
//!
//! Those endings count only for what follows the line's last prompt character followed by a space
//! (`me@host:~/api$ cd ~` ends in `~` yet holds `cd ~`), where one word far to the right is a right
//! prompt (zsh's `RPROMPT`). A continuation prompt (`> `, zsh's `dquote> `) holds an open command.
//!
//! Anything else is taken as text typed after the prompt. An unusual prompt therefore makes restore
//! refuse with the line shown (the user can clear it and run restore again) — never append to it.

/// Characters prompts end with.
const PROMPT_ENDS: &[char] = &['$', '%', '#', '>', '❯', '➜', '»', 'λ', '›', '➤', '✗', '✔'];

/// `None` when the prompt line is empty; else the text on it, for the message.
pub fn typed_on_prompt(screen: &str, cwd: Option<&str>) -> Option<String> {
    let lines: Vec<&str> = screen
        .lines()
        .map(str::trim_end)
        .filter(|l| !l.is_empty())
        .collect();
    let last = *lines.last()?;
    // A continuation prompt holds an open command; a lone `~` is vim's filler for lines past the end
    // of the buffer (a `sudo vim` the terminal cannot see into), never a prompt of its own.
    if is_continuation(last) || last.trim() == "~" {
        return Some(last.to_string());
    }
    let empty = match after_prompt_char(last) {
        Some(tail) => prompt_only(tail, cwd),
        // No prompt character with anything after it: the line is all prompt if it ends like one.
        None => {
            last.ends_with(PROMPT_ENDS) || ends_with_dir(last, cwd) || ends_with_git_segment(last)
        }
    };
    if empty {
        return None;
    }
    let earlier = &lines[..lines.len() - 1];
    let repeated = earlier
        .iter()
        .any(|l| l.len() > last.len() && l.starts_with(last) && l[last.len()..].starts_with(' '));
    (!repeated).then(|| last.to_string())
}

/// The prompt line ends in `#`, the mark sh, bash (`\$`) and zsh (`%#`) give root's prompt: a root
/// shell (`sudo -i`, `su`) holds the pane, which the terminal cannot see into. Restore run by another user
/// must not start an agent there, as root.
pub fn root_prompt(screen: &str) -> bool {
    screen
        .lines()
        .map(str::trim_end)
        .rfind(|l| !l.is_empty())
        .is_some_and(|l| l.ends_with('#'))
}

/// The words of zsh's default `PS2` (`%_> `): the parser states a command can be left open in.
const ZSH_OPEN_STATES: &[&str] = &[
    "always",
    "array",
    "brace",
    "braceparam",
    "bquote",
    "case",
    "cmdand",
    "cmdor",
    "cmdsubst",
    "cursh",
    "dquote",
    "elif",
    "else",
    "for",
    "foreach",
    "function",
    "heredoc",
    "heredocd",
    "if",
    "math",
    "mathsubst",
    "pipe",
    "quote",
    "repeat",
    "select",
    "subsh",
    "then",
    "until",
    "while",
];

/// The shell's continuation prompt (bash's and sh's `> `, zsh's `dquote> `, `for quote> `, …): the user
/// typed the first lines of a command that is still open, so anything typed now would become part of it.
fn is_continuation(line: &str) -> bool {
    line.trim_start().strip_suffix('>').is_some_and(|words| {
        words
            .split_whitespace()
            .all(|w| ZSH_OPEN_STATES.contains(&w))
    })
}

/// What follows the last prompt character that is followed by a space, when the line has one: the
/// prompt proper ends there, and anything after it other than more prompt (a directory, a git segment,
/// a right prompt) is typed text. `me@host:~/api$ cd ~` ends like a prompt, yet holds `cd ~`.
fn after_prompt_char(line: &str) -> Option<&str> {
    let (i, c) = line.char_indices().rev().find(|&(i, c)| {
        PROMPT_ENDS.contains(&c) && line[i + c.len_utf8()..].starts_with(char::is_whitespace)
    })?;
    Some(&line[i + c.len_utf8()..])
}

/// `tail` holds nothing but prompt: empty, prompt characters, the directory or a git segment, or one word
/// far to the right (zsh's `RPROMPT`, fish's right prompt, starship's `right_format`).
fn prompt_only(tail: &str, cwd: Option<&str>) -> bool {
    let rest = tail.trim();
    if rest.is_empty() || rest.chars().all(|c| PROMPT_ENDS.contains(&c) || c == ' ') {
        return true;
    }
    let right_prompt = tail.trim_end().starts_with("    ") && !rest.contains(' ');
    right_prompt || is_dir(rest, cwd) || is_dir_and_git_segment(rest, cwd)
}

/// `word` is the directory a prompt shows: `~`, or a path or name ending in the cwd's basename.
fn is_dir(word: &str, cwd: Option<&str>) -> bool {
    !word.contains(' ') && (word == "~" || ends_with_dir(&format!(" {word}"), cwd))
}

/// `api git:(main)`, `api git:(main) ✗`, `~ (main)`: a directory, then a git segment. With oh-my-zsh's
/// `git:(…)` the word before it is taken as the directory also when the pane's cwd is unknown.
fn is_dir_and_git_segment(rest: &str, cwd: Option<&str>) -> bool {
    let rest = rest.trim_end_matches(PROMPT_ENDS).trim_end();
    let Some((dir, git)) = rest.split_once(' ') else {
        return ends_with_git_segment(rest);
    };
    let segment = !git.contains(' ') && git.ends_with(')');
    segment && (is_dir(dir, cwd) || (!dir.contains(' ') && ends_with_git_segment(git)))
}

fn ends_with_dir(line: &str, cwd: Option<&str>) -> bool {
    if line.ends_with('~') {
        return true;
    }
    let Some(base) = cwd
        .map(|c| c.trim_end_matches('/'))
        .and_then(|c| c.rsplit('/').next())
    else {
        return false;
    };
    !base.is_empty()
        && line
            .strip_suffix(base)
            .is_some_and(|rest| rest.ends_with([' ', '/', ':']))
}

fn ends_with_git_segment(line: &str) -> bool {
    line.ends_with(')') && line.rfind('(').is_some_and(|i| line[..i].ends_with("git:"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bare_prompts_are_empty() {
        for (screen, cwd) in [
            (
                "Last login: Mon\nme@host:~/src/api$ ",
                Some("/home/me/src/api"),
            ),
            ("root@box:/# ", None),
            ("host% ", None),
            ("me@host ~/api> ", None),
            ("\n~/api\n❯ ", None),
            ("➜  api ", Some("/home/me/api")),
            ("➜  api git:(main) ✗ ", Some("/home/me/api")),
            ("➜  api git:(main) ", Some("/home/me/api")),
            ("➜  ~ ", Some("/home/me")),
            ("[me@box api]$ ", None),
            ("", None),
            ("\n\n", None),
            ("api :: ls\nfoo bar\napi ::", None),
            (
                "host%                                   ~/api",
                Some("/home/me/api"),
            ),
            ("~/api ❯                                 10:42:01", None),
            (
                "me@host:~/api$                          (main)",
                Some("/home/me/api"),
            ),
            ("85% ❯ ", None),
            ("me ~/api (main) ❯ ", Some("/home/me/api")),
            ("[~/src] % ", None),
            ("   $ ", None),
            ("➜  api git:(main) ", None),
            ("➜  api git:(main) ✗ ", None),
            ("  ~/api git:(main)", Some("/home/me/api")),
        ] {
            assert_eq!(typed_on_prompt(screen, cwd), None, "{screen:?}");
        }
    }

    #[test]
    fn a_root_prompt_is_told_apart() {
        assert!(root_prompt("me@host:~$ sudo -i\nroot@host:~# "));
        assert!(root_prompt("[root@box api]#\n\n"));
        assert!(!root_prompt("root@box:~# ls\nfile\nme@host:~$ "));
        assert!(!root_prompt("host% "));
        assert!(!root_prompt(""));
    }

    #[test]
    fn text_after_the_prompt_is_not_empty() {
        for (screen, cwd, left) in [
            (
                "me@host:~/api$ git sta",
                Some("/home/me/api"),
                "me@host:~/api$ git sta",
            ),
            ("$ echo half", None, "$ echo half"),
            ("❯ vim notes", None, "❯ vim notes"),
            ("➜  api make te", Some("/home/me/api"), "➜  api make te"),
            ("host% rm -rf build/", None, "host% rm -rf build/"),
            // Typed text that ends like a prompt: a directory, `~`, a redirection, a comment.
            (
                "me@host:~/api$ cd ~",
                Some("/home/me/api"),
                "me@host:~/api$ cd ~",
            ),
            (
                "$ cd /home/me/api",
                Some("/home/me/api"),
                "$ cd /home/me/api",
            ),
            ("❯ make 2>", None, "❯ make 2>"),
            ("host% echo 100%", None, "host% echo 100%"),
            (
                "➜  api git:(main) ✗ ls ~",
                Some("/home/me/api"),
                "➜  api git:(main) ✗ ls ~",
            ),
            // A right prompt stays on the line while the user types.
            (
                "host% git sta                          ~/api",
                Some("/home/me/api"),
                "host% git sta                          ~/api",
            ),
            // A command still open on a continuation prompt.
            ("$ echo \"half\n> ", None, ">"),
            ("host% for f in *\nfor> ", None, "for>"),
            ("host% echo 'a\ndquote> ", None, "dquote>"),
            // vim with an empty buffer: its filler lines end with `~` like a home-directory prompt.
            ("\n~\n~\n~\n", Some("/home/me"), "~"),
        ] {
            assert_eq!(
                typed_on_prompt(screen, cwd).as_deref(),
                Some(left),
                "{screen:?}"
            );
        }
    }
}
