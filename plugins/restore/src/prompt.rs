//! Is the pane's prompt line empty? A shell at its prompt may still hold a half-typed command (the user
//! started typing after the restart); a resume line typed then would be appended to it and run as one
//! garbled command. agterm exposes no line-editor state, so this reads the screen's cursor line.
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
    if last.ends_with(PROMPT_ENDS) || ends_with_dir(last, cwd) || ends_with_git_segment(last) {
        return None;
    }
    let earlier = &lines[..lines.len() - 1];
    let repeated = earlier
        .iter()
        .any(|l| l.len() > last.len() && l.starts_with(last) && l[last.len()..].starts_with(' '));
    (!repeated).then(|| last.to_string())
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
        ] {
            assert_eq!(typed_on_prompt(screen, cwd), None, "{screen:?}");
        }
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
        ] {
            assert_eq!(
                typed_on_prompt(screen, cwd).as_deref(),
                Some(left),
                "{screen:?}"
            );
        }
    }
}
