//! Test doubles of shell frameworks that no package registry carries, each written from its source to
//! reproduce the one mechanism that matters to the shell integration (which descriptors, which hook
//! arrays, in which order). Each names the commit it follows. No code of theirs is copied here.

#![allow(dead_code)]

mod iterm2;
mod oh_my_zsh;
pub use iterm2::iterm2_zsh;
pub use oh_my_zsh::oh_my_zsh;

/// powerlevel10k's instant prompt, as the preamble `p10k` dumps and `~/.zshrc` sources first
/// (romkatv/powerlevel10k 604f19a9eaa18e76db2e60b8d446d5f879065f90, internal/p10k.zsh,
/// `_p9k_dump_instant_prompt`): stdin is parked on /dev/null and stdout/stderr on a temp file while the
/// rc file is read; the saved descriptors come back from a `sched +0` queued by the *first* precmd
/// function (`_p9k_instant_prompt_precmd_first`), which zsh runs after every precmd function (the
/// theme's `_p9k_on_expand` would give them back too, but only as the prompt is expanded, later still).
/// `verbose`: what the rc file printed meanwhile is shown then (quiet mode drops it).
pub fn p10k_instant_prompt(verbose: bool) -> String {
    let show = if verbose {
        "[[ -s $__p9k_instant_prompt_output ]] && command cat $__p9k_instant_prompt_output 2>/dev/null"
    } else {
        ":"
    };
    format!(
        r#"# --- test double: powerlevel10k instant prompt ---
zmodload zsh/system zsh/sched
typeset -g __p9k_instant_prompt_output=${{TMPDIR:-/tmp}}/p10k-instant-prompt-output-$$
: > $__p9k_instant_prompt_output
sysopen -ru __p9k_fd_null /dev/null
exec {{__p9k_fd_0}}<&0 {{__p9k_fd_1}}>&1 {{__p9k_fd_2}}>&2 0<&$__p9k_fd_null 1>$__p9k_instant_prompt_output
exec 2>&1 {{__p9k_fd_null}}>&-
typeset -gi __p9k_instant_prompt_active=1
function _p9k_clear_instant_prompt() {{
  exec 0<&$__p9k_fd_0 1>&$__p9k_fd_1 2>&$__p9k_fd_2 {{__p9k_fd_0}}>&- {{__p9k_fd_1}}>&- {{__p9k_fd_2}}>&-
  unset __p9k_fd_0 __p9k_fd_1 __p9k_fd_2
  {show}
  zshexit_functions=(${{zshexit_functions:#_p9k_instant_prompt_cleanup}})
  rm -f -- $__p9k_instant_prompt_output
}}
function _p9k_instant_prompt_cleanup() {{
  (( ZSH_SUBSHELL == 0 && ${{+__p9k_instant_prompt_active}} )) || return 0
  unset __p9k_instant_prompt_active
  _p9k_clear_instant_prompt
}}
function _p9k_instant_prompt_precmd_first() {{
  function _p9k_instant_prompt_sched_last() {{
    (( ${{+__p9k_instant_prompt_active}} )) || return 0
    _p9k_instant_prompt_cleanup
  }}
  zmodload zsh/sched
  sched +0 _p9k_instant_prompt_sched_last
  precmd_functions=(${{(@)precmd_functions:#_p9k_instant_prompt_precmd_first}})
}}
zshexit_functions=(_p9k_instant_prompt_cleanup $zshexit_functions)
precmd_functions=(_p9k_instant_prompt_precmd_first $precmd_functions)
# --- end of the instant prompt double ---
"#
    )
}

/// powerlevel10k's theme as loaded later in `~/.zshrc` (same commit, `_p9k_init`/`_p9k_precmd`):
/// `_p9k_do_nothing` first and `_p9k_precmd` last in `precmd_functions`, `_p9k_precmd` moving itself back
/// to the end whenever something was appended after it. It leaves the descriptors parked. Counts its runs
/// in `__p9k_precmds`.
/// Here it is sourced *before* the integration's line (the installer appends its block), so at the
/// integration's precmd the descriptors are still parked.
pub fn p10k_theme() -> &'static str {
    r#"# --- test double: powerlevel10k theme ---
typeset -gi __p9k_precmds=0
_p9k_do_nothing() { true; }
_p9k_precmd() {
  (( ++__p9k_precmds ))
  if [[ $precmd_functions[-1] != _p9k_precmd ]]; then
    precmd_functions=(${(@)precmd_functions:#_p9k_precmd} _p9k_precmd)
  fi
}
typeset -ga precmd_functions=(_p9k_do_nothing $precmd_functions _p9k_precmd)
# --- end of the theme double ---
"#
}

/// bash-preexec (rcaloras/bash-preexec 66e913cd9dec25b1399262c8301fb6d637c68e7e, bash-preexec.sh,
/// `__bp_install_prompt_command`, `__bp_precmd_invoke_cmd`), and starship's bash init on top of it the
/// way starship does without bash-preexec (starship/starship 6f33dcec91b758ccbae4ed850eaa6feabff798f9,
/// src/init/starship.bash: the PROMPT_COMMAND it finds is *copied* into `STARSHIP_PROMPT_COMMAND`, run
/// by `eval` from `starship_precmd`, and `PROMPT_COMMAND` becomes `starship_precmd`). bash-preexec
/// encloses PROMPT_COMMAND (a string or an array) between its prologue and epilogue and runs
/// `precmd_functions` from the prologue.
pub fn bash_preexec() -> &'static str {
    r#"# --- test double: starship + bash-preexec ---
starship_precmd() {
  local STARSHIP_CMD_STATUS=$?
  if [[ -n "${STARSHIP_PROMPT_COMMAND-}" ]]; then
    eval "$STARSHIP_PROMPT_COMMAND"
  fi
  PS1='$ '
  return $STARSHIP_CMD_STATUS
}
if [[ -z "${PROMPT_COMMAND-}" ]]; then
  PROMPT_COMMAND="starship_precmd"
elif [[ "$PROMPT_COMMAND" != *"starship_precmd"* ]]; then
  STARSHIP_PROMPT_COMMAND="$PROMPT_COMMAND"
  PROMPT_COMMAND="starship_precmd"
fi
__bp_inside_precmd=0
__bp_use_array_prompt_command() {
  [[ $(declare -p PROMPT_COMMAND 2>/dev/null) == "declare -a"* ]]
}
__bp_precmd_invoke_cmd() {
  __bp_last_ret_value="$?"
  if (( __bp_inside_precmd > 0 )); then return "$__bp_last_ret_value"; fi
  local __bp_inside_precmd=1 precmd_function
  for precmd_function in "${precmd_functions[@]}"; do
    if type -t "$precmd_function" >/dev/null; then "$precmd_function"; fi
  done
  return "$__bp_last_ret_value"
}
__bp_interactive_mode() { __bp_preexec_interactive_mode="on"; }
__bp_install_prompt_command() {
  local prologue='__bp_precmd_invoke_cmd "$_"' epilogue='__bp_interactive_mode'
  PROMPT_COMMAND=$prologue${PROMPT_COMMAND:+$'\n'$PROMPT_COMMAND}
  if __bp_use_array_prompt_command; then
    PROMPT_COMMAND+=("$epilogue")
  else
    PROMPT_COMMAND+=$'\n'$epilogue
  fi
}
declare -a precmd_functions preexec_functions
__bp_install_prompt_command
# --- end of the starship + bash-preexec double ---
"#
}

/// Ghostty's bash shell integration (ghostty-org/ghostty 3b9c4e0ddbe953540243af89cf11fad26f297088,
/// src/shell-integration/bash/ghostty.bash), which Ghostty — and so agterm, whose panes are Ghostty
/// surfaces — loads after the user's rc files: it appends `__ghostty_hook 2>/dev/null` to
/// PROMPT_COMMAND keeping its type (an array gets an element; a string gets `;` unless it already ends
/// in `;` or a newline). The hook counts its runs in `__ghostty_marks` (the real one prints prompt marks).
pub fn ghostty_bash() -> &'static str {
    r#"# --- test double: Ghostty's bash integration ---
__ghostty_hook() { __ghostty_marks=$(( ${__ghostty_marks:-0} + 1 )); }
if [[ ";${PROMPT_COMMAND[*]:-};" != *";__ghostty_hook 2>/dev/null;"* ]]; then
  if [[ -z "${PROMPT_COMMAND[*]}" ]]; then
    PROMPT_COMMAND=("__ghostty_hook 2>/dev/null")
  elif [[ $(builtin declare -p PROMPT_COMMAND 2>/dev/null) == "declare -a "* ]]; then
    PROMPT_COMMAND+=("__ghostty_hook 2>/dev/null")
  else
    [[ "${PROMPT_COMMAND}" =~ (\;[[:space:]]*|$'\n')$ ]] || PROMPT_COMMAND+=";"
    PROMPT_COMMAND+="__ghostty_hook 2>/dev/null"
  fi
fi
# --- end of the Ghostty double ---
"#
}
