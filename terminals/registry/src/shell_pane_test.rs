//! The shell's "am I in a pane a terminal captures" test, generated from the rows: each terminal's
//! [`crate::Row::shell_pane_vars`] names the environment variables that are all non-empty in its panes.
//! The `init` snippets (zsh, bash, fish), the installer's rc line and the opencode plugin (JavaScript,
//! which starts no hook outside a pane) take their condition from here, so a terminal's row changes
//! every one of them and no shell or plugin text names a terminal.
//!
//! The snippets' test is the whole one: some terminal's variables all non-empty. The rc line's is a
//! quicker one, before it even reads the snippet: some terminal's *last* variable non-empty, all of them
//! in one `[ -n "…" ]` (a pane that passes the whole test passes it; the snippet checks the rest).
//!
//! Terminals are tested one variable before two (a disjunction means the same in any order; single
//! variables need no grouping and stop the test soonest), else in the rows' order. A row with no
//! variables has no test the shell can run: it is left out.

/// One terminal's test: these variables are all non-empty.
pub type PaneVars<'a> = &'a [&'a str];

/// Every row's test, the generators' input.
pub fn of_rows() -> Vec<PaneVars<'static>> {
    crate::ROWS.iter().map(|r| r.shell_pane_vars).collect()
}

/// The tests as the generators write them: non-empty ones, fewest variables first.
fn ordered<'a>(tests: &[PaneVars<'a>]) -> Vec<PaneVars<'a>> {
    let mut out: Vec<PaneVars> = tests.iter().copied().filter(|t| !t.is_empty()).collect();
    out.sort_by_key(|t| t.len());
    out
}

/// zsh and bash: `[[ -n ${A-} || ( -n ${B-} && -n ${C-} ) ]]` (`${X-}`: no error under `set -u`).
pub fn zsh_bash(tests: &[PaneVars]) -> String {
    let terms: Vec<String> = ordered(tests)
        .iter()
        .map(|vars| {
            let all: Vec<String> = vars.iter().map(|v| format!("-n ${{{v}-}}")).collect();
            match all.len() {
                1 => all.join(""),
                _ => format!("( {} )", all.join(" && ")),
            }
        })
        .collect();
    match terms.is_empty() {
        true => "false".to_string(),
        false => format!("[[ {} ]]", terms.join(" || ")),
    }
}

/// fish, as lines indented from the first (the caller indents them as its text needs):
/// `test -n "$A"; or test -n "$B"`, a terminal of several variables as an `or begin … end` block.
pub fn fish(tests: &[PaneVars]) -> String {
    let mut lines: Vec<String> = Vec::new();
    let mut last_was_block = false;
    for vars in ordered(tests) {
        let all: Vec<String> = vars.iter().map(|v| format!("test -n \"${v}\"")).collect();
        let or = if lines.is_empty() { "" } else { "or " };
        if let [one] = &all[..] {
            match lines.last_mut() {
                Some(line) if !last_was_block => line.push_str(&format!("; or {one}")),
                _ => lines.push(format!("{or}{one}")),
            }
            last_was_block = false;
        } else {
            lines.push(format!("{or}begin"));
            lines.push(format!("    {}", all.join("; and ")));
            lines.push("end".to_string());
            last_was_block = true;
        }
    }
    match lines.is_empty() {
        true => "false".to_string(),
        false => lines.join("\n"),
    }
}

/// The rc line's quick test for zsh, bash (and `sh`, which reads bash's `~/.profile`):
/// `[ -n "${A-}${C-}" ]`, each terminal's last variable.
pub fn rc_sh(tests: &[PaneVars]) -> String {
    let vars: String = quick(tests).map(|v| format!("${{{v}-}}")).collect();
    format!("[ -n \"{vars}\" ]")
}

/// The same for fish, as `test` operands: `-n "$A$C"`.
pub fn rc_fish(tests: &[PaneVars]) -> String {
    let vars: String = quick(tests).map(|v| format!("${v}")).collect();
    format!("-n \"{vars}\"")
}

/// JavaScript (the opencode plugin, in node): `process.env.A || (process.env.B && process.env.C)`; an
/// unset or empty variable is falsy, as `-n` is false for it.
pub fn javascript(tests: &[PaneVars]) -> String {
    let terms: Vec<String> = ordered(tests)
        .iter()
        .map(|vars| {
            let all: Vec<String> = vars.iter().map(|v| format!("process.env.{v}")).collect();
            match all.len() {
                1 => all.join(""),
                _ => format!("({})", all.join(" && ")),
            }
        })
        .collect();
    match terms.is_empty() {
        true => "false".to_string(),
        false => terms.join(" || "),
    }
}

/// The rc line's variables: each terminal's last.
fn quick<'a>(tests: &[PaneVars<'a>]) -> impl Iterator<Item = &'a str> {
    ordered(tests).into_iter().filter_map(|t| t.last().copied())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_row_of_one_variable_and_one_of_two_are_written_in_each_syntax() {
        let tests: [PaneVars; 3] = [&["AB_SESSION", "AB_PANE"], &["C_PANE"], &[]];
        assert_eq!(
            zsh_bash(&tests),
            "[[ -n ${C_PANE-} || ( -n ${AB_SESSION-} && -n ${AB_PANE-} ) ]]"
        );
        assert_eq!(
            fish(&tests),
            "test -n \"$C_PANE\"\nor begin\n    test -n \"$AB_SESSION\"; and test -n \"$AB_PANE\"\nend"
        );
        assert_eq!(rc_sh(&tests), "[ -n \"${C_PANE-}${AB_PANE-}\" ]");
        assert_eq!(rc_fish(&tests), "-n \"$C_PANE$AB_PANE\"");
        assert_eq!(
            javascript(&tests),
            "process.env.C_PANE || (process.env.AB_SESSION && process.env.AB_PANE)"
        );
        assert_eq!(javascript(&[&[]]), "false");
        // No test at all: never in a pane (a command that fails, not a syntax error).
        assert_eq!(zsh_bash(&[&[]]), "false");
        assert_eq!(fish(&[]), "false");
        assert_eq!(rc_sh(&[]), "[ -n \"\" ]");
    }

    #[test]
    fn blocks_of_several_variables_follow_each_other_on_lines_of_their_own() {
        let tests: [PaneVars; 3] = [&["A", "B"], &["C", "D", "E"], &["F"]];
        assert_eq!(
            fish(&tests),
            "test -n \"$F\"\nor begin\n    test -n \"$A\"; and test -n \"$B\"\nend\nor begin\n    \
             test -n \"$C\"; and test -n \"$D\"; and test -n \"$E\"\nend"
        );
        assert_eq!(
            zsh_bash(&tests),
            "[[ -n ${F-} || ( -n ${A-} && -n ${B-} ) || ( -n ${C-} && -n ${D-} && -n ${E-} ) ]]"
        );
    }
}
