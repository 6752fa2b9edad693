//! Test doubles of shell frameworks that no package registry carries, each written from its source to
//! reproduce the one mechanism that matters to the shell integration (which descriptors, which hook
//! arrays, in which order). Each names the commit it follows. No code of theirs is copied here.

#![allow(dead_code)]

mod ble_sh;
mod iterm2;
mod oh_my_zsh;
mod p10k;
pub use ble_sh::ble_sh;
pub use iterm2::iterm2_zsh;
pub use oh_my_zsh::oh_my_zsh;
pub use p10k::{p10k_instant_prompt, p10k_theme};

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
